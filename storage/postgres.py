"""The record store on a PostgreSQL server: the storage modules' statements on psycopg 3.

One connection per store, serialised by a lock like the embedded one, in autocommit mode so
that ``transaction`` says BEGIN and COMMIT itself (nested calls join the outer one). The
statements are the modules' own, translated by ``pg_dialect.to_postgres``.

Revisions: page-in's in-memory copies (facts, recipes, usage, the dialogue) are kept by
``generation(table)``. Another process may write the same database, so the number lives in
it: a statement trigger on every record table bumps ``memvisor_revisions`` before the
statement runs. Writers take one transaction-scoped advisory lock (``transaction`` at
BEGIN, the trigger for any other write), so writing transactions run one at a time, as on
DuckDB: no lost update, and they commit in the order they took ``fact_rev`` and
``event_seq`` numbers, which the copies read "after" (a sequence's own ``last_value`` moves
before commit: a reader would skip a late commit).

Isolation: every record table has row-level security keyed on the session setting
``memvisor.user_id``. The store's own connection owns the tables (policies do not apply; the
code filters by ``user_id`` as on DuckDB); a connection opened with ``user_id=`` takes the
``memvisor_member`` role and sees, changes and adds that user's rows only, whatever it runs.

Reconnecting: a lost connection (the server restarted, a proxy cut it) is replaced on the next
statement, with the session settings (role, user, read only) applied again. A statement
outside a transaction, and a BEGIN, are retried once on the fresh connection (nothing of them
ran). A transaction cut midway is rolled back by the server: it is reported as a
``StorageError`` saying nothing of it was stored, and the next one runs on a new connection. A
COMMIT whose answer was lost is never sent again: the transaction's id, taken at BEGIN, is
looked up on the new connection (``pg_xact_status``); committed is success, aborted is the
error above, and a server that cannot be asked is an error saying the outcome is unknown.
"""

from __future__ import annotations

import re
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from typing import Any, TypeVar

import psycopg
import pyarrow as pa
from psycopg import sql as pgsql
from psycopg.conninfo import conninfo_to_dict

from memvisor.errors import OutcomeUnknown, StorageError, UserError

from .database import AfterCommit, CommitHooks, written_table
from .migrations import MIGRATIONS, migrate, pending
from .pg_dialect import to_postgres
from .text import valid_utf8
from .users import require_user

