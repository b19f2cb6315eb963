"""A restarted PostgreSQL server: the store recovers on its next statement, nothing
acknowledged is lost or doubled, and a transaction the restart cut says so."""

from __future__ import annotations

import socket
import threading
from contextlib import suppress
from pathlib import Path

import psycopg
import pytest

from memvisor.errors import StorageError
from memvisor.storage import ManualClock, Store
from memvisor.storage.facts import FactStore
from memvisor.storage.postgres import PostgresDatabase
from tests.postgres_server import PostgresCluster


def _facts(url: str, user: str) -> list[str]:
    with psycopg.connect(url) as raw:
        rows = raw.execute(
            "SELECT object FROM facts WHERE user_id = %s ORDER BY object", [user]
        ).fetchall()
    return [r[0] for r in rows]


def test_the_store_keeps_working_across_a_server_restart(
    postgres_cluster: PostgresCluster, postgres_url: str, tmp_path: Path, clock: ManualClock
) -> None:
    with Store.open(tmp_path / "s", embedder="hash", clock=clock, store=postgres_url) as store:
        store.remember_fact(user_id="u", subject="u", predicate="likes", object="tea", trace_id="t")
        postgres_cluster.restart()
        # a write after the restart: its BEGIN runs on a fresh connection
        store.remember_fact(
            user_id="u", subject="u", predicate="owns", object="a bike", trace_id="t"
        )
        postgres_cluster.restart()
        # a read after the restart: retried once on a fresh connection
        listed = sorted(f.object for f in store.facts.list(user_id="u"))
        assert listed == ["a bike", "tea"]
    assert _facts(postgres_url, "u") == ["a bike", "tea"]  # each once


def test_a_cut_transaction_is_reported_and_the_next_one_works(
    postgres_cluster: PostgresCluster, postgres_url: str, clock: ManualClock
) -> None:
    db = PostgresDatabase(postgres_url)
    try:
        facts = FactStore(db, clock)
        lost = "lost during a transaction.*nothing of it"
        with pytest.raises(StorageError, match=lost), db.transaction():
            facts.remember(user_id="u", subject="u", predicate="likes", object="tea", trace_id="t")
            postgres_cluster.restart()
            facts.remember(user_id="u", subject="u", predicate="likes", object="jam", trace_id="t")
        assert _facts(postgres_url, "u") == []  # rolled back whole
        facts.remember(user_id="u", subject="u", predicate="likes", object="rye", trace_id="t")
        assert [f.object for f in facts.list(user_id="u")] == ["rye"]
    finally:
        db.close()


def test_a_users_connection_is_bound_again_after_a_restart(
    postgres_cluster: PostgresCluster, postgres_url: str, tmp_path: Path, clock: ManualClock
) -> None:
    with Store.open(tmp_path / "o", embedder="hash", clock=clock, store=postgres_url) as owner:
        for user in ("alice", "bob"):
            owner.remember_fact(
                user_id=user, subject=user, predicate="likes", object="tea", trace_id="t"
            )
    alice = PostgresDatabase(postgres_url, user_id="alice")
    reader = PostgresDatabase(postgres_url, read_only=True)
    try:
        postgres_cluster.restart()
        # row-level security's user and role, and read-only, hold on the new connections
        assert alice.query("SELECT DISTINCT user_id FROM facts") == [("alice",)]
        assert reader.query("SELECT count(*) FROM facts") == [(2,)]
        with pytest.raises(StorageError, match="read-only transaction"):
            reader.query("DELETE FROM facts")
    finally:
        alice.close()
        reader.close()


def test_a_connection_lost_at_commit_is_looked_up_not_sent_again(
    postgres_url: str, clock: ManualClock
) -> None:
    """The backend dies while it commits (a deferred trigger ends it): the store cannot know
    from the dropped connection whether the COMMIT took, so it asks a new connection about
    the transaction's id, and says what the server answers: rolled back, nothing stored."""
    db = PostgresDatabase(postgres_url)
    try:
        facts = FactStore(db, clock)
        facts.remember(user_id="u", subject="u", predicate="likes", object="tea", trace_id="t")
        lost = "lost at COMMIT and the server rolled"
        with pytest.raises(StorageError, match=lost), db.transaction() as conn:
            conn.cursor(_DIE_AT_COMMIT, None)
            facts.remember(user_id="u", subject="u", predicate="likes", object="jam", trace_id="t")
        assert _facts(postgres_url, "u") == ["tea"]
        facts.remember(user_id="u", subject="u", predicate="likes", object="rye", trace_id="t")
        assert _facts(postgres_url, "u") == ["rye", "tea"]
    finally:
        db.close()


