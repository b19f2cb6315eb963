"""The store: records + event log (DuckDB in the data directory, or PostgreSQL), and the
search index (LanceDB in the data directory; on PostgreSQL, pgvector in the same database).

Every read and write takes ``user_id`` explicitly; every write names the
``trace_id`` (and where known the source events) it came from and is logged
as an event in the same transaction.
"""

from __future__ import annotations

import tempfile
import threading
from collections.abc import Callable, Collection, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, cast

from memvisor.errors import StorageError, StoreLocked, UserError

from .api_keys import ApiKeys
from .archive import (
    Archive,
    ArchivedRecord,
    PruneReport,
    counts_by_kind,
    duration_text,
    prune_candidates,
)
from .backends import chosen_store, open_records
from .clock import Clock, SystemClock
from .core_blocks import CoreBlocks
from .database import Database, DuckDBDatabase
from .episodes import Episode, EpisodeStore, RollingSummaries
from .events import EventLog
from .facts import FactStore
from .failures import os_problem
from .forgetting import (
    REDACTED_FROM,
    cascade,
    content_hash,
    forget_turn,
    forgotten_in,
    redact_hashed,
    redacted_turns,
    value_hashes,
)
from .ids import new_id
from .index_items import (
    all_memory_revisions,
    episode_item,
    fact_item,
    memory_items,
    memory_revisions,
    memory_users,
    passage_item,
    turn_items,
    turns_after,
)
from .index_outbox import (
    STALE_SECONDS,
    SWEEP_SECONDS,
    IndexedWrite,
    Sweeper,
    close_tickets,
)
from .lock import DataDirLock
from .logger import logger
from .passages import PassageStore
from .quarantine import Quarantine
from .recipes import RecipeStore
from .records import Event, FactWrite, Passage
from .sealed import SealedStore, not_found
from .sealed_keys import KEY_FILE, KeyFile, WrappedKeys, master_key_path
from .session_state import SessionState
from .snapshot import SnapshotServer, request_snapshot
from .tasks import TaskStore
from .text import valid_utf8
from .usage import MemoryUsage
from .users import require_user

if TYPE_CHECKING:  # lancedb and onnxruntime load only when search is first used
    import numpy as np

    from .embedders import Embedder
    from .indexing import IndexSync
    from .postgres import PostgresDatabase
    from .vectors import IndexedText, RouteHits, SearchHit

SearchKind = Literal["fact", "passage", "turn", "episode"]
# One search table for every kind: a LanceDB query has a fixed cost of a few ms, so
# page-in filters by kind inside one vector and one full-text query instead of eight.
MEMORY_TABLE = "memory"


