"""Which users have any row in a table: a read for a user with none needs no query.

A server with many users meets most of them cold: its per-user caches (a user's recipes, a
user's usage counts) are empty, and each first read costs a query, about a millisecond
of DuckDB's fixed cost even on an empty table. Most users have no recipe and no usage row,
so one ``SELECT DISTINCT user_id`` each time the table moves answers all of them at once.
"""

from __future__ import annotations

import threading

from .database import Database


class UsersWithRows:
    """``has_rows(user_id)``: whether ``table`` holds any row of the user, from a set read
    again only when the table's generation moved (a commit wrote it)."""

    def __init__(self, db: Database, table: str) -> None:
        self._db = db
        self._table = table
        self._seen: tuple[int, frozenset[str]] | None = None
        self._lock = threading.Lock()

    def has_rows(self, user_id: str) -> bool:
        # The generation is read before the rows: rows newer than it only refresh early.
        generation = self._db.generation(self._table)
        with self._lock:
            if self._seen is None or self._seen[0] != generation:
                rows = self._db.query(f"SELECT DISTINCT user_id FROM {self._table}")
                self._seen = (generation, frozenset(r[0] for r in rows))
            return user_id in self._seen[1]
