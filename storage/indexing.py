"""Keeps the search index in step with the records it is derived from: LanceDB beside
DuckDB, or pgvector beside PostgreSQL (any ``search_index.SearchIndex``; the words below
name the embedded pair).

Records are acknowledged once DuckDB commits; indexing them (embedding + a LanceDB
append) happens in batches before the next search. Queued work stays queued until a
write succeeds, so a record whose indexing failed becomes searchable in the same process
once the index can be written again. The first search of a user in a process reconciles
the index with the records by id and by text revision, so a process that died before
indexing (or before re-indexing a text a forget redacted) leaves nothing unsearchable or
stale for long. The sources leave archived records out, so a reconcile removes them from
the index and never adds them back.

A rebuild (``memvisor memory reindex``, or by itself when a search finds the index's
files damaged) builds a new table from the records and swaps it in when complete.
"""

from __future__ import annotations

import threading
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from loguru import logger

from memvisor.errors import IndexDamaged, MemvisorError

from .search_index import SearchIndex
from .vectors import IndexedText, RouteHits, SearchHit

REBUILD_BATCH = 2_000  # items embedded and appended at once by a rebuild: bounds memory

T = TypeVar("T")


@dataclass(frozen=True)
class IndexSource:
    """What a table must hold for a user: the items, their ids with the text revision of
    each (cheap to read), and every user who has records."""

    items: Callable[[str], list[IndexedText]]
    revisions: Callable[[str], dict[str, str]]
    users: Callable[[], list[str]]


# Told of a rebuild the index did by itself: the items per user, and the damage found.
Healed = Callable[[dict[str, int], str], None]


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
        writable: bool = True,
    ) -> None:
        self.index = index
        self._sources = sources
        self._on_healed = on_healed
        # A read-only store's index is searched as it is: nothing synced, healed or rebuilt.
        self.writable = writable
        self._lock = threading.RLock()
        self._queue_lock = threading.Lock()
        self._pending: dict[tuple[str, str], list[IndexedText]] = defaultdict(list)
        self._reconciled: set[tuple[str, str]] = set()
        # Keys whose reconcile is reading the records: what is queued meanwhile is kept.
        self._reconciling: set[tuple[str, str]] = set()
        self._writing: set[tuple[str, str]] = set()  # keys whose queued items are being written

    def queue(self, table: str, item: IndexedText) -> None:
        """Index ``item`` at the next sync; before the user's first, its reconcile will."""
        key = (table, item.user_id)
        with self._queue_lock:
            if key in self._reconciled or key in self._reconciling:
                self._pending[key].append(item)

    def forget(self, table: str, ids: list[str], *, user_id: str) -> None:
        key = (table, user_id)
        gone = set(ids)
        with self._queue_lock:
            self._pending[key] = [i for i in self._pending[key] if i.id not in gone]
            if key in self._writing:  # a sync may be writing one of them: check the records
                self._reconciled.discard(key)
        try:
            self.index.delete(table, ids, user_id=user_id)
        except BaseException:
            with self._queue_lock:
                self._reconciled.discard(key)  # the next sync removes them from the records
            raise

    def sync(self, table: str, *, user_id: str) -> None:
        """Bring the user's index for ``table`` up to date with the records."""
        key = (table, user_id)
        with self._lock:
            with self._queue_lock:
                reconciled = key in self._reconciled
                if not reconciled:
                    self._reconciling.add(key)
                    self._pending.pop(key, None)  # the records hold all of it
            if not reconciled:
                try:
                    self._reconcile(table, user_id)
                finally:
                    with self._queue_lock:
                        self._reconciling.discard(key)
                with self._queue_lock:
                    self._reconciled.add(key)
            self._write_pending(table, key)

    def _write_pending(self, table: str, key: tuple[str, str]) -> None:
        """The queued items, which leave the queue only once written: a failure retries."""
        with self._queue_lock:
            pending = list(self._pending.get(key, []))
            if not pending:
                return
            self._writing.add(key)
        try:
            self.index.add(table, pending, user_id=key[1])
        finally:
            with self._queue_lock:
                self._writing.discard(key)
        written = {id(item) for item in pending}
        with self._queue_lock:
            self._pending[key] = [i for i in self._pending[key] if id(i) not in written]

    def search(self, table: str, query: str, *, user_id: str, **options: Any) -> list[SearchHit]:
        """``VectorIndex.search`` of an index brought up to date (and healed) first."""
        return self._read(
            table, user_id, lambda: self.index.search(table, query, user_id=user_id, **options)
        )

    def routes(self, table: str, query: str, *, user_id: str, **options: Any) -> RouteHits:
        """``VectorIndex.routes`` of an index brought up to date (and healed) first."""
        return self._read(
            table, user_id, lambda: self.index.routes(table, query, user_id=user_id, **options)
        )

    def rebuild(self, table: str, *, user_ids: Sequence[str]) -> dict[str, int]:
        """Index these users' records into a new table, swapped in only when complete.

        The embedder must answer before anything is written; until the swap, searches
        use the old table, and a failure leaves it as it was.
        """
        self.index.embedder.embed(["memvisor index rebuild"])
        counts: dict[str, int] = {}
        with self._lock:
            with self._queue_lock:  # what is queued from now on is written after the swap
                self._reconciled = {key for key in self._reconciled if key[0] != table}
                self._reconciling.update((table, user_id) for user_id in user_ids)
                for key in [key for key in self._pending if key[0] == table]:
                    del self._pending[key]
            try:
                self.index.replace(table, self._batches(table, user_ids, counts))
            finally:
                with self._queue_lock:
                    self._reconciling.difference_update((table, u) for u in user_ids)
            with self._queue_lock:
                self._reconciled.update((table, user_id) for user_id in user_ids)
        return counts

    def _batches(
        self, table: str, user_ids: Sequence[str], counts: dict[str, int]
    ) -> Iterator[tuple[str, list[IndexedText]]]:
        for user_id in user_ids:
            items = list({item.id: item for item in self._sources[table].items(user_id)}.values())
            counts[user_id] = len(items)
            for start in range(0, len(items), REBUILD_BATCH):
                yield user_id, items[start : start + REBUILD_BATCH]

    def _read(self, table: str, user_id: str, run: Callable[[], T]) -> T:
        """Sync, then ``run``; a damaged index is rebuilt from the records once, then read."""
        try:
            self._sync_for_read(table, user_id)
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

    def _sync_for_read(self, table: str, user_id: str) -> None:
        """Sync; queued writes that fail stay queued and the read sees what is indexed."""
        if not self.writable:
            return
        key = (table, user_id)
        with self._lock:
            if key not in self._reconciled:
                self.sync(table, user_id=user_id)
                return
            try:
                self.sync(table, user_id=user_id)
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

    def _reconcile(self, table: str, user_id: str) -> None:
        """Ids and text revisions first: items (every record of the user) are built only
        if some are missing or changed."""
        source = self._sources[table]
        wanted = source.revisions(user_id)
        indexed = self.index.revisions(table, user_id=user_id)
        stale = sorted(set(indexed) - set(wanted))
        if stale:
            self.index.delete(table, stale, user_id=user_id)
        changed = {rid for rid, revision in wanted.items() if indexed.get(rid) != revision}
        if changed:
            records = {item.id: item for item in source.items(user_id)}
            self.index.add(
                table, [item for rid, item in records.items() if rid in changed], user_id=user_id
            )
