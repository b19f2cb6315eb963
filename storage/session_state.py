"""Task-scoped state of one session: named slots such as the order being discussed.

Slots belong to the current task of one session; a clear topic switch clears them all
(``clear``), while profile facts and core blocks live elsewhere and are never touched.
Values are JSON, capped in size; keys are short identifiers.
"""

from __future__ import annotations

import builtins
import json
import re
from datetime import datetime
from typing import Any, Literal

from memvisor.errors import UserError

from .clock import Clock
from .database import Database, db_time, from_db_time
from .logger import logger
from .records import Record
from .users import require_user

MAX_VALUE_CHARS = 1000  # of the value's JSON: a slot, not a document
MAX_KEYS = 32  # per session
MAX_TOPIC_CHARS = 200
_KEY = re.compile(r"^[A-Za-z][A-Za-z0-9_.-]{0,47}$")
_SESSION = re.compile(r"^\S{1,128}$")

StateAction = Literal["created", "updated", "deleted", "absent"]


class StateSlot(Record):
    """One slot as an export carries it; ``value`` is the decoded JSON."""

    user_id: str
    session_id: str
    key: str
    value: Any
    topic: str | None = None
    updated_at: datetime
    trace_id: str


_SLOT_COLUMNS = "user_id, session_id, key, value, topic, updated_at, trace_id"


class SessionState:
    """``user_id`` and ``session_id`` are explicit on every call; sessions never see each other."""

    def __init__(self, db: Database, clock: Clock) -> None:
        self._db = db
        self._clock = clock

    def set(
        self,
        key: str,
        value: Any,
        *,
        user_id: str,
        session_id: str,
        trace_id: str,
        topic: str | None = None,
    ) -> StateAction:
        """Save one slot (``value`` None deletes it); committed on return."""
        require_user(user_id)
        session_id = _check_session(session_id)
        key = check_key(key)
        with self._db.transaction() as conn:
            exists = bool(
                conn.execute(
                    "SELECT 1 FROM session_state WHERE user_id = ? AND session_id = ? AND key = ?",
                    [user_id, session_id, key],
                ).fetchall()
            )
            if value is None:
                if exists:
                    conn.execute(
                        "DELETE FROM session_state WHERE user_id = ? AND session_id = ? "
                        "AND key = ?",
                        [user_id, session_id, key],
                    )
                return "deleted" if exists else "absent"
            encoded = encode_value(value)
            topic = " ".join((topic or "").split())[:MAX_TOPIC_CHARS] or None
            now = db_time(self._clock.now())
            if exists:
                conn.execute(
                    "UPDATE session_state SET value = ?, topic = ?, updated_at = ?, trace_id = ? "
                    "WHERE user_id = ? AND session_id = ? AND key = ?",
                    [encoded, topic, now, trace_id, user_id, session_id, key],
                )
                return "updated"
            count = conn.execute(
                "SELECT count(*) FROM session_state WHERE user_id = ? AND session_id = ?",
                [user_id, session_id],
            ).fetchall()[0][0]
            if count >= MAX_KEYS:
                raise UserError(
                    f"this session already holds {MAX_KEYS} state keys; delete one you no "
                    "longer need (set it to null) before adding another"
                )
            conn.execute(
                "INSERT INTO session_state (user_id, session_id, key, value, topic, updated_at, "
                "trace_id) VALUES (?, ?, ?, ?, ?, ?, ?)",
                [user_id, session_id, key, encoded, topic, now, trace_id],
            )
        return "created"

    def get_all(self, *, user_id: str, session_id: str) -> dict[str, Any]:
        """Every slot of the session, oldest first."""
        rows = self._db.query(
            "SELECT key, value FROM session_state WHERE user_id = ? AND session_id = ? "
            "ORDER BY updated_at, key",
            [require_user(user_id), _check_session(session_id)],
        )
        return {key: json.loads(value) for key, value in rows}

    def slots(self, *, user_id: str) -> builtins.list[StateSlot]:
        """Every slot of every session of the user, by session and key."""
        rows = self._db.query(
            f"SELECT {_SLOT_COLUMNS} FROM session_state WHERE user_id = ? ORDER BY session_id, key",
            [require_user(user_id)],
        )
        return [
            StateSlot(
                user_id=r[0],
                session_id=r[1],
                key=r[2],
                value=json.loads(r[3]),
                topic=r[4],
                updated_at=from_db_time(r[5]),
                trace_id=r[6],
            )
            for r in rows
        ]

    def restore(self, slot: StateSlot, *, user_id: str, conn: Any) -> None:
        """Write a slot exactly as exported, replacing the session's slot of that key."""
        if slot.user_id != user_id:
            raise UserError(f"state slot {slot.key} belongs to another user")
        conn.execute(
            f"INSERT INTO session_state ({_SLOT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (user_id, session_id, key) DO UPDATE SET value = excluded.value, "
            "topic = excluded.topic, updated_at = excluded.updated_at, "
            "trace_id = excluded.trace_id",
            [
                user_id,
                slot.session_id,
                slot.key,
                json.dumps(slot.value, ensure_ascii=False, separators=(",", ":")),
                slot.topic,
                db_time(slot.updated_at),
                slot.trace_id,
            ],
        )

    def clear(self, *, user_id: str, session_id: str, trace_id: str) -> list[str]:
        """Drop every slot of the session (a topic switch); return the keys cleared."""
        require_user(user_id)
        session_id = _check_session(session_id)
        with self._db.transaction() as conn:
            keys = [
                row[0]
                for row in conn.execute(
                    "SELECT key FROM session_state WHERE user_id = ? AND session_id = ? "
                    "ORDER BY key",
                    [user_id, session_id],
                ).fetchall()
            ]
            if keys:
                conn.execute(
                    "DELETE FROM session_state WHERE user_id = ? AND session_id = ?",
                    [user_id, session_id],
                )
        if keys:
            logger.bind(user_id=user_id, session_id=session_id, trace_id=trace_id).debug(
                "session state cleared: {}", ", ".join(keys)
            )
        return keys


def check_key(key: object) -> str:
    if not isinstance(key, str) or not _KEY.match(key):
        raise UserError(
            f"invalid state key {str(key)[:60]!r}: use 1-48 letters, digits, '_', '.' or '-', "
            "starting with a letter, e.g. 'order_id' or 'refund.step'"
        )
    return key


def encode_value(value: Any) -> str:
    """The value as compact JSON, or a UserError saying what is wrong with it."""
    try:
        encoded = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise UserError(
            f"state value must be JSON (text, number, true/false, list or object): {exc}"
        ) from None
    if len(encoded) > MAX_VALUE_CHARS:
        raise UserError(
            f"state value is {len(encoded)} characters of JSON; the limit is {MAX_VALUE_CHARS}. "
            "Keep only what the current task needs (ids, choices, the step reached); save "
            "documents with archival_memory_insert"
        )
    return encoded


def _check_session(session_id: object) -> str:
    if not isinstance(session_id, str) or not _SESSION.match(session_id):
        raise UserError("session_id is required for session state: 1-128 characters without spaces")
    return session_id
