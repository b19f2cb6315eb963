"""One lock per user, held only while that user has a request in flight.

A server serializes one user's requests (their writes in order, a read after the writes
before it) and runs different users' at once. Entries are counted and dropped when the
last request of a user leaves, so the table holds the users being served now, not every
user ever seen.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager


class UserLocks:
    def __init__(self) -> None:
        self._table: dict[str, tuple[threading.RLock, list[int]]] = {}  # user -> lock, holders
        self._guard = threading.Lock()

    @contextmanager
    def held(self, user_id: str) -> Iterator[None]:
        """Hold ``user_id``'s lock (re-entrant in one thread)."""
        with self._guard:
            lock, holders = self._table.setdefault(user_id, (threading.RLock(), [0]))
            holders[0] += 1
        try:
            with lock:
                yield
        finally:
            with self._guard:
                holders[0] -= 1
                if not holders[0]:
                    del self._table[user_id]

    def __len__(self) -> int:
        """Users with a request in flight."""
        with self._guard:
            return len(self._table)
