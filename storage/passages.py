"""Archival passages: the record lives in DuckDB (committed), the search index in LanceDB."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from memvisor.errors import NotFound, UserError

from .archive import not_archived
from .clock import Clock
from .database import Database, db_time, from_db_time
from .ids import new_id
from .records import Passage
from .users import require_user

MAX_PASSAGE_CHARS = 8000
_COLUMNS = "id, user_id, text, session_id, created_at, source_event_ids, trace_id, meta"


class PassageStore:
    def __init__(self, db: Database, clock: Clock) -> None:
        self._db = db
        self._clock = clock

    def insert(
        self,
        *,
        user_id: str,
        text: str,
        trace_id: str,
        session_id: str | None = None,
        source_event_ids: Sequence[str] = (),
        meta: dict[str, Any] | None = None,
        conn: Any = None,
    ) -> Passage:
        require_user(user_id)
        if not isinstance(text, str) or not text.strip():
            raise UserError("passage text must be a non-empty string")
        if len(text) > MAX_PASSAGE_CHARS:
            raise UserError(
                f"passage is {len(text)} characters; the limit is "
                f"{MAX_PASSAGE_CHARS}: split it into several passages"
            )
        passage = Passage(
            id=new_id("psg"),
            user_id=user_id,
            text=text.strip(),
            session_id=session_id,
            created_at=self._clock.now(),
            source_event_ids=list(source_event_ids),
            trace_id=trace_id,
            meta=meta or {},
        )
        with self._db.transaction() as tx:
            _insert(conn or tx, passage)  # a new id: nothing to replace
        return passage

    def get(self, passage_id: str, *, user_id: str) -> Passage:
        rows = self._db.query(
            f"SELECT {_COLUMNS} FROM passages WHERE user_id = ? AND id = ?",
            [require_user(user_id), passage_id],
        )
        if not rows:
            raise NotFound(f"no passage {passage_id!r} for user {user_id!r}")
        return _passage(rows[0])

    def many(self, ids: Sequence[str], *, user_id: str) -> list[Passage]:
        rows = self._db.query(
            f"SELECT {_COLUMNS} FROM passages WHERE user_id = ? AND id IN (SELECT unnest(?))",
            [require_user(user_id), list(ids)],
        )
        return [_passage(r) for r in rows]

    def list(self, *, user_id: str, include_archived: bool = False) -> list[Passage]:
        """The user's passages, oldest first; archived ones only with ``include_archived``."""
        hidden = "" if include_archived else f" AND {not_archived('passages')}"
        rows = self._db.query(
            f"SELECT {_COLUMNS} FROM passages WHERE user_id = ?{hidden} ORDER BY created_at, id",
            [require_user(user_id)],
        )
        return [_passage(r) for r in rows]

    def delete(self, passage_id: str, *, user_id: str, conn: Any) -> Passage:
        passage = self.get(passage_id, user_id=user_id)
        conn.execute(
            "DELETE FROM archived WHERE user_id = ? AND item_id = ?", [user_id, passage_id]
        )
        conn.execute("DELETE FROM passages WHERE user_id = ? AND id = ?", [user_id, passage_id])
        return passage

    def restore(self, passage: Passage, *, user_id: str, conn: Any) -> None:
        if passage.user_id != user_id:
            raise UserError(f"passage {passage.id} belongs to another user")
        conn.execute("DELETE FROM passages WHERE user_id = ? AND id = ?", [user_id, passage.id])
        _insert(conn, passage)


def _insert(conn: Any, passage: Passage) -> None:
    conn.execute(
        f"INSERT INTO passages ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [
            passage.id,
            passage.user_id,
            passage.text,
            passage.session_id,
            db_time(passage.created_at),
            passage.source_event_ids,
            passage.trace_id,
            json.dumps(passage.meta, ensure_ascii=False),
        ],
    )


def _passage(row: tuple[Any, ...]) -> Passage:
    return Passage(
        id=row[0],
        user_id=row[1],
        text=row[2],
        session_id=row[3],
        created_at=from_db_time(row[4]),
        source_event_ids=list(row[5] or []),
        trace_id=row[6],
        meta={} if row[7] == "{}" else json.loads(row[7]),  # most have none: no parse
    )