T = TypeVar("T")
MEMBER_ROLE = "memvisor_member"
_MIGRATION_LOCK = 0x6D656D76  # pg_advisory_lock key: one process migrates at a time
_WRITER_LOCK = 1836674422  # pg_advisory_xact_lock key: one writing transaction at a time
_COUNTERS = ("generation", "deletions", "rewrites")  # memvisor_revisions' columns
RECONNECT_SECONDS = 5.0  # how long a lost connection's replacement may take (a restart)
_ARROW_TYPES = {
    16: pa.bool_(),
    17: pa.binary(),
    20: pa.int64(),
    21: pa.int16(),
    23: pa.int32(),
    25: pa.string(),
    701: pa.float64(),
    1009: pa.list_(pa.field("l", pa.string())),  # as DuckDB names the item field
    1043: pa.string(),
    1114: pa.timestamp("us"),
}
_REVISE_BODY = """
BEGIN
    -- One writing transaction at a time, from its first write to its commit (as DuckDB's
    -- one writer): revisions then commit in order, and the counter rows, taken in whatever
    -- order a transaction writes tables, cannot deadlock two writers.
    PERFORM pg_advisory_xact_lock(1836674422);  -- _WRITER_LOCK
    UPDATE memvisor_revisions SET generation = generation + 1,
        deletions = deletions + (TG_OP = 'DELETE')::int,
        rewrites = rewrites + (TG_OP <> 'INSERT')::int
    WHERE table_name = TG_TABLE_NAME;
    RETURN NULL;
END """
_REVISE = (
    """
CREATE TABLE IF NOT EXISTS memvisor_revisions (
    table_name TEXT PRIMARY KEY,
    generation BIGINT NOT NULL DEFAULT 0,
    deletions BIGINT NOT NULL DEFAULT 0,
    rewrites BIGINT NOT NULL DEFAULT 0
);
ALTER TABLE memvisor_revisions ADD COLUMN IF NOT EXISTS rewrites BIGINT NOT NULL DEFAULT 0;
CREATE OR REPLACE FUNCTION memvisor_revise() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT AS $$"""
    + _REVISE_BODY
    + """$$;
DO $$ BEGIN
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'memvisor_member') THEN
        CREATE ROLE memvisor_member NOLOGIN;
    END IF;
END $$;
GRANT SELECT ON memvisor_revisions TO memvisor_member;
"""
)
_PER_TABLE = """
INSERT INTO memvisor_revisions (table_name) VALUES ({name}) ON CONFLICT DO NOTHING;
CREATE OR REPLACE TRIGGER memvisor_revise BEFORE INSERT OR UPDATE OR DELETE ON {table}
    FOR EACH STATEMENT EXECUTE FUNCTION memvisor_revise();
"""
# Also the search index's tables' (``pg_vectors``), which have no revision trigger.
ROW_POLICY = """
ALTER TABLE {table} ENABLE ROW LEVEL SECURITY;
DROP POLICY IF EXISTS memvisor_user ON {table};
CREATE POLICY memvisor_user ON {table}
    USING (user_id = current_setting('memvisor.user_id', true))
    WITH CHECK (user_id = current_setting('memvisor.user_id', true));
GRANT SELECT, INSERT, UPDATE, DELETE ON {table} TO memvisor_member;
"""
_PER_TABLE += ROW_POLICY
# The search index's tables are not records: no revisions (``pg_vectors`` applies the policy).
SEARCH_TABLES = "memvisor_search_"


def is_postgres_url(store: str | None) -> bool:
    return bool(store) and str(store).startswith(("postgresql://", "postgres://"))


def redacted(url: str) -> str:
    """``url`` without its password (in the address or as a parameter), for messages."""
    # Up to the last @ before the path: a password may hold an unescaped @.
    url = re.sub(r"(://[^:/@?#]*):[^/?#]*@", r"\1:***@", url)
    return re.sub(r"(password=)[^&\s]*", r"\1***", url)


def _password(url: str) -> str | None:
    """The password a URL gives (address or parameter), to keep it out of any message."""
    with suppress(psycopg.Error):
        return conninfo_to_dict(url).get("password")  # type: ignore[return-value]
    return None


def checked_url(url: str) -> str:
    """``url`` if libpq can read it; else a ``UserError`` naming what is wrong (no password)."""
    try:
        conninfo_to_dict(url)
    except psycopg.Error as exc:
        reason = _first_line(exc)
        for secret in filter(None, re.findall(r":([^/?#@]+)@", url) + [_password(url) or ""]):
            reason = reason.replace(secret, "***")
        raise UserError(f"not a PostgreSQL URL {redacted(url)!r}: {reason}") from None
    return url


@contextmanager
def server_errors(where: str) -> Iterator[None]:
    """A psycopg failure as one ``StorageError`` line naming the server (never a traceback)."""
    try:
        yield
    except psycopg.OperationalError as exc:
        raise StorageError(f"cannot use the PostgreSQL store {where}: {_first_line(exc)}") from exc
    except psycopg.Error as exc:
        raise StorageError(f"the record store {where} failed: {_first_line(exc)}") from exc


class _Result:
    """A statement's rows; an INSERT, UPDATE or DELETE without RETURNING gives its row count,
    as DuckDB does."""

    def __init__(self, cursor: psycopg.Cursor[Any]) -> None:
        self._cursor = cursor

    def fetchall(self) -> list[tuple[Any, ...]]:
        if self._cursor.description is None:
            return [(self._cursor.rowcount,)]
        return self._cursor.fetchall()

    def fetchone(self) -> tuple[Any, ...] | None:
        if self._cursor.description is None:
            return (self._cursor.rowcount,)
        return self._cursor.fetchone()


