"""The REST server's per-user locks: one user's requests run one at a time, different
users' at once, and a user's entry goes when their last request does."""

from __future__ import annotations

import threading

from memvisor.agent.servers.user_locks import UserLocks


def test_one_users_requests_are_serialized_and_others_run_beside_them() -> None:
    locks = UserLocks()
    inside = threading.Event()
    release = threading.Event()
    order: list[str] = []

    def first() -> None:
        with locks.held("maya"):
            inside.set()
            release.wait(5)
            order.append("first done")

    def second() -> None:
        with locks.held("maya"):
            order.append("second in")

    one = threading.Thread(target=first)
    one.start()
    assert inside.wait(5)
    two = threading.Thread(target=second)
    two.start()
    with locks.held("sam"):  # another user is not held up by maya's request
        order.append("sam in")
        assert len(locks) == 2
    release.set()
    one.join(5)
    two.join(5)
    assert order == ["sam in", "first done", "second in"]


def test_entries_go_with_the_last_request_and_the_lock_is_reentrant() -> None:
    locks = UserLocks()
    with locks.held("maya"), locks.held("maya"):  # a request that calls a guarded step
        assert len(locks) == 1
    assert len(locks) == 0
    for n in range(100):
        with locks.held(f"user-{n}"):
            pass
    assert len(locks) == 0
