"""No read, search or export of one user ever returns another user's data."""

import pytest

from memvisor.errors import NotFound, UserError
from memvisor.storage import Store
from memvisor.storage.export import export_user

# A storage contract: every test runs on DuckDB and on PostgreSQL (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("backend")

SECRET = "zanzibar-7731"


def fill(store: Store, user: str, word: str) -> dict:
    event = store.log_turn(user_id=user, role="user", content=f"my code word is {word}")
    fact = store.remember_fact(
        user_id=user,
        subject=user,
        predicate="code_word",
        object=word,
        trace_id="t",
        source_event_ids=[event.id],
    ).fact
    passage = store.insert_passage(user_id=user, text=f"{user} notes: {word}", trace_id="t")
    held = store.quarantine.hold(
        user_id=user, tool="fact_remember", arguments={"o": word}, reasons=["test"], trace_id="t"
    )
    return {"event": event.id, "fact": fact.id, "passage": passage.id, "held": held.id}


def test_two_users_never_see_each_other(store: Store) -> None:
    bob = fill(store, "bob", SECRET)
    fill(store, "alice", "harmless")
    dump = repr(export_user(store, user_id="alice"))
    assert SECRET not in dump and "bob" not in dump
    for kind in ("fact", "passage", "turn"):
        for mode in ("hybrid", "vector", "fts"):
            hits = store.search(SECRET, user_id="alice", kinds=[kind], mode=mode, limit=50)
            assert all(SECRET not in h.text for h in hits), (kind, mode)
    assert SECRET not in repr(store.facts.list(user_id="alice", include_inactive=True))
    assert SECRET not in repr(store.passages.list(user_id="alice"))
    assert SECRET not in repr(store.events.list(user_id="alice"))
    assert SECRET not in repr(store.quarantine.list(user_id="alice", status=None))
    with pytest.raises(NotFound):
        store.facts.get(bob["fact"], user_id="alice")
    with pytest.raises(NotFound):
        store.passages.get(bob["passage"], user_id="alice")
    with pytest.raises(NotFound):
        store.quarantine.get(bob["held"], user_id="alice")
    assert store.events.get(bob["event"], user_id="alice") is None
    assert store.events.many([bob["event"]], user_id="alice") == []
    # alice cannot forget bob's records either
    with pytest.raises(NotFound):
        store.forget(bob["fact"], user_id="alice", trace_id="t")
    assert store.facts.get(bob["fact"], user_id="bob").object == SECRET


@pytest.mark.parametrize("user_id", [None, "", "a b", "x'; DROP TABLE facts; --", 42])
def test_calls_without_a_valid_user_raise(store: Store, user_id: object) -> None:
    with pytest.raises(UserError):
        store.facts.list(user_id=user_id)  # type: ignore[arg-type]
    with pytest.raises(UserError):
        store.search("x", user_id=user_id)  # type: ignore[arg-type]
    with pytest.raises(UserError):
        store.events.append(user_id=user_id, kind="x", payload={})  # type: ignore[arg-type]


def test_user_id_is_keyword_only_and_required(store: Store) -> None:
    with pytest.raises(TypeError):
        store.facts.list()  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        store.remember_fact(subject="a", predicate="b", object="c", trace_id="t")  # type: ignore[call-arg]
