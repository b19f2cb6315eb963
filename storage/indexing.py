"""Keeps the search index in step with the records it is derived from: LanceDB beside
DuckDB, or pgvector beside PostgreSQL (any ``search_index.SearchIndex``; the words below
name the embedded pair).

Records are acknowledged once DuckDB commits; indexing them (embedding + a LanceDB
append) happens in batches, behind the writer or at the latest before that user's next
search (which then appends every user's queued items at once). Queued work stays queued until a
write succeeds, so a record whose indexing failed becomes searchable in the same process
once the index can be written again. The first search of a process reconciles the whole
table with the records, every user at once, by id and by text revision (two reads, one of
each side, where a reconcile per user cost ~45 ms on each user's first search), so a
process that died before indexing (or before re-indexing a text a forget redacted) leaves
nothing unsearchable or stale for long. A user whose index a failed write or a forget may
have left unsure is reconciled alone at their next search. The sources leave archived
records out, so a reconcile removes them from the index and never adds them back.

A rebuild (``memvisor memory reindex``, or by itself when a search finds the index's
files damaged) builds a new table from the records and swaps it in when complete.
"""

from __future__ import annotations

import threading
import time
from collections import defaultdict
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from memvisor.errors import IndexDamaged, MemvisorError

from .embedders import EmbedAhead
from .fresh_hits import with_fresh
from .logger import logger
from .native_memory import release_freed
from .reconcile_marks import revisions_digest
from .search_index import SearchIndex
from .vectors import IndexedText, RouteHits, SearchHit

REBUILD_BATCH = 2_000  # items embedded and appended at once by a rebuild or a reconcile
# The write-behind's appends: a burst of APPEND_BURST, then APPENDS_PER_S sustained; writes
# that come while it waits share the next append. Each append is an index fragment every
# query pays for (~0.1 ms) until a fold, and a fold (the whole table: 0.2-0.5 s at 10k rows)
# is due every 32 appends: under 32 clients a server made 0.65 appends a write and folded a
# third of the time. bench serve, 4 x 45 s of 32 clients, search p95 with one append at most
# every 0.1 s: 33-64 ms; 0.5 s: 32-43; 1 s: 31-47; none: 43-60. The default bench serve at
# 2/s (burst 4): 37 ms at 32 clients, but bench paging's next turn, its writes 0.2 s before
# it, found them unappended (p50 30 ms, 2.3x steady); at 4/s (burst 8): 44 ms and 17 ms
# (1.6x). No reader waits for the write-behind: a search appends its own user's writes.
APPENDS_PER_S = 4.0
APPEND_BURST = 8
# A message a read left out (the turn's own) waits this long for the turn's writes to share
# their append; a model's answer usually comes sooner, and a search appends it if it comes
# first. bench paging's next turn, two appends a turn (the message, then the answer and
# fact) ran its write-behind out of appends after ~17 turns at 4/s: the next read then
# waited for an append under way (p50 31 against 20 ms, cProfile on). One append a turn:
# bench paging at 10k, next turn p50 20.3 ms, 1.50x steady (it was 1.61-1.71x).
DEFERRED_LINGER = 5.0

T = TypeVar("T")


@dataclass(frozen=True)
class IndexSource:
    """What a table must hold for a user: the items, their ids with the text revision of
    each (cheap to read), and every user who has records."""

    items: Callable[[str], list[IndexedText]]
    revisions: Callable[[str], dict[str, str]]
    users: Callable[[], list[str]]
    all_revisions: Callable[[], dict[str, dict[str, str]]]  # user -> id -> revision


# Told of a rebuild the index did by itself: the items per user, and the damage found.
Healed = Callable[[dict[str, int], str], None]
# Told, on the embed-ahead thread, which users' writes were just queued: read copies that
# follow the records (page-in's facts and turns) catch up there, not in the next read.
Written = Callable[[set[str]], None]


