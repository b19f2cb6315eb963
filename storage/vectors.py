"""LanceDB index of texts (passages, turns, episodes, recipes): vector and BM25 search.

Every read and write names its user, and the user filter runs inside LanceDB (a
prefilter), never in Python afterwards. A search leaves out a filter every row passes:
the user filter when the table holds that user alone, the kind filter when it asks for
every kind the table holds. The queries themselves are in ``lance_queries``.

Each table records the embedding model that built it; adding or vector-searching with
another model is refused, since vectors of two models are not comparable. Hybrid search
is our own reciprocal-rank fusion (RRF) of the vector and full-text routes.

Upkeep of each table's indices is in ``lance_upkeep``.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Any

# LanceDB's own log would print its warnings (a missing index file, with Rust source
# locations) to stderr beside our one line; set before lancedb loads.
os.environ.setdefault("LANCEDB_LOG", "error")

import lancedb  # noqa: E402
import numpy as np
import pyarrow as pa
from lancedb.background_loop import LOOP
from lancedb.table import Table

from memvisor.errors import StorageError, UserError

from . import lance_upkeep as upkeep
from .clock import to_utc
from .embedders import Embedder
from .fts_reach import may_share_words
from .index_rows import IndexRows
from .index_tables import TableNames, damage, short
from .lance_queries import (
    Ranked,
    bm25_ids,
    bm25_result,
    fts_words,
    quote,
    search_filter,
    start_query,
    user_filter,
    vector_ids,
)
from .lance_upkeep import TableState
from .logger import logger
from .native_memory import release_freed
from .reconcile_marks import Mark, ReconcileMarks, rows_digest
from .unfolded_vectors import merged, vector_matrix
from .users import require_user
from .vector_graphs import VectorGraphs

MODES = ("vector", "fts", "hybrid")
# A search of some kinds asks a user's vector graph for this many times its limit, and keeps
# the rows of those kinds; too few, and LanceDB's query (filtered inside) answers instead.
KIND_OVERSAMPLE = 4
RRF_K = 60
_TABLE_NAME = re.compile(r"^[a-z][a-z0-9_]{0,63}$")
_MODEL_KEY = b"memvisor.embed_model"
_COLUMNS = ["id", "user_id", "kind", "text", "ts", "session_id", "trace_id", "meta"]
# Stable row ids: a fold's compaction then leaves the indices' row ids as they are instead
# of remapping every index (fold 1,251 -> 913 ms at 100k rows of 1,000 users, 213 -> 128 ms
# at 10k). LanceDB can only set this when it creates a table: older ones keep remapping
# until ``memvisor memory reindex`` writes them anew.
_NEW_TABLES = {"new_table_enable_stable_row_ids": "true"}
_TEXT_FIELDS = ("id", "user_id", "kind", "text", "session_id", "trace_id", "meta", "embed_model")


@dataclass(frozen=True)
class IndexedText:
    id: str
    user_id: str
    text: str
    kind: str  # "passage" | "turn" | "episode" | "recipe" | ...
    ts: datetime  # aware UTC
    session_id: str | None = None
    trace_id: str | None = None
    meta: dict[str, Any] = field(default_factory=dict)  # stored as a JSON string
    # Read by the vector route only, after ``text``: a turn's is the turn before it in its
    # session (``index_items.turn_items``). Not stored; the words route and hits hold ``text``.
    context: str = ""
    # The id of the record whose text ``context`` is: when that text changes, this item's
    # vector must be made again (``IndexSync`` reconciles both).
    context_of: str | None = None

    @property
    def embedded(self) -> str:
        """What the item's vector is made of: its text, then its context."""
        return f"{self.text}\n{self.context}" if self.context else self.text


@dataclass(frozen=True)
class SearchHit:
    id: str
    kind: str
    text: str
    score: float  # higher is better; comparable only within one route
    route: str  # "vector" | "fts" | "hybrid"
    ts: datetime
    session_id: str | None
    trace_id: str | None
    meta: dict[str, Any]


@dataclass(frozen=True)
class RouteHits:
    vector: list[SearchHit]
    fts: list[SearchHit]  # score: BM25
    exact: list[SearchHit] = field(default_factory=list)  # rows holding a needle


