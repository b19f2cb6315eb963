from pathlib import Path

import duckdb
import pytest

from memvisor.errors import StorageError
from memvisor.storage import Store
from memvisor.storage.migrations import MIGRATIONS, applied, migrate


def test_store_made_by_first_schema_is_migrated(tmp_path: Path) -> None:
    data = tmp_path / "old"
    data.mkdir()
    conn = duckdb.connect(str(data / "memvisor.duckdb"))
    assert migrate(conn, upto="001_initial") == ["001_initial"]
    conn.execute(
        "INSERT INTO facts VALUES ('fct_old', 'alice', 'fct_old', 'alice', 'lives_in', 'Oslo', "
        "0.9, 0.5, 'active', '2026-01-01', NULL, NULL, '2026-01-01', NULL, 0, 1, NULL, "
        "['evt_1'], 'trc_1')"
    )
    conn.close()
    with Store.open(data, embedder="hash") as store:
        assert applied(store.db.conn) == [m.name for m in MIGRATIONS]
        assert store.facts.get("fct_old", user_id="alice").object == "Oslo"
        # the tombstone table from migration 002 works: forget then suppressed re-ingest
        store.forget("fct_old", user_id="alice", trace_id="t")
        again = store.remember_fact(
            user_id="alice",
            subject="alice",
            predicate="lives_in",
            object="Oslo",
            trace_id="t",
            source_event_ids=["evt_1"],
        )
        assert again.action == "suppressed"


def test_migrations_are_idempotent_and_recorded(tmp_path: Path) -> None:
    conn = duckdb.connect(str(tmp_path / "db.duckdb"))
    assert migrate(conn) == [m.name for m in MIGRATIONS]
    assert migrate(conn) == []
    assert applied(conn) == [m.name for m in MIGRATIONS]


def test_failed_migration_rolls_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from memvisor.storage import migrations

    def broken(conn: duckdb.DuckDBPyConnection) -> None:
        conn.execute("CREATE TABLE half_done (x INT)")
        raise RuntimeError("boom")

    monkeypatch.setattr(
        migrations, "MIGRATIONS", (*MIGRATIONS, migrations.Migration("999_broken", broken))
    )
    conn = duckdb.connect(str(tmp_path / "db.duckdb"))
    with pytest.raises(StorageError, match="999_broken"):
        migrations.migrate(conn)
    tables = {
        r[0] for r in conn.execute("SELECT table_name FROM information_schema.tables").fetchall()
    }
    assert "half_done" not in tables
    assert "999_broken" not in applied(conn)


def test_store_from_newer_memvisor_is_refused(tmp_path: Path) -> None:
    conn = duckdb.connect(str(tmp_path / "db.duckdb"))
    migrate(conn)
    conn.execute("INSERT INTO schema_migrations VALUES ('900_future', now())")
    with pytest.raises(StorageError, match="newer memvisor"):
        migrate(conn)
