"""This process's copy of each user's indexed rows, without vectors, for search hits.

A LanceDB query that returns only ids and scores costs about half of one that also reads
text, time, session and meta for every hit (100k rows: 4 instead of 7.5 ms for BM25, 6.5
instead of 9 for vectors), and page-in runs both on every request. So searches fetch ids
and scores, and the rest comes from here: one read of the user's rows on first use
(~150 ms and ~25 MB per 100k rows), then kept current by the index's own writes, which
are the only writes (one process owns a store).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import pyarrow as pa

# (table, user) copies held at once; an agent serves one user, evals a few.
MAX_COPIES = 8
# Each write appends a chunk; past this many, the appended ones are merged into one.
MAX_CHUNKS = 32

Loader = Callable[[str, str], pa.Table]


@dataclass
class _Rows:
    chunks: list[pa.Table]
    where: dict[str, tuple[int, int]] = field(default_factory=dict)  # id -> (chunk, row)

    def append(self, data: pa.Table) -> None:
        self.chunks.append(data)
        chunk = len(self.chunks) - 1
        for row, row_id in enumerate(data.column("id").to_pylist()):
            self.where[row_id] = (chunk, row)  # a re-added id: its newest row wins
        if len(self.chunks) > MAX_CHUNKS:
            self._merge_appended()

    def _merge_appended(self) -> None:
        live: dict[int, list[tuple[str, int]]] = {}
        for row_id, (chunk, row) in self.where.items():
            if chunk:
                live.setdefault(chunk, []).append((row_id, row))
        parts = [self.chunks[c].take([row for _, row in rows]) for c, rows in live.items()]
        self.chunks = self.chunks[:1]
        if parts:
            merged = pa.concat_tables(parts).combine_chunks()
            self.chunks.append(merged)
            ids = [row_id for rows in live.values() for row_id, _ in rows]
            for row, row_id in enumerate(ids):
                self.where[row_id] = (1, row)


class IndexRows:
    """Rows by id for (table, user), loaded on first use; writes must be reported."""

    def __init__(self, load: Loader) -> None:
        self._load = load
        self._copies: OrderedDict[tuple[str, str], _Rows] = OrderedDict()

    def get(self, table: str, user_id: str, ids: Sequence[str]) -> dict[str, dict[str, Any]]:
        """The rows of these ids that this user has in ``table``, by id."""
        rows = self._rows(table, user_id)
        picked: dict[int, list[tuple[str, int]]] = {}
        for row_id in dict.fromkeys(ids):
            if (at := rows.where.get(row_id)) is not None:
                picked.setdefault(at[0], []).append((row_id, at[1]))
        out: dict[str, dict[str, Any]] = {}
        for chunk, wanted in picked.items():
            taken = rows.chunks[chunk].take([row for _, row in wanted])
            for (row_id, _), values in zip(wanted, taken.to_pylist(), strict=True):
                out[row_id] = values
        return out

    def added(self, table: str, user_id: str, data: pa.Table) -> None:
        """Rows just written; a copy not loaded yet reads them from disk when it is."""
        rows = self._copies.get((table, user_id))
        if rows is not None:
            rows.append(data)

    def deleted(self, table: str, user_id: str, ids: Sequence[str]) -> None:
        rows = self._copies.get((table, user_id))
        if rows is not None:
            for row_id in ids:
                rows.where.pop(row_id, None)

    def forget(self, table: str, user_id: str | None = None) -> None:
        """Drop the copies of ``table`` (of one user, or all): they are read again."""
        for key in [k for k in self._copies if k[0] == table and user_id in (None, k[1])]:
            del self._copies[key]

    def _rows(self, table: str, user_id: str) -> _Rows:
        key = (table, user_id)
        rows = self._copies.get(key)
        if rows is None:
            rows = _Rows([])
            # One chunk: a take from LanceDB's ~100 record batches costs 2.8 instead of 0.2 ms.
            rows.append(self._load(table, user_id).combine_chunks())
            self._copies[key] = rows
            while len(self._copies) > MAX_COPIES:
                self._copies.popitem(last=False)
        else:
            self._copies.move_to_end(key)
        return rows
