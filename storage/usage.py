"""How page-in items were used: paged in, cited in an answer, corrected by the user."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Literal

from .clock import Clock
from .database import Database, db_time
from .users import require_user

Outcome = Literal["paged_in", "cited", "corrected"]


class MemoryUsage:
    def __init__(self, db: Database, clock: Clock) -> None:
        self._db = db
        self._clock = clock

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

    def stats(self, ids: Sequence[str], *, user_id: str) -> dict[str, tuple[int, int, int]]:
        """``id -> (paged_in, cited, corrected)`` for the ids that have any use."""
        if not ids:
            return {}
        rows = self._db.query(
            "SELECT item_id, paged_in, cited, corrected FROM memory_usage "
            "WHERE user_id = ? AND item_id IN (SELECT unnest(?))",
            [require_user(user_id), list(ids)],
        )
        return {r[0]: (r[1], r[2], r[3]) for r in rows}
