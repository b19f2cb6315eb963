"""Lone event appends that arrive together share one commit, and each returns only once its
own event is stored (``storage/group_commit.py``); a bad one fails alone."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest

from memvisor.errors import StorageError
from memvisor.storage import Store
from memvisor.storage import events as events_module


def _append_all(store: Store, users: list[str], results: dict[str, Any]) -> list[threading.Thread]:
    def one(user: str) -> None:
        try:
            results[user] = store.events.append(user_id=user, kind="memory_read", payload={})
        except Exception as exc:
            results[user] = exc

    return [threading.Thread(target=one, args=(user,)) for user in users]


def _while_a_writer_holds_the_lock(store: Store, threads: list[threading.Thread]) -> None:
    """The appends queue behind an open transaction, then it commits."""
    with store.db.transaction():
        for thread in threads:
            thread.start()
        time.sleep(0.3)  # every append is waiting by now
    for thread in threads:
        thread.join(30)


def test_appends_waiting_together_share_a_commit_and_each_is_stored(tmp_path: Path) -> None:
    with Store.open(tmp_path / "store", embedder="hash") as store:
        users = [f"u{n}" for n in range(8)]
        results: dict[str, Any] = {}
        before = store.db.generation("events")
        _while_a_writer_holds_the_lock(store, _append_all(store, users, results))
        for user in users:  # returned, and stored once
            assert [e.id for e in store.events.list(user_id=user)] == [results[user].id]
        assert store.db.generation("events") - before <= 2  # the first alone, then the rest


def test_a_failing_event_fails_alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    row = events_module._row

    def refusing(event: Any) -> list[Any]:
        if event.user_id == "bad":
            raise StorageError("this row cannot be written")
        return row(event)

    monkeypatch.setattr(events_module, "_row", refusing)
    with Store.open(tmp_path / "store", embedder="hash") as store:
        users = ["good1", "bad", "good2", "good3"]
        results: dict[str, Any] = {}
        _while_a_writer_holds_the_lock(store, _append_all(store, users, results))
        assert isinstance(results["bad"], StorageError)
        assert store.events.list(user_id="bad") == []
        for user in ("good1", "good2", "good3"):
            assert [e.id for e in store.events.list(user_id=user)] == [results[user].id]


def test_an_append_inside_a_transaction_joins_it(tmp_path: Path) -> None:
    with Store.open(tmp_path / "store", embedder="hash") as store:
        with pytest.raises(RuntimeError), store.db.transaction():
            store.events.append(user_id="u", kind="memory_read", payload={})
            raise RuntimeError("rolled back")
        assert store.events.list(user_id="u") == []  # it went with its transaction
