"""The record store's connection: the protocol the storage modules use, and its DuckDB form.

``Database`` is what every storage module is given: transactions that nested calls join,
reads, Arrow reads and the revision numbers caches keep by. ``DuckDBDatabase`` (here) is the
embedded default; ``storage/postgres.PostgresDatabase`` runs the same statements on a
PostgreSQL server. The modules write DuckDB's dialect; the PostgreSQL backend translates it.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, suppress
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, cast, overload

import duckdb

from memvisor.errors import StorageError

from .clock import to_utc
from .failures import record_store_errors
from .text import valid_utf8

if TYPE_CHECKING:  # DuckDB loads pyarrow itself on an Arrow read; a record read needs none
    import pyarrow as pa

_WRITE = re.compile(r"^\s*(INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+(\w+)", re.IGNORECASE)
# Tables whose rows carry a revision from a sequence: inserts take it by default, every
# UPDATE must set it, so a reader can fetch just the rows changed since it last looked.
REVISIONS = {"facts": "rev = nextval('fact_rev')"}
# Parsed statements kept per connection, by their SQL text: DuckDB parses every statement it
# is given as text again, about a quarter of a small statement's cost (a fact write runs
# four or five), while its parse of a text never changes. Texts made per call (a list of
# placeholders, a LIMIT) are the reason for the bound.
PARSED_STATEMENTS = 512
# DuckDB's worker threads per statement. A memory store's statements are point reads and
# single-row writes, which one thread runs faster: a second one only costs its hand-offs (a
# fact write on 2 cores, p50/p95: 4.6/5.3 ms with 2, 3.8/4.4 ms with 1), and DuckDB splits a
# scan between threads only by row groups of 122,880 rows. Reads on different cursors still
# run at the same time, each in its caller's thread.
DUCKDB_THREADS = 1
# Idle read cursors kept for reuse: a server's request threads (AnyIO's pool holds 40) each
# take one for a read; more at once are made and closed after.
IDLE_READERS = 40


def written_table(sql: str) -> tuple[str, str] | None:
    """``(table, verb)`` of an INSERT, UPDATE or DELETE statement, None for any other; an
    UPDATE of a table with revisions that does not take one is refused (on every backend)."""
    if not (match := _WRITE.match(sql)):
        return None
    verb, table = match.group(1).split()[0].upper(), match.group(2).lower()
    revision = REVISIONS.get(table)
    if verb == "UPDATE" and revision and revision not in sql:
        raise StorageError(f"an UPDATE of {table} must set {revision}: {sql[:120]}")
    return table, verb


class _Tracked:
    """A transaction's connection that notes the tables its statements write, and how."""

    def __init__(
        self, conn: duckdb.DuckDBPyConnection, changed: set[tuple[str, str]], db: DuckDBDatabase
    ) -> None:
        self._conn = conn
        self._changed = changed
        self._db = db
        self._path = db.path

    def execute(self, sql: str, parameters: Any = None) -> duckdb.DuckDBPyConnection:
        self._note(sql)
        with record_store_errors(self._path, writing=True):
            return self._conn.execute(self._db.parsed(sql, self._conn), valid_utf8(parameters))

    def executemany(self, sql: str, parameters: Any = None) -> duckdb.DuckDBPyConnection:
        self._note(sql)
        with record_store_errors(self._path, writing=True):
            return self._conn.executemany(sql, valid_utf8(parameters))

    def _note(self, sql: str) -> None:
        if written := written_table(sql):
            if self._db.read_only:
                raise StorageError(
                    f"the record store {self._path} is open for reading only; this command "
                    f"cannot write ({' '.join(reversed(written))}; a bug: please report it)"
                )
            self._changed.add(written)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._conn, name)


class Database(Protocol):
    """What the storage modules need of a record store's connection."""

    path: str  # where the records are, for messages (a server's address without password)
    read_only: bool

    def transaction(self, *, reading: bool = False) -> AbstractContextManager[Any]:
        """Commit on success, roll back on any error; nested calls join the outer one. The
        connection it gives runs ``execute(sql, params)`` with ``?`` placeholders."""
        ...

    def snapshot(self) -> AbstractContextManager[Any]:
        """Several reads that see one state of the store."""
        ...

    def after_commit(self, run: Callable[[], None]) -> None:
        """``run()`` once the open transaction of this thread commits, outside the store's
        lock (dropped if it rolls back); at once when none is open."""
        ...

    def query(self, sql: str, params: list[Any] | None = None) -> list[tuple[Any, ...]]: ...

    def arrow(self, sql: str, params: list[Any] | None = None) -> pa.Table: ...

    def generation(self, table: str) -> int:
        """A number that changes whenever a committed transaction wrote ``table``."""
        ...

    def deletions(self, table: str) -> int:
        """A number that changes whenever a committed transaction deleted rows of ``table``."""
        ...

    def rewrites(self, table: str) -> int:
        """A number that changes whenever a committed transaction changed or deleted rows."""
        ...

    def one_read(self) -> AbstractContextManager[None]:
        """A read of many parts (a page-in) that asks the counters above once: inside it
        they stand still but for this thread's own commits."""
        ...

    def close(self) -> None: ...


