"""Episodes (session segment summaries) and the rolling summary of evicted dialogue."""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from memvisor.errors import NotFound, UserError

from .archive import not_archived
from .clock import Clock
from .database import Database, db_time, from_db_time
from .ids import new_id
from .records import Record
from .users import require_user


class Episode(Record):
    id: str
    user_id: str
    session_id: str | None
    start_ts: datetime
    end_ts: datetime
    summary: str
    entities: list[str]
    source_event_ids: list[str]
    created_at: datetime
    trace_id: str
    participants: list[str] = []  # who spoke: the user's id and "assistant"


_COLUMNS = (
    "id, user_id, session_id, start_ts, end_ts, summary, entities, source_event_ids, "
    "created_at, trace_id, participants"
)


class EpisodeStore:
    def __init__(self, db: Database, clock: Clock) -> None:
        self._db = db
        self._clock = clock

    def build(
        self,
        *,
        user_id: str,
        session_id: str | None,
        start_ts: datetime,
        end_ts: datetime,
        summary: str,
        entities: Sequence[str],
        source_event_ids: Sequence[str],
        trace_id: str,
        participants: Sequence[str] = (),
    ) -> Episode:
        return Episode(
            id=new_id("eps"),
            user_id=require_user(user_id),
            session_id=session_id,
            start_ts=start_ts,
            end_ts=end_ts,
            summary=summary,
            entities=list(entities),
            source_event_ids=list(source_event_ids),
            created_at=self._clock.now(),
            trace_id=trace_id,
            participants=list(participants) or [user_id, "assistant"],
        )

    def insert(self, episode: Episode, *, conn: Any) -> None:
        conn.execute(
            f"INSERT INTO episodes ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                episode.id,
                episode.user_id,
                episode.session_id,
                db_time(episode.start_ts),
                db_time(episode.end_ts),
                episode.summary,
                episode.entities,
                episode.source_event_ids,
                db_time(episode.created_at),
                episode.trace_id,
                episode.participants,
            ],
        )

    def restore(self, episode: Episode, *, user_id: str, conn: Any) -> None:
        """Insert an episode exactly as exported (import path); runs in the caller's tx."""
        if episode.user_id != user_id:
            raise UserError(f"episode {episode.id} belongs to another user")
        self.insert(episode, conn=conn)

    def get(self, episode_id: str, *, user_id: str) -> Episode:
        rows = self._db.query(
            f"SELECT {_COLUMNS} FROM episodes WHERE user_id = ? AND id = ?",
            [require_user(user_id), episode_id],
        )
        if not rows:
            raise NotFound(f"no episode {episode_id!r} for user {user_id!r}")
        return _episode(rows[0])

    def list(
        self,
        *,
        user_id: str,
        session_id: str | None = None,
        start: datetime | None = None,
        end: datetime | None = None,
        include_archived: bool = False,
    ) -> list[Episode]:
        """Episodes by start time; archived ones (never paged in) only with ``include_archived``."""
        sql = f"SELECT {_COLUMNS} FROM episodes WHERE user_id = ?"
        params: list[Any] = [require_user(user_id)]
        if not include_archived:
            sql += f" AND {not_archived('episodes')}"
        if session_id is not None:
            sql += " AND session_id = ?"
            params.append(session_id)
        if start is not None:
            sql += " AND end_ts >= ?"
            params.append(db_time(start))
        if end is not None:
            sql += " AND start_ts <= ?"
            params.append(db_time(end))
        return [_episode(r) for r in self._db.query(sql + " ORDER BY start_ts, id", params)]

    def latest(self, *, user_id: str, session_id: str | None = None) -> Episode | None:
        """The episode that ended last (of this session, if given), unarchived."""
        sql = f"SELECT {_COLUMNS} FROM episodes WHERE user_id = ? AND {not_archived('episodes')}"
        params: list[Any] = [require_user(user_id)]
        if session_id is not None:
            sql += " AND session_id = ?"
            params.append(session_id)
        rows = self._db.query(sql + " ORDER BY end_ts DESC, id DESC LIMIT 1", params)
        return _episode(rows[0]) if rows else None

    def many(self, episode_ids: Sequence[str], *, user_id: str) -> builtins.list[Episode]:
        """These unarchived episodes of the user, by start time."""
        if not episode_ids:
            return []
        rows = self._db.query(
            f"SELECT {_COLUMNS} FROM episodes WHERE user_id = ? AND id IN (SELECT unnest(?)) "
            f"AND {not_archived('episodes')} ORDER BY start_ts, id",
            [require_user(user_id), list(episode_ids)],
        )
        return [_episode(r) for r in rows]


class RollingSummary(Record):
    """The rolling summary of one session's evicted dialogue, as an export carries it."""

    user_id: str
    session_id: str
    text: str
    version: int
    updated_at: datetime
    trace_id: str


class RollingSummaries:
    """One recursive summary per user and session; versioned like core blocks."""

    def __init__(self, db: Database, clock: Clock) -> None:
        self._db = db
        self._clock = clock

    def get(self, *, user_id: str, session_id: str) -> tuple[str, int]:
        rows = self._db.query(
            "SELECT text, version FROM summaries WHERE user_id = ? AND session_id = ?",
            [require_user(user_id), session_id],
        )
        return (rows[0][0], rows[0][1]) if rows else ("", 0)

    def put(self, text: str, *, user_id: str, session_id: str, trace_id: str, conn: Any) -> int:
        _, version = self.get(user_id=user_id, session_id=session_id)
        conn.execute(
            "INSERT INTO summaries VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (user_id, session_id) "
            "DO UPDATE SET text = excluded.text, version = excluded.version, "
            "updated_at = excluded.updated_at, trace_id = excluded.trace_id",
            [user_id, session_id, text, version + 1, db_time(self._clock.now()), trace_id],
        )
        return version + 1

    def list(self, *, user_id: str) -> builtins.list[RollingSummary]:
        """Every session's summary of the user, by session id."""
        rows = self._db.query(
            "SELECT user_id, session_id, text, version, updated_at, trace_id FROM summaries "
            "WHERE user_id = ? ORDER BY session_id",
            [require_user(user_id)],
        )
        return [
            RollingSummary(
                user_id=r[0],
                session_id=r[1],
                text=r[2],
                version=r[3],
                updated_at=from_db_time(r[4]),
                trace_id=r[5],
            )
            for r in rows
        ]

    def restore(self, summary: RollingSummary, *, user_id: str, conn: Any) -> None:
        """Write a summary exactly as exported, replacing the session's (import path)."""
        if summary.user_id != user_id:
            raise UserError(f"summary of session {summary.session_id} belongs to another user")
        conn.execute(
            "INSERT INTO summaries VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (user_id, session_id) "
            "DO UPDATE SET text = excluded.text, version = excluded.version, "
            "updated_at = excluded.updated_at, trace_id = excluded.trace_id",
            [
                user_id,
                summary.session_id,
                summary.text,
                summary.version,
                db_time(summary.updated_at),
                summary.trace_id,
            ],
        )


def _episode(row: tuple[Any, ...]) -> Episode:
    return Episode(
        id=row[0],
        user_id=row[1],
        session_id=row[2],
        start_ts=from_db_time(row[3]),
        end_ts=from_db_time(row[4]),
        summary=row[5],
        entities=list(row[6] or []),
        source_event_ids=list(row[7] or []),
        created_at=from_db_time(row[8]),
        trace_id=row[9],
        participants=list(row[10] or []),
    )
