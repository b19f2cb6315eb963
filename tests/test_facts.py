from datetime import timedelta

import pytest

from memvisor.errors import NotFound, UserError
from memvisor.storage import ManualClock, Store
from memvisor.storage.fact_view import FactView
from memvisor.storage.facts import _COLUMNS, _fact

# A storage contract: every test runs on DuckDB and on PostgreSQL (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("backend")


def remember(store: Store, user: str = "alice", **kw):
    args = {"subject": "alice", "predicate": "lives_in", "object": "Paris", "trace_id": "trc_t"}
    args.update(kw)
    return store.remember_fact(user_id=user, **args)


def test_create_confirm_supersede_keeps_lineage(store: Store, clock: ManualClock) -> None:
    first = remember(store, source_event_ids=["evt_1"])
    assert first.action == "created" and first.fact.version == 1
    clock.advance(timedelta(hours=1))
    again = remember(store, object="paris", confidence=0.5, source_event_ids=["evt_2"])
    assert again.action == "confirmed"
    assert again.fact.id == first.fact.id
    assert again.fact.confirmations == 1
    assert again.fact.confidence == pytest.approx(0.8)  # never lowered by a confirmation
    assert again.fact.source_event_ids == ["evt_1", "evt_2"]
    clock.advance(timedelta(hours=1))
    moved = remember(store, object="Shanghai", source_event_ids=["evt_3"])
    assert moved.action == "superseded"
    assert moved.previous.id == first.fact.id
    assert moved.fact.supersedes == first.fact.id and moved.fact.version == 2
    assert moved.fact.lineage_id == first.fact.lineage_id
    active = store.facts.list(user_id="alice")
    assert [f.object for f in active] == ["Shanghai"]
    history = store.facts.history(moved.fact.id, user_id="alice")
    assert [(f.object, f.status) for f in history] == [
        ("Paris", "superseded"),
        ("Shanghai", "active"),
    ]


def test_as_of_reads_the_past(store: Store, clock: ManualClock) -> None:
    remember(store)
    before_move = clock.now() + timedelta(minutes=30)
    clock.advance(timedelta(hours=1))
    remember(store, object="Shanghai")
    assert [f.object for f in store.facts.list(user_id="alice", as_of=before_move)] == ["Paris"]
    assert [f.object for f in store.facts.list(user_id="alice")] == ["Shanghai"]


def test_multi_valued_predicates_accumulate(store: Store) -> None:
    remember(store, predicate="has_child", object="Tom")
    remember(store, predicate="has child", object="Anna")
    assert sorted(f.object for f in store.facts.list(user_id="alice")) == ["Anna", "Tom"]


def test_ttl_expires(store: Store, clock: ManualClock) -> None:
    w = remember(
        store,
        predicate="staying_at",
        object="Hotel Lux",
        valid_until=clock.now() + timedelta(days=2),
    )
    assert store.facts.list(user_id="alice")
    clock.advance(timedelta(days=3))
    assert store.facts.list(user_id="alice") == []
    assert store.facts.get(w.fact.id, user_id="alice").status == "expired"
    # an expired fact no longer blocks a new value
    assert remember(store, predicate="staying_at", object="Hotel Nord").action == "created"


@pytest.mark.parametrize(
    "bad",
    [
        {"subject": ""},
        {"predicate": "  "},
        {"object": ""},
        {"confidence": 1.5},
        {"importance": -0.1},
        {"subject": "x" * 500},
        {"predicate": "lives in!"},
    ],
)
def test_bad_fact_input_is_refused_and_nothing_written(store: Store, bad: dict) -> None:
    with pytest.raises(UserError):
        remember(store, **bad)
    assert store.facts.count(user_id="alice") == 0
    assert store.events.count(user_id="alice") == 0


def test_write_is_logged_with_trace_and_sources(store: Store) -> None:
    w = remember(store, trace_id="trc_abc", source_event_ids=["evt_9"], session_id="s1")
    [event] = store.events.list(user_id="alice", kinds=["memory_write"])
    assert event.trace_id == "trc_abc" and event.session_id == "s1"
    assert event.payload["id"] == w.fact.id and event.payload["source_event_ids"] == ["evt_9"]


def test_edit_creates_version(store: Store) -> None:
    w = remember(store)
    edited = store.edit_fact(w.fact.id, user_id="alice", trace_id="trc_e", object="Lyon")
    assert edited.fact.version == 2 and edited.fact.object == "Lyon"
    with pytest.raises(UserError):
        store.edit_fact(w.fact.id, user_id="alice", trace_id="trc_e", object="Nice")