class AfterCommit:
    """What waits for the open transaction to commit (``Database.after_commit``)."""

    def __init__(self, waiting: list[Callable[[], None]] | None = None) -> None:
        self._waiting = waiting or []

    def add(self, run: Callable[[], None]) -> None:
        self._waiting.append(run)

    def drop(self) -> None:
        self._waiting.clear()

    def take(self) -> AfterCommit:
        """What waited, handed over (to run once the lock is released); none waits now."""
        taken, self._waiting = AfterCommit(self._waiting), []
        return taken

    def run(self) -> None:
        for run in self._waiting:
            run()


class CommitHooks:
    """``Database.after_commit`` for a database whose transactions hold ``_lock`` and count
    their nesting in ``_depth``, and keep what waits in ``_after``."""

    _lock: threading.RLock
    _depth: int
    _after: AfterCommit

    def after_commit(self, run: Callable[[], None]) -> None:
        with self._lock:
            if self._depth:
                self._after.add(run)
                return
        run()


class DuckDBDatabase(CommitHooks):
    """The embedded record store's connection. Every statement of it passes through
    ``record_store_errors``: a full disk or a damaged file is one line naming the file.

    Transactions run one at a time on ``conn``, under ``_lock``. A read outside them runs on
    a cursor of its own (``conn.cursor()``: another connection to the same database, which
    DuckDB runs at the same time as the others, outside the GIL), so reads wait for no
    writer: each sees the store as last committed, every acknowledged write included, and
    nothing of a transaction still open. A read by the thread whose transaction is open
    runs inside it, on ``conn``, and sees that transaction's own writes.
    """

    def __init__(self, path: Path | str, *, read_only: bool = False) -> None:
        self.path = str(path)
        self.read_only = read_only
        with record_store_errors(self.path):
            self.conn = duckdb.connect(
                self.path, read_only=read_only, config={"threads": DUCKDB_THREADS}
            )
        self._lock = threading.RLock()
        self._depth = 0
        self._owner: int | None = None  # the thread whose transaction is open
        # (table, verb) written in the open transaction
        self._changed: set[tuple[str, str]] = set()
        self._tracked = cast(duckdb.DuckDBPyConnection, _Tracked(self.conn, self._changed, self))
        self._generations: dict[str, int] = {}
        self._deletions: dict[str, int] = {}
        self._rewrites: dict[str, int] = {}
        self._after = AfterCommit()
        self._parsed: dict[str, duckdb.Statement | str] = {}
        self._parsed_lock = threading.Lock()
        # The read cursors are made from a connection of their own, which nothing else
        # uses: making one never waits for ``conn``, busy with a transaction.
        with record_store_errors(self.path):
            self._cursors = self.conn.cursor()
        self._idle: list[duckdb.DuckDBPyConnection] = []  # read cursors free for the next read
        self._idle_lock = threading.Lock()  # over _idle, _reads, _closed and _cursors
        self._reads = 0  # reads running on cursors now: close waits for them
        self._reads_done = threading.Condition(self._idle_lock)
        self._closed = False

    def parsed(self, sql: str, conn: duckdb.DuckDBPyConnection) -> duckdb.Statement | str:
        """``sql`` parsed once for this database, by ``conn`` (the connection about to run
        it: a connection runs one call at a time); a text of several statements stays
        text, DuckDB runs those itself. A parse is the same on every connection of the
        database. Call with the connection's errors in scope: a statement that does not
        parse raises here."""
        with self._parsed_lock:
            known = self._parsed.pop(sql, None)
        if known is None:
            statements = conn.extract_statements(sql)
            known = statements[0] if len(statements) == 1 else sql
        with self._parsed_lock:
            if len(self._parsed) >= PARSED_STATEMENTS:
                del self._parsed[next(iter(self._parsed))]  # the least recently used
            self._parsed[sql] = known  # the most recently used last
        return known

    def generation(self, table: str) -> int:
        """How many committed transactions of this process wrote ``table``.

        Every write goes through ``transaction``, whose connection notes the table of each
        INSERT, UPDATE and DELETE. One writer process owns a store (the data-directory
        lock), so an unchanged generation means unchanged rows: readers keep caches by it.
        """
        return self._generations.get(table, 0)

    def rewrites(self, table: str) -> int:
        """How many committed transactions of this process changed or deleted rows of
        ``table`` (for readers that keep rows they read and only append new ones)."""
        return self._rewrites.get(table, 0)

    def deletions(self, table: str) -> int:
        """How many committed transactions of this process deleted rows of ``table``."""
        return self._deletions.get(table, 0)

    def in_transaction(self) -> bool:
        """Whether this thread has a transaction open (its statements join it)."""
        return self._owner == threading.get_ident()

    @contextmanager
    def one_read(self) -> Iterator[None]:
        """Nothing to pin: this process's counters are in memory."""
        yield

    def snapshot(self) -> AbstractContextManager[duckdb.DuckDBPyConnection]:
        """Several reads that see one state of the store (an export)."""
        return self.transaction(reading=True)

    @contextmanager
    def transaction(self, *, reading: bool = False) -> Iterator[duckdb.DuckDBPyConnection]:
        """Commit on success, roll back on any error; nested calls join the outer one. On a
        store opened read-only, reads run; the first INSERT, UPDATE or DELETE is refused.
        ``reading`` changes nothing here: this process's transactions run one at a time."""
        with self._lock:
            if self._depth:
                self._depth += 1
                try:
                    yield self._tracked
                finally:
                    self._depth -= 1
                return
            with record_store_errors(self.path, writing=True):
                self.conn.execute(self.parsed("BEGIN TRANSACTION", self.conn))
            self._depth, self._owner = 1, threading.get_ident()
            try:
                yield self._tracked
            except BaseException:
                self._depth, self._owner = 0, None
                self._changed.clear()
                self._after.drop()
                self._rollback()
                raise
            self._depth, self._owner = 0, None
            changed = set(self._changed)
            self._changed.clear()
            try:
                with record_store_errors(self.path, writing=True):
                    self.conn.execute(self.parsed("COMMIT", self.conn))
            except StorageError:
                self._after.drop()
                self._rollback()
                raise
            for table in {table for table, _ in changed}:
                self._generations[table] = self._generations.get(table, 0) + 1
            for table in {table for table, verb in changed if verb == "DELETE"}:
                self._deletions[table] = self._deletions.get(table, 0) + 1
            for table in {table for table, verb in changed if verb in ("UPDATE", "DELETE")}:
                self._rewrites[table] = self._rewrites.get(table, 0) + 1
            committed = self._after.take()
        committed.run()

    def _rollback(self) -> None:
        """Undo the open transaction; a connection the failure already ended has none."""
        with suppress(duckdb.Error):
            self.conn.execute("ROLLBACK")

    def query(self, sql: str, params: list[Any] | None = None) -> list[tuple[Any, ...]]:
        with self._reading() as conn, record_store_errors(self.path):
            return conn.execute(self.parsed(sql, conn), valid_utf8(params or [])).fetchall()

    def arrow(self, sql: str, params: list[Any] | None = None) -> pa.Table:
        """A read's rows as one Arrow table: columnar, no Python object per value."""
        with self._reading() as conn, record_store_errors(self.path):
            return conn.sql(sql, params=params or []).to_arrow_table()

    @contextmanager
    def _reading(self) -> Iterator[duckdb.DuckDBPyConnection]:
        """The connection a read runs on: inside this thread's open transaction, that one;
        else an idle read cursor, or a new one. A cursor whose read failed is closed, not
        kept (the failure may have ended it)."""
        if self.in_transaction():  # only this thread sets the owner to its own id
            with self._lock:
                yield self.conn
            return
        with self._idle_lock, record_store_errors(self.path):
            if self._closed:
                raise StorageError(f"the record store {self.path} is closed")
            cursor = self._idle.pop() if self._idle else self._cursors.cursor()
            self._reads += 1
        kept = False
        try:
            yield cursor
            kept = True
        finally:
            with self._idle_lock:
                self._reads -= 1
                kept = kept and not self._closed and len(self._idle) < IDLE_READERS
                if kept:
                    self._idle.append(cursor)
                self._reads_done.notify_all()
            if not kept:
                with suppress(duckdb.Error):
                    cursor.close()

    def copy_to(self, target: Path) -> None:
        """Copy every table and sequence to a new DuckDB file, between transactions (the
        lock is the one every transaction holds): one consistent state for a reader."""
        quoted = str(target).replace("'", "''")
        with self._lock, record_store_errors(self.path):
            source = self.conn.execute("SELECT current_database()").fetchall()[0][0]
            self.conn.execute(f"ATTACH '{quoted}' AS memvisor_snapshot")
            try:
                self.conn.execute(f'COPY FROM DATABASE "{source}" TO memvisor_snapshot')
            finally:
                self.conn.execute("DETACH memvisor_snapshot")

    def close(self) -> None:
        """Refuse new reads, wait for those running (a connection closed under a query is
        not safe), then close every cursor and the connection."""
        with self._lock:
            with self._idle_lock:
                self._closed = True
                self._reads_done.wait_for(lambda: not self._reads)
                idle, self._idle = self._idle, []
            for cursor in [*idle, self._cursors]:
                with suppress(duckdb.Error):
                    cursor.close()
            self.conn.close()


@overload
def db_time(when: datetime) -> datetime: ...
@overload
def db_time(when: None) -> None: ...
def db_time(when: datetime | None) -> datetime | None:
    """DuckDB TIMESTAMP columns hold naive UTC."""
    return to_utc(when).replace(tzinfo=None) if when else None


@overload
def from_db_time(value: datetime) -> datetime: ...
@overload
def from_db_time(value: None) -> None: ...
def from_db_time(value: datetime | None) -> datetime | None:
    return to_utc(value) if value else None
