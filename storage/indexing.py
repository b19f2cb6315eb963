"""Keeps the LanceDB search index in step with the DuckDB records it is derived from.

Records are acknowledged once DuckDB commits; indexing them (embedding + a
LanceDB append) happens in batches before the next search. If a process dies
before that, the first search of the next process reconciles the index with
the records, so nothing committed is ever unsearchable for long and nothing
forgotten stays findable. The sources leave archived records out, so a
reconcile removes them from the index and never adds them back. A rebuild
(``memvisor memory reindex``) drops the index and builds it again from the
records, for when the embedding model changed.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .vectors import IndexedText, VectorIndex

REBUILD_BATCH = 2_000  # items embedded and appended at once by a rebuild: bounds memory


@dataclass(frozen=True)
class IndexSource:
    """What a table must hold for a user: the items, and just their ids (cheap to read)."""

    items: Callable[[str], list[IndexedText]]
    ids: Callable[[str], set[str]]


class IndexSync:
    def __init__(self, index: VectorIndex, sources: dict[str, IndexSource]) -> None:
        self.index = index
        self._sources = sources
        self._pending: dict[tuple[str, str], list[IndexedText]] = defaultdict(list)
        self._reconciled: set[tuple[str, str]] = set()

    def queue(self, table: str, item: IndexedText) -> None:
        key = (table, item.user_id)
        if key in self._reconciled:
            self._pending[key].append(item)

    def forget(self, table: str, ids: list[str], *, user_id: str) -> None:
        key = (table, user_id)
        self._pending[key] = [i for i in self._pending[key] if i.id not in set(ids)]
        self.index.delete(table, ids, user_id=user_id)

    def sync(self, table: str, *, user_id: str) -> None:
        """Bring the user's index for ``table`` up to date with the records."""
        key = (table, user_id)
        if key not in self._reconciled:
            self._reconcile(table, user_id)
            self._reconciled.add(key)
            self._pending.pop(key, None)
            return
        pending = self._pending.pop(key, [])
        if pending:
            self.index.add(table, pending, user_id=user_id)

    def rebuild(self, table: str, *, user_ids: Sequence[str]) -> dict[str, int]:
        """Drop ``table`` and index these users' records anew; items indexed per user.

        The embedder must answer before anything is dropped. A rebuild cut short is
        finished user by user by their next search (its reconcile), as long as that
        runs with the same embedder.
        """
        self.index.embedder.embed(["memvisor index rebuild"])
        self.index.drop(table)
        self._reconciled = {key for key in self._reconciled if key[0] != table}
        for key in [key for key in self._pending if key[0] == table]:
            del self._pending[key]
        counts: dict[str, int] = {}
        for user_id in user_ids:
            items = list({item.id: item for item in self._sources[table].items(user_id)}.values())
            for start in range(0, len(items), REBUILD_BATCH):
                self.index.add(table, items[start : start + REBUILD_BATCH], user_id=user_id)
            self._reconciled.add((table, user_id))
            counts[user_id] = len(items)
        self.index.optimize(table)  # fold the last appends into the indices
        return counts

    def _reconcile(self, table: str, user_id: str) -> None:
        """Ids first: the items (every record of the user) are built only if some are missing."""
        source = self._sources[table]
        wanted = source.ids(user_id)
        indexed = self.index.ids(table, user_id=user_id)
        stale = sorted(indexed - wanted)
        if stale:
            self.index.delete(table, stale, user_id=user_id)
        if wanted - indexed:
            records = {item.id: item for item in source.items(user_id)}
            missing = [item for rid, item in records.items() if rid not in indexed]
            self.index.add(table, missing, user_id=user_id)
