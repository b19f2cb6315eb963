"""Transactions: commit or roll back as one, and count committed writes per table."""

from __future__ import annotations

import pytest

from memvisor.errors import StorageError
from memvisor.storage import Store

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
