"""Tombstones as records: read, restore, and the ids a user has forgotten.

``FactStore.forget`` writes a tombstone per fact version (``forgetting.py`` says why). An
export carries them, so a forgotten record stays forgotten in the store it is imported into.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from pydantic import Field

from memvisor.errors import UserError

from .database import Database, db_time, from_db_time
from .records import Record
from .users import require_user

_COLUMNS = (
    "user_id, record_id, kind, fingerprint, source_event_ids, forgotten_at, trace_id, source_hashes"
)


class Tombstone(Record):
    user_id: str
    record_id: str
    kind: str
    fingerprint: str
    source_event_ids: list[str] = Field(default_factory=list)
    forgotten_at: datetime
    trace_id: str
    source_hashes: list[str] = Field(default_factory=list)


def list_tombstones(db: Database, *, user_id: str) -> list[Tombstone]:
    """Every tombstone of the user, oldest first."""
    rows = db.query(
        f"SELECT {_COLUMNS} FROM tombstones WHERE user_id = ? "
        "ORDER BY forgotten_at, record_id, fingerprint",
        [require_user(user_id)],
    )
    return [_tombstone(r) for r in rows]


def restore_tombstone(tombstone: Tombstone, *, user_id: str, conn: Any) -> None:
    """Insert a tombstone exactly as exported; runs in the caller's transaction."""
    if tombstone.user_id != user_id:
        raise UserError(f"tombstone of {tombstone.record_id} belongs to another user")
    conn.execute(
        f"INSERT INTO tombstones ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [
            user_id,
            tombstone.record_id,
            tombstone.kind,
            tombstone.fingerprint,
            tombstone.source_event_ids,
            db_time(tombstone.forgotten_at),
            tombstone.trace_id,
            tombstone.source_hashes,
        ],
    )


def forgotten_ids(db: Database, *, user_id: str) -> set[str]:
    """Every record id the user forgot.

    Only facts leave tombstones; a forgotten passage or quarantined write, and the passages and
    recipes a fact's forget removed with it, are named by the ``memory_forget`` event alone.
    """
    require_user(user_id)
    ids = {r[0] for r in db.query("SELECT record_id FROM tombstones WHERE user_id = ?", [user_id])}
    for (payload,) in db.query(
        "SELECT payload FROM events WHERE user_id = ? AND kind = 'memory_forget'", [user_id]
    ):
        ids.update(forget_event_ids(json.loads(payload)))
    return ids


def forget_event_ids(payload: dict[str, Any]) -> set[str]:
    """The record ids a ``memory_forget`` event's payload names as removed."""
    named = [payload.get("id"), *payload.get("removed", []), *payload.get("deleted_recipes", [])]
    return {i for i in named if isinstance(i, str)}


def _tombstone(row: tuple[Any, ...]) -> Tombstone:
    return Tombstone(
        user_id=row[0],
        record_id=row[1],
        kind=row[2],
        fingerprint=row[3],
        source_event_ids=list(row[4] or []),
        forgotten_at=from_db_time(row[5]),
        trace_id=row[6],
        source_hashes=list(row[7] or []),
    )