class VectorIndex:
    """Texts and their embeddings in one LanceDB directory, one table per record kind.

    Thread-safe: opening, creating and writing tables, and this process's copy of their
    rows, are serialised by one lock; queries run outside it.
    """

    def __init__(self, path: Path, embedder: Embedder, *, reproducible: bool = False) -> None:
        """``reproducible``: a search waits for a fold under way, so that the same writes
        always rank the same (replays and evals; LanceDB scores BM25 of rows not yet folded
        with other statistics). Otherwise a search reads the table as it was before the fold
        (0.3-0.5 s at 100k rows) and goes on."""
        self.path = Path(path)
        self.embedder = embedder
        self.reproducible = reproducible
        try:
            self.path.mkdir(parents=True, exist_ok=True)
            self._db = lancedb.connect(self.path, storage_options=_NEW_TABLES)
        except OSError as exc:
            raise StorageError(f"cannot open the vector index at {self.path}: {exc}") from exc
        self._names = TableNames(self.path)
        self._lock = threading.RLock()
        self._tables: dict[str, TableState] = {}
        self._rows = IndexRows(self._read_rows)
        # LanceDB writes (appends, deletes, folds, swaps) one at a time, taken before
        # ``_lock``: a fold holds it for long, and searches, which take only ``_lock``,
        # go on meanwhile.
        self._write_lock = threading.RLock()
        self._folding: threading.Thread | None = None
        # Searches reading a table's own handle: a fold pins a view for later ones, then
        # waits for these to finish before it moves the table on.
        self._main_reads = 0
        self._main_reads_done = threading.Condition(self._lock)
        self._marks = ReconcileMarks(self.path)
        self._unmarked: set[str] = set()  # tables whose mark this process has dropped
        self._graphs = VectorGraphs(self.path, reproducible=reproducible)

    def add(self, table: str, items: Sequence[IndexedText], *, user_id: str) -> None:
        """Embed and store ``items``; an id this user already has is replaced."""
        self.add_many(table, {require_user(user_id): items})

    def add_many(self, table: str, by_user: Mapping[str, Sequence[IndexedText]]) -> None:
        """``add`` for several users at once: one embedding batch and one LanceDB append
        (an append costs ~5 ms whatever its size, and each is a fragment to fold later)."""
        batches = {
            user_id: batch
            for user_id, items in by_user.items()
            if (batch := _batch(table, items, require_user(user_id)))
        }
        if not batches:
            return
        with self._lock:
            state = self._state(table)
            if state is not None:
                self._check_model(table, state)
        flat = [item for batch in batches.values() for item in batch]
        data = self._embed(flat)  # outside the locks: searches need not wait for it
        self._wait_for_fold()  # whether these rows are folded must not depend on timing
        with self._write_lock, self._lock:
            self._unmark(table)
            state = self._state(table)
            try:
                for user_id, batch in batches.items():
                    # a re-added id replaces its row; new ids (most adds) skip the look-up
                    ids = [item.id for item in batch]
                    if state is not None and self._rows.may_hold(table, user_id, ids):
                        with _lance(table, "write to"):
                            self._delete_ids(state.table, ids, user_id)
                        if state.unfolded is not None:
                            state.unfolded = state.unfolded.without(user_id, set(ids))
                state = self._write(table, self._names.current(table), state, data)
            except StorageError:
                self._rows.forget(table)  # whatever reached the disk is read again
                self._graphs.forget(table)  # and built again
                if (known := self._tables.get(table)) is not None:
                    known.unfolded = None  # nor is it known which rows the index lacks
                raise
            if state.unfolded is not None:
                state.unfolded = state.unfolded.appended(data)
            self._tables[table] = state
            self._rows.added(table, data.select(_COLUMNS))
            self._graphs.added(table, data)
            fold = upkeep.after_add(table, state, len(flat))
        if fold:
            self._fold_later(table)

    def _fold_later(self, table: str) -> None:
        """Fold appended rows into the indices on a thread of its own: the write that
        appended them does not wait (~0.4 s at 100k rows), and the rest of the turn goes on
        meanwhile; the next search or write waits for it (``_wait_for_fold``)."""
        with self._lock:
            if self._folding is not None and self._folding.is_alive():
                return
            self._folding = threading.Thread(
                target=self._fold, args=(table,), name="memvisor-index-fold", daemon=True
            )
            self._folding.start()

    def _fold(self, table: str) -> None:
        with self._write_lock:
            with self._lock:
                state = self._tables.get(table)
            if state is None:
                return
            try:
                if not self.reproducible:
                    self._pin(table, state)
                upkeep.optimize(state)
            except (OSError, RuntimeError, ValueError, StorageError) as exc:
                # The rows are stored and flat-searchable; the next fold tries again.
                logger.warning("vector table {!r}: index upkeep failed: {}", table, short(exc))
            finally:
                with self._lock:
                    state.pinned = None

    def _pin(self, table: str, state: TableState) -> None:
        """Searches from now on read ``state``'s table as it is; once those that read its own
        handle are done, the fold may move it on."""
        with _lance(table, "open"):
            view = upkeep.pinned_view(self._db.open_table(self._names.current(table)), state)
        with self._lock:
            state.pinned = view
            while self._main_reads:
                self._main_reads_done.wait()

    def _enter_read(self, state: TableState) -> upkeep.ReadView:
        """The view one search reads through; the caller holds the lock, and calls
        ``_leave_read`` once the search is done."""
        view = state.view()
        self._main_reads += view.main
        return view

    def _leave_read(self, view: upkeep.ReadView) -> None:
        if view.main:
            with self._lock:
                self._main_reads -= 1
                self._main_reads_done.notify_all()

    def close(self) -> None:
        """Wait for a fold under way: its files must be whole before the store goes; stop
        the graph builds under way."""
        self._wait_for_fold()
        self._graphs.close()

    def vector_engine(self, table: str, *, user_id: str) -> str:
        """What answers this user's vector route now: their in-memory ``graph`` or
        ``lancedb`` (benches print it beside the floor)."""
        return "graph" if self._graphs.has(table, require_user(user_id)) else "lancedb"

    def wait_for_graphs(self) -> float:
        """Seconds spent waiting for the vector graphs being built (benches, before timing)."""
        return self._graphs.wait()

    def _wait_for_fold(self) -> None:
        """Until a fold under way has committed. A reproducible search waits for it so that
        it ranks the same rows the same way whatever the thread's timing: LanceDB scores BM25
        of rows not yet folded with other statistics than of folded ones (a fold moved a
        row's score from 2.45 to 2.47 and reordered the fifth hit), which made the same
        session page in different memories from run to run."""
        with self._lock:
            folding = self._folding
        if folding is not None and folding is not threading.current_thread():
            folding.join()

    def clean_mark(self, table: str) -> Mark | None:
        """The mark of the last clean close, if the table is still at the version it
        describes (``reconcile_marks``); None whenever in doubt."""
        with self._lock:
            mark = self._marks.get(table)
            if mark is None or table in self._unmarked:
                return None
            return mark if mark.version == self._version(table) else None

    def mark_clean(self, table: str) -> None:
        """Record the table's version and a digest of the rows it holds, for the next
        process to trust instead of reconciling; the caller knows they match the records.
        A mark this process found true and never changed the table under stays as it is.
        The table's vector graphs are saved with its version."""
        with self._write_lock, self._lock:
            if (mark := self.clean_mark(table)) is not None:
                self._graphs.save(table, mark.version)
                return  # the same version holds the same rows: no digest to take again
            version = self._version(table)
            if version is None:
                return
            self._graphs.save(table, version)
            rows = self._rows.iter_texts(table)
            digest = rows_digest((u, i, text_revision(t)) for u, i, t in rows)
            self._marks.put(table, Mark(version, digest))
            self._unmarked.discard(table)

    def _version(self, table: str) -> str | None:
        state = self._state(table)
        if state is None:
            return None
        with _lance(table, "read"):
            return f"{self._names.current(table)}@{state.table.version}"

    def _unmark(self, table: str) -> None:
        """Before this process first changes ``table``: a crash from here on must leave no
        mark saying it is as it was."""
        if table not in self._unmarked:
            self._marks.drop(table)
            self._unmarked.add(table)

    def replace(self, table: str, batches: Iterable[tuple[str, Sequence[IndexedText]]]) -> None:
        """Build ``table`` anew from ``batches`` (user, items) under a fresh name, and swap
        it in only when complete: a failure on the way leaves the old table in use."""
        _check_table_name(table)
        # Unlocked while it builds: the new table is this call's alone, and ``batches``
        # may read the records (a writer holding the database's lock may wait on ours).
        name = self._names.fresh(table)
        state: TableState | None = None
        try:
            for user_id, items in batches:
                batch = _batch(table, items, require_user(user_id))
                if batch:
                    state = self._write(table, name, state, self._embed(batch))
            if state is not None:
                with _lance(table, "index"):
                    upkeep.optimize(state)
        except BaseException:
            self._drop_quietly(name)
            raise
        with self._write_lock, self._lock:
            self._unmark(table)
            old = self._names.current(table)
            try:
                self._names.swap(table, name if state is not None else None)
            except OSError as exc:
                self._drop_quietly(name)
                message = f"cannot swap in the rebuilt vector table {table!r}: {exc}"
                raise StorageError(message) from exc
            self._tables.pop(table, None)
            self._rows.forget(table)
            self._graphs.forget(table, files=True)
            if state is not None:
                self._tables[table] = state
            # the old table, and any a crash or a failed drop left behind
            for stale in {old, table, *self._builds_of(table)} - {name}:
                self._drop_quietly(stale)

    def delete(self, table: str, ids: Sequence[str], *, user_id: str) -> int:
        """Remove this user's rows with these ids; rows of other users are never touched."""
        user_id = require_user(user_id)
        self._wait_for_fold()
        with self._write_lock, self._lock:
            state = self._state(table)
            if state is None or not ids:
                return 0
            self._unmark(table)
            unfolded, state.unfolded = state.unfolded, None  # unknown, should the delete fail
            try:
                with _lance(table, "delete from"):
                    deleted = self._delete_ids(state.table, list(ids), user_id)
            finally:
                self._rows.deleted(table, user_id, ids)
                self._graphs.deleted(table, user_id, ids)
            state.unfolded = None if unfolded is None else unfolded.without(user_id, set(ids))
            return deleted

    def drop(self, table: str) -> None:
        """Delete the whole table, every user's rows, unread (a missing one is fine).

        Its model is never checked: this is how an index of another model goes away.
        """
        _check_table_name(table)
        with self._write_lock, self._lock:
            self._unmark(table)
            self._tables.pop(table, None)
            self._rows.forget(table)
            self._graphs.forget(table, files=True)
            name = self._names.current(table)
            self._drop_table(name)
            if name != table:
                self._names.swap(table, None)

    def optimize(self, table: str) -> None:
        """Compact the table and fold appended rows into its indices, now."""
        with self._write_lock, self._lock:
            state = self._state(table)
            if state is not None:
                with _lance(table, "optimize"):
                    upkeep.optimize(state)

    def search(
        self,
        table: str,
        query: str,
        *,
        user_id: str,
        mode: str = "hybrid",
        limit: int = 10,
        kinds: Sequence[str] | None = None,
        query_vector: np.ndarray | None = None,
    ) -> list[SearchHit]:
        """This user's best ``limit`` hits by vector, BM25 or both fused by RRF."""
        return search_by_mode(
            self.routes, table, query, user_id=user_id, mode=mode, limit=limit, kinds=kinds,
            query_vector=query_vector,
        )  # fmt: skip

    def routes(
        self,
        table: str,
        query: str,
        *,
        user_id: str,
        limit: int = 10,
        kinds: Sequence[str] | None = None,
        query_vector: np.ndarray | None = None,
        vector: bool = True,
        fts: bool = True,
        needles: Sequence[str] = (),
    ) -> RouteHits:
        """The vector and the BM25 route, each this user's best ``limit``, run concurrently.

        The BM25 queries start first and run in LanceDB's event loop while this thread
        embeds the query; then the vector query runs. One event-loop hop per query. Rows
        appended since the last fold are scored here, not flat-scanned by LanceDB
        fragment by fragment (``unfolded_vectors``). ``needles`` (identifiers: codes,
        emails, numbers) each get a BM25 query with every word required; a row they find
        counts only if its text holds the needle itself, any case (a substring scan took
        ~30 ms at 100k rows).
        """
        user_id = require_user(user_id)
        kinds = [kinds] if isinstance(kinds, str) else kinds
        if self.reproducible:
            self._wait_for_fold()
        with self._lock:
            state = self._state(table)
            if state is None or limit < 1 or (kinds is not None and not kinds):
                return RouteHits([], [])
            if user_id not in state.users:
                return RouteHits([], [])
            where = search_filter(state.users, state.kinds, user_id, kinds)
            view = self._enter_read(state)
        try:
            return self._read_routes(
                table, state, view, query, user_id, where, kinds, limit, query_vector, vector,
                fts, needles,
            )  # fmt: skip
        finally:
            self._leave_read(view)

    def _read_routes(
        self,
        table: str,
        state: TableState,
        view: upkeep.ReadView,
        query: str,
        user_id: str,
        where: str | None,
        kinds: Sequence[str] | None,
        limit: int,
        query_vector: np.ndarray | None,
        vector: bool,
        fts: bool,
        needles: Sequence[str],
    ) -> RouteHits:
        """``routes`` through one view of the table."""
        text = fts_words(query) if fts else ""
        needle_words = {needle: fts_words(needle) for needle in dict.fromkeys(needles)}
        pending = {  # "" is the query itself
            needle: (
                words,
                start_query(bm25_ids(view.aio, words, where, limit, all_words=bool(needle))),
            )
            for needle, words in [("", text), *needle_words.items()]
            if words
        }
        by_vector: Ranked = []
        try:
            if vector:
                self._check_model(table, state)
                query_vec = self._query_vector(query, query_vector)
                if query_vec is not None:
                    wanted = kinds if _kinds_left_out(state, kinds) else None
                    graphed = self._graph_route(table, user_id, query_vec, limit, wanted)
                    if graphed is not None:
                        by_vector, query_vec = graphed, None
                if query_vec is not None:
                    found = vector_ids(
                        view.aio,
                        query_vec,
                        where,
                        limit,
                        partitions=view.ann_partitions,
                        indexed_only=view.unfolded is not None,
                    )
                    with _lance(table, "search"):
                        by_vector = LOOP.run(found)
                    if view.unfolded is not None:
                        appended = view.unfolded.nearest(query_vec, user_id, kinds, limit)
                        by_vector = merged(by_vector, appended, limit)
        finally:
            with _lance(table, "search"):
                by_words = {needle: bm25_result(*started) for needle, started in pending.items()}
        with self._lock, _lance(table, "read"):
            return self._hits(table, user_id, by_vector, by_words)

    def _graph_route(
        self,
        table: str,
        user_id: str,
        vector: np.ndarray,
        limit: int,
        kinds: Sequence[str] | None,
    ) -> Ranked | None:
        """The vector route from the user's graph (loaded now if saved), or None: no graph
        yet, or too few rows of ``kinds`` (None: any) among ``KIND_OVERSAMPLE`` times
        ``limit`` of its best. Those it found are the best of their kinds: any other row of
        them ranks below all of the rows looked at."""
        asked = limit if kinds is None else limit * KIND_OVERSAMPLE
        graphed = self._graphs.nearest(table, user_id, vector, asked)
        if graphed is None and self._want_graph(table, user_id):
            graphed = self._graphs.nearest(table, user_id, vector, asked)
        if graphed is None or kinds is None:
            return graphed
        with self._lock:
            rows = self._rows.get(table, user_id, [row_id for row_id, _ in graphed])
        found = [hit for hit in graphed if hit[0] in rows and rows[hit[0]]["kind"] in kinds]
        if len(found) >= limit or len(graphed) < asked:  # enough, or every row looked at
            return found[:limit]
        return None  # a kind rare among the user's rows: LanceDB filters inside its query

    def _want_graph(self, table: str, user_id: str) -> bool:
        """Start the user's vector graph if they hold enough rows (``vector_graphs``); True
        when it is ready now (loaded from its file, or built in a reproducible index)."""
        with self._lock:
            rows = self._rows.count(table, user_id)

        def read() -> tuple[list[str], np.ndarray]:
            """The user's ids and vectors, read as a search reads (a fold waits for it)."""
            with self._lock:
                state = self._state(table)
                if state is None:
                    return [], np.zeros((0, self.embedder.dim), dtype=np.float32)
                view = self._enter_read(state)
            try:
                query = view.aio.query().where(user_filter(user_id)).select(["id", "vector"])
                with _lance(table, "read"):
                    found = LOOP.run(query.to_arrow())
            finally:
                self._leave_read(view)
            return found.column("id").to_pylist(), vector_matrix(found)

        def saved() -> str | None:
            mark = self.clean_mark(table)
            return None if mark is None else mark.version

        return self._graphs.want(table, user_id, rows, read, saved)

    def can_score_fresh(
        self, table: str, query: str, items: Sequence[IndexedText], *, user_id: str, **options: Any
    ) -> bool:
        """Whether ``routes`` with these ``options`` gives the hits it would give with
        ``items`` appended when they are scored in memory by vector only (``IndexSync``):
        none shares a word with the query or its needles (``fts_reach``), and none
        replaces a row the table holds (the old row would still be found). Never on a
        reproducible index: whether a write is appended before a read depends on a thread's
        timing, and LanceDB's own cosine may differ from this one in the last bit."""
        if self.reproducible:
            return False
        words = [query] if options.get("fts", True) else []
        words += list(options.get("needles", ()))
        texts = [fts_words(text) for text in words]
        if any(may_share_words(text, item.text) for text in texts for item in items):
            return False
        with self._lock:
            return not self._rows.may_hold(table, user_id, [item.id for item in items])

    def floor(self, table: str, query: str, *, user_id: str, limit: int = 10) -> dict[str, float]:
        """Seconds of the pieces a search cannot do without, each alone: the query's
        embedding, the raw vector query (the user's graph, if ready, else LanceDB's) and the
        raw BM25 query (ids only, the user's filter inside, no fusion or rows). ``memvisor
        bench paging`` divides page-in by their sum."""
        self._wait_for_fold()  # timed on the table's own handle, as it is after the fold
        with self._lock:
            state = self._state(table)
            if state is None or user_id not in state.users:
                raise UserError(f"no {table} index for {user_id!r} to time")
            where = search_filter(state.users, state.kinds, user_id, None)
        start = time.perf_counter()
        vector = self.embedder.embed([query])[0]
        embedded = time.perf_counter()
        if self._graphs.nearest(table, user_id, vector, limit) is None:
            with _lance(table, "search"):
                LOOP.run(
                    vector_ids(state.aio, vector, where, limit, partitions=state.ann_partitions)
                )
        searched = time.perf_counter()
        with _lance(table, "search"):
            LOOP.run(bm25_ids(state.aio, fts_words(query), where, limit))
        done = time.perf_counter()
        return {"embed": embedded - start, "vector": searched - embedded, "fts": done - searched}

    def vector_recall(
        self, table: str, queries: Sequence[str], *, user_id: str, k: int = 10
    ) -> float:
        """Mean recall@k of the vector route against an exact (flat) search of the same
        table, over these queries: what the ANN index gives up for its speed."""
        self._wait_for_fold()
        with self._lock:
            state = self._state(table)
            if state is None or user_id not in state.users:
                raise UserError(f"no {table} index for {user_id!r} to measure")
            where = search_filter(state.users, state.kinds, user_id, None)
        found = []
        for vector in self.embedder.embed(list(queries)):
            with _lance(table, "search"):
                got = self._graphs.nearest(table, user_id, vector, k) or LOOP.run(
                    vector_ids(state.aio, vector, where, k, partitions=state.ann_partitions)
                )
                exact = LOOP.run(vector_ids(state.aio, vector, where, k, partitions=0, flat=True))
            wanted = {row_id for row_id, _ in exact}
            found.append(len(wanted & {row_id for row_id, _ in got}) / max(len(wanted), 1))
        return sum(found) / max(len(found), 1)

    def _hits(
        self,
        table: str,
        user_id: str,
        by_vector: Ranked,
        by_words: dict[str, Ranked],
    ) -> RouteHits:
        """The routes' ids and scores as hits, their rows taken from this process's copy."""
        ids = [row_id for ranked in (by_vector, *by_words.values()) for row_id, _ in ranked]
        rows = self._rows.get(table, user_id, ids)
        if len(rows) < len(set(ids)):  # the copy missed a write: read it again
            logger.warning("vector table {!r}: rows of {} were stale, reloading", table, user_id)
            self._rows.forget(table)
            rows = self._rows.get(table, user_id, ids)
        exact: dict[str, SearchHit] = {}
        for needle, ranked in by_words.items():
            for row_id, score in ranked:
                row = rows.get(row_id)
                if needle and row is not None and needle.lower() in row["text"].lower():
                    exact.setdefault(row_id, _hit(row, score, "exact"))
        return RouteHits(
            [_hit(rows[i], score, "vector") for i, score in by_vector if i in rows],
            [_hit(rows[i], score, "fts") for i, score in by_words.get("", []) if i in rows],
            list(exact.values()),
        )

    def _read_rows(self, table: str) -> pa.Table:
        state = self._state(table)
        if state is None:
            return pa.table({name: pa.array([], pa.string()) for name in _COLUMNS})
        with _lance(table, "read"):
            return _all_rows(state.table)

    def items(self, table: str, *, user_id: str) -> list[IndexedText]:
        """Every item of this user, oldest first (for export and reindexing)."""
        user_id = require_user(user_id)
        with self._lock:
            state = self._state(table)
        if state is None:
            return []
        query = state.table.search().where(user_filter(user_id)).select(_COLUMNS).limit(None)
        with _lance(table, "read"):
            rows = query.to_arrow().to_pylist()
        out = [IndexedText(user_id=user_id, **_fields(row)) for row in rows]
        return sorted(out, key=lambda item: (item.ts, item.id))

    def ids(self, table: str, *, user_id: str) -> set[str]:
        """This user's ids, from the in-memory copy (read now if it was not yet)."""
        user_id = require_user(user_id)
        with self._lock:
            return set() if self._state(table) is None else self._rows.ids(table, user_id)

    def revisions(self, table: str, *, user_id: str) -> dict[str, str]:
        """This user's ids and the ``text_revision`` of the text each row holds."""
        user_id = require_user(user_id)
        with self._lock:
            if self._state(table) is None:
                return {}
            texts = self._rows.texts(table, user_id)
        return {row_id: text_revision(text) for row_id, text in texts.items()}

    def all_revisions(self, table: str) -> dict[str, dict[str, str]]:
        """Every user's ids with the ``text_revision`` of each row: user -> id -> revision."""
        with self._lock:
            if self._state(table) is None:
                return {}
            revisions: dict[str, dict[str, str]] = {}
            for user_id, row_id, text in self._rows.iter_texts(table):
                revisions.setdefault(user_id, {})[row_id] = text_revision(text)
        return revisions

    def count(self, table: str, *, user_id: str) -> int:
        user_id = require_user(user_id)
        with self._lock:
            state = self._state(table)
        if state is None:
            return 0
        with _lance(table, "count"):
            return state.table.count_rows(user_filter(user_id))

    # --- routes -----------------------------------------------------------------------

    def _query_vector(self, query: str, given: np.ndarray | None) -> np.ndarray | None:
        if given is not None:
            vector = np.asarray(given, dtype=np.float32).reshape(-1)
            if vector.shape[0] != self.embedder.dim:
                raise UserError(
                    f"query_vector has {vector.shape[0]} dims; the index uses {self.embedder.dim}"
                )
            return vector
        return self.embedder.embed([query])[0] if query and query.strip() else None

    # --- tables and indices -----------------------------------------------------------

    def _state(self, table: str) -> TableState | None:
        """The open table (opened now if it was not); the caller holds the lock."""
        _check_table_name(table)
        state = self._tables.get(table)
        if state is not None:
            return state
        try:
            handle = self._db.open_table(self._names.current(table))
        except ValueError as exc:
            if "not found" in str(exc).lower():
                return None
            raise StorageError(f"cannot open vector table {table!r}: {exc}") from exc
        except (OSError, RuntimeError) as exc:
            raise damage(table, exc) or StorageError(
                f"cannot open vector table {table!r}: {short(exc)}"
            ) from exc
        with _lance(table, "open"):
            # One read of every row serves both: the users and kinds the state needs, and
            # the copy search hits are made of (a read of each cost 27 MB and 37 ms more at
            # 100k rows, and every first search needs both).
            rows = _all_rows(handle)
            state = upkeep.opened(handle, rows)
        self._tables[table] = state
        self._rows.seed(table, rows)
        release_freed()  # the scan's buffers, kept by malloc's arenas (``native_memory``)
        return state

    def _embed(self, batch: list[IndexedText]) -> pa.Table:
        vectors = self.embedder.embed([item.embedded for item in batch])
        if vectors.shape != (len(batch), self.embedder.dim):
            raise StorageError(
                f"embedder {self.embedder.model_id} returned shape {vectors.shape} "
                f"for {len(batch)} texts (expected dim {self.embedder.dim})"
            )
        return self._to_arrow(batch, vectors)

    def _write(self, table: str, name: str, state: TableState | None, data: pa.Table) -> TableState:
        """Append ``data`` to LanceDB table ``name``, created if absent."""
        with _lance(table, "write to"):
            if state is None:
                handle = self._db.create_table(name, schema=data.schema)
                state = TableState(handle, upkeep.async_handle(handle), model_checked=True)
            state.users.update(data.column("user_id").to_pylist())
            state.kinds.update(data.column("kind").to_pylist())
            state.table.add(data)
        return state

    def _builds_of(self, table: str) -> list[str]:
        """LanceDB tables a rebuild of ``table`` wrote (one may be left by a crash)."""
        names = [path.name.removesuffix(".lance") for path in self.path.glob("*.lance")]
        return [name for name in names if self._names.is_build_of(name, table)]

    def _drop_table(self, name: str) -> None:
        try:
            self._db.drop_table(name)
        except (OSError, RuntimeError, ValueError) as exc:
            if isinstance(exc, ValueError) and "not found" in str(exc).lower():
                return
            raise StorageError(f"cannot drop vector table {name!r}: {short(exc)}") from exc

    def _drop_quietly(self, name: str) -> None:
        try:
            self._drop_table(name)
        except StorageError as exc:  # only disk space is lost; the next rebuild tries again
            logger.warning("search index: {}", exc)

    def _check_model(self, table: str, state: TableState) -> None:
        if state.model_checked:
            return
        built_with = (state.table.schema.metadata or {}).get(_MODEL_KEY, b"").decode()
        if built_with != self.embedder.model_id:
            raise StorageError(
                f"vector table {table!r} was built with embedding model {built_with or '?'!r}, "
                f"not {self.embedder.model_id!r}: rebuild it with `memvisor memory reindex` "
                "(or use the embedder it was built with)"
            )
        state.model_checked = True

    def _to_arrow(self, batch: list[IndexedText], vectors: np.ndarray) -> pa.Table:
        dim = vectors.shape[1]
        schema = _schema(dim, self.embedder.model_id)
        plain = ("id", "user_id", "kind", "text", "session_id", "trace_id")
        columns: dict[str, list[Any]] = {n: [getattr(i, n) for i in batch] for n in plain}
        columns["ts"] = [to_utc(item.ts) for item in batch]
        columns["meta"] = [json.dumps(i.meta, ensure_ascii=False, default=str) for i in batch]
        columns["embed_model"] = [self.embedder.model_id] * len(batch)
        arrays = [pa.array(columns[f.name], type=f.type) for f in schema if f.name != "vector"]
        flat = pa.array(np.ascontiguousarray(vectors, dtype=np.float32).reshape(-1))
        arrays.append(pa.FixedSizeListArray.from_arrays(flat, dim))
        return pa.Table.from_arrays(arrays, schema=schema)

    def _delete_ids(self, table: Table, ids: list[str], user_id: str) -> int:
        deleted = 0
        for start in range(0, len(ids), 500):
            chunk = ", ".join(quote(i) for i in ids[start : start + 500])
            where = f"{user_filter(user_id)} AND id IN ({chunk})"
            matched = table.count_rows(where)
            if matched:  # a delete writes a new table version even when nothing matches
                table.delete(where)
                deleted += matched
        return deleted


