"""How page-in items were used: paged in, cited in an answer, corrected by the user."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any, Literal, NamedTuple

from memvisor.errors import UserError

from .clock import Clock
from .database import Database, db_time, from_db_time
from .records import Record
from .user_rows import UsersWithRows
from .users import require_user

Outcome = Literal["paged_in", "cited", "corrected"]


class UsageRow(Record):
    """One item's use as an export carries it."""

    user_id: str
    item_id: str
    paged_in: int = 0
    cited: int = 0
    corrected: int = 0
    last_used_at: datetime | None = None


class UsageStats(NamedTuple):
    paged_in: int
    cited: int
    corrected: int
    last_used_at: datetime  # aware UTC: the last time it was paged in, cited or corrected


class MemoryUsage:
    def __init__(self, db: Database, clock: Clock) -> None:
        self._db = db
        self._clock = clock
        # Per user: every row, and the table generation it was read at (page-in reads
        # this on every turn; rows change only when an answer cites or is corrected).
        self._cache: dict[str, tuple[int, dict[str, UsageStats]]] = {}
        self._users = UsersWithRows(db, "memory_usage")  # a user never paged in has none

    def record(self, ids: Iterable[str], outcome: Outcome, *, user_id: str) -> None:
        ids = [i for i in dict.fromkeys(ids) if i]
        if not ids:
            return
        require_user(user_id)
        column = {"paged_in": "paged_in", "cited": "cited", "corrected": "corrected"}[outcome]
        now = db_time(self._clock.now())
        with self._db.transaction() as conn:
            for item_id in ids:
                conn.execute(
                    f"INSERT INTO memory_usage (user_id, item_id, {column}, last_used_at) "
                    f"VALUES (?, ?, 1, ?) ON CONFLICT (user_id, item_id) DO UPDATE SET "
                    f"{column} = memory_usage.{column} + 1, last_used_at = excluded.last_used_at",
                    [user_id, item_id, now],
                )

    def stats(self, ids: Sequence[str], *, user_id: str) -> dict[str, UsageStats]:
        """Use of each of these ids that has any."""
        if not self._users.has_rows(require_user(user_id)):
            return {}
        generation = self._db.generation("memory_usage")
        cached = self._cache.get(user_id)
        if cached is None or cached[0] != generation:
            rows = self._db.query(
                "SELECT item_id, paged_in, cited, corrected, last_used_at FROM memory_usage "
                "WHERE user_id = ?",
                [user_id],
            )
            used = {r[0]: UsageStats(r[1], r[2], r[3], from_db_time(r[4])) for r in rows}
            cached = self._cache[user_id] = (generation, used)
        return {i: cached[1][i] for i in ids if i in cached[1]}

    def rows(self, *, user_id: str) -> list[UsageRow]:
        """Every usage row of the user, by item id."""
        rows = self._db.query(
            "SELECT user_id, item_id, paged_in, cited, corrected, last_used_at "
            "FROM memory_usage WHERE user_id = ? ORDER BY item_id",
            [require_user(user_id)],
        )
        return [
            UsageRow(
                user_id=r[0],
                item_id=r[1],
                paged_in=r[2],
                cited=r[3],
                corrected=r[4],
                last_used_at=from_db_time(r[5]),
            )
            for r in rows
        ]

    def restore(self, row: UsageRow, *, user_id: str, conn: Any) -> None:
        """Write a usage row exactly as exported, replacing the item's (import path)."""
        if row.user_id != user_id:
            raise UserError(f"usage of {row.item_id} belongs to another user")
        conn.execute(
            "INSERT INTO memory_usage (user_id, item_id, paged_in, cited, corrected, "
            "last_used_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (user_id, item_id) DO UPDATE "
            "SET paged_in = excluded.paged_in, cited = excluded.cited, "
            "corrected = excluded.corrected, last_used_at = excluded.last_used_at",
            [
                user_id,
                row.item_id,
                row.paged_in,
                row.cited,
                row.corrected,
                db_time(row.last_used_at),
            ],
        )
