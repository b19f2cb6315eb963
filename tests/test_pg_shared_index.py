"""Processes sharing one PostgreSQL store find each other's writes in search: the writer
indexes before the write returns, a writer that dies before that leaves an outbox ticket a
sweeper acts on, and an import by another process is found too (``storage/index_outbox``).
Against the real test server."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from memvisor.errors import StorageError
from memvisor.storage import Store
from memvisor.storage.export import export_user, import_user
from memvisor.storage.index_outbox import Sweeper
from memvisor.storage.store import MEMORY_TABLE

ROOT = Path(__file__).resolve().parent.parent


def _open(url: str, data_dir: Path) -> Store:
    return Store.open(data_dir, embedder="hash", store=url)


def _found(store: Store, query: str, user: str) -> set[str]:
    return {h.id for h in store.search(query, user_id=user, kinds=("fact", "passage", "turn"))}


def _tickets(store: Store) -> int:
    return int(store.db.query("SELECT count(*) FROM search_outbox")[0][0])


def test_processes_on_one_data_directory_and_one_store_both_write(
    postgres_url: str, tmp_path: Path
) -> None:
    # The data directory's lock guards embedded files only: PostgreSQL workers share one.
    with _open(postgres_url, tmp_path) as a, _open(postgres_url, tmp_path) as b:
        a.remember_fact(user_id="u", subject="u", predicate="likes", object="tea", trace_id="t")
        b.remember_fact(user_id="u", subject="u", predicate="owns", object="a kayak", trace_id="t")
        assert {f.object for f in a.facts.list(user_id="u")} == {"tea", "a kayak"}


def test_a_write_is_found_at_once_by_a_process_that_searched_before_it(
    postgres_url: str, tmp_path: Path
) -> None:
    with _open(postgres_url, tmp_path / "a") as writer, _open(postgres_url, tmp_path / "b") as b:
        assert _found(b, "kayak", "u") == set()  # b has reconciled its index already
        fact = writer.remember_fact(
            user_id="u", subject="u", predicate="owns", object="a red kayak", trace_id="t"
        ).fact
        passage = writer.insert_passage(
            user_id="u", text="The kayak club meets at dawn", trace_id="t"
        )
        turn = writer.log_turn(user_id="u", role="user", content="my kayak has a leak")
        assert fact is not None
        assert _found(b, "kayak", "u") == {fact.id, passage.id, turn.id}
        assert _found(b, "kayak", "someone-else") == set()
        assert _tickets(writer) == 0  # each closed once its write was indexed


def test_a_write_rolled_back_by_an_outer_transaction_is_never_indexed(
    backend: str, tmp_path: Path
) -> None:
    with Store.open(tmp_path, embedder="hash") as store:
        _found(store, "kayak", "u")  # the index is open: a write would be queued
        with pytest.raises(RuntimeError), store.db.transaction():
            store.remember_fact(
                user_id="u", subject="u", predicate="owns", object="a kayak", trace_id="t"
            )
            raise RuntimeError("the caller's transaction fails after the write")
        assert store.facts.list(user_id="u") == []
        assert _found(store, "kayak", "u") == set()
        assert store.index.index.revisions(MEMORY_TABLE, user_id="u") == {}


_DIE_AFTER_COMMIT = """
import os, signal, sys
from memvisor.storage import Store
from memvisor.storage.store import Store as S
S._index_now = lambda self, *a, **k: os.kill(os.getpid(), signal.SIGKILL)
store = Store.open(sys.argv[2], embedder="hash", store=sys.argv[1])
store.remember_fact(user_id="u", subject="u", predicate="owns", object="a green canoe",
                    trace_id="t")
"""


def test_a_writer_killed_before_indexing_leaves_a_ticket_a_sweeper_acts_on(
    postgres_url: str, tmp_path: Path
) -> None:
    with _open(postgres_url, tmp_path / "b") as b:
        assert _found(b, "canoe", "u") == set()
        child = subprocess.run(
            [sys.executable, "-c", _DIE_AFTER_COMMIT, postgres_url, str(tmp_path / "a")],
            cwd=ROOT, env=dict(os.environ), capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        assert child.returncode == -signal.SIGKILL, child.stderr
        [fact] = b.facts.list(user_id="u")  # committed, and
        assert _found(b, "canoe", "u") == set()  # in no index: b reconciled before it
        assert _tickets(b) == 1
        sweeper = Sweeper(b.db, b._reconcile_user, older_than=0.2)
        assert sweeper.sweep() == 0  # too young: its writer may be indexing it still
        time.sleep(0.3)
        assert sweeper.sweep() == 1
        assert _found(b, "canoe", "u") == {fact.id}
        assert _tickets(b) == 0


def test_a_failed_indexing_keeps_the_write_and_its_ticket(
    postgres_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with _open(postgres_url, tmp_path / "a") as a, _open(postgres_url, tmp_path / "b") as b:
        for store in (a, b):  # both have reconciled
            _found(store, "x", "u")

        def down(*args: object, **kwargs: object) -> None:
            raise StorageError("the embedder is down")

        monkeypatch.setattr(a.index.index, "add_many", down)
        write = a.remember_fact(
            user_id="u", subject="u", predicate="plays", object="the oboe", trace_id="t"
        )
        assert write.fact is not None  # acknowledged: committed whatever the index did
        assert _tickets(a) == 1
        assert _found(b, "oboe", "u") == set()
        assert Sweeper(b.db, b._reconcile_user, older_than=0).sweep() == 1
        assert _found(b, "oboe", "u") == {write.fact.id}


def test_an_import_by_another_process_is_found_by_a_running_one(
    postgres_url: str, tmp_path: Path
) -> None:
    with Store.open(tmp_path / "embedded", embedder="hash") as source:
        source.remember_fact(
            user_id="u", subject="u", predicate="grows", object="purple basil", trace_id="t"
        )
        document = json.loads(json.dumps(export_user(source, user_id="u"), default=str))
    with _open(postgres_url, tmp_path / "server") as server:
        assert _found(server, "basil", "u") == set()
        with _open(postgres_url, tmp_path / "cli") as cli:
            import_user(cli, document, user_id="u", trace_id="t", count_tokens=len)
        assert [f.object for f in server.facts.list(user_id="u")] == ["purple basil"]
        assert len(_found(server, "basil", "u")) == 1
        assert _tickets(server) == 0
