"""Transactions: commit or roll back as one, and count committed writes per table; reads beside
an open transaction see what committed, and wait for nobody."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from memvisor.errors import StorageError
from memvisor.storage import Store
from memvisor.storage.database import IDLE_READERS, DuckDBDatabase

# A storage contract: every test runs on DuckDB and on PostgreSQL (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("backend")


def test_generations_move_only_for_committed_writes(store: Store) -> None:
    db = store.db
    before = (db.generation("events"), db.generation("memory_usage"))
    store.log_turn(user_id="u", role="user", content="hello", session_id="s")
    assert db.generation("events") == before[0] + 1
    with pytest.raises(RuntimeError), db.transaction() as conn:
        conn.execute("DELETE FROM events WHERE user_id = 'u'")
        raise RuntimeError("abort")
    assert db.generation("events") == before[0] + 1  # rolled back: unchanged
    assert len(store.events.list(user_id="u")) == 1
    with db.transaction() as outer:  # nested: counted once, at the outer commit
        with db.transaction() as inner:
            inner.execute(
                "INSERT INTO memory_usage (user_id, item_id, cited, last_used_at) "
                "VALUES ('u', 'x', 1, now())"
            )
        outer.execute("SELECT 1").fetchall()  # reads mark nothing
        assert db.generation("memory_usage") == before[1]
    assert db.generation("memory_usage") == before[1] + 1
    assert db.generation("facts") == 0


def test_deletions_are_counted_apart_and_a_fact_update_must_take_a_revision(
    store: Store,
) -> None:
    db = store.db
    store.remember_fact(user_id="u", subject="u", predicate="likes", object="tea", trace_id="t")
    assert (db.generation("facts"), db.deletions("facts")) == (1, 0)
    with db.transaction() as conn:
        conn.execute("DELETE FROM facts WHERE user_id = 'nobody'")
    assert (db.generation("facts"), db.deletions("facts")) == (2, 1)
    with pytest.raises(StorageError, match="must set rev = nextval"), db.transaction() as conn:
        conn.execute("UPDATE facts SET confidence = 0.1 WHERE user_id = 'u'")
    assert store.facts.list(user_id="u")[0].confidence == pytest.approx(0.8)  # rolled back
    assert db.generation("facts") == 2


def test_arrow_reads_are_typed_alike_on_every_backend(store: Store) -> None:
    store.remember_fact(
        user_id="u",
        subject="u",
        predicate="likes",
        object="tea",
        trace_id="t",
        source_event_ids=["evt_1"],
    )
    table = store.db.arrow(
        "SELECT id, source_event_ids, confidence, created_at, version, status = 'active' AS live "
        "FROM facts WHERE user_id = ?",
        ["u"],
    )
    assert [str(t) for t in table.schema.types] == [
        "string",
        "list<l: string>",
        "double",
        "timestamp[us]",
        "int32",
        "bool",
    ]
    assert table.column("source_event_ids").to_pylist() == [["evt_1"]]
    empty = store.db.arrow("SELECT id, rev FROM facts WHERE user_id = ?", ["nobody"])
    assert empty.num_rows == 0 and empty.column_names == ["id", "rev"]


def _usage_rows(db: Any) -> list[tuple[Any, ...]]:
    return list(db.query("SELECT item_id FROM memory_usage WHERE user_id = 'u' ORDER BY item_id"))


def _insert_usage(conn: Any, item_id: str) -> None:
    conn.execute(
        "INSERT INTO memory_usage (user_id, item_id, cited, last_used_at) "
        "VALUES ('u', ?, 1, now())",
        [item_id],
    )


# DuckDB only: a PostgreSQL store's connection runs one call at a time, so there a read of
# another thread waits for the open transaction (its processes read beside each other).
@pytest.mark.duckdb_only
def test_a_read_waits_for_no_open_transaction_and_sees_only_what_committed(store: Store) -> None:
    db = store.db
    written, commit = threading.Event(), threading.Event()
    inside: list[list[tuple[Any, ...]]] = []

    def writer() -> None:
        with db.transaction() as conn:
            _insert_usage(conn, "a")
            inside.append(_usage_rows(db))  # the writer's own read joins its transaction
            written.set()
            assert commit.wait(10)

    thread = threading.Thread(target=writer)
    thread.start()
    assert written.wait(10)
    seen: list[Any] = []
    reader = threading.Thread(
        target=lambda: seen.extend([_usage_rows(db), db.arrow("SELECT * FROM memory_usage")])
    )
    reader.start()
    reader.join(10)
    assert not reader.is_alive()  # it did not wait for the writer's COMMIT
    assert seen[0] == [] and seen[1].num_rows == 0  # nothing of the open transaction
    commit.set()
    thread.join(10)
    assert inside == [[("a",)]]
    assert _usage_rows(db) == [("a",)]  # the acknowledged write, seen by the next read


@pytest.mark.duckdb_only  # the cursors are DuckDB's; PostgreSQL's reads share one connection
def test_reads_of_many_threads_beside_a_writer_see_every_commit_in_order(store: Store) -> None:
    db = store.db
    assert isinstance(db, DuckDBDatabase)
    commits = 60
    acknowledged = [0]  # writes whose commit returned
    failures: list[str] = []

    def writer() -> None:
        for n in range(commits):
            with db.transaction() as conn:
                _insert_usage(conn, f"i{n:03d}")
            acknowledged[0] = n + 1

    def reader() -> None:
        last = 0
        while acknowledged[0] < commits:
            floor = acknowledged[0]
            seen = len(_usage_rows(db))
            if seen < max(floor, last):  # an acknowledged write missing, or time going back
                failures.append(f"saw {seen} after {floor} acknowledged, {last} seen before")
            last = seen

    threads = [threading.Thread(target=writer)] + [
        threading.Thread(target=reader) for _ in range(12)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert failures == []
    assert len(_usage_rows(db)) == commits
    assert 1 <= len(db._idle) <= IDLE_READERS  # cursors kept for the next reads, bounded


@pytest.mark.duckdb_only  # the cursors are DuckDB's
def test_a_failed_read_leaves_later_reads_working_and_a_closed_store_refuses(
    tmp_path: Path,
) -> None:
    db = DuckDBDatabase(tmp_path / "records.duckdb")
    db.conn.execute("CREATE TABLE t (n INTEGER)")
    with pytest.raises(StorageError, match='"missing" not found'):  # one line, as ever
        db.query("SELECT missing FROM t")
    assert db.query("SELECT count(*) FROM t") == [(0,)]
    db.close()
    with pytest.raises(StorageError, match="closed"):
        db.query("SELECT 1")


@pytest.mark.duckdb_only  # the cursors are DuckDB's
def test_close_waits_for_a_read_under_way(tmp_path: Path) -> None:
    db = DuckDBDatabase(tmp_path / "records.duckdb")
    got: list[Any] = []
    reader = threading.Thread(
        target=lambda: got.extend(db.query("SELECT count(*) FROM range(200000000)"))
    )
    reader.start()
    while not db._reads and reader.is_alive():  # until the read holds its cursor
        pass
    db.close()
    reader.join()  # the read's rows reach ``got`` after it let go of its cursor
    assert got == [(200000000,)]  # it finished on an open connection, then close went on
    reader.join(10)


def test_an_embedded_store_runs_each_statement_on_one_thread(tmp_path: Path) -> None:
    """DUCKDB_THREADS: a point statement runs faster without a second thread's hand-offs."""
    db = DuckDBDatabase(tmp_path / "one.duckdb")
    try:
        assert db.query("SELECT current_setting('threads')") == [(1,)]
    finally:
        db.close()
