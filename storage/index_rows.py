"""This process's copy of each table's indexed rows, without vectors, for search hits.

A LanceDB query that returns only ids and scores costs about half of one that also reads
text, time, session and meta for every hit (100k rows: 4 instead of 7.5 ms for BM25, 6.5
instead of 9 for vectors), and page-in runs both on every request. So searches fetch ids
and scores, and the rest comes from here: one read of the table's rows on first use
(~150 ms and ~25 MB per 100k rows), then kept current by the index's own writes, which
are the only writes (one process owns a store).

One copy per table, every user's rows in it: a server answering a thousand users reads
the table once, where a copy per user was read again each time a user came back after
others had pushed it out. Each row keeps its ``user_id``, and every read names its user:
a row of another user is never returned, whatever id is asked for. Not thread-safe:
``VectorIndex`` holds its lock around every call.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import pyarrow as pa

from .arrow_rows import RowsById

Loader = Callable[[str], pa.Table]  # every row of a table, with a ``user_id`` column


class IndexRows:
    """Rows by id for each (table, user), every user's read at once on the table's first
    use; writes must be reported. Ids are a user's own: two users may hold the same id."""

    def __init__(self, load: Loader) -> None:
        self._load = load
        self._copies: dict[str, dict[str, RowsById]] = {}  # table -> user -> rows

    def get(self, table: str, user_id: str, ids: Sequence[str]) -> dict[str, dict[str, Any]]:
        """The rows of these ids that this user has in ``table``, by id."""
        rows = self._copy(table).get(user_id)
        return {} if rows is None else rows.get(ids)

    def ids(self, table: str, user_id: str) -> set[str]:
        rows = self._copy(table).get(user_id)
        return set() if rows is None else rows.ids()

    def texts(self, table: str, user_id: str) -> dict[str, str]:
        """Each of the user's ids with its indexed text (what the index sync compares)."""
        rows = self._copy(table).get(user_id)
        return {} if rows is None else rows.column("text")

    def iter_texts(self, table: str) -> Iterator[tuple[str, str, str]]:
        """(user, id, text) of every row, a few thousand turned into Python values at a time."""
        for user_id, rows in self._copy(table).items():
            for row_id, text in rows.iter_column("text"):
                yield user_id, row_id, text

    def count(self, table: str, user_id: str) -> int:
        rows = self._copy(table).get(user_id)
        return 0 if rows is None else len(rows)

    def users(self, table: str) -> set[str]:
        return {user_id for user_id, rows in self._copy(table).items() if len(rows)}

    def may_hold(self, table: str, user_id: str, ids: Sequence[str]) -> bool:
        """False only when the loaded copy shows none of these ids (no need to ask LanceDB)."""
        copy = self._copies.get(table)
        if copy is None:
            return True
        rows = copy.get(user_id)
        return rows is not None and rows.has_any(ids)

    def added(self, table: str, data: pa.Table) -> None:
        """Rows just written, of one user or several; a copy not loaded yet reads them when
        it is."""
        copy = self._copies.get(table)
        if copy is None:
            return
        for user_id, part in _by_user(data).items():
            if (rows := copy.get(user_id)) is None:
                copy[user_id] = RowsById(part)
            else:
                rows.append(part)

    def deleted(self, table: str, user_id: str, ids: Sequence[str]) -> None:
        rows = self._copies.get(table, {}).get(user_id)
        if rows is not None:
            rows.remove(ids)

    def seed(self, table: str, data: pa.Table) -> None:
        """Take ``data`` (every row of ``table``, just read) as the copy, if none is loaded."""
        if table not in self._copies:
            self._copies[table] = _copied(data)

    def forget(self, table: str) -> None:
        """Drop the copy of ``table``: it is read again on next use."""
        self._copies.pop(table, None)

    def _copy(self, table: str) -> dict[str, RowsById]:
        copy = self._copies.get(table)
        if copy is None:
            copy = self._copies[table] = _copied(self._load(table))
        return copy


def _copied(data: pa.Table) -> dict[str, RowsById]:
    return {user: RowsById(part) for user, part in _by_user(data).items()}


def _by_user(data: pa.Table) -> dict[str, pa.Table]:
    """Rows split by their ``user_id``, each user's in one chunk."""
    positions: defaultdict[str, list[int]] = defaultdict(list)
    for row, user_id in enumerate(data.column("user_id").to_pylist()):
        positions[user_id].append(row)
    if len(positions) == 1:
        return {user_id: data for user_id in positions}
    return {user_id: data.take(rows) for user_id, rows in positions.items()}