def test_forget_removes_all_versions_and_stays_forgotten(store: Store) -> None:
    w1 = remember(store, source_event_ids=["evt_1"])
    w2 = remember(store, object="Rome", source_event_ids=["evt_2"])
    report = store.forget(w2.fact.id, user_id="alice", trace_id="trc_f")
    assert set(report["removed"]) == {w1.fact.id, w2.fact.id}
    assert store.facts.count(user_id="alice") == 0
    with pytest.raises(NotFound):
        store.facts.get(w1.fact.id, user_id="alice")
    # replaying the same source event cannot resurrect it
    assert remember(store, object="Rome", source_event_ids=["evt_2"]).action == "suppressed"
    assert store.facts.count(user_id="alice") == 0
    # the user stating it anew is a new fact
    assert remember(store, object="Rome", source_event_ids=["evt_3"]).action == "created"
    assert store.search("Rome", user_id="alice", kinds=["fact"])[0].id != w2.fact.id


def test_core_blocks_defaults_and_versions(store: Store) -> None:
    from memvisor.errors import VersionConflict

    labels = [b.label for b in store.core.list(user_id="alice")]
    assert labels[:2] == ["persona", "human"]
    human = store.core.get("human", user_id="alice")
    updated = store.core.update(
        "human", "Name: Alice", user_id="alice", expected_version=human.version, count_tokens=len
    )
    assert updated.version == human.version + 1
    with pytest.raises(VersionConflict):
        store.core.update(
            "human", "Name: Bob", user_id="alice", expected_version=human.version, count_tokens=len
        )
    assert store.core.get("human", user_id="alice").value == "Name: Alice"
    with pytest.raises(UserError, match="would be 601 tokens; its limit is 600"):
        store.core.update("human", "x" * 601, user_id="alice", expected_version=2, count_tokens=len)


def test_quarantine_hold_and_resolve(store: Store) -> None:
    item = store.quarantine.hold(
        user_id="alice",
        tool="fact_remember",
        arguments={"subject": "x"},
        reasons=["injection"],
        trace_id="trc_q",
    )
    assert [i.id for i in store.quarantine.list(user_id="alice")] == [item.id]
    with store.db.transaction() as conn:
        store.quarantine.resolve(item.id, user_id="alice", status="rejected", conn=conn)
    assert store.quarantine.list(user_id="alice") == []
    assert store.quarantine.get(item.id, user_id="alice").status == "rejected"


def test_bulk_log_turns_is_all_or_nothing(store: Store) -> None:
    turns = [
        {"role": "user", "content": "hello", "session_id": "s"},
        {"role": "assistant", "content": "hi", "session_id": "s"},
    ]
    events = store.log_turns(turns, user_id="alice")
    assert [e.kind for e in events] == ["user_message", "assistant_message"]
    with pytest.raises(UserError, match="role"):
        store.log_turns([turns[0], {"role": "system", "content": "x"}], user_id="alice")
    assert store.events.count(user_id="alice") == 2  # the failed batch left nothing
    hits = store.search("hello", user_id="alice", kinds=["turn"])
    assert hits and hits[0].text == "hello"


def test_valid_among_sees_every_committed_change(store: Store, clock) -> None:
    from datetime import timedelta

    first = store.remember_fact(
        user_id="u", subject="Ada", predicate="lives_in", object="Oslo", trace_id="t"
    ).fact
    assert first is not None
    assert list(store.facts.valid_among([first.id], user_id="u")) == [first.id]  # now cached
    clock.advance(timedelta(minutes=1))
    second = store.remember_fact(
        user_id="u", subject="Ada", predicate="lives_in", object="Bergen", trace_id="t"
    ).fact
    assert second is not None
    assert list(store.facts.valid_among([first.id, second.id], user_id="u")) == [second.id]
    as_before = store.facts.valid_among([first.id], user_id="u", as_of=second.created_at)
    assert list(as_before) == []  # superseded at that instant
    with store.db.transaction():
        store.archive.add({second.id: "fact"}, user_id="u", trace_id="t", reason="test")
    assert store.facts.valid_among([second.id], user_id="u") == {}
    store.restore([second.id], user_id="u", trace_id="t")
    assert list(store.facts.valid_among([second.id], user_id="u")) == [second.id]
    store.forget(second.id, user_id="u", trace_id="t")
    assert store.facts.valid_among([second.id], user_id="u") == {}
    assert store.facts.valid_among([second.id], user_id="other") == {}


