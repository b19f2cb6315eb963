"""What a guarded write sends the record store: the verdict goes in with the record's own
event (one INSERT, in order, one commit), a failed write leaves its verdict and nothing held,
and DuckDB's statements are parsed once per text. Runs on both backends."""

from __future__ import annotations

from typing import Any

import pytest

from memvisor.agent.guards import Firewall
from memvisor.agent.memory.api import Memory
from memvisor.errors import UserError
from memvisor.storage import Store
from memvisor.storage.database import PARSED_STATEMENTS, DuckDBDatabase

pytestmark = pytest.mark.usefixtures("backend")


def _event_inserts(
    store: Store, monkeypatch: pytest.MonkeyPatch, sent: list[str] | None = None
) -> list[int]:
    """The number of rows of each INSERT INTO events sent from now on (every statement's
    text in ``sent``)."""
    rows: list[int] = []
    sent = [] if sent is None else sent
    real = store.db.transaction

    class Counting:
        def __init__(self, conn: Any) -> None:
            self._conn = conn

        def execute(self, sql: str, parameters: Any = None) -> Any:
            sent.append(sql)
            if sql.startswith("INSERT INTO events"):
                rows.append(sql.count("(?, ?, ?, ?, ?, ?, ?)"))
            return self._conn.execute(sql, parameters)

        def __getattr__(self, name: str) -> Any:
            return getattr(self._conn, name)

    from contextlib import contextmanager

    @contextmanager
    def transaction(**kwargs: Any) -> Any:
        with real(**kwargs) as conn:
            yield Counting(conn)

    monkeypatch.setattr(store.db, "transaction", transaction)
    return rows


def _kinds(store: Store, user: str) -> list[str]:
    return [e.kind for e in store.events.list(user_id=user)]


def test_a_fact_write_sends_its_verdict_with_its_event(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    memory = Memory(store, guard=Firewall())
    source = memory.record_command("memory add", {}, user_id="ann", trace_id="trc_cmd")
    sent: list[str] = []
    inserts = _event_inserts(store, monkeypatch, sent)
    fact = {"subject": "Ann", "predicate": "lives_in", "object": "Porto"}
    for obj in ("Porto", "Lisbon", "Lisbon"):  # created, superseded, confirmed
        done = memory.write(
            "fact_remember",
            {**fact, "object": obj},
            user_id="ann",
            origin="cli",
            source_event_ids=[source],
        )
        assert done.record_id is not None
    assert inserts == [2, 2, 2]  # one INSERT of both events per write
    # Nothing of this triple was forgotten: the source's text is not read to check that.
    assert not [sql for sql in sent if "FROM events" in sql]
    logged = store.events.list(user_id="ann")
    assert [e.kind for e in logged] == ["user_command"] + ["firewall_verdict", "memory_write"] * 3
    for verdict, write in zip(logged[1::2], logged[2::2], strict=True):
        assert verdict.trace_id == write.trace_id and verdict.payload["verdict"] == "allow"
        assert write.payload["action"] in ("created", "superseded", "confirmed")


def test_a_refused_write_keeps_its_verdict_and_holds_nothing_for_the_next(
    store: Store,
) -> None:
    memory = Memory(store, guard=Firewall())
    with pytest.raises(UserError):
        memory.write(
            "fact_edit", {"fact_id": "fct_none", "object": "x"}, user_id="bo", origin="cli"
        )
    assert _kinds(store, "bo") == ["firewall_verdict"]  # logged once, after the rollback
    memory.write(
        "fact_remember",
        {"subject": "Bo", "predicate": "likes", "object": "tea"},
        user_id="bo",
        origin="cli",
    )
    assert _kinds(store, "bo") == ["firewall_verdict", "firewall_verdict", "memory_write"]
    assert store.facts.count(user_id="bo") == 1


@pytest.mark.duckdb_only
def test_duckdb_parses_a_statement_text_once_and_keeps_a_bounded_number(
    store: Store,
) -> None:
    db = store.db
    assert isinstance(db, DuckDBDatabase)
    sql = "SELECT count(*) FROM facts WHERE user_id = ?"
    first = db.parsed(sql, db.conn)
    assert db.parsed(sql, db.conn) is first and not isinstance(first, str)
    assert db.query(sql, ["ann"]) == [(0,)]
    assert db.parsed("SELECT 1; SELECT 2", db.conn) == "SELECT 1; SELECT 2"  # DuckDB runs several
    for n in range(PARSED_STATEMENTS + 10):
        assert db.query(f"SELECT {n}") == [(n,)]
    assert len(db._parsed) == PARSED_STATEMENTS
    assert db.parsed(sql, db.conn) is not first  # the least recently used went first
