"""The order of dialogue turns per user, kept incrementally, for neighbouring-turn context."""

from __future__ import annotations

import weakref

from storage import Store

MESSAGE_KINDS = ("user_message", "assistant_message")


class TurnOrder:
    """Which message came right before and after another, within its session."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._ids: dict[str, list[str]] = {}
        self._pos: dict[str, dict[str, int]] = {}
        self._session: dict[str, dict[str, str | None]] = {}
        self._last_seq: dict[str, int] = {}
        self._generation: dict[str, int] = {}

    def _refresh(self, user_id: str) -> None:
        generation = self.store.db.generation("events")
        if self._generation.get(user_id) == generation:
            return  # no event was committed since the last look
        self._generation[user_id] = generation
        rows = self.store.db.query(
            "SELECT seq, id, session_id FROM events WHERE user_id = ? AND seq > ? "
            "AND list_contains(?, kind) ORDER BY seq",
            [user_id, self._last_seq.get(user_id, 0), list(MESSAGE_KINDS)],
        )
        if not rows:
            return
        ids = self._ids.setdefault(user_id, [])
        pos = self._pos.setdefault(user_id, {})
        session = self._session.setdefault(user_id, {})
        for _seq, event_id, session_id in rows:
            pos[event_id] = len(ids)
            ids.append(event_id)
            session[event_id] = session_id
        self._last_seq[user_id] = rows[-1][0]

    def neighbours(self, event_ids: list[str], *, user_id: str) -> dict[str, list[str]]:
        """For each id, the previous and next message of the same session (0 to 2 ids)."""
        self._refresh(user_id)
        pos_of = self._pos.get(user_id, {})
        ids, session = self._ids.get(user_id, []), self._session.get(user_id, {})
        found: dict[str, list[str]] = {}
        for event_id in event_ids:
            pos = pos_of.get(event_id)
            if pos is not None:
                found[event_id] = [
                    ids[j]
                    for j in (pos - 1, pos + 1)
                    if 0 <= j < len(ids) and session[ids[j]] == session[event_id]
                ]
        return found


_SHARED: weakref.WeakKeyDictionary[Store, TurnOrder] = weakref.WeakKeyDictionary()


def turn_order_for(store: Store) -> TurnOrder:
    """One TurnOrder per open store, so every page-in and search tool reuses its cache."""
    order = _SHARED.get(store)
    if order is None:
        order = _SHARED[store] = TurnOrder(store)
    return order
