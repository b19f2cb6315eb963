"""A read's event commits after the read has answered (``storage/write_behind.py``): the
read never queues behind writers for it, and whoever reads the log still finds it
(``tests/test_python_api.py``: a search's trace id leads to its ``memory_read`` event).
And what a server's commits no longer cost a search: a user's dialogue is read again only
when that user's messages moved."""

from __future__ import annotations

import gc
import threading
import time
import weakref
from pathlib import Path
from typing import Any

import pytest

from memvisor.errors import StorageError
from memvisor.paging.turn_order import turn_order_for
from memvisor.storage import Store
from memvisor.storage import events as events_module
from memvisor.storage.logger import logger


def _read_event(store: Store, user: str) -> Any:
    return store.events.store_behind(
        store.events.build(user_id=user, kind="memory_read", payload={"q": "x"})
    )


def test_a_read_event_does_not_wait_for_a_writer_and_is_found_once_it_commits(
    tmp_path: Path,
) -> None:
    with Store.open(tmp_path / "store", embedder="hash") as store:
        returned = threading.Event()
        results: dict[str, Any] = {}

        def read() -> None:
            results["event"] = _read_event(store, "ana")
            returned.set()

        with store.db.transaction():  # a writer holds the lock
            thread = threading.Thread(target=read)
            thread.start()
            assert returned.wait(10)  # the read answered while the writer held the lock
        thread.join(10)
        # Reading the log waits for the queued event: it is there, stored once.
        assert [e.id for e in store.events.list(user_id="ana")] == [results["event"].id]
        assert store.events.get(results["event"].id, user_id="ana") == results["event"]


def test_a_reader_of_another_user_does_not_wait_for_queued_events(tmp_path: Path) -> None:
    with Store.open(tmp_path / "store", embedder="hash") as store:
        holding = threading.Event()
        release = threading.Event()

        def writer() -> None:
            with store.db.transaction():
                holding.set()
                release.wait(10)

        thread = threading.Thread(target=writer)
        thread.start()
        assert holding.wait(10)
        _read_event(store, "ana")  # queued behind the writer
        started = time.monotonic()
        assert store.events.count(user_id="bo") == 0  # nothing of bo's is queued: no wait
        waited = time.monotonic() - started
        release.set()
        thread.join(10)
        assert waited < 5
        assert store.events.count(user_id="ana") == 1


def test_inside_a_transaction_a_read_event_joins_it(tmp_path: Path) -> None:
    with Store.open(tmp_path / "store", embedder="hash") as store:
        with pytest.raises(RuntimeError), store.db.transaction():
            _read_event(store, "ana")
            raise RuntimeError("rolled back")
        assert store.events.list(user_id="ana") == []  # it went with its transaction


def test_closing_the_store_commits_what_is_queued(tmp_path: Path) -> None:
    ids = []
    with Store.open(tmp_path / "store", embedder="hash") as store:
        for n in range(50):
            ids.append(_read_event(store, f"u{n % 5}").id)
    with Store.open(tmp_path / "store", embedder="hash") as store:
        stored = [e.id for n in range(5) for e in store.events.list(user_id=f"u{n}")]
        assert sorted(stored) == sorted(ids)


def test_after_close_a_read_event_is_refused_not_lost_silently(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "store", embedder="hash")
    store.close()
    with pytest.raises(StorageError, match="closed"):
        _read_event(store, "ana")


def test_an_event_that_cannot_be_stored_is_dropped_alone_with_a_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    row = events_module._row

    def refusing(event: Any) -> list[Any]:
        if event.user_id == "bad":
            raise StorageError("this row cannot be written")
        return row(event)

    monkeypatch.setattr(events_module, "_row", refusing)
    warnings: list[str] = []
    sink = logger.add(warnings.append, level="WARNING", format="{message}")
    with Store.open(tmp_path / "store", embedder="hash") as store:
        with store.db.transaction():  # all three queue, then commit as one batch
            thread = threading.Thread(
                target=lambda: [_read_event(store, user) for user in ("good1", "bad", "good2")]
            )
            thread.start()
            thread.join(10)
        assert store.events.count(user_id="good1") == 1
        assert store.events.count(user_id="good2") == 1
        assert store.events.count(user_id="bad") == 0
    logger.remove(sink)
    assert any("could not be logged: StorageError" in w for w in warnings), warnings


def test_a_users_message_generation_moves_with_their_messages_only(tmp_path: Path) -> None:
    """Dialogue readers (``TurnOrder``) read again when their user's messages moved, not when
    anyone's event commits (a read's event, another user's message, a passage)."""
    with Store.open(tmp_path / "store", embedder="hash") as store:
        events = store.events
        start = events.message_generation("ana")
        store.log_turn(user_id="bo", role="user", content="Bo's own words")
        _read_event(store, "ana")
        events.append(user_id="ana", kind="api_request", payload={})
        events.settle("ana")
        assert events.message_generation("ana") == start
        with pytest.raises(RuntimeError), store.db.transaction():  # rolled back: no move
            store.log_turn(user_id="ana", role="user", content="never stored")
            raise RuntimeError("rolled back")
        assert events.message_generation("ana") == start
        order = turn_order_for(store)
        first = store.log_turn(user_id="ana", role="user", content="Ana moved to Lisbon")
        assert events.message_generation("ana") != start
        assert order.around([first.id], user_id="ana") == {first.id: (None, None)}
        reply = store.log_turn(user_id="ana", role="assistant", content="Noted: Lisbon.")
        assert order.around([first.id], user_id="ana")[first.id][1].id == reply.id


def test_who_has_messages_is_known_without_a_query_each_and_kept_up(tmp_path: Path) -> None:
    """A user with no dialogue (only notes, or nothing) is answered from one read of who has
    any; the first message of theirs, even one logged before that read committed, is seen."""
    data = tmp_path / "store"
    with Store.open(data, embedder="hash") as store:
        store.log_turn(user_id="bo", role="user", content="Bo's own words")
    with Store.open(data, embedder="hash") as store:  # read from the table, not this process
        events, order = store.events, turn_order_for(store)
        assert events.may_have_messages("bo") and not events.may_have_messages("ana")
        assert order.speakers(user_id="ana") == frozenset()
        with store.db.transaction():  # noted before it commits
            store.log_turn(
                user_id="ana", role="user", content="Ana here", payload={"speaker": "Ana"}
            )
            assert events.may_have_messages("ana")
        assert order.speakers(user_id="ana") == {"Ana"}
        assert not events.may_have_forgotten("ana")


def test_a_closed_store_with_a_turn_order_is_collected(tmp_path: Path) -> None:
    """The turn order is shared per store by a weak mapping; holding the store itself (the
    mapping's key) from its value kept every store a process opened alive."""
    with Store.open(tmp_path / "store", embedder="hash") as store:
        order = turn_order_for(store)
        logged = store.log_turn(user_id="ana", role="user", content="Ana moved to Lisbon")
        assert order.around([logged.id], user_id="ana") == {logged.id: (None, None)}
        gone = weakref.ref(store)
    del store, order
    gc.collect()
    assert gone() is None