def test_fact_copy_reads_only_changed_rows_until_a_delete_or_an_archive_change(
    store: Store, clock
) -> None:
    view = store.facts._view
    tea = remember(store, "u", subject="u", predicate="drinks", object="tea").fact
    assert list(store.facts.valid_among([tea.id], user_id="u")) == [tea.id]
    assert view.full_reads == 1
    clock.advance(timedelta(minutes=1))
    coffee = remember(store, "u", subject="u", predicate="drinks", object="coffee").fact
    confirmed = remember(store, "u", subject="u", predicate="drinks", object="coffee").fact
    assert confirmed.confirmations == 1
    got = store.facts.valid_among([tea.id, coffee.id], user_id="u")
    assert list(got) == [coffee.id] and got[coffee.id].confirmations == 1
    assert view.full_reads == 1  # a supersede and a confirmation: changed rows only
    with store.db.transaction():
        store.archive.add({coffee.id: "fact"}, user_id="u", trace_id="t", reason="test")
    assert store.facts.valid_among([coffee.id], user_id="u") == {}
    assert view.full_reads == 2
    store.restore([coffee.id], user_id="u", trace_id="t")
    store.forget(coffee.id, user_id="u", trace_id="t")
    assert store.facts.valid_among([coffee.id, tea.id], user_id="u") == {}
    assert view.full_reads == 3


def test_changed_fact_rows_read_alone_are_what_a_whole_read_gives(
    store: Store, clock: ManualClock
) -> None:
    view = store.facts._view
    tea = remember(store, "u", subject="u", predicate="drinks", object="tea").fact
    kept = remember(store, "u", subject="u", predicate="likes", object="rain").fact
    with store.db.transaction():
        store.archive.add({kept.id: "fact"}, user_id="u", trace_id="t", reason="test")
    ids = [tea.id, kept.id]
    assert set(view.facts(ids, user_id="u")) == set(ids)
    reads = view.full_reads
    clock.advance(timedelta(minutes=1))
    coffee = remember(store, "u", subject="u", predicate="drinks", object="coffee").fact
    with store.db.transaction() as conn:  # an archived fact changes: it stays archived
        conn.execute(
            "UPDATE facts SET importance = 0.9, rev = nextval('fact_rev') WHERE id = ?", [kept.id]
        )
    ids.append(coffee.id)
    changed = view.facts([*ids, "fct_missing"], user_id="u")
    assert view.full_reads == reads  # the changed rows only
    whole = FactView(store.db, _COLUMNS, _fact).facts(ids, user_id="u")
    assert changed == whole and list(changed) == ids
    assert [live for _, live in changed.values()] == [True, False, True]
    assert changed[tea.id][0].status == "superseded" and changed[kept.id][0].importance == 0.9


def test_reading_core_blocks_writes_nothing_until_a_block_is_edited(store: Store) -> None:
    blocks = store.core.list(user_id="reader")
    assert [(b.label, b.version) for b in blocks] == [("persona", 1), ("human", 1)]
    assert store.db.query("SELECT count(*) FROM core_blocks")[0][0] == 0  # a read stays a read
    store.core.update("human", "Name: Ann", user_id="reader", expected_version=1, count_tokens=len)
    stored = {r[0]: r[1] for r in store.db.query("SELECT label, version FROM core_blocks")}
    assert stored == {"persona": 1, "human": 2}


def test_a_default_block_nobody_wrote_has_no_time_and_an_edited_one_its_own(
    store: Store, clock: ManualClock
) -> None:
    """It read 1970-01-01 in `memory list`, an export and the servers' replies."""
    assert [b.updated_at for b in store.core.list(user_id="ann")] == [None, None]
    store.core.update("human", "Name: Ann", user_id="ann", expected_version=1, count_tokens=len)
    times = {b.label: b.updated_at for b in store.core.list(user_id="ann")}
    assert times == {"persona": clock.now(), "human": clock.now()}  # both stored at the edit
    never = store.core.get("persona", user_id="bo")
    store.core.restore(never, user_id="bo")  # an import of a block nobody wrote
    assert store.core.get("persona", user_id="bo").updated_at == clock.now()
