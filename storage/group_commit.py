"""Appends that arrive together commit together: one transaction, one flush to disk.

A lone append (an event that stands alone: a request, a read) costs a whole transaction,
most of it the COMMIT's flush, and while one runs the others queue for the writers' lock.
Here the appends that queue meanwhile go into the next transaction together: the first to
find no batch under way takes what is queued and commits it, the others wait for the commit
that holds theirs. Each caller still returns only once its own row is committed, or raises.
A batch that fails is tried again one row at a time, so a bad row fails alone.

DuckDB only: there a COMMIT that fails was rolled back, so trying again stores nothing
twice; a PostgreSQL COMMIT whose reply was lost may be stored.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, Generic, TypeVar

from memvisor.errors import StorageError

from .database import DuckDBDatabase

T = TypeVar("T")


class _Ticket(Generic[T]):
    __slots__ = ("item", "committed", "error")

    def __init__(self, item: T) -> None:
        self.item = item
        self.committed = False
        self.error: BaseException | None = None


class GroupedAppends(Generic[T]):
    """``append(item)`` commits ``write(conn, items)`` for the items waiting together."""

    def __init__(self, db: DuckDBDatabase, write: Callable[[Any, list[T]], None]) -> None:
        self._db = db
        self._write = write
        self._queue: list[_Ticket[T]] = []
        self._leading = False  # a batch is being committed
        self._turn = threading.Condition()

    def joins_open(self) -> bool:
        """Whether this thread has a transaction open: an append then joins it instead."""
        return self._db.in_transaction()

    def append(self, item: T) -> None:
        ticket = _Ticket(item)
        with self._turn:
            self._queue.append(ticket)
            while not ticket.committed and ticket.error is None:
                if self._leading:
                    self._turn.wait()
                    continue
                self._leading, batch, self._queue = True, self._queue, []
                self._turn.release()
                try:
                    self._commit(batch)
                finally:
                    self._turn.acquire()
                    self._leading = False
                    for waiting in batch:  # a leader interrupted leaves its batch unstored
                        if not waiting.committed and waiting.error is None:
                            waiting.error = StorageError(
                                "an event's transaction was interrupted before it committed; "
                                "nothing of it is stored"
                            )
                    self._turn.notify_all()
        if ticket.error is not None:
            raise ticket.error

    def _commit(self, batch: list[_Ticket[T]]) -> None:
        try:
            self._one_transaction(batch)
        except Exception as exc:
            if len(batch) == 1:
                batch[0].error = exc
                return
            for ticket in batch:  # nothing of the batch is stored: each alone, once more
                try:
                    self._one_transaction([ticket])
                except Exception as alone:
                    ticket.error = alone

    def _one_transaction(self, tickets: list[_Ticket[T]]) -> None:
        with self._db.transaction() as conn:
            self._write(conn, [ticket.item for ticket in tickets])
        for ticket in tickets:
            ticket.committed = True