class Translated:
    """The connection a transaction gives: DuckDB statements, run translated.

    It counts the write statements of the open transaction per table (the revision trigger
    counts the same), so that ``generation`` inside it still answers the committed number.
    """

    def __init__(self, conn: psycopg.Connection[Any], where: str, *, read_only: bool) -> None:
        self._conn = conn
        self._where = where
        self._read_only = read_only
        self.written: Counter[tuple[str, str]] = Counter()  # (table, verb) -> statements

    def rebind(self, conn: psycopg.Connection[Any]) -> None:
        """Run on ``conn`` from now on (the store replaced a lost connection)."""
        self._conn = conn
        self.written.clear()

    def execute(self, sql: str, parameters: Sequence[Any] | None = None) -> _Result:
        self._note(sql, 1)
        return _Result(self.cursor(sql, parameters))

    def executemany(self, sql: str, parameters: Sequence[Sequence[Any]]) -> None:
        self._note(sql, len(parameters))
        with server_errors(self._where), self._conn.cursor() as cursor:
            cursor.executemany(to_postgres(sql), [_params(p) for p in parameters])

    def _note(self, sql: str, times: int) -> None:
        if written := written_table(sql):
            if self._read_only:  # as on DuckDB; the server would refuse it anyway
                raise StorageError(
                    f"the record store {self._where} is open for reading only; this command "
                    f"cannot write ({' '.join(reversed(written))}; a bug: please report it)"
                )
            self.written[written] += times

    def cursor(self, sql: str, parameters: Sequence[Any] | None) -> psycopg.Cursor[Any]:
        with server_errors(self._where):
            return self._conn.execute(to_postgres(sql), _params(parameters))


class _PinnedCounters(threading.local):
    """A thread's counters inside ``PostgresDatabase.one_read`` (None outside it)."""

    counters: dict[str, dict[str, int]] | None = None


