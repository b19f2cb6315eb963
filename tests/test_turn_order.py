"""The turn order takes the messages this process commits from the commit itself
(``EventLog.on_messages``), and reads the log only when it missed one."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from memvisor.paging.turn_order import TurnOrder, turn_order_for
from memvisor.storage import Store


def _log_reads(store: Store, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the order's reads of the log from now on."""
    reads: list[int] = []
    read = store.events.messages_after

    def counted(seq: int, *, user_id: str) -> Any:
        reads.append(seq)
        return read(seq, user_id=user_id)

    monkeypatch.setattr(store.events, "messages_after", counted)
    return reads


def test_messages_committed_after_a_look_are_taken_without_reading_the_log(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Store.open(tmp_path / "store", embedder="hash") as store:
        order = turn_order_for(store)
        first = store.log_turn(
            user_id="ana", role="user", content="I moved to Lisbon", session_id="s1"
        )
        assert order.around([first.id], user_id="ana") == {first.id: (None, None)}
        reads = _log_reads(store, monkeypatch)
        reply = store.log_turn(
            user_id="ana", role="assistant", content="Noted: Lisbon.", session_id="s1"
        )
        turns = store.log_turns(
            [
                {"role": "user", "content": "And Porto?", "session_id": "s1",
                 "payload": {"speaker": "Ana", "dia_id": "D1:3"}},
                {"role": "user", "content": "Other chat", "session_id": "s2"},
            ],
            user_id="ana",
        )  # fmt: skip
        store.log_turn(user_id="bo", role="user", content="Bo's words")  # another user's
        around = order.around([reply.id, turns[0].id, turns[1].id], user_id="ana")
        assert reads == []
        assert around[reply.id][0].id == first.id and around[reply.id][1].id == turns[0].id
        assert around[turns[0].id][1] is None  # the next message is of another session
        assert around[turns[1].id] == (None, None)
        assert order.speakers(user_id="ana") == {"Ana"}
        # What it took is what the log reads back, field for field.
        fresh = TurnOrder(store.events)
        read_back = fresh.around([reply.id, turns[0].id], user_id="ana")
        assert read_back == {key: around[key] for key in read_back}
        assert reads  # the fresh order read the log


def test_a_commit_the_order_missed_sends_it_back_to_the_log(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A commit told out of order (its listener ran after a later one's, or not at all)
    is not taken: the order reads the log at its next look and misses nothing."""
    with Store.open(tmp_path / "store", embedder="hash") as store:
        order = turn_order_for(store)
        first = store.log_turn(user_id="ana", role="user", content="one", session_id="s")
        assert order.around([first.id], user_id="ana") == {first.id: (None, None)}
        listeners = list(store.events._message_listeners)
        store.events._message_listeners.clear()  # this commit is never told
        second = store.log_turn(user_id="ana", role="assistant", content="two", session_id="s")
        store.events._message_listeners.extend(listeners)
        reads = _log_reads(store, monkeypatch)
        third = store.log_turn(user_id="ana", role="user", content="three", session_id="s")
        around = order.around([second.id], user_id="ana")
        assert len(reads) == 1
        assert around[second.id][0].id == first.id and around[second.id][1].id == third.id


def test_a_message_already_read_is_not_taken_twice(tmp_path: Path) -> None:
    """The look may read the log after a commit and before its listener runs."""
    with Store.open(tmp_path / "store", embedder="hash") as store:
        order = turn_order_for(store)
        first = store.log_turn(user_id="ana", role="user", content="one", session_id="s")
        second = store.log_turn(user_id="ana", role="assistant", content="two", session_id="s")
        assert order.around([first.id], user_id="ana")[first.id][1].id == second.id
        already = store.events.messages_after(0, user_id="ana")
        generation = store.events.message_generation("ana")
        order.committed("ana", generation, generation + 1, already)
        around = order.around([first.id, second.id], user_id="ana")
        assert around[first.id] == (None, already[1]) and around[second.id] == (already[0], None)


def test_a_failing_reader_of_new_messages_stops_nothing_after_the_commit(tmp_path: Path) -> None:
    """A listener that raises is logged; the others are told, and the turn order still
    finds the message (it reads the log when it was not told)."""
    with Store.open(tmp_path / "store", embedder="hash") as store:
        order = turn_order_for(store)
        first = store.log_turn(user_id="ana", role="user", content="one", session_id="s")
        assert order.around([first.id], user_id="ana") == {first.id: (None, None)}
        told: list[str] = []

        def broken(user: str, before: int, after: int, messages: list[Any]) -> None:
            raise RuntimeError("reader broke")

        store.events._message_listeners.insert(0, broken)
        store.events.on_messages(lambda user, before, after, messages: told.append(user))
        second = store.log_turn(user_id="ana", role="assistant", content="two", session_id="s")
        assert told == ["ana"]
        assert order.around([first.id], user_id="ana")[first.id][1].id == second.id