class Store:
    """Open with ``Store.open(data_dir)``; one writer process per directory."""

    def __init__(
        self,
        data_dir: Path,
        *,
        embedder: Embedder | str | None = None,
        clock: Clock | None = None,
        read_only: bool = False,
        store: str | None = None,
        reproducible: bool = False,
    ) -> None:
        self.data_dir = Path(data_dir)
        self.read_only = read_only
        self.reproducible = reproducible
        if not read_only:
            try:
                self.data_dir.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StorageError(os_problem(self.data_dir, exc)) from exc
        self.clock: Clock = clock or SystemClock()
        store = chosen_store(store)
        # Records, index and keys in a database other processes may write too (PostgreSQL).
        self.shared = store is not None
        self._sweeper: Sweeper | None = None
        self._snapshot_dir: tempfile.TemporaryDirectory[str] | None = None
        self._snapshots: SnapshotServer | None = None
        # The data directory's lock guards its files: the embedded records, their search
        # index and the sealed-secret keys. A PostgreSQL store keeps all three in the
        # database, which many processes share: nothing here to guard.
        self._lock = DataDirLock(self.data_dir, shared=read_only) if store is None else None
        if self._lock is None:
            self.db = open_records(self.data_dir, store=store, read_only=read_only)
        else:
            self.db = self._open_embedded(self._lock, read_only=read_only)
        self._embedder = embedder
        self._index: IndexSync | None = None
        self._index_opening = threading.Lock()  # threads' first searches open one index
        self._redacted_turns: dict[str, dict[str, str]] = {}  # per user, read on first use
        self.events = EventLog(self.db, self.clock)
        self.core = CoreBlocks(self.db, self.clock)
        self.facts = FactStore(self.db, self.clock)
        # Read copies brought up to date after a user's writes (``warm_after_writes``).
        self._catch_ups: list[Callable[[str], None]] = [self.facts.warm]
        self.quarantine = Quarantine(self.db, self.clock)
        self.passages = PassageStore(self.db, self.clock)
        self.episodes = EpisodeStore(self.db, self.clock)
        self.summaries = RollingSummaries(self.db, self.clock)
        self.usage = MemoryUsage(self.db, self.clock)
        self.recipes = RecipeStore(self.db, self.clock)
        self.tasks = TaskStore(self.db, self.clock)
        self.session_state = SessionState(self.db, self.clock)
        self.archive = Archive(self.db, self.clock)
        self.api_keys = ApiKeys(self.db, self.clock)
        # The keys: beside the embedded records, never inside them (nor in an export); in a
        # shared store, wrapped under a master key file that never enters it.
        self.sealed = SealedStore(
            self.db,
            self.clock,
            keys=WrappedKeys(
                self.db, master_key_path(self.data_dir), legacy=self.data_dir / KEY_FILE
            )
            if self.shared
            else KeyFile(self.data_dir / KEY_FILE),
        )

    def _open_embedded(self, lock: DataDirLock, *, read_only: bool) -> Database:
        """The embedded records under the directory's lock; a reader beside a writer reads
        the writer's snapshot."""
        try:
            lock.acquire()
        except StoreLocked:
            if not read_only:
                raise
            return self._read_holders_snapshot()  # held by a writer: its snapshot
        try:
            db = open_records(self.data_dir, store=None, read_only=read_only)
        except BaseException:
            lock.release()
            raise
        if not read_only and isinstance(db, DuckDBDatabase):  # copies for readers
            self._snapshots = SnapshotServer(db, self.data_dir)
            self._snapshots.start()
        return db

    @classmethod
    def open(
        cls,
        data_dir: Path | str,
        *,
        embedder: Embedder | str | None = None,
        clock: Clock | None = None,
        read_only: bool = False,
        store: str | None = None,
        reproducible: bool = False,
    ) -> Store:
        """``read_only`` opens for reading only: beside other readers, never beside a writer,
        on a read-only directory too; nothing is created, and a store not there reads empty.
        ``store`` (default ``$MEMVISOR_STORE``) is a ``postgresql://`` URL to keep the records
        and the search index in; the data directory then holds the sealed-secret key.
        ``reproducible``: the same writes always rank the same, whatever the threads' timing
        (replays and evals): a search waits for an index fold under way instead of reading
        the index as it was before it (``VectorIndex``)."""
        return cls(
            Path(data_dir),
            embedder=embedder,
            clock=clock,
            read_only=read_only,
            store=store,
            reproducible=reproducible,
        )

    def _read_holders_snapshot(self) -> Database:
        """The record store of the process that holds the directory, copied for this reader
        into a private directory removed at close; "in use" when no holder answers."""
        self._snapshot_dir = tempfile.TemporaryDirectory(prefix="memvisor-read-")
        copy = Path(self._snapshot_dir.name) / "memvisor.duckdb"
        try:
            if not request_snapshot(self.data_dir, copy):
                raise StoreLocked(
                    f"data directory {self.data_dir} is in use by another memvisor process "
                    "that does not share snapshots; stop it or pass a different --data-dir"
                )
            return DuckDBDatabase(copy, read_only=True)
        except BaseException:
            self._snapshot_dir.cleanup()
            raise

    @property
    def reads_a_snapshot(self) -> bool:
        """True when this reader reads a copy the holding process made at open."""
        return self._snapshot_dir is not None

    def close(self) -> None:
        if self._snapshots is not None:
            self._snapshots.stop()
        if self._sweeper is not None:
            self._sweeper.stop()
        if self._index is not None:
            self._index.close()  # a fold of the index under way finishes first
        self.events.close()  # the read events still queued commit first
        self.db.close()
        if self._lock is not None:
            self._lock.release()
        if self._snapshot_dir is not None:
            self._snapshot_dir.cleanup()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the search index (created on first use: loading an embedder costs time) --

    @property
    def embedder(self) -> Embedder:
        from .embedders import embedder_from_name

        if self._embedder is None or isinstance(self._embedder, str):
            self._embedder = embedder_from_name(self._embedder or "minilm")
        return self._embedder

    @property
    def index(self) -> IndexSync:
        with self._index_opening:
            if self._index is None:
                from .indexing import IndexSource, IndexSync
                from .search_index import SearchIndex

                vectors: SearchIndex
                if isinstance(self.db, DuckDBDatabase):
                    from .vectors import VectorIndex

                    vectors = VectorIndex(
                        self.data_dir / "vectors", self.embedder, reproducible=self.reproducible
                    )
                else:  # PostgreSQL records: the index in the same database
                    from .pg_vectors import PgVectorIndex

                    vectors = PgVectorIndex(cast("PostgresDatabase", self.db), self.embedder)
                source = IndexSource(
                    items=lambda user_id: memory_items(self, user_id),
                    revisions=lambda user_id: memory_revisions(self.db, user_id),
                    users=lambda: memory_users(self.db),
                    all_revisions=lambda: all_memory_revisions(self.db),
                )
                self._index = IndexSync(
                    vectors,
                    {MEMORY_TABLE: source},
                    on_healed=self._healed,
                    on_written=self._catch_up,
                    writable=not self.read_only,
                )
                if self.shared and not self.read_only:  # what a dead writer left unindexed
                    self._sweeper = Sweeper(self.db, self._reconcile_user)
                    self._sweeper.start()
            return self._index

    def warm_after_writes(self, catch_up: Callable[[str], None]) -> None:
        """``catch_up(user_id)`` runs on the index's embed-ahead thread after that user's
        writes: a read copy (page-in's facts and turn order) reads them there, not in the
        next read."""
        self._catch_ups.append(catch_up)

    def _catch_up(self, user_ids: set[str]) -> None:
        for user_id in sorted(user_ids):
            for catch_up in list(self._catch_ups):
                catch_up(user_id)

    def _reconcile_user(self, user_id: str) -> None:
        self.index.recheck(MEMORY_TABLE, user_id=user_id)
        self.index.sync(MEMORY_TABLE, user_id=user_id)

    def _queue(self, table: str, build: Any, record: Any, *, ahead: bool = True) -> None:
        """Queue ``record`` for the index once the transaction it was written in commits (a
        write rolled back by an outer transaction queues nothing); ``IndexSync.queue``.
        Whether the index is open is asked then, not before: one a search opened while the
        transaction was open may have read the records without this one, and a write that
        found no index when it began was never indexed in this process (six REST users
        writing and searching at once lost a first passage now and then)."""

        def queue() -> None:
            if (index := self._index) is not None:
                index.queue(table, build(record), ahead=ahead)

        self.db.after_commit(queue)

    @contextmanager
    def indexed_write(self, user_id: str, *, reconcile: bool = False) -> Iterator[IndexedWrite]:
        """A write of ``user_id``'s records that the search index must show; its
        ``transaction()`` is the store's. On a shared store (PostgreSQL), the transaction
        also commits an outbox ticket, and once it has committed this process indexes what
        it queued (with ``reconcile``, checks the user's whole index: an import) before the
        write returns, so another process's search finds it; then the ticket is closed. If
        this process dies first, a sweeper finds the ticket (``storage/index_outbox.py``)."""
        work = IndexedWrite(self.db, user_id, shared=self.shared)
        if self.shared and not self.read_only:
            _ = self.index  # opened first: what the write queues must reach its queue
        yield work
        if work.tickets or (reconcile and self._index is not None):
            tickets = list(work.tickets)
            self.db.after_commit(lambda: self._index_now(user_id, tickets, reconcile=reconcile))

    def _index_now(self, user_id: str, tickets: list[str], *, reconcile: bool) -> None:
        """Index what a committed write queued; a failure leaves its ticket to a sweeper."""
        try:
            if reconcile:
                self._reconcile_user(user_id)
            else:
                self.index.sync(MEMORY_TABLE, user_id=user_id)
            close_tickets(self.db, tickets)
        except Exception as exc:  # the write is committed: never report it lost
            logger.warning(
                "search index: {}'s new records are not indexed yet ({}); a sweeper indexes "
                "them within {:.0f} s",
                user_id,
                exc,
                STALE_SECONDS + SWEEP_SECONDS,
            )

    # -- writes: record + event in one transaction --

    def remember_fact(
        self,
        *,
        user_id: str,
        subject: str,
        predicate: str,
        object: str,
        trace_id: str,
        session_id: str | None = None,
        source_event_ids: Sequence[str] = (),
        confidence: float = 0.8,
        importance: float = 0.5,
        valid_from: datetime | None = None,
        valid_until: datetime | None = None,
        origin: str = "model",
        note: dict[str, Any] | None = None,
    ) -> FactWrite:
        with self.indexed_write(user_id) as work:
            with work.transaction() as conn:
                write = self.facts.remember(
                    user_id=user_id,
                    subject=subject,
                    predicate=predicate,
                    object=object,
                    trace_id=trace_id,
                    confidence=confidence,
                    importance=importance,
                    valid_from=valid_from,
                    valid_until=valid_until,
                    source_event_ids=source_event_ids,
                )
                if write.fact is not None:
                    self.log_write(
                        conn,
                        user_id=user_id,
                        trace_id=trace_id,
                        session_id=session_id,
                        record="fact",
                        id=write.fact.id,
                        action=write.action,
                        origin=origin,
                        previous=write.previous.id if write.previous else None,
                        source_event_ids=list(source_event_ids),
                        **(note or {}),
                    )
            if write.fact is not None and write.action != "confirmed":
                self._queue(MEMORY_TABLE, fact_item, write.fact)
            elif write.fact is not None and self.archive.get(write.fact.id, user_id=user_id):
                self.restore(
                    [write.fact.id], user_id=user_id, trace_id=trace_id
                )  # said again: used
            return write

    def edit_fact(
        self,
        fact_id: str,
        *,
        user_id: str,
        trace_id: str,
        object: str | None = None,
        confidence: float | None = None,
        valid_until: datetime | None = None,
        session_id: str | None = None,
        source_event_ids: Sequence[str] = (),
        origin: str = "cli",
        note: dict[str, Any] | None = None,
    ) -> FactWrite:
        """A new version superseding ``fact_id``; it names the edit's own source events."""
        with self.indexed_write(user_id) as work:
            with work.transaction() as conn:
                write = self.facts.edit(
                    fact_id,
                    user_id=user_id,
                    trace_id=trace_id,
                    object=object,
                    confidence=confidence,
                    valid_until=valid_until,
                    source_event_ids=source_event_ids,
                )
                assert write.fact is not None
                self.log_write(
                    conn,
                    user_id=user_id,
                    trace_id=trace_id,
                    session_id=session_id,
                    record="fact",
                    id=write.fact.id,
                    action="edited",
                    origin=origin,
                    previous=fact_id,
                    source_event_ids=list(source_event_ids),
                    **(note or {}),
                )
            self._queue(MEMORY_TABLE, fact_item, write.fact)
            return write

    def insert_passage(
        self,
        *,
        user_id: str,
        text: str,
        trace_id: str,
        session_id: str | None = None,
        source_event_ids: Sequence[str] = (),
        meta: dict[str, Any] | None = None,
        origin: str = "model",
        note: dict[str, Any] | None = None,
    ) -> Passage:
        with self.indexed_write(user_id) as work:
            with work.transaction() as conn:
                passage = self.passages.insert(
                    user_id=user_id,
                    text=redact_hashed(
                        text, forgotten_in(conn, self.events, user_id, source_event_ids)
                    ),
                    trace_id=trace_id,
                    session_id=session_id,
                    source_event_ids=source_event_ids,
                    meta=meta,
                )
                self.log_write(
                    conn,
                    user_id=user_id,
                    trace_id=trace_id,
                    session_id=session_id,
                    record="passage",
                    id=passage.id,
                    origin=origin,
                    source_event_ids=list(source_event_ids),
                    **(note or {}),
                )
            self._queue(MEMORY_TABLE, passage_item, passage)
            return passage

    def log_turn(
        self,
        *,
        user_id: str,
        role: Literal["user", "assistant"],
        content: str,
        trace_id: str | None = None,
        session_id: str | None = None,
        payload: dict[str, Any] | None = None,
        paged_in_next: bool = False,
    ) -> Event:
        """Log a dialogue message (committed) and queue it for the turn index.

        ``paged_in_next``: the caller pages in for this message next, without it (a turn's
        page-in): it is embedded and indexed once that read is done, not beside it, where
        its embedding took the cores from the query's (next-turn page-in p50 26 -> 23 ms at
        10k memories on 2 cores)."""
        turn = {
            "role": role,
            "content": content,
            "trace_id": trace_id,
            "session_id": session_id,
            "payload": payload,
        }
        return self.log_turns([turn], user_id=user_id, paged_in_next=paged_in_next)[0]

    def log_turns(
        self, turns: Sequence[dict[str, Any]], *, user_id: str, paged_in_next: bool = False
    ) -> list[Event]:
        """Bulk ingest: log many messages in one transaction (all or none committed).

        Each item: ``role``, ``content`` and optionally ``session_id``, ``trace_id``,
        ``payload``. The clock is read once per message, so callers set it between
        batches (e.g. per session) when the dates matter. ``paged_in_next``: ``log_turn``.
        """
        require_user(user_id)
        batch: list[dict[str, Any]] = []
        redacted = self._redacted_turns_of(user_id)
        for turn in turns:
            role = turn.get("role")
            if role not in ("user", "assistant"):
                raise UserError(f"turn role must be 'user' or 'assistant', got {role!r}")
            batch.append(
                {
                    "user_id": user_id,
                    "kind": f"{role}_message",
                    "trace_id": turn.get("trace_id"),
                    "session_id": turn.get("session_id"),
                    # Valid UTF-8 before the log and the index see it (lone surrogates).
                    "payload": _as_redacted(
                        valid_utf8(
                            {
                                "content": str(turn.get("content", "")),
                                **(turn.get("payload") or {}),
                            }
                        ),
                        redacted,
                    ),
                }
            )
        with self.indexed_write(user_id) as work:
            with work.transaction() as conn:
                events = self.events.append_many_in(conn, batch)
            if self._index is not None:  # each with the turn before it in its session
                for item in turn_items(self.db, events):
                    self._queue(MEMORY_TABLE, _built, item, ahead=not paged_in_next)
            return events

    def redactions_changed(self, user_id: str) -> None:
        """Messages of the user were redacted outside a forget (an import): read them again."""
        self._redacted_turns.pop(user_id, None)

    def _redacted_turns_of(self, user_id: str) -> dict[str, str]:
        """What a forget made of the messages it redacted, by the hash of their words."""
        if user_id not in self._redacted_turns:
            with self.db.transaction() as conn:
                self._redacted_turns[user_id] = redacted_turns(conn, user_id)
        return self._redacted_turns[user_id]

    def log_write(
        self, conn: Any, *, user_id: str, trace_id: str, session_id: str | None, **payload: Any
    ) -> None:
        """The memory_write event of a record, committed with it."""
        self.events.append_in(
            conn,
            user_id=user_id,
            kind="memory_write",
            trace_id=trace_id,
            session_id=session_id,
            payload=payload,
        )

    def save_eviction(
        self,
        *,
        user_id: str,
        session_id: str,
        summary: str,
        episode: Episode,
        evicted_event_ids: Sequence[str],
        trace_id: str,
    ) -> int:
        """Commit the new rolling summary, the episode and the eviction event together."""
        with self.indexed_write(user_id) as work:
            with work.transaction() as conn:
                forgotten = forgotten_in(
                    conn, self.events, user_id, [*evicted_event_ids, *episode.source_event_ids]
                )
                summary = redact_hashed(summary, forgotten)
                episode = _episode_without(episode, forgotten)
                version = self.summaries.put(
                    summary, user_id=user_id, session_id=session_id, trace_id=trace_id, conn=conn
                )
                self.episodes.insert(episode, conn=conn)
                self.events.append_in(
                    conn,
                    user_id=user_id,
                    kind="eviction",
                    trace_id=trace_id,
                    session_id=session_id,
                    payload={
                        "episode_id": episode.id,
                        "summary_version": version,
                        "evicted_event_ids": list(evicted_event_ids),
                    },
                )
            self._queue(MEMORY_TABLE, episode_item, episode)
            return version

    def save_episode(self, episode: Episode, *, kind: str = "session_end") -> None:
        """Commit an episode written outside eviction (session end, on demand)."""
        with self.indexed_write(episode.user_id) as work:
            with work.transaction() as conn:
                forgotten = forgotten_in(
                    conn, self.events, episode.user_id, episode.source_event_ids
                )
                episode = _episode_without(episode, forgotten)
                self.episodes.insert(episode, conn=conn)
                self.events.append_in(
                    conn,
                    user_id=episode.user_id,
                    kind=kind,
                    trace_id=episode.trace_id,
                    session_id=episode.session_id,
                    payload={
                        "episode_id": episode.id,
                        "source_event_ids": episode.source_event_ids,
                    },
                )
            self._queue(MEMORY_TABLE, episode_item, episode)

    def forget(
        self, record_id: str, *, user_id: str, trace_id: str, session_id: str | None = None
    ) -> dict[str, Any]:
        """Remove a record and what derives from it; the event keeps ids, not content."""
        require_user(user_id)
        removed: list[str]
        with self.indexed_write(user_id) as work:
            with work.transaction() as conn:
                derived: dict[str, list[str]] = {}
                forgotten_values: list[str] = []
                if record_id.startswith("fct_"):
                    versions = self.facts.forget(
                        record_id, user_id=user_id, trace_id=trace_id, conn=conn
                    )
                    derived = cascade(conn, user_id=user_id, versions=versions)
                    forgotten_values = value_hashes(v.object for v in versions)
                    removed = [f.id for f in versions] + derived["passages"]
                    table = MEMORY_TABLE
                elif record_id.startswith("psg_"):
                    removed = [self.passages.delete(record_id, user_id=user_id, conn=conn).id]
                    table = MEMORY_TABLE
                elif record_id.startswith("qtn_"):
                    self.quarantine.delete(record_id, user_id=user_id, conn=conn)
                    removed, table = [record_id], ""
                elif record_id.startswith(("eps_", "rcp_")):
                    episode = record_id.startswith("eps_")
                    # NotFound (for this user) before anything is deleted.
                    (self.episodes if episode else self.recipes).get(record_id, user_id=user_id)
                    kind_table = "episodes" if episode else "recipes"
                    conn.execute(
                        f"DELETE FROM {kind_table} WHERE user_id = ? AND id = ?",
                        [user_id, record_id],
                    )
                    conn.execute(
                        "DELETE FROM archived WHERE user_id = ? AND item_id = ?",
                        [user_id, record_id],
                    )
                    # Episodes are in the search index; recipes rank through their own route.
                    removed, table = [record_id], MEMORY_TABLE if episode else ""
                elif record_id.startswith("evt_"):  # a message: its text, not its place
                    forget_turn(conn, user_id=user_id, event_id=record_id)
                    removed, table = [record_id], MEMORY_TABLE
                    derived = {"turns": [record_id]}
                elif record_id.startswith("sec_"):
                    # Sealed secrets are never indexed; the ciphertext is shredded.
                    if not self.sealed.forget(record_id, user_id=user_id):
                        raise not_found(record_id)
                    removed, table = [record_id], ""
                else:
                    raise UserError(
                        f"cannot forget {record_id!r}: ids start with fct_, psg_, eps_, rcp_, "
                        "qtn_, sec_ or evt_ (a message)"
                    )
                self.events.append_in(
                    conn,
                    user_id=user_id,
                    kind="memory_forget",
                    trace_id=trace_id,
                    session_id=session_id,
                    payload={
                        "id": record_id,
                        "removed": removed,
                        "redacted": {
                            k: v for k, v in derived.items() if k not in ("passages", "recipes")
                        },
                        "deleted_recipes": derived.get("recipes", []),
                        # hashes, never the value: what a replayed write is checked against
                        "value_hashes": forgotten_values,
                    },
                )
            if derived.get("turns"):
                self._redacted_turns.pop(user_id, None)  # read again with these
            if table:
                try:
                    self.index.forget(table, removed, user_id=user_id)
                    self._reindex_redacted(derived, user_id=user_id, dropped=removed)
                except Exception as exc:  # the next reconcile removes them; never lose the forget
                    logger.warning("index cleanup after forget deferred: {}", exc)
            return {"id": record_id, "removed": removed}

    def _reindex_redacted(
        self, derived: dict[str, list[str]], *, user_id: str, dropped: Sequence[str] = ()
    ) -> None:
        """Queue the episodes and messages a forget redacted, with their new text (a crash
        first leaves the next process's reconcile to see their revisions changed); the
        ``dropped`` ones stay out of the index."""
        for episode_id in derived.get("episodes", []):
            if not self.archive.get(episode_id, user_id=user_id):  # archived: stays out
                episode = self.episodes.get(episode_id, user_id=user_id)
                self._queue(MEMORY_TABLE, episode_item, episode)
        redacted = derived.get("turns", [])
        # and the turns after them, whose vectors read them as their context
        changed = [*redacted, *turns_after(self.db, user_id, redacted)]
        turns = self.events.many([t for t in changed if t not in dropped], user_id=user_id)
        for item in turn_items(self.db, turns, consecutive=False):
            self._queue(MEMORY_TABLE, _built, item)

    # -- the archive: prune what went unused, restore on request --

    def prune(
        self,
        *,
        user_id: str,
        older_than: timedelta,
        unused: bool,
        trace_id: str,
        dry_run: bool = False,
    ) -> PruneReport:
        """Archive facts, passages and episodes untouched for longer than ``older_than``
        (with ``unused``: nor paged in or cited within it); one event, restorable."""
        require_user(user_id)
        with self.indexed_write(user_id) as work:
            with work.transaction() as conn:  # select and archive see the same records
                candidates = prune_candidates(
                    self.facts.list(user_id=user_id, include_archived=False),
                    self.passages.list(user_id=user_id),
                    self.episodes.list(user_id=user_id),
                )
                items = self.archive.select(
                    candidates, user_id=user_id, older_than=older_than, unused=unused
                )
                report = PruneReport(
                    user_id=user_id,
                    older_than=older_than,
                    unused=unused,
                    dry_run=dry_run,
                    trace_id=trace_id,
                    archived=items,
                    counts=counts_by_kind(items),
                )
                if dry_run or not items:
                    return report
                after = duration_text(older_than)
                self.archive.add(
                    {i.id: i.kind for i in items},
                    user_id=user_id,
                    trace_id=trace_id,
                    reason=f"prune: {'unused' if unused else 'untouched'} for over {after}",
                )
                self.events.append_in(
                    conn,
                    user_id=user_id,
                    kind="memory_prune",
                    trace_id=trace_id,
                    payload={
                        "ids": [i.id for i in items],
                        "kinds": [i.kind for i in items],
                        "older_than": after,
                        "unused": unused,
                    },
                )
            # Without a loaded index there is nothing to clean now: the first search of any
            # process reconciles the index with the records, which no longer list these.
            if self._index is not None:
                try:
                    self._index.forget(MEMORY_TABLE, [i.id for i in items], user_id=user_id)
                except Exception as exc:  # the next reconcile removes them; never lose the prune
                    logger.warning("index cleanup after prune deferred: {}", exc)
            return report

    def restore(self, ids: Sequence[str], *, user_id: str, trace_id: str) -> list[ArchivedRecord]:
        """Bring archived records back to page-in and search (all or none)."""
        require_user(user_id)
        if not ids:
            raise UserError("name at least one archived record id to restore")
        with self.indexed_write(user_id) as work:
            with work.transaction() as conn:
                rows = self.archive.remove(ids, user_id=user_id)
                self.events.append_in(
                    conn,
                    user_id=user_id,
                    kind="memory_restore",
                    trace_id=trace_id,
                    payload={"ids": [r.item_id for r in rows], "kinds": [r.kind for r in rows]},
                )
            for row in rows:
                if row.kind == "fact":
                    self._queue(
                        MEMORY_TABLE, fact_item, self.facts.get(row.item_id, user_id=user_id)
                    )
                elif row.kind == "passage":
                    passage = self.passages.get(row.item_id, user_id=user_id)
                    self._queue(MEMORY_TABLE, passage_item, passage)
                else:
                    episode = self.episodes.get(row.item_id, user_id=user_id)
                    self._queue(MEMORY_TABLE, episode_item, episode)
            return rows

    # -- reads --

    def search(
        self,
        query: str,
        *,
        user_id: str,
        kinds: Sequence[SearchKind] = ("fact", "passage", "turn"),
        mode: str = "hybrid",
        limit: int = 10,
        as_of: datetime | None = None,
    ) -> list[SearchHit]:
        """Search the user's memory; facts are filtered to those valid at ``as_of``."""
        require_user(user_id)
        if not isinstance(query, str) or not query.strip():
            raise UserError("search query must be non-empty text")
        hits = self.index.search(
            MEMORY_TABLE, query, user_id=user_id, mode=mode, limit=limit * 2, kinds=list(kinds)
        )
        fact_ids = [h.id for h in hits if h.kind == "fact"]
        valid = self.facts.valid_among(fact_ids, user_id=user_id, as_of=as_of)
        return [h for h in hits if h.kind != "fact" or h.id in valid][:limit]

    def memory_routes(
        self,
        query: str,
        *,
        user_id: str,
        limit: int,
        kinds: Sequence[str],
        needles: Sequence[str] = (),
        query_vector: np.ndarray | None = None,
        unwanted: Collection[str] = (),
    ) -> RouteHits:
        """Sync the user's search index, then its vector, BM25 and exact hits in one round
        (the vector route by ``query_vector`` when given, else by the query's embedding).
        Records with an id in ``unwanted`` may be missing from the hits (the caller drops
        them): a new one is indexed after the read rather than before it."""
        require_user(user_id)
        return self.index.routes(
            MEMORY_TABLE,
            query,
            user_id=user_id,
            limit=limit,
            kinds=list(kinds),
            needles=list(needles),
            query_vector=query_vector,
            defer=unwanted,
        )

    def reindex(self, *, trace_id: str) -> dict[str, Any]:
        """Rebuild every user's search index from the records with the current embedder.

        A new table is built and swapped in when complete; the old one is then dropped
        unread, so an index of another embedding model goes too. Records are only read
        (archived ones stay out). One event per user.
        """
        counts = self.index.rebuild(MEMORY_TABLE, user_ids=memory_users(self.db))
        model = self.embedder.model_id
        self._log_rebuilt(counts, trace_id=trace_id)
        total = sum(counts.values())
        logger.bind(trace_id=trace_id).info(
            "rebuilt the search index: {} items for {} users with {}", total, len(counts), model
        )
        return {"users": len(counts), "items": total, "model": model}

    def _healed(self, counts: dict[str, int], damage: str) -> None:
        """A search found the index damaged and rebuilt it: an event per user says so."""
        self._log_rebuilt(counts, trace_id=new_id("trc"), damage=damage)

    def _log_rebuilt(self, counts: dict[str, int], *, trace_id: str, **note: str) -> None:
        model = self.embedder.model_id
        with self.db.transaction() as conn:
            for user_id, items in counts.items():
                self.events.append_in(
                    conn,
                    user_id=user_id,
                    kind="index_rebuilt",
                    trace_id=trace_id,
                    payload={"items": items, "model": model, **note},
                )


def _built(item: IndexedText) -> IndexedText:
    """An index item already built, for ``Store._queue``."""
    return item


def _episode_without(episode: Episode, forgotten: set[str]) -> Episode:
    """The episode with these forgotten values (``forgotten_in``) cut out of its summary,
    and entities that state one dropped."""
    if not forgotten:
        return episode
    entities = [e for e in episode.entities if redact_hashed(e, forgotten) == e]
    summary = redact_hashed(episode.summary, forgotten)
    return episode.model_copy(update={"summary": summary, "entities": entities})


def _as_redacted(payload: dict[str, Any], redacted: dict[str, str]) -> dict[str, Any]:
    """A message in the words of one a forget redacted is logged as that one now reads."""
    content = payload["content"]
    if not redacted or not content.strip() or (earlier := content_hash(content)) not in redacted:
        return payload
    return {**payload, "content": redacted[earlier], REDACTED_FROM: [earlier]}
