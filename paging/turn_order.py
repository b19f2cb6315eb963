"""The dialogue turns of each user in order, kept incrementally, for neighbouring-turn context.

Events are append-only and change only when a forget redacts a message, so what was read
stays true until then: each look reads only the messages committed since the last one
(none, most of the time: the event log counts its committed writes). Messages this process
commits are handed over by the log as they commit (``EventLog.on_messages``), so a turn's
page-in does not read back the message the turn just logged (a DuckDB read, ~0.7 ms). A
neighbour's text is served from here instead of a look-up in the event log, which scans it.
"""

from __future__ import annotations

import threading
import weakref

from memvisor.storage import LoggedMessage, Store
from memvisor.storage.events import EventLog


class TurnOrder:
    """Which message came right before and after another, within its session. Thread-safe
    (a server's requests for different users run at once)."""

    def __init__(self, events: EventLog) -> None:
        # The event log, not its store: the store is the key of ``_SHARED``, which this
        # value must not keep alive (a store per test, never collected).
        self.events = events
        self._turns: dict[str, list[LoggedMessage]] = {}
        self._pos: dict[str, dict[str, int]] = {}
        self._last_seq: dict[str, int] = {}
        self._generation: dict[str, int] = {}
        self._speakers: dict[str, set[str]] = {}
        self._rewrites = events.rewrites
        self._lock = threading.Lock()

    def _refresh(self, user_id: str) -> None:
        events = self.events
        if events.rewrites != self._rewrites:  # a forget redacted messages: read all again
            self._rewrites = events.rewrites
            for kept in (self._turns, self._pos, self._last_seq, self._generation, self._speakers):
                kept.clear()
        generation = events.message_generation(user_id)
        if self._generation.get(user_id) == generation:
            return  # none of the user's messages was committed since the last look
        if not events.may_have_messages(user_id):  # a user who only saved notes, or no one
            self._generation[user_id] = generation
            return
        messages = events.messages_after(self._last_seq.get(user_id, 0), user_id=user_id)
        self._generation[user_id] = generation
        if not messages:
            return
        turns = self._turns.setdefault(user_id, [])
        pos = self._pos.setdefault(user_id, {})
        speakers = self._speakers.setdefault(user_id, set())
        for message in messages:
            pos[message.id] = len(turns)
            turns.append(message)
            if message.speaker:
                speakers.add(message.speaker)
        self._last_seq[user_id] = messages[-1].seq

    def committed(
        self, user_id: str, before: int, after: int, messages: list[LoggedMessage]
    ) -> None:
        """The messages of ``user_id`` one commit added, which moved the user's message
        generation from ``before`` to ``after``: taken as read if this order was current
        at ``before`` (else the next look reads the log, as it would have). A message
        already read (the look read the log after the commit, before this call) is not
        taken twice."""
        with self._lock:
            if self.events.rewrites != self._rewrites or self._generation.get(user_id) != before:
                return
            turns = self._turns.setdefault(user_id, [])
            pos = self._pos.setdefault(user_id, {})
            speakers = self._speakers.setdefault(user_id, set())
            last = self._last_seq.get(user_id, 0)
            for message in messages:
                if message.seq <= last:
                    continue
                pos[message.id] = len(turns)
                turns.append(message)
                if message.speaker:
                    speakers.add(message.speaker)
                last = message.seq
            self._last_seq[user_id] = last
            self._generation[user_id] = after

    def warm(self, user_id: str) -> None:
        """Read the user's new messages now, if the user's turns are held (after a write,
        off the reader's path)."""
        with self._lock:
            if user_id in self._generation:
                self._refresh(user_id)

    def neighbours(self, event_ids: list[str], *, user_id: str) -> dict[str, list[LoggedMessage]]:
        """For each id, the previous and next message of the same session (0 to 2)."""
        return {
            event_id: [m for m in pair if m is not None]
            for event_id, pair in self.around(event_ids, user_id=user_id).items()
        }

    def around(
        self, event_ids: list[str], *, user_id: str
    ) -> dict[str, tuple[LoggedMessage | None, LoggedMessage | None]]:
        """For each id, the message right before it and the one right after it in its
        session (None at a session's edge): which one replied, and to what."""
        with self._lock:
            self._refresh(user_id)
            pos_of = self._pos.get(user_id, {})
            turns = self._turns.get(user_id, [])
            found: dict[str, tuple[LoggedMessage | None, LoggedMessage | None]] = {}
            for event_id in event_ids:
                pos = pos_of.get(event_id)
                if pos is not None:
                    before, after = (
                        turns[j]
                        if 0 <= j < len(turns) and turns[j].session_id == turns[pos].session_id
                        else None
                        for j in (pos - 1, pos + 1)
                    )
                    found[event_id] = (before, after)
            return found

    def speakers(self, *, user_id: str) -> frozenset[str]:
        """The speaker names the user's messages carry (transcripts of several people)."""
        with self._lock:
            self._refresh(user_id)
            return frozenset(self._speakers.get(user_id, ()))


_SHARED: weakref.WeakKeyDictionary[Store, TurnOrder] = weakref.WeakKeyDictionary()


def turn_order_for(store: Store) -> TurnOrder:
    """One TurnOrder per open store, so every page-in and search tool reuses its cache."""
    order = _SHARED.get(store)
    if order is None:
        order = _SHARED[store] = TurnOrder(store.events)
        store.warm_after_writes(order.warm)
        store.events.on_messages(order.committed)
    return order
