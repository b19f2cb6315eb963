"""The index work a writer of a shared store still owes, kept in the store itself.

On PostgreSQL many processes share the records and the search index. A write commits its
records, and the process that wrote them indexes them before the write returns, so every
process finds an acknowledged write at once. A process killed between the two would leave
records no index row points to, and the other processes, which reconciled their index at
their first search, would never look for them. So each writing transaction on a shared store
also commits a ticket naming its user (table ``search_outbox``), and the writer deletes it
once it has indexed what it wrote. A ticket older than ``STALE_SECONDS`` means its writer
died, or its indexing failed: a ``Sweeper`` (one thread in each process that has the index
open) reconciles that user's index with the records, then deletes the ticket.

Claiming a stale ticket moves its time to now, so two sweepers seldom take the same user at
once, and a sweeper that dies mid-way leaves the ticket to the next one after
``STALE_SECONDS``. Times are the database server's (``now()``), never a worker's clock.
The embedded store has one process, whose next start reconciles its whole index: it writes
no tickets.
"""

from __future__ import annotations

import threading
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from .database import Database
from .ids import new_id
from .logger import logger

STALE_SECONDS = 10.0  # a writer closes its ticket within milliseconds of its commit
SWEEP_SECONDS = 5.0  # how often a sweeper looks for stale tickets
CLAIM_LIMIT = 200  # tickets claimed by one sweep (the rest wait for the next)


def open_ticket(conn: Any, user_id: str) -> str:
    """Add a ticket for ``user_id`` to the caller's transaction; its id."""
    ticket = new_id("ixt")
    conn.execute(
        "INSERT INTO search_outbox (ticket, user_id, queued_at) VALUES (?, ?, now())",
        [ticket, user_id],
    )
    return ticket


def close_tickets(db: Database, tickets: list[str]) -> None:
    """The writer (or a sweeper) indexed what these tickets stood for."""
    if tickets:
        with db.transaction() as conn:
            conn.execute("DELETE FROM search_outbox WHERE ticket IN (SELECT unnest(?))", [tickets])


def claim_stale(
    db: Database, *, older_than: float = STALE_SECONDS, limit: int = CLAIM_LIMIT
) -> dict[str, list[str]]:
    """Stale tickets, claimed (their time moved to now), by user."""
    with db.transaction() as conn:
        rows = conn.execute(
            "UPDATE search_outbox SET queued_at = now() WHERE ticket IN (SELECT ticket FROM "
            "search_outbox WHERE queued_at < now() - ? * INTERVAL '1 second' ORDER BY queued_at "
            "LIMIT ?) RETURNING ticket, user_id",
            [older_than, limit],
        ).fetchall()
    by_user: dict[str, list[str]] = defaultdict(list)
    for ticket, user_id in rows:
        by_user[user_id].append(ticket)
    return dict(by_user)


class Sweeper:
    """A daemon thread: every ``interval`` seconds, the users of stale tickets are
    reconciled with ``reconcile(user_id)`` and their tickets closed. A failure is logged and
    the tickets wait for a later sweep."""

    def __init__(
        self,
        db: Database,
        reconcile: Callable[[str], None],
        *,
        interval: float = SWEEP_SECONDS,
        older_than: float = STALE_SECONDS,
    ) -> None:
        self._db = db
        self._reconcile = reconcile
        self._interval = interval
        self._older_than = older_than
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="memvisor-sweeper", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join()

    def sweep(self) -> int:
        """One sweep now; how many users were reconciled."""
        claimed = claim_stale(self._db, older_than=self._older_than)
        done: list[str] = []  # the tickets of the users reconciled
        users = 0
        for user_id, tickets in claimed.items():
            try:
                self._reconcile(user_id)
            except Exception as exc:
                logger.warning(
                    "search index: {} has records a writer did not index; reconciling them "
                    "failed and is retried: {}",
                    user_id,
                    exc,
                )
                continue
            done += tickets
            users += 1
        close_tickets(self._db, done)
        if users:
            logger.info("search index: reconciled {} user(s) a writer left unindexed", users)
        return len(claimed)

    def _run(self) -> None:
        while not self._stop.wait(self._interval):
            try:
                self.sweep()
            except Exception as exc:  # the store may be restarting: the next sweep retries
                logger.warning(
                    "search index sweep failed, retried in {} s: {}", self._interval, exc
                )


class IndexedWrite:
    """One write of ``user_id`` that the index must show (``Store.indexed_write``): its
    transactions, each with a ticket on a shared store."""

    def __init__(self, db: Database, user_id: str, *, shared: bool) -> None:
        self._db = db
        self._user_id = user_id
        self._shared = shared
        self.tickets: list[str] = []

    @contextmanager
    def transaction(self) -> Iterator[Any]:
        with self._db.transaction() as conn:
            if self._shared:
                self.tickets.append(open_ticket(conn, self._user_id))
            yield conn