def _schema(dim: int, model_id: str) -> pa.Schema:
    text, optional = pa.string(), ("session_id", "trace_id", "meta")
    fields = [pa.field(name, text, nullable=name in optional) for name in _TEXT_FIELDS]
    fields.insert(4, pa.field("ts", pa.timestamp("us", tz="UTC"), nullable=False))
    fields.append(pa.field("vector", pa.list_(pa.float32(), dim), nullable=False))
    return pa.schema(fields, metadata={_MODEL_KEY: model_id.encode()})


def _kinds_left_out(state: TableState, kinds: Sequence[str] | None) -> bool:
    """Whether a search of these kinds leaves out rows the table may hold (a graph holds
    every kind of its user's rows, so such a search filters what it finds)."""
    return bool(kinds) and not state.kinds <= set(kinds or ())


def _check_table_name(table: str) -> None:
    if not isinstance(table, str) or not _TABLE_NAME.match(table):
        raise UserError(f"invalid vector table name {table!r}: use lowercase letters, digits, '_'")


def _load_meta(raw: str | None) -> dict[str, Any]:
    if not raw or raw == "{}":  # most rows: no parse needed
        return {}
    try:
        value = json.loads(raw)
    except ValueError:
        return {"raw": raw}
    return value if isinstance(value, dict) else {"value": value}


