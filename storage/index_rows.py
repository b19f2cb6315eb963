"""This process's copy of each user's indexed rows, without vectors, for search hits.

A LanceDB query that returns only ids and scores costs about half of one that also reads
text, time, session and meta for every hit (100k rows: 4 instead of 7.5 ms for BM25, 6.5
instead of 9 for vectors), and page-in runs both on every request. So searches fetch ids
and scores, and the rest comes from here: one read of the user's rows on first use
(~150 ms and ~25 MB per 100k rows), then kept current by the index's own writes, which
are the only writes (one process owns a store). Not thread-safe: ``VectorIndex``
holds its lock around every call.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any

import pyarrow as pa

from .arrow_rows import RowsById

# (table, user) copies held at once; an agent serves one user, evals a few.
MAX_COPIES = 8

Loader = Callable[[str, str], pa.Table]


class IndexRows:
    """Rows by id for (table, user), loaded on first use; writes must be reported."""

    def __init__(self, load: Loader) -> None:
        self._load = load
        self._copies: OrderedDict[tuple[str, str], RowsById] = OrderedDict()

    def get(self, table: str, user_id: str, ids: Sequence[str]) -> dict[str, dict[str, Any]]:
        """The rows of these ids that this user has in ``table``, by id."""
        return self._rows(table, user_id).get(ids)

    def ids(self, table: str, user_id: str) -> set[str]:
        return self._rows(table, user_id).ids()

    def texts(self, table: str, user_id: str) -> dict[str, str]:
        """Each id's indexed text (what the index sync compares with the records)."""
        return self._rows(table, user_id).column("text")

    def may_hold(self, table: str, user_id: str, ids: Sequence[str]) -> bool:
        """False only when a loaded copy shows none of these ids (no need to ask LanceDB)."""
        rows = self._copies.get((table, user_id))
        return rows is None or rows.has_any(ids)

    def added(self, table: str, user_id: str, data: pa.Table) -> None:
        """Rows just written; a copy not loaded yet reads them from disk when it is."""
        rows = self._copies.get((table, user_id))
        if rows is not None:
            rows.append(data)

    def deleted(self, table: str, user_id: str, ids: Sequence[str]) -> None:
        rows = self._copies.get((table, user_id))
        if rows is not None:
            rows.remove(ids)

    def forget(self, table: str, user_id: str | None = None) -> None:
        """Drop the copies of ``table`` (of one user, or all): they are read again."""
        for key in [k for k in self._copies if k[0] == table and user_id in (None, k[1])]:
            del self._copies[key]

    def _rows(self, table: str, user_id: str) -> RowsById:
        key = (table, user_id)
        rows = self._copies.get(key)
        if rows is None:
            rows = self._copies[key] = RowsById(self._load(table, user_id))
            while len(self._copies) > MAX_COPIES:
                self._copies.popitem(last=False)
        else:
            self._copies.move_to_end(key)
        return rows
