"""Keeps the LanceDB search index in step with the DuckDB records it is derived from.

Records are acknowledged once DuckDB commits; indexing them (embedding + a
LanceDB append) happens in batches before the next search. If a process dies
before that, the first search of the next process reconciles the index with
the records, so nothing committed is ever unsearchable for long and nothing
forgotten stays findable. The sources leave archived records out, so a
reconcile removes them from the index and never adds them back.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable

from .vectors import IndexedText, VectorIndex

SourceFn = Callable[[str], list[IndexedText]]


class IndexSync:
    def __init__(self, index: VectorIndex, sources: dict[str, SourceFn]) -> None:
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

    def _reconcile(self, table: str, user_id: str) -> None:
        records = {item.id: item for item in self._sources[table](user_id)}
        indexed = self.index.ids(table, user_id=user_id)
        missing = [item for rid, item in records.items() if rid not in indexed]
        stale = [rid for rid in indexed if rid not in records]
        if stale:
            self.index.delete(table, stale, user_id=user_id)
        if missing:
            self.index.add(table, missing, user_id=user_id)