class AppendBudget:
    """A token bucket: how long the write-behind waits before its next append."""

    def __init__(self) -> None:
        self._tokens = float(APPEND_BURST)
        self._at = time.monotonic()

    def wait(self) -> float:
        """Seconds until an append is due (0: now)."""
        now = time.monotonic()
        self._tokens = min(APPEND_BURST, self._tokens + (now - self._at) * APPENDS_PER_S)
        self._at = now
        return max(0.0, (1 - self._tokens) / APPENDS_PER_S)

    def spend(self) -> None:
        self._tokens -= 1


class IndexSync:
    """Thread-safe. Syncs and rebuilds run one at a time (they read the records, so a
    caller must not hold the database's lock). The queue has a lock of its own that is
    never held while waiting for another: writers queue from inside their transactions.
    """

    def __init__(
        self,
        index: SearchIndex,
        sources: dict[str, IndexSource],
        *,
        on_healed: Healed | None = None,
        on_written: Written | None = None,
        writable: bool = True,
    ) -> None:
        self.index = index
        self._sources = sources
        self._on_healed = on_healed
        self._on_written = on_written
        # A read-only store's index is searched as it is: nothing synced, healed or rebuilt.
        self.writable = writable
        self._lock = threading.RLock()
        self._queue_lock = threading.Lock()
        self._pending: dict[tuple[str, str], list[IndexedText]] = defaultdict(list)
        # Users queued for since their read copies last caught up (``_written``).
        self._written_users: set[str] = set()
        self._reconciled: set[str] = set()  # tables reconciled with the records
        self._unsure: set[tuple[str, str]] = set()  # keys to reconcile again, alone
        # Tables whose reconcile is reading the records: what is queued meanwhile is kept.
        self._reconciling: set[str] = set()
        self._writing: set[tuple[str, str]] = set()  # keys whose queued items are being written
        self._reads = 0  # searches under way: the write-behind waits until they are done
        self._appends = AppendBudget()
        # Queued items are embedded and appended while the writer goes on: the next read
        # finds them indexed (or, if it comes first, computed).
        self._ahead = EmbedAhead(index.embedder, then=self._write_behind)

    def queue(self, table: str, item: IndexedText, *, ahead: bool = True) -> None:
        """Index ``item`` at the next sync; before the user's first, its reconcile will.
        ``ahead``: embed it on the embed-ahead thread now; without, it waits for the next
        read or write (one that is about to read without it: its embedding would take the
        cores from that read's own)."""
        key = (table, item.user_id)
        with self._queue_lock:
            queued = table in self._reconciled or table in self._reconciling
            if queued:
                self._pending[key].append(item)
                self._written_users.add(item.user_id)
        if queued and self.writable and ahead:
            self._ahead.add(item.embedded)

    def forget(self, table: str, ids: list[str], *, user_id: str) -> None:
        key = (table, user_id)
        gone = set(ids)
        with self._queue_lock:
            self._pending[key] = [i for i in self._pending[key] if i.id not in gone]
            if key in self._writing:  # a sync may be writing one of them: check the records
                self._unsure.add(key)
        try:
            self.index.delete(table, ids, user_id=user_id)
        except BaseException:
            with self._queue_lock:
                self._unsure.add(key)  # the next sync removes them from the records
            raise

    def recheck(self, table: str, *, user_id: str) -> None:
        """Reconcile the user's index with the records at their next sync: another process
        may have written records it did not index (``index_outbox``)."""
        with self._queue_lock:
            if table in self._reconciled:
                self._unsure.add((table, user_id))

    def sync(self, table: str, *, user_id: str, defer: Collection[str] = ()) -> None:
        """Bring the user's index for ``table`` up to date with the records; queued items
        of the user with an id in ``defer`` (ones the read does not want) may wait."""
        key = (table, user_id)
        with self._lock:
            with self._queue_lock:
                whole = table not in self._reconciled
                alone = not whole and key in self._unsure
                if whole:
                    self._reconciling.add(table)
                    for queued in [k for k in self._pending if k[0] == table]:
                        del self._pending[queued]  # the records hold all of it
                elif alone:  # what is queued from now on is kept: the table is reconciled
                    self._unsure.discard(key)
                    self._pending.pop(key, None)
            if whole:
                try:
                    self._reconcile_table(table)
                except BaseException:
                    with self._queue_lock:
                        self._reconciling.discard(table)
                    raise
                finally:
                    release_freed()  # both sides' reads, kept by malloc (``native_memory``)
                self._now_reconciled(table)
            elif alone:
                try:
                    self._reconcile(table, user_id)
                except BaseException:
                    with self._queue_lock:
                        self._unsure.add(key)
                    raise
            self._write_pending(table, defer=(user_id, defer))

    def _write_pending(self, table: str, *, defer: tuple[str, Collection[str]] = ("", ())) -> None:
        """Every user's queued items of ``table``, in one batch (one embedding run, one
        append), but ``defer``'s user's items with those ids; they leave the queue only once
        written, so a failure retries."""
        later_user, later = defer
        with self._queue_lock:
            pending = {
                key: [i for i in items if key[1] != later_user or i.id not in later]
                for key, items in self._pending.items()
                if items and key[0] == table
            }
            pending = {key: items for key, items in pending.items() if items}
            if not pending:
                return
            self._writing.update(pending)
        self._ahead.wait()  # a batch in flight is not computed twice
        try:
            self.index.add_many(table, {key[1]: items for key, items in pending.items()})
        finally:
            with self._queue_lock:
                self._writing.difference_update(pending)
        written = {id(item) for items in pending.values() for item in items}
        with self._queue_lock:
            for key in pending:
                self._pending[key] = [i for i in self._pending[key] if id(i) not in written]

    def _write_behind(self) -> None:
        """On the embed-ahead thread once its texts are embedded: append what is queued, so
        that a turn's writes are indexed before its next read (the fold stays on its own
        thread). Never while a search is under way: it syncs what it needs itself, and an
        append beside it held its rows' lock and took its CPU (the agent logs the user's
        message, then pages in without it: that append is the search's to start, after).
        First, the read copies of the users written catch up (``on_written``)."""
        self._written()
        self._ahead.pause(self._appends.wait())
        self._written()  # writes made during the pause: their copies too
        with self._queue_lock:
            if self._reads:
                return
        if not self._lock.acquire(blocking=False):
            return
        try:
            with self._queue_lock:
                tables = {
                    key[0]
                    for key, items in self._pending.items()
                    if items and key[0] in self._reconciled and key[0] not in self._reconciling
                }
            if tables:
                self._appends.spend()
            for table in sorted(tables):
                self._write_pending(table)
        except Exception as exc:  # still queued: the next read's sync writes them, or says why
            logger.debug("search index: appending ahead of the next read failed: {}", exc)
        finally:
            self._lock.release()

    def _written(self) -> None:
        if self._on_written is None:
            return
        with self._queue_lock:
            # Every user queued for since the last catch-up, appended or not: a write that
            # an append took before this ran still needs its copies brought up to date.
            users, self._written_users = self._written_users, set()
        if not users:
            return
        try:
            self._on_written(users)
        except Exception as exc:  # the next read brings its copies up to date itself
            logger.debug("search index: read copies not brought up to date ahead: {}", exc)

    def _warm(self, table: str, query: str) -> None:
        """The query embedded with the queued items the embed-ahead thread has not
        embedded; while that thread is still embedding the turn's writes, the query first,
        beside it (one after the other, the read waited for both)."""
        alone = self._ahead.busy()
        if alone:
            self._embed_ahead_of_sync([query])
        self._ahead.wait()
        with self._queue_lock:
            texts = [
                i.embedded for key, items in self._pending.items() if key[0] == table for i in items
            ]
        if texts:  # without any, the route embeds the query itself
            self._embed_ahead_of_sync(texts if alone else [query, *texts])

    def _embed_ahead_of_sync(self, texts: list[str]) -> None:
        try:
            self.index.embedder.embed(texts)
        except (MemvisorError, OSError, RuntimeError) as exc:
            # The sync and the route embed again, and report what fails there.
            logger.debug("search index: embedding ahead of the sync failed: {}", exc)

    def settle(self) -> None:
        """Until what writes started ahead of the next read (embedding, appending) is done."""
        self._ahead.wait()

    def close(self) -> None:
        """Close the index; on the embedded one, mark each table reconciled and fully
        written in this process as matching the records (``reconcile_marks``)."""
        self.settle()
        self.index.close()
        mark_clean = getattr(self.index, "mark_clean", None)  # PostgreSQL has no marks
        if mark_clean is None or not self.writable:
            return
        with self._lock:
            for table in sorted(self._reconciled):
                with self._queue_lock:
                    busy = {key for key, items in self._pending.items() if items}
                    busy |= self._unsure | self._writing
                    clean = table not in self._reconciling and all(k[0] != table for k in busy)
                if not clean:
                    continue
                try:
                    mark_clean(table)
                except MemvisorError as exc:  # only the skip is lost
                    logger.warning("search index: cannot mark {!r} reconciled: {}", table, exc)

    def search(self, table: str, query: str, *, user_id: str, **options: Any) -> list[SearchHit]:
        """``VectorIndex.search`` of an index brought up to date (and healed) first."""
        return self._read(
            table, user_id, lambda: self.index.search(table, query, user_id=user_id, **options)
        )

    def routes(
        self,
        table: str,
        query: str,
        *,
        user_id: str,
        defer: Collection[str] = (),
        **options: Any,
    ) -> RouteHits:
        """``VectorIndex.routes`` of an index brought up to date (and healed) first; the
        query is embedded in one batch with the queued items a sync writes first. Queued
        items with an id in ``defer`` (ones the caller drops from the hits) are appended
        after the read, on the embed-ahead thread: a turn's page-in skips its own message.

        Queued items of the user that no words route can find (``can_score_fresh``) are
        not appended first either: the vector route scores them in memory, exactly as it
        would once they are appended, and they are appended after the read, with the
        turn's next writes as a left-out message is. A read right after a turn's writes
        then skips the append (3-5 ms at 10k rows, timed around ``VectorIndex._write``)."""
        fresh = self._fresh(table, query, user_id, defer, options)
        if not fresh:
            embeds = options.get("vector", True) and options.get("query_vector") is None
            warm = query if embeds else ""
            return self._read(
                table,
                user_id,
                lambda: self.index.routes(table, query, user_id=user_id, **options),
                warm=warm,
                defer=defer,
            )
        return self._read(
            table,
            user_id,
            lambda: self._routes_with_fresh(table, query, user_id, fresh, options),
            defer={*defer, *(item.id for item in fresh)},
        )

    def _fresh(
        self,
        table: str,
        query: str,
        user_id: str,
        defer: Collection[str],
        options: dict[str, Any],
    ) -> list[IndexedText]:
        """The user's queued items (but ``defer``'s) if the read may score them in memory."""
        if not self.writable:
            return []
        with self._queue_lock:
            key = (table, user_id)
            if table not in self._reconciled or key in self._unsure:
                return []  # the sync reconciles first: the records decide, not the queue
            items = [item for item in self._pending.get(key, ()) if item.id not in defer]
        if not items or not self.index.can_score_fresh(
            table, query, items, user_id=user_id, **options
        ):
            return []
        return items

    def _routes_with_fresh(
        self,
        table: str,
        query: str,
        user_id: str,
        fresh: list[IndexedText],
        options: dict[str, Any],
    ) -> RouteHits:
        """The routes of the index as it is, with ``fresh`` scored by vector in memory."""
        if not options.get("vector", True):
            return self.index.routes(table, query, user_id=user_id, **options)
        # As a steady read: the BM25 queries start, the query is embedded beside them (and
        # beside the embed-ahead thread still embedding the turn's writes), the vector route
        # runs; only then does the read wait for the writes' vectors (not computed twice).
        found = self.index.routes(table, query, user_id=user_id, **options)
        self._ahead.wait_embedded()
        vectors = self.index.embedder.embed([item.embedded for item in fresh])
        given = options.get("query_vector")
        if given is None:  # the route's own: the embedder keeps recent vectors
            given = self.index.embedder.embed([query])[0]
        kinds = options.get("kinds")
        kinds = [kinds] if isinstance(kinds, str) else kinds
        scored = [
            (item, vector)
            for item, vector in zip(fresh, vectors, strict=True)
            if kinds is None or item.kind in kinds
        ]
        return with_fresh(found, scored, given, limit=options.get("limit", 10))

    def rebuild(self, table: str, *, user_ids: Sequence[str]) -> dict[str, int]:
        """Index these users' records into a new table, swapped in only when complete.

        The embedder must answer before anything is written; until the swap, searches
        use the old table, and a failure leaves it as it was.
        """
        self.index.embedder.embed(["memvisor index rebuild"])
        counts: dict[str, int] = {}
        with self._lock:
            with self._queue_lock:  # what is queued from now on is written after the swap
                self._reconciled.discard(table)
                self._reconciling.add(table)
                for key in [key for key in self._pending if key[0] == table]:
                    del self._pending[key]
            try:
                self.index.replace(table, self._batches(table, user_ids, counts))
            except BaseException:
                with self._queue_lock:
                    self._reconciling.discard(table)
                raise
            self._now_reconciled(table)
        return counts

    def _now_reconciled(self, table: str) -> None:
        """From reconciling to reconciled in one step: a write committed after the records
        were read is queued in either state, so none falls between them unindexed."""
        with self._queue_lock:
            self._reconciling.discard(table)
            self._reconciled.add(table)
            self._unsure = {k for k in self._unsure if k[0] != table}

    def _batches(
        self, table: str, user_ids: Sequence[str], counts: dict[str, int]
    ) -> Iterator[tuple[str, list[IndexedText]]]:
        for user_id in user_ids:
            items = list({item.id: item for item in self._sources[table].items(user_id)}.values())
            counts[user_id] = len(items)
            for start in range(0, len(items), REBUILD_BATCH):
                yield user_id, items[start : start + REBUILD_BATCH]

    def _read(
        self,
        table: str,
        user_id: str,
        run: Callable[[], T],
        *,
        warm: str = "",
        defer: Collection[str] = (),
    ) -> T:
        """Sync, then ``run``; a damaged index is rebuilt from the records once, then read.
        What is still queued once the last search under way is done (ids it deferred, or
        writes made meanwhile) is appended on the embed-ahead thread. When all of it is
        what this read deferred (a turn's page-in leaves its own message out), it is
        embedded now and appended with the turn's next writes, or ``DEFERRED_LINGER``
        seconds later if none come: one append a turn, not two."""
        with self._queue_lock:
            self._reads += 1
        try:
            return self._sync_and_run(table, user_id, run, warm=warm, defer=defer)
        finally:
            with self._queue_lock:
                self._reads -= 1
                left = [] if self._reads else [i for v in self._pending.values() for i in v]
            if left and self.writable:
                if all(i.user_id == user_id and i.id in defer for i in left):
                    texts = [i.embedded for i in left]
                    self._ahead.then_again(texts=texts, linger=DEFERRED_LINGER)
                else:
                    self._ahead.then_again()

    def _sync_and_run(
        self,
        table: str,
        user_id: str,
        run: Callable[[], T],
        *,
        warm: str = "",
        defer: Collection[str] = (),
    ) -> T:
        try:
            self._sync_for_read(table, user_id, warm=warm, defer=defer)
            return run()
        except IndexDamaged as exc:
            if not self.writable:
                raise IndexDamaged(
                    f"{exc}; a reader cannot rebuild it: run `memvisor memory reindex` with "
                    "write access, when no other process holds the directory"
                ) from exc
            logger.warning("{}: rebuilding it from the records", exc)
            counts = self.rebuild(table, user_ids=self._sources[table].users())
            if self._on_healed is not None:
                self._on_healed(counts, str(exc))
        self._sync_for_read(table, user_id)
        return run()

    def _sync_for_read(
        self, table: str, user_id: str, *, warm: str = "", defer: Collection[str] = ()
    ) -> None:
        """Sync; queued writes that fail stay queued and the read sees what is indexed.

        ``warm``: the read's query, embedded in one batch with the queued items (the
        embedder keeps recent vectors, so the sync and the route find them computed)."""
        if not self.writable:
            return
        key = (table, user_id)
        with self._queue_lock:  # an item leaves the queue only once written
            ready = table in self._reconciled and key not in self._unsure
            if ready and not any(i.id not in defer for i in self._pending.get(key, ())):
                return  # the user's writes are indexed; other users' are appended behind
        with self._lock:
            if table not in self._reconciled or key in self._unsure:
                self.sync(table, user_id=user_id)
                return
            if warm.strip():
                self._warm(table, warm)
            try:
                self.sync(table, user_id=user_id, defer=defer)
            except IndexDamaged:
                raise
            except (MemvisorError, OSError, RuntimeError) as exc:
                with self._queue_lock:
                    waiting = len(self._pending.get(key, []))
                logger.warning(
                    "search index: {} new record(s) of {} not indexed yet, retried on the "
                    "next search: {}",
                    waiting,
                    user_id,
                    exc,
                )

    def _reconcile_table(self, table: str) -> None:
        """Every user's ids and text revisions, each side read once; the rows of users with
        a missing or changed one are then written in one batch, stale ones deleted."""
        wanted = self._sources[table].all_revisions()
        if self._unchanged(table, wanted):
            logger.debug("search index: {!r} is as the last clean close left it", table)
            return
        indexed = self.index.all_revisions(table)
        batch: dict[str, list[IndexedText]] = {}
        for user_id in sorted(set(wanted) | set(indexed)):
            found = self._mend(table, user_id, wanted.get(user_id, {}), indexed.get(user_id, {}))
            if found:
                batch[user_id] = found
            if sum(len(items) for items in batch.values()) >= REBUILD_BATCH:  # bounds memory
                self.index.add_many(table, batch)
                batch = {}
        self.index.add_many(table, batch)

    def _unchanged(self, table: str, wanted: dict[str, dict[str, str]]) -> bool:
        """True when the embedded index is at the version its last clean close marked and
        the records' ids and revisions digest as that version's rows did."""
        clean_mark = getattr(self.index, "clean_mark", None)  # PostgreSQL: always reconcile
        mark = clean_mark(table) if clean_mark is not None else None
        return mark is not None and mark.digest == revisions_digest(wanted)

    def _reconcile(self, table: str, user_id: str) -> None:
        """Ids and text revisions first: items (every record of the user) are built only
        if some are missing or changed."""
        wanted = self._sources[table].revisions(user_id)
        found = self._mend(table, user_id, wanted, self.index.revisions(table, user_id=user_id))
        self.index.add_many(table, {user_id: found})

    def _mend(
        self, table: str, user_id: str, wanted: dict[str, str], indexed: dict[str, str]
    ) -> list[IndexedText]:
        """Delete the user's stale rows; return the items missing or changed."""
        stale = sorted(set(indexed) - set(wanted))
        if stale:
            self.index.delete(table, stale, user_id=user_id)
        changed = {rid for rid, revision in wanted.items() if indexed.get(rid) != revision}
        if not changed:
            return []
        records = {item.id: item for item in self._sources[table].items(user_id)}
        # An item whose vector reads a changed record's text as its context changed with it
        # (a forget redacts a turn; the turn after it was embedded with the value): its own
        # text and revision did not, so a crash before its re-embedding would leave it stale.
        changed |= {rid for rid, item in records.items() if item.context_of in changed}
        return [item for rid, item in records.items() if rid in changed]
