"""The append-only event log: ground truth every other record points back to."""

from __future__ import annotations

import builtins
import json
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from memvisor.errors import UserError

from .clock import Clock
from .database import Database, DuckDBDatabase, db_time, from_db_time
from .group_commit import GroupedAppends
from .ids import new_id
from .logger import logger
from .records import Event
from .users import require_user
from .write_behind import WriteBehind

_COLUMNS = "id, trace_id, user_id, session_id, ts, kind, payload"
_ROWS_PER_INSERT = 200  # one multi-row INSERT per chunk: a statement per row costs ~0.5 ms
# The dialogue: what the user and the assistant said (``Store.log_turn``).
MESSAGE_KINDS = ("user_message", "assistant_message")
FORGET_KIND = "memory_forget"


@dataclass(frozen=True)
class LoggedMessage:
    """One dialogue message of the log, with just what context readers need.

    A plain dataclass, not an ``Event``: readers take tens of thousands at once and never
    need the rest of the payload.
    """

    seq: int  # position in the log: a later message has a larger one
    id: str
    role: str  # "user" | "assistant"
    text: str
    ts: datetime
    session_id: str | None
    speaker: str | None = None
    dia_id: str | None = None


# Told of a commit's dialogue messages of one user: (user, the user's message generation
# before the commit, after it, the messages in log order). ``EventLog.on_messages``.
MessagesCommitted = Callable[[str, int, int, "builtins.list[LoggedMessage]"], None]