# A constraint trigger deferred to COMMIT that ends its own backend: the reply to COMMIT
# never comes. It lives in pg_temp, so it goes with the connection.
_DIE_AT_COMMIT = """
CREATE FUNCTION pg_temp.die() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN PERFORM pg_terminate_backend(pg_backend_pid()); PERFORM pg_sleep(5); RETURN NULL; END $$;
CREATE TEMP TABLE doomed (x INT);
CREATE CONSTRAINT TRIGGER die AFTER INSERT ON doomed DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION pg_temp.die();
INSERT INTO doomed VALUES (1);
"""


def test_a_lone_write_is_not_sent_twice_after_a_restart(
    postgres_cluster: PostgresCluster, postgres_url: str
) -> None:
    """A write outside a transaction whose connection was lost is reported, not run again
    (its reply may be what was lost); the next statement runs on a fresh connection."""
    db = PostgresDatabase(postgres_url)
    try:
        db.query("SELECT 1")
        postgres_cluster.restart()
        with pytest.raises(StorageError, match="cannot use the PostgreSQL store"):
            db.query("DELETE FROM facts WHERE user_id = 'nobody'")
        assert db.query("SELECT count(*) FROM facts") == [(0,)]
    finally:
        db.close()


class _CuttingProxy:
    """127.0.0.1 in front of the server's socket, which can drop the reply to the next
    COMMIT after the server sent it (the commit took; the client never hears so)."""

    def __init__(self, socket_path: str) -> None:
        self.socket_path = socket_path
        self.cut_next_commit = False
        self.cut = threading.Event()
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen()
        self.port = self.listener.getsockname()[1]
        self.open: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            server = socket.socket(socket.AF_UNIX)
            server.connect(self.socket_path)
            self.open += [client, server]
            dropping = threading.Event()  # this connection's COMMIT went up: drop its reply
            threading.Thread(target=self._up, args=(client, server, dropping), daemon=True).start()
            threading.Thread(
                target=self._down, args=(server, client, dropping), daemon=True
            ).start()

    def _up(self, client: socket.socket, server: socket.socket, dropping: threading.Event) -> None:
        with suppress(OSError):
            while data := client.recv(65536):
                if self.cut_next_commit and b"COMMIT" in data:
                    self.cut_next_commit = False
                    dropping.set()
                server.sendall(data)

    def _down(
        self, server: socket.socket, client: socket.socket, dropping: threading.Event
    ) -> None:
        with suppress(OSError):
            while data := server.recv(65536):
                if dropping.is_set():  # the server committed and said so: the client never hears
                    self.cut.set()
                    for end in (client, server):  # shutdown, not only close: the peer sees EOF
                        end.shutdown(socket.SHUT_RDWR)
                        end.close()
                    return
                client.sendall(data)

    def close(self) -> None:
        self.listener.close()
        for end in self.open:
            with suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)
            end.close()


def test_a_commit_whose_reply_was_lost_is_found_stored_and_reported_done(
    postgres_cluster: PostgresCluster, postgres_url: str, clock: ManualClock
) -> None:
    proxy = _CuttingProxy(f"{postgres_cluster.socket_dir}/.s.PGSQL.5432")
    db = PostgresDatabase(f"postgresql://postgres@127.0.0.1:{proxy.port}/memvisor_test")
    try:
        facts = FactStore(db, clock)
        proxy.cut_next_commit = True
        write = facts.remember(
            user_id="u", subject="u", predicate="likes", object="tea", trace_id="t"
        )  # returns: the store asked the server, which said committed
        assert proxy.cut.is_set() and write.fact is not None
        assert _facts(postgres_url, "u") == ["tea"]  # once: nothing was sent again
        facts.remember(user_id="u", subject="u", predicate="likes", object="rye", trace_id="t")
        assert _facts(postgres_url, "u") == ["rye", "tea"]
    finally:
        db.close()
        proxy.close()


def test_a_write_whose_commit_answer_is_lost_logs_its_verdict_once(
    postgres_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from memvisor.agent.memory import Memory
    from memvisor.errors import OutcomeUnknown

    with Memory.open(tmp_path / "data", embedder="hash", store=postgres_url) as memory:
        db = memory.store.db
        assert isinstance(db, PostgresDatabase)
        real = db._commit

        def stored_but_unanswered() -> None:
            real()  # the server stored it; the client never heard
            raise OutcomeUnknown("the answer to COMMIT was lost")

        monkeypatch.setattr(db, "_commit", stored_but_unanswered)
        with pytest.raises(OutcomeUnknown):
            memory.write(
                "fact_remember",
                {"subject": "maya", "predicate": "lives_in", "object": "Oslo"},
                user_id="maya",
                origin="user",
                context=[{"role": "user", "content": "I live in Oslo."}],
            )
        monkeypatch.undo()
        verdicts = db.query(
            "SELECT count(*) FROM events WHERE user_id = 'maya' AND kind = 'firewall_verdict'"
        )
        assert verdicts[0][0] == 1
        assert [f.object for f in memory.store.facts.list(user_id="maya")] == ["Oslo"]