def _fields(row: dict[str, Any]) -> dict[str, Any]:
    names = ("id", "kind", "text", "session_id", "trace_id")
    return {**{n: row[n] for n in names}, "ts": to_utc(row["ts"]), "meta": _load_meta(row["meta"])}


def _hit(row: dict[str, Any], score: float, route: str) -> SearchHit:
    return SearchHit(score=score, route=route, **_fields(row))


def search_by_mode(
    routes: Callable[..., RouteHits],
    table: str,
    query: str,
    *,
    user_id: str,
    mode: str,
    limit: int,
    kinds: Sequence[str] | None,
    query_vector: np.ndarray | None,
) -> list[SearchHit]:
    """``search`` of either index over its ``routes``: one route, or both fused by RRF."""
    if mode not in MODES:
        raise UserError(f"unknown search mode {mode!r}: use one of {', '.join(MODES)}")
    if mode == "hybrid":
        fetch = max(limit * 2, 20)
        found = routes(
            table, query, user_id=user_id, limit=fetch, kinds=kinds, query_vector=query_vector
        )
        return _fuse([found.vector, found.fts], limit)
    found = routes(
        table,
        query,
        user_id=user_id,
        limit=limit,
        kinds=kinds,
        query_vector=query_vector,
        vector=mode == "vector",
        fts=mode == "fts",
    )
    return list(found.vector if mode == "vector" else found.fts)