class EventLog:
    def __init__(self, db: Database, clock: Clock) -> None:
        self._db = db
        self._clock = clock
        # Events held for the next insert of this thread's open transaction (``hold_in``).
        self._held = threading.local()
        # Lone appends that arrive together commit together (``storage/group_commit.py``).
        embedded = db if isinstance(db, DuckDBDatabase) else None
        self._grouped = GroupedAppends(embedded, self._insert_rows) if embedded else None
        # A read's event commits after the read has answered (``storage/write_behind.py``).
        self._behind = WriteBehind(embedded, self._insert_rows) if embedded else None
        # Per user, how many transactions committed dialogue messages of theirs (embedded:
        # this process is the only writer): readers of the dialogue read again only when
        # their user's moved, not whenever anyone's event commits.
        self._messages: dict[str, int] = {}
        self._messages_lock = threading.Lock()
        self._message_listeners: builtins.list[MessagesCommitted] = []
        # Embedded: who has a forget event, who has dialogue messages (read at the first ask,
        # then kept as events are inserted); None on PostgreSQL, where others write too.
        self._with_forgets = _UsersWithKinds(embedded, (FORGET_KIND,)) if embedded else None
        self._with_messages = _UsersWithKinds(embedded, MESSAGE_KINDS) if embedded else None

    def append(
        self,
        *,
        user_id: str,
        kind: str,
        payload: dict[str, Any],
        trace_id: str | None = None,
        session_id: str | None = None,
    ) -> Event:
        """Commit one event and return it; the id is only returned after commit. Inside a
        transaction of this thread, the event joins it; alone, it may share its commit with
        other threads' events appended at the same time."""
        return self.store(
            self.build(
                user_id=user_id,
                kind=kind,
                payload=payload,
                trace_id=trace_id,
                session_id=session_id,
            )
        )

    def store(self, event: Event) -> Event:
        """Commit an event made by ``build``, as ``append`` does."""
        grouped = self._grouped
        if grouped is not None and not self._held_events() and not grouped.joins_open():
            grouped.append(event)
            return event
        with self._db.transaction() as conn:
            self._insert(conn, event)
        return event

    def build(
        self,
        *,
        user_id: str,
        kind: str,
        payload: dict[str, Any],
        trace_id: str | None = None,
        session_id: str | None = None,
    ) -> Event:
        """An event with its id and time, not stored: ``store`` commits it, ``hold_event_in``
        puts it in the caller's transaction."""
        require_user(user_id)
        if not kind or not isinstance(kind, str):
            raise ValueError("event kind is required")
        return Event(
            id=new_id("evt"),
            trace_id=trace_id or new_id("trc"),
            user_id=user_id,
            session_id=session_id,
            ts=self._clock.now(),
            kind=kind,
            payload=payload,
        )

    def store_behind(self, event: Event) -> Event:
        """Commit an event made by ``build`` that records a read, right after the read has
        answered (``storage/write_behind.py``); a reader of this user's events waits for it.
        Inside a transaction of this thread it joins that transaction, as ``store`` does."""
        behind = self._behind
        if behind is None or self._held_events() or behind.joins_open():
            return self.store(event)
        behind.add(event.user_id, event)
        return event

    def settle(self, user_id: str) -> None:
        """Wait for this user's read events still being committed (``store_behind``)."""
        if self._behind is not None:
            self._behind.settle(user_id)

    def close(self) -> None:
        """Commit the read events still queued; the store closes its database after."""
        if self._behind is not None:
            self._behind.close()

    def append_in(self, conn: Any, **kwargs: Any) -> Event:
        """Append inside a caller's open transaction (the write and its event commit together)."""
        event = self.build(**{"trace_id": None, "session_id": None, **kwargs})
        self._insert(conn, event)
        return event

    def append_many_in(self, conn: Any, items: Sequence[dict[str, Any]]) -> builtins.list[Event]:
        """Append several events inside a caller's open transaction, in order, in one go."""
        events = [self.build(**{"trace_id": None, "session_id": None, **item}) for item in items]
        self._insert_rows(conn, events)
        return events

    def hold_in(self, conn: Any, **kwargs: Any) -> Event:
        """An event of the caller's open transaction, inserted with the next event this thread
        appends in it (one INSERT for both: a write's verdict and its ``memory_write``), or
        by ``flush_in``. The caller flushes before the transaction ends and calls
        ``drop_held`` when it fails; until then no read sees the event."""
        return self.hold_event_in(
            conn, self.build(**{"trace_id": None, "session_id": None, **kwargs})
        )

    def hold_event_in(self, conn: Any, event: Event) -> Event:
        """``hold_in`` for an event made by ``build``."""
        self._held_events().append(event)
        return event

    def flush_in(self, conn: Any) -> None:
        """Insert the events still held (``hold_in``) in the caller's open transaction."""
        self._insert_rows(conn, [])

    def drop_held(self) -> None:
        """Forget the held events: their transaction failed and was rolled back."""
        self._held.events = []

    def _held_events(self) -> builtins.list[Event]:
        if not hasattr(self._held, "events"):
            self._held.events = []
        held: builtins.list[Event] = self._held.events
        return held

    def _insert_rows(self, conn: Any, events: Sequence[Event]) -> None:
        """The held events, then ``events``, in order: one multi-row INSERT per chunk."""
        if held := self._held_events():
            events = [*held, *events]
            self._held.events = []
        seqs = self._insert_chunks(conn, events)
        said = [e for e in events if e.kind in MESSAGE_KINDS]
        self._mark_messages({e.user_id for e in said}, _logged(said, seqs))

    def _insert_chunks(self, conn: Any, events: Sequence[Event]) -> dict[str, int]:
        """Insert ``events``; on the embedded store with ``on_messages`` listeners, the log
        position of each dialogue message inserted (by id), which they are given."""
        for users in (self._with_forgets, self._with_messages):
            if users is not None:
                users.note(events)
        seqs: dict[str, int] = {}
        for start in range(0, len(events), _ROWS_PER_INSERT):
            chunk = events[start : start + _ROWS_PER_INSERT]
            rows = ", ".join(["(?, ?, ?, ?, ?, ?, ?)"] * len(chunk))
            params = [value for event in chunk for value in _row(event)]
            sql = f"INSERT INTO events ({_COLUMNS}) VALUES {rows}"
            told = self._grouped is not None and self._message_listeners
            if not told or not any(e.kind in MESSAGE_KINDS for e in chunk):
                conn.execute(sql, params)
                continue
            seqs.update(conn.execute(f"{sql} RETURNING id, seq", params).fetchall())
        return seqs

    def on_messages(self, listener: MessagesCommitted) -> None:
        """``listener`` is told, after each commit of dialogue messages made through this log
        (embedded store only), the messages per user with that user's message generation
        before and after: a reader that had read up to ``before`` is current with them
        (``TurnOrder``), and need not read them back. Runs on the committing thread,
        outside any lock of this log."""
        self._message_listeners.append(listener)

    def _mark_messages(
        self,
        users: set[str],
        messages: Sequence[tuple[str, LoggedMessage]] | None = None,
    ) -> None:
        """Move these users' message generations once the open transaction commits, then
        tell the listeners ``messages`` (every message of these users the transaction
        inserted, with its user), when given."""
        if not users:
            return

        def moved() -> None:
            steps: dict[str, tuple[int, int]] = {}
            with self._messages_lock:
                for user in users:
                    before = self._messages.get(user, 0)
                    steps[user] = (before, before + 1)
                    self._messages[user] = before + 1
            if messages is None:
                return
            for user, (before, after) in sorted(steps.items()):
                own = [message for owner, message in messages if owner == user]
                for listener in list(self._message_listeners):
                    try:
                        listener(user, before, after, own)
                    except Exception as exc:  # the commit's other follow-ups still run
                        logger.warning(
                            "a reader of new messages failed: {}: {}", type(exc).__name__, exc
                        )

        self._db.after_commit(moved)

    def may_have_forgotten(self, user_id: str) -> bool:
        """False only when ``user_id`` has no ``memory_forget`` event (always True on
        PostgreSQL)."""
        return self._with_forgets is None or self._with_forgets.has(user_id)

    def may_have_messages(self, user_id: str) -> bool:
        """False only when ``user_id`` has no dialogue message (always True on PostgreSQL)."""
        return self._with_messages is None or self._with_messages.has(user_id)

    def message_generation(self, user_id: str) -> int:
        """A number that changes whenever messages of ``user_id`` were committed (read it
        before the messages). On PostgreSQL, where other processes write too, the events
        table's generation: it moves with any event."""
        if self._grouped is None:
            return self.generation
        with self._messages_lock:
            return self._messages.get(user_id, 0)

    def restore_many_in(self, conn: Any, events: Sequence[Event], *, user_id: str) -> None:
        """Insert events exactly as exported (same id, ts, kind, payload), in order, inside a
        caller's transaction: records name them as their sources, so they keep their ids."""
        for event in events:
            if event.user_id != user_id:
                raise UserError(f"event {event.id} belongs to another user")
        self._insert_chunks(conn, events)
        self._mark_messages({user_id} if events else set())

    def _insert(self, conn: Any, event: Event) -> None:
        self._insert_rows(conn, [event])

    def get(self, event_id: str, *, user_id: str) -> Event | None:
        self.settle(user_id)
        rows = self._db.query(
            f"SELECT {_COLUMNS} FROM events WHERE user_id = ? AND id = ?",
            [require_user(user_id), event_id],
        )
        return _event(rows[0]) if rows else None

    def many(self, event_ids: Sequence[str], *, user_id: str) -> builtins.list[Event]:
        if not event_ids:
            return []
        self.settle(user_id)
        rows = self._db.query(
            f"SELECT {_COLUMNS} FROM events WHERE user_id = ? AND id IN (SELECT unnest(?)) "
            "ORDER BY seq",
            [require_user(user_id), list(event_ids)],
        )
        return [_event(r) for r in rows]

    def list(
        self,
        *,
        user_id: str,
        kinds: Sequence[str] | None = None,
        session_id: str | None = None,
        trace_id: str | None = None,
        limit: int | None = None,
        newest_first: bool = False,
    ) -> builtins.list[Event]:
        self.settle(user_id)
        sql = f"SELECT {_COLUMNS} FROM events WHERE user_id = ?"
        params: list[Any] = [require_user(user_id)]
        if kinds:
            sql += " AND list_contains(?, kind)"
            params.append(list(kinds))
        if session_id is not None:
            sql += " AND session_id = ?"
            params.append(session_id)
        if trace_id is not None:
            sql += " AND trace_id = ?"
            params.append(trace_id)
        sql += " ORDER BY seq DESC" if newest_first else " ORDER BY seq"
        if limit is not None:
            sql += f" LIMIT {int(limit)}"
        return [_event(r) for r in self._db.query(sql, params)]

    @property
    def generation(self) -> int:
        """Committed transactions of this process that appended events.

        Events never change once written (but for ``rewrites``), so an unchanged
        generation means nothing new to read: readers keep what they read and ask
        ``messages_after`` only when it moves.
        """
        return self._db.generation("events")

    @property
    def rewrites(self) -> int:
        """Committed transactions of this process that changed written events: a forget
        redacts the value from the messages that stated it. Readers read again when it moves."""
        return self._db.rewrites("events")

    def messages_after(self, seq: int, *, user_id: str) -> builtins.list[LoggedMessage]:
        """The user's dialogue messages logged after position ``seq`` (0: all), in log order."""
        # The payload fields are read by DuckDB: 50k turns in 70 ms instead of 180.
        rows = self._db.query(
            "SELECT seq, id, session_id, kind, ts, coalesce(payload->>'$.content', ''), "
            "payload->>'$.speaker', payload->>'$.dia_id' FROM events WHERE user_id = ? "
            "AND seq > ? AND list_contains(?, kind) ORDER BY seq",
            [require_user(user_id), seq, list(MESSAGE_KINDS)],
        )
        return [
            LoggedMessage(
                seq=row_seq,
                id=event_id,
                role="user" if kind == "user_message" else "assistant",
                text=text,
                ts=from_db_time(ts),
                session_id=session_id,
                speaker=speaker,
                dia_id=dia_id,
            )
            for row_seq, event_id, session_id, kind, ts, text, speaker, dia_id in rows
        ]

    def count(self, *, user_id: str) -> int:
        self.settle(user_id)
        return int(
            self._db.query(
                "SELECT count(*) FROM events WHERE user_id = ?", [require_user(user_id)]
            )[0][0]
        )