class PostgresDatabase(CommitHooks):
    """The record store in a PostgreSQL database (``postgresql://…``), migrated on open.

    ``user_id`` binds the connection to one user under row-level security: a door for one
    user's requests. Such a connection neither migrates nor sees anyone else's rows.
    """

    def __init__(
        self,
        url: str,
        *,
        read_only: bool = False,
        user_id: str | None = None,
        reconnect_seconds: float = RECONNECT_SECONDS,
    ) -> None:
        self.path = redacted(url)
        self.read_only = read_only
        self._url = checked_url(url)
        self._user_id = require_user(user_id) if user_id is not None else None
        self._reconnect_seconds = reconnect_seconds
        self._lock = threading.RLock()
        self._depth = 0
        self._xid: str | None = None  # the open writing transaction's id, for a lost COMMIT
        self._after = AfterCommit()
        self._pinned = _PinnedCounters()
        self._raw = self._connect()
        self.conn = Translated(self._raw, self.path, read_only=read_only)
        try:
            if self._user_id is None and read_only:
                self._check_migrated()
            elif self._user_id is None:
                self._migrate()
        except BaseException:
            self._raw.close()
            raise

    def _connect(self) -> psycopg.Connection[Any]:
        """A new connection with this store's session settings (they live in the session, so
        a replacement must say them again)."""
        with server_errors(self.path):
            raw = psycopg.connect(self._url, autocommit=True)
        try:
            with server_errors(self.path):
                # pgvector installed in another schema than the store's (a DBA's `public`
                # while the URL names the store's own): its type and operators are found.
                raw.execute(
                    "SELECT set_config('search_path', current_setting('search_path') || ', ' "
                    "|| quote_ident(n.nspname), false) FROM pg_extension e JOIN pg_namespace n "
                    "ON n.oid = e.extnamespace WHERE e.extname = 'vector' "
                    "AND NOT n.nspname = ANY(current_schemas(false))"
                )
                if self._user_id is not None:
                    raw.execute(pgsql.SQL("SET ROLE {}").format(pgsql.Identifier(MEMBER_ROLE)))
                    raw.execute("SELECT set_config('memvisor.user_id', %s, false)", [self._user_id])
                elif self.read_only:  # a hand-written write is refused too
                    raw.execute("SET default_transaction_read_only = on")
        except BaseException:
            raw.close()
            raise
        return raw

    def _lost(self) -> bool:
        """Whether the connection is gone (a statement on it failed for that reason)."""
        return bool(self._raw.closed or self._raw.broken)

    def _reconnect(self) -> None:
        """Replace a lost connection, trying for up to ``reconnect_seconds`` (a restarting
        server refuses connections for a moment, then says it is starting up)."""
        with suppress(psycopg.Error):
            self._raw.close()
        deadline = time.monotonic() + self._reconnect_seconds
        while True:
            try:
                self._raw = self._connect()
                break
            except StorageError:
                if time.monotonic() >= deadline:
                    raise
                time.sleep(0.1)
        self.conn.rebind(self._raw)

    def _retried(self, run: Callable[[], T], *, again: bool = True) -> T:
        """``run()``, on a fresh connection if the last one was lost; outside a transaction,
        once more on a fresh one if it failed because the connection was lost. ``again``
        False for a write outside a transaction: its reply may be what was lost, so running
        it again could write it twice (the storage modules write in transactions)."""
        if self._lost() and not self._depth:
            self._reconnect()
        try:
            return run()
        except StorageError:
            if self._depth or not again or not self._lost():
                raise
        self._reconnect()
        return run()

    def _check_migrated(self) -> None:
        if needed := pending(self):
            raise StorageError(
                f"the store {self.path} needs {len(needed)} migration(s) before it can be read: "
                "open it once for writing"
            )

    def _migrate(self) -> None:
        """Pending migrations, then the revision triggers and row-level security of every
        record table, one process at a time; a store already current is only checked."""
        if not pending(self) and self._guarded() and not self._newer():
            return
        with server_errors(self.path):
            self._raw.execute("SELECT pg_advisory_lock(%s)", [_MIGRATION_LOCK])
            try:
                migrate(self.conn)  # type: ignore[arg-type]
                self.conn.written.clear()
                with self._raw.transaction():
                    self._guard()
            finally:
                self._raw.execute("SELECT pg_advisory_unlock(%s)", [_MIGRATION_LOCK])

    def _newer(self) -> bool:
        """Whether a newer memvisor migrated this store (``migrate`` then says so)."""
        known = {m.name for m in MIGRATIONS}
        return any(r[0] not in known for r in self.query("SELECT name FROM schema_migrations"))

    def _guarded(self) -> bool:
        """Whether every record table has this version's revision trigger (and so its
        policy)."""
        rows = self._raw.execute(
            "SELECT count(*), (SELECT max(prosrc) FROM pg_proc WHERE proname = "
            "'memvisor_revise') FROM information_schema.triggers WHERE trigger_name = "
            "'memvisor_revise' AND event_manipulation = 'INSERT' "
            "AND event_object_schema = current_schema()"
        ).fetchall()
        triggers, body = rows[0]
        return body == _REVISE_BODY and int(triggers) == len(self._record_tables())

    def _guard(self) -> None:
        self._raw.execute(_REVISE)
        for table in self._record_tables():
            self._raw.execute(
                pgsql.SQL(_PER_TABLE).format(
                    table=pgsql.Identifier(table), name=pgsql.Literal(table)
                )
            )
        self._raw.execute(
            pgsql.SQL("GRANT USAGE ON ALL SEQUENCES IN SCHEMA {} TO {}").format(
                pgsql.Identifier(self._schema()), pgsql.Identifier(MEMBER_ROLE)
            )
        )

    def _schema(self) -> str:
        return str(self._raw.execute("SELECT current_schema()").fetchall()[0][0])

    def _record_tables(self) -> list[str]:
        rows = self._raw.execute(
            "SELECT table_name FROM information_schema.columns WHERE column_name = 'user_id' "
            "AND table_schema = current_schema() "
            f"AND table_name NOT LIKE '{SEARCH_TABLES}%' ORDER BY table_name"
        ).fetchall()
        return [r[0] for r in rows]

    def generation(self, table: str) -> int:
        """How many write statements committed on ``table``, by any process."""
        return self._revision(table, "generation")

    def deletions(self, table: str) -> int:
        """How many DELETE statements committed on ``table``, by any process."""
        return self._revision(table, "deletions")

    def rewrites(self, table: str) -> int:
        """How many UPDATE and DELETE statements committed on ``table``, by any process."""
        return self._revision(table, "rewrites")

    @contextmanager
    def one_read(self) -> Iterator[None]:
        """The counters of every table read in one round trip, the first time one is asked
        within, and kept until this thread commits a write or the outermost read ends (a
        page-in asks nine). Safe for the caches that key on them: a counter is read before
        the rows it guards, so a commit in between costs one more read later, never a miss."""
        if self._pinned.counters is not None:
            yield
            return
        self._pinned.counters = {}
        try:
            yield
        finally:
            self._pinned.counters = None

    def _counters(self, table: str) -> dict[str, int] | None:
        """``table``'s committed counters: pinned ones inside ``one_read`` (read once), else
        from the server; None when the table has none."""
        pinned = self._pinned.counters
        if pinned is None or self.conn.written:  # own writes in flight: the live values
            rows = self.query(
                "SELECT generation, deletions, rewrites FROM memvisor_revisions "
                "WHERE table_name = ?",
                [table],
            )
            return dict(zip(_COUNTERS, rows[0], strict=True)) if rows else None
        if not pinned:
            rows = self.query(
                "SELECT table_name, generation, deletions, rewrites FROM memvisor_revisions"
            )
            pinned.update({r[0]: dict(zip(_COUNTERS, r[1:], strict=True)) for r in rows})
            pinned.setdefault("", {})  # a store with no counters yet: read all the same
        return pinned.get(table)

    def _revision(self, table: str, column: str) -> int:
        with self._lock:
            counters = self._counters(table)
            own = self.conn.written
            if column == "deletions":
                uncommitted = own[table, "DELETE"]
            elif column == "rewrites":
                uncommitted = own[table, "UPDATE"] + own[table, "DELETE"]
            else:
                uncommitted = sum(n for (name, _), n in own.items() if name == table)
        return int(counters[column]) - uncommitted if counters else 0

    def snapshot(self) -> Any:
        return self.transaction(reading=True)

    @contextmanager
    def transaction(self, *, reading: bool = False) -> Iterator[Translated]:
        """Commit on success, roll back on any error; nested calls join the outer one.

        A writing transaction runs alone among the store's writers, in every process, from
        BEGIN to COMMIT (as on DuckDB): a fact's supersede or a block's version check reads
        and writes with nobody in between. A reading one sees one snapshot (REPEATABLE READ,
        read only) and waits for nobody.
        """
        reading = reading or self.read_only  # the server then refuses any write itself
        with self._lock:
            if self._depth:
                self._depth += 1
                try:
                    yield self.conn
                finally:
                    self._depth -= 1
                return
            self._retried(lambda: self._begin(reading))
            self._depth = 1
            try:
                yield self.conn
            except BaseException as exc:
                self._depth = 0
                self._after.drop()
                self._rollback()
                if isinstance(exc, StorageError) and self._lost():
                    raise StorageError(
                        f"the connection to the PostgreSQL store {self.path} was lost during a "
                        "transaction: the server rolled it back, nothing of it is stored; "
                        "run it again"
                    ) from exc
                raise
            self._depth = 0
            wrote = bool(self.conn.written)
            try:
                self._commit()
            except BaseException:
                self._after.drop()
                raise
            finally:
                self.conn.written.clear()
                self._xid = None
                if wrote and self._pinned.counters:  # this thread must see its own write
                    self._pinned.counters.clear()
            committed = self._after.take()
        committed.run()

    def _begin(self, reading: bool) -> None:
        try:
            with server_errors(self.path):
                if reading:
                    self._raw.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
                    return
                # What it reads before it writes cannot change under it; its id answers for
                # a COMMIT whose reply is lost.
                self._raw.execute("BEGIN")
                rows = self._raw.execute(
                    "SELECT pg_advisory_xact_lock(%s), pg_current_xact_id()::text",
                    [_WRITER_LOCK],
                ).fetchall()
                self._xid = str(rows[0][1])
        except StorageError:
            self._rollback()
            raise

    def _commit(self) -> None:
        """COMMIT; if its answer is lost, ask a new connection what became of the transaction
        rather than say it again (that could store it twice, or report a stored one lost)."""
        try:
            with server_errors(self.path):
                self._raw.execute("COMMIT")
            return
        except StorageError as exc:
            if not self._lost():
                self._rollback()
                raise
            failed = exc
        xid, status = self._xid, None
        if xid is None:  # a reading transaction: it wrote nothing, what it read stands
            with suppress(StorageError):
                self._reconnect()
            return
        with suppress(StorageError):
            self._reconnect()
            rows = self.query("SELECT pg_xact_status(?::xid8)", [xid])
            status = rows[0][0] if rows else None
        if status == "committed":
            return
        if status == "aborted":
            raise StorageError(
                f"the connection to the PostgreSQL store {self.path} was lost at COMMIT and the "
                "server rolled the transaction back: nothing of it is stored; run it again"
            ) from failed
        raise OutcomeUnknown(
            f"the connection to the PostgreSQL store {self.path} was lost at COMMIT and the "
            "server could not be asked whether it was stored: check (e.g. `memvisor memory "
            "list`) before writing it again"
        ) from failed

    def _rollback(self) -> None:
        self.conn.written.clear()
        self._xid = None
        with suppress(psycopg.Error):
            self._raw.execute("ROLLBACK")

    def query(self, sql: str, params: list[Any] | None = None) -> list[tuple[Any, ...]]:
        with self._lock:
            again = written_table(sql) is None
            return self._retried(lambda: self._fetch(sql, params)[0], again=again)

    def _fetch(self, sql: str, params: list[Any] | None) -> tuple[list[tuple[Any, ...]], Any]:
        with server_errors(self.path):
            cursor = self.conn.cursor(sql, params)
            return cursor.fetchall(), cursor.description or []

    def arrow(self, sql: str, params: list[Any] | None = None) -> pa.Table:
        """A read's rows as one Arrow table, typed by the columns' PostgreSQL types."""
        with self._lock:
            rows, described = self._retried(lambda: self._fetch(sql, params))
        columns = list(zip(*rows, strict=True)) if rows else [()] * len(described)
        arrays = [
            pa.array(list(values), type=_ARROW_TYPES.get(column.type_code))
            for column, values in zip(described, columns, strict=True)
        ]
        return pa.Table.from_arrays(arrays, names=[column.name for column in described])

    def close(self) -> None:
        with self._lock:
            self._raw.close()


def _params(parameters: Sequence[Any] | None) -> list[Any]:
    """Parameters as psycopg takes them: valid UTF-8 and no NUL (PostgreSQL text holds none)."""
    return [_no_nul(value) for value in valid_utf8(list(parameters or []))]


def _no_nul(value: Any) -> Any:
    if isinstance(value, str):
        return value.replace("\x00", "\ufffd") if "\x00" in value else value
    if isinstance(value, list):
        return [_no_nul(v) for v in value]
    return value


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    line = text.splitlines()[0] if text else type(exc).__name__
    return line if len(line) <= 200 else line[:199] + "…"