def _fuse(routes: list[list[SearchHit]], limit: int) -> list[SearchHit]:
    """Reciprocal-rank fusion: each route adds 1 / (k + rank) to a hit's score."""
    scores: dict[str, float] = {}
    first: dict[str, SearchHit] = {}
    for hits in routes:
        for rank, hit in enumerate(hits, start=1):
            scores[hit.id] = scores.get(hit.id, 0.0) + 1.0 / (RRF_K + rank)
            first.setdefault(hit.id, hit)
    ranked = sorted(scores, key=lambda i: (-scores[i], i))[:limit]
    return [replace(first[i], score=scores[i], route="hybrid") for i in ranked]


def _all_rows(handle: Table) -> pa.Table:
    """Every row of the table, without its vector."""
    return handle.search().select(_COLUMNS).limit(None).to_arrow()


def text_revision(text: str) -> str:
    """What the index sync compares, besides ids: the md5 of the indexed text (DuckDB's
    ``md5`` computes the same from the records)."""
    return hashlib.md5(text.encode("utf-8")).hexdigest()


def _batch(table: str, items: Sequence[IndexedText], user_id: str) -> list[IndexedText]:
    """The items to write, the last one of an id winning; each must be this user's."""
    _check_table_name(table)
    for item in items:
        if item.user_id != user_id:
            raise UserError(
                f"item {item.id!r} belongs to user {item.user_id!r}, not {user_id!r}: "
                "index each user's items under their own user_id"
            )
    return list({item.id: item for item in items}.values())


@contextmanager
def _lance(table: str, doing: str) -> Iterator[None]:
    """LanceDB's errors as ours: damaged files as ``IndexDamaged``, others ``StorageError``."""
    try:
        yield
    except (OSError, RuntimeError, ValueError) as exc:
        raise damage(table, exc) or StorageError(
            f"cannot {doing} vector table {table!r}: {short(exc)}"
        ) from exc