def _logged(
    said: Sequence[Event], seqs: dict[str, int]
) -> builtins.list[tuple[str, LoggedMessage]] | None:
    """The dialogue messages ``said`` as ``messages_after`` would read them back, each with
    its user; None if one cannot be (no log position known, or a field the log would read
    as JSON text)."""
    logged = []
    for event in said:
        payload = event.payload
        content = payload.get("content", "")
        speaker, dia_id = payload.get("speaker"), payload.get("dia_id")
        if event.id not in seqs or not isinstance(content, str):
            return None
        if not all(value is None or isinstance(value, str) for value in (speaker, dia_id)):
            return None
        message = LoggedMessage(
            seq=seqs[event.id],
            id=event.id,
            role="user" if event.kind == "user_message" else "assistant",
            text=content,
            ts=from_db_time(db_time(event.ts)),
            session_id=event.session_id,
            speaker=speaker,
            dia_id=dia_id,
        )
        logged.append((event.user_id, message))
    return logged


def _row(event: Event) -> list[Any]:
    return [
        event.id,
        event.trace_id,
        event.user_id,
        event.session_id,
        db_time(event.ts),
        event.kind,
        json.dumps(event.payload, ensure_ascii=False, default=str),
    ]


def _event(row: tuple[Any, ...]) -> Event:
    return Event(
        id=row[0],
        trace_id=row[1],
        user_id=row[2],
        session_id=row[3],
        ts=from_db_time(row[4]),
        kind=row[5],
        payload=json.loads(row[6]),
    )


class _UsersWithKinds:
    """The users who have an event of one of ``kinds``, on the embedded store, which this
    process alone writes: read once at the first ask, then kept as events are inserted
    (before they commit: a rollback only leaves a needless yes)."""

    def __init__(self, db: DuckDBDatabase, kinds: Sequence[str]) -> None:
        self._db = db
        self._kinds = frozenset(kinds)
        self._users: set[str] | None = None
        self._lock = threading.Lock()

    def has(self, user_id: str) -> bool:
        with self._lock:
            return user_id in self._read()

    def note(self, events: Sequence[Event]) -> None:
        users = {e.user_id for e in events if e.kind in self._kinds}
        if users:
            with self._lock:
                self._read().update(users)

    def _read(self) -> set[str]:
        """The users; the caller holds ``_lock``."""
        if self._users is None:
            rows = self._db.query(
                "SELECT DISTINCT user_id FROM events WHERE list_contains(?, kind)",
                [sorted(self._kinds)],
            )
            self._users = {row[0] for row in rows}
        return self._users
