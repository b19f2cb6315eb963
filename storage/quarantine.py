"""Writes held back by the firewall or the confidence floor, awaiting confirmation."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from memvisor.errors import NotFound, UserError

from .clock import Clock
from .database import Database, db_time, from_db_time
from .ids import new_id
from .records import QuarantineItem
from .users import require_user

_COLUMNS = (
    "id, user_id, tool, arguments, reasons, confidence, status, created_at, resolved_at, "
    "source_event_ids, trace_id"
)


class Quarantine:
    def __init__(self, db: Database, clock: Clock) -> None:
        self._db = db
        self._clock = clock

    def hold(
        self,
        *,
        user_id: str,
        tool: str,
        arguments: dict[str, Any],
        reasons: Sequence[str],
        trace_id: str,
        confidence: float | None = None,
        source_event_ids: Sequence[str] = (),
    ) -> QuarantineItem:
        require_user(user_id)
        if not reasons:
            raise UserError("a quarantined write needs at least one reason")
        item = QuarantineItem(
            id=new_id("qtn"),
            user_id=user_id,
            tool=tool,
            arguments=arguments,
            reasons=list(reasons),
            confidence=confidence,
            status="held",
            created_at=self._clock.now(),
            source_event_ids=list(source_event_ids),
            trace_id=trace_id,
        )
        with self._db.transaction() as conn:
            self.restore(item, user_id=user_id, conn=conn)
        return item

    def get(self, item_id: str, *, user_id: str) -> QuarantineItem:
        rows = self._db.query(
            f"SELECT {_COLUMNS} FROM quarantine WHERE user_id = ? AND id = ?",
            [require_user(user_id), item_id],
        )
        if not rows:
            raise NotFound(
                f"no quarantined write {item_id!r} for user {user_id!r}; list them "
                "with `memvisor memory list --quarantine`"
            )
        return _item(rows[0])

    def list(self, *, user_id: str, status: str | None = "held") -> list[QuarantineItem]:
        sql = f"SELECT {_COLUMNS} FROM quarantine WHERE user_id = ?"
        params: list[Any] = [require_user(user_id)]
        if status:
            sql += " AND status = ?"
            params.append(status)
        return [_item(r) for r in self._db.query(sql + " ORDER BY created_at, id", params)]

    def resolve(self, item_id: str, *, user_id: str, status: str, conn: Any) -> QuarantineItem:
        if status not in ("released", "rejected"):
            raise UserError("a quarantined write is resolved as released or rejected")
        item = self.get(item_id, user_id=user_id)
        if item.status != "held":
            raise UserError(f"quarantined write {item_id} is already {item.status}")
        conn.execute(
            "UPDATE quarantine SET status = ?, resolved_at = ? WHERE user_id = ? AND id = ?",
            [status, db_time(self._clock.now()), user_id, item_id],
        )
        return item.model_copy(update={"status": status, "resolved_at": self._clock.now()})

    def delete(self, item_id: str, *, user_id: str, conn: Any) -> None:
        self.get(item_id, user_id=user_id)
        conn.execute("DELETE FROM quarantine WHERE user_id = ? AND id = ?", [user_id, item_id])

    def restore(self, item: QuarantineItem, *, user_id: str, conn: Any) -> None:
        if item.user_id != user_id:
            raise UserError(f"quarantined write {item.id} belongs to another user")
        conn.execute("DELETE FROM quarantine WHERE user_id = ? AND id = ?", [user_id, item.id])
        conn.execute(
            f"INSERT INTO quarantine ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                item.id,
                user_id,
                item.tool,
                json.dumps(item.arguments, ensure_ascii=False),
                item.reasons,
                item.confidence,
                item.status,
                db_time(item.created_at),
                db_time(item.resolved_at),
                item.source_event_ids,
                item.trace_id,
            ],
        )


def _item(row: tuple[Any, ...]) -> QuarantineItem:
    return QuarantineItem(
        id=row[0],
        user_id=row[1],
        tool=row[2],
        arguments=json.loads(row[3]),
        reasons=list(row[4]),
        confidence=row[5],
        status=row[6],
        created_at=from_db_time(row[7]),
        resolved_at=from_db_time(row[8]),
        source_event_ids=list(row[9] or []),
        trace_id=row[10],
    )
