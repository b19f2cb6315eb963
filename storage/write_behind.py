"""Appends that commit after their caller has returned: a read's ``memory_read`` event.

A read changes nothing, yet it logs an event, and on the embedded store every commit waits
for the one writers' lock: under a server's load a search spent most of its time queued
behind other users' writes for the sake of its own log line. Here the event is queued and
the caller goes on; one thread commits what is queued, all of it in one transaction, as
soon as it can take the lock. A reader of the log that could see a queued event of its user
(``EventLog.list``, ``get``, ``many``, ``count``) first waits for that user's queued events
to commit (``settle``), so a read's trace id always leads to its event for anyone who asks.

What this gives up, and only for these events: a process killed before the commit loses
the events still queued (about one commit's worth, milliseconds), and an event takes its
place in the log's order (``seq``) when it commits, not when it was queued (its ``ts`` is
when it happened). No write is ever acknowledged through this queue. A batch that fails is
tried again one event at a time; an event that still fails is dropped with a warning (the
read it records has already been answered).

DuckDB only, like ``group_commit``: a PostgreSQL store appends these as any other event.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable
from typing import Any, Generic, TypeVar

from memvisor.errors import StorageError

from .database import DuckDBDatabase
from .logger import logger

T = TypeVar("T")


class WriteBehind(Generic[T]):
    """``add(user_id, item)`` queues ``item``; a thread commits ``write(conn, items)``."""

    def __init__(self, db: DuckDBDatabase, write: Callable[[Any, list[T]], None]) -> None:
        self._db = db
        self._write = write
        self._queue: list[tuple[str, T]] = []
        self._pending: Counter[str] = Counter()  # per user: queued or being committed
        self._changed = threading.Condition()
        self._thread: threading.Thread | None = None
        self._closed = False

    def add(self, user_id: str, item: T) -> None:
        with self._changed:
            if self._closed:
                raise StorageError("the record store is closed: nothing more can be logged")
            self._queue.append((user_id, item))
            self._pending[user_id] += 1
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._run, name="memvisor-write-behind", daemon=True
                )
                self._thread.start()
            self._changed.notify_all()

    def joins_open(self) -> bool:
        """Whether this thread has a transaction open: an event then joins it instead."""
        return self._db.in_transaction()

    def settle(self, user_id: str) -> None:
        """Return once every event queued for ``user_id`` before this call is committed (or
        dropped). Inside this thread's own open transaction it does not wait: the queue
        commits through the same lock, so waiting there would wait forever."""
        with self._changed:
            if not self._pending[user_id] or self._db.in_transaction():
                return
            while self._pending[user_id] and self._thread is not None:
                self._changed.wait()

    def close(self) -> None:
        """Commit what is queued, then stop the thread."""
        with self._changed:
            self._closed = True
            self._changed.notify_all()
            thread = self._thread
        if thread is not None:
            thread.join()

    def _run(self) -> None:
        while True:
            with self._changed:
                while not self._queue and not self._closed:
                    self._changed.wait()
                if not self._queue:
                    self._thread = None
                    self._changed.notify_all()
                    return
                batch, self._queue = self._queue, []
            try:
                self._commit([item for _, item in batch])
            finally:
                with self._changed:
                    self._pending.subtract(user for user, _ in batch)
                    self._pending += Counter()  # drop the users with nothing pending
                    self._changed.notify_all()

    def _commit(self, items: list[T]) -> None:
        try:
            self._one_transaction(items)
            return
        except Exception as exc:
            if len(items) == 1:
                _dropped(exc)
                return
        for item in items:  # nothing of the batch is stored: each alone, once more
            try:
                self._one_transaction([item])
            except Exception as exc:
                _dropped(exc)

    def _one_transaction(self, items: list[T]) -> None:
        with self._db.transaction() as conn:
            self._write(conn, items)


def _dropped(exc: Exception) -> None:
    logger.warning("a read's event could not be logged: {}: {}", type(exc).__name__, exc)
