"""``memvisor memory prune`` / ``restore``: what qualifies, what it hides, and bringing it back."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from memvisor.agent.cli.prune import parse_duration
from memvisor.errors import NotFound, UserError
from memvisor.paging.pagein import PageIn
from memvisor.storage import ManualClock, Store
from memvisor.storage.export import export_user, import_user
from tests.cli_helpers import run_cli

T0 = datetime(2026, 1, 1, 9, 0, tzinfo=UTC)
U = "maya"


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(T0)


@pytest.fixture
def store(tmp_path: Path, clock: ManualClock) -> Iterator[Store]:
    with Store.open(tmp_path / "store", embedder="hash", clock=clock) as s:
        yield s


def fact(store: Store, predicate: str, obj: str, *, user: str = U) -> str:
    write = store.remember_fact(
        user_id=user, subject="Maya", predicate=predicate, object=obj, trace_id="t"
    )
    assert write.fact is not None
    return write.fact.id


def episode(store: Store, summary: str, *, user: str = U) -> str:
    now = store.clock.now()
    ep = store.episodes.build(
        user_id=user,
        session_id="s1",
        start_ts=now - timedelta(hours=1),
        end_ts=now,
        summary=summary,
        entities=[],
        source_event_ids=[],
        trace_id="t",
    )
    store.save_episode(ep)
    return ep.id


def seed(store: Store, clock: ManualClock) -> dict[str, str]:
    """Old records, one confirmed later, one paged in later, one new; now is T0 + 100 days."""
    ids = {
        "tea": fact(store, "likes", "oolong tea"),
        "city": fact(store, "lives_in", "Lisbon"),
        "old_city": fact(store, "works_in", "Porto"),
        "psg": store.insert_passage(
            user_id=U, text="Order ORD-58213 ships to Lisbon", trace_id="t"
        ).id,
        "eps": episode(store, "Maya planned the garden: roses along the north wall"),
    }
    store.log_turn(user_id=U, role="user", content="an old turn about roses")
    clock.advance(timedelta(days=1))
    ids["new_job"] = fact(store, "works_in", "Faro")  # supersedes Porto: not a candidate
    clock.set(T0 + timedelta(days=50))
    fact(store, "lives_in", "Lisbon")  # confirms: touched at T0 + 50d
    clock.set(T0 + timedelta(days=80))
    store.usage.record([ids["psg"]], "paged_in", user_id=U)
    store.usage.record([ids["tea"]], "corrected", user_id=U)  # a correction is not a use
    clock.set(T0 + timedelta(days=100))
    ids["fresh"] = fact(store, "likes", "figs")
    return ids


def test_age_and_use_decide_what_qualifies(store: Store, clock: ManualClock) -> None:
    ids = seed(store, clock)

    by_age = store.prune(
        user_id=U, older_than=timedelta(days=90), unused=False, trace_id="t1", dry_run=True
    )
    assert {i.id for i in by_age.archived} == {ids["tea"], ids["psg"], ids["eps"], ids["new_job"]}
    assert by_age.counts == {"fact": 2, "passage": 1, "episode": 1}

    unused = store.prune(
        user_id=U, older_than=timedelta(days=90), unused=True, trace_id="t2", dry_run=True
    )
    assert {i.id for i in unused.archived} == {ids["tea"], ids["eps"], ids["new_job"]}

    # a shorter window: the confirmation at day 50 is old enough now, the page-in is not
    shorter = store.prune(
        user_id=U, older_than=timedelta(days=40), unused=True, trace_id="t3", dry_run=True
    )
    assert ids["city"] in {i.id for i in shorter.archived}
    assert ids["psg"] not in {i.id for i in shorter.archived}

    items = {i.id: i for i in by_age.archived}
    assert items[ids["psg"]].last_used_at == T0 + timedelta(days=80)
    assert items[ids["eps"]].last_used_at is None
    assert items[ids["psg"]].text == "Order ORD-58213 ships to Lisbon"
    assert items[ids["tea"]].created_at == T0
    assert all(i.kind != "turn" for i in by_age.archived)  # the event log is never pruned


def test_snippets_are_capped() -> None:
    from memvisor.storage.archive import snippet

    assert len(snippet("word " * 100)) == 120 and snippet("a  b\nc") == "a b c"


def test_dry_run_writes_nothing(store: Store, clock: ManualClock) -> None:
    seed(store, clock)
    events = store.events.count(user_id=U)
    report = store.prune(
        user_id=U, older_than=timedelta(days=90), unused=True, trace_id="t", dry_run=True
    )
    assert report.dry_run and len(report.archived) == 3
    assert store.events.count(user_id=U) == events
    assert store.archive.ids(user_id=U) == set()


def test_prune_archives_with_one_event_and_never_twice(store: Store, clock: ManualClock) -> None:
    ids = seed(store, clock)
    report = store.prune(user_id=U, older_than=timedelta(days=90), unused=True, trace_id="trc_p")
    archived = {ids["tea"], ids["eps"], ids["new_job"]}
    assert not report.dry_run and {i.id for i in report.archived} == archived
    assert store.archive.ids(user_id=U) == archived
    [event] = store.events.list(user_id=U, kinds=["memory_prune"])
    assert event.trace_id == "trc_p"
    assert set(event.payload["ids"]) == archived
    kinds = dict(zip(event.payload["ids"], event.payload["kinds"], strict=True))
    assert kinds[ids["eps"]] == "episode" and kinds[ids["tea"]] == "fact"
    assert event.payload["older_than"] == "90d" and event.payload["unused"] is True
    rows = {r.item_id: r for r in store.archive.list(user_id=U)}
    assert rows[ids["tea"]].reason == "prune: unused for over 90d"
    # the records themselves are untouched
    assert store.facts.get(ids["tea"], user_id=U).status == "active"
    again = store.prune(user_id=U, older_than=timedelta(days=90), unused=True, trace_id="t")
    assert again.archived == [] and len(store.events.list(user_id=U, kinds=["memory_prune"])) == 1


def test_nonpositive_window_is_refused(store: Store) -> None:
    with pytest.raises(UserError, match="positive"):
        store.prune(user_id=U, older_than=timedelta(0), unused=False, trace_id="t")


def _retrieved(store: Store, query: str) -> set[str]:
    return {i.id for i in PageIn(store, floor=0).retrieve(query, user_id=U)}


def test_archived_records_never_page_in_until_restored(
    tmp_path: Path, store: Store, clock: ManualClock
) -> None:
    ids = seed(store, clock)
    query = "ORD-58213 Lisbon oolong tea garden roses north wall"
    before = _retrieved(store, query)  # the index is built and reconciled here
    assert {ids["psg"], ids["tea"], ids["eps"]} <= before
    store.prune(user_id=U, older_than=timedelta(days=90), unused=False, trace_id="t")
    hidden = {ids["psg"], ids["tea"], ids["eps"]}
    assert not hidden & _retrieved(store, query)
    assert not hidden & {h.id for h in store.search(query, user_id=U, limit=50)}
    # the exact-identifier route finds nothing archived; the time route reads episodes
    assert store.index.index.routes("memory", "", user_id=U, needles=["ORD-58213"]).exact == []
    assert store.facts.valid_among([ids["tea"]], user_id=U) == {}
    assert ids["eps"] not in {e.id for e in store.episodes.list(user_id=U)}
    assert ids["eps"] in {e.id for e in store.episodes.list(user_id=U, include_archived=True)}
    assert ids["psg"] not in {p.id for p in store.passages.list(user_id=U)}

    restored = store.restore([ids["psg"], ids["tea"]], user_id=U, trace_id="trc_r")
    assert {r.item_id for r in restored} == {ids["psg"], ids["tea"]}
    found = _retrieved(store, query)
    assert {ids["psg"], ids["tea"]} <= found and ids["eps"] not in found
    [event] = store.events.list(user_id=U, kinds=["memory_restore"])
    assert event.trace_id == "trc_r" and set(event.payload["ids"]) == {ids["psg"], ids["tea"]}


def test_a_restart_does_not_bring_archived_records_back(tmp_path: Path, clock: ManualClock) -> None:
    path = tmp_path / "store"
    with Store.open(path, embedder="hash", clock=clock) as store:
        ids = seed(store, clock)
        _retrieved(store, "Lisbon")  # indexed before the prune
    with Store.open(path, embedder="hash", clock=clock) as store:
        # pruned without a loaded index: the next process's reconcile must drop them
        store.prune(user_id=U, older_than=timedelta(days=90), unused=False, trace_id="t")
    with Store.open(path, embedder="hash", clock=clock) as store:
        found = _retrieved(store, "ORD-58213 ships to Lisbon oolong tea")
        assert ids["psg"] not in found and ids["tea"] not in found
        assert ids["psg"] not in store.index.index.ids("memory", user_id=U)
        store.restore([ids["psg"]], user_id=U, trace_id="t")
    with Store.open(path, embedder="hash", clock=clock) as store:
        assert ids["psg"] in _retrieved(store, "ORD-58213 ships to Lisbon")


def test_restore_is_all_or_nothing(store: Store, clock: ManualClock) -> None:
    ids = seed(store, clock)
    store.prune(user_id=U, older_than=timedelta(days=90), unused=False, trace_id="t")
    with pytest.raises(NotFound, match="fct_nope not archived"):
        store.restore([ids["tea"], "fct_nope"], user_id=U, trace_id="t")
    assert ids["tea"] in store.archive.ids(user_id=U)
    assert store.events.list(user_id=U, kinds=["memory_restore"]) == []
    with pytest.raises(NotFound):  # never archived
        store.restore([ids["fresh"]], user_id=U, trace_id="t")


def test_two_users_are_isolated(store: Store, clock: ManualClock) -> None:
    mine = fact(store, "likes", "oolong tea")
    theirs = fact(store, "likes", "oolong tea", user="tom")
    clock.advance(timedelta(days=100))
    report = store.prune(user_id=U, older_than=timedelta(days=90), unused=True, trace_id="t")
    assert [i.id for i in report.archived] == [mine]
    assert store.archive.ids(user_id="tom") == set()
    assert theirs in {i.id for i in PageIn(store, floor=0).retrieve("oolong", user_id="tom")}
    with pytest.raises(NotFound):
        store.restore([mine], user_id="tom", trace_id="t")
    with pytest.raises(UserError):
        store.archive.ids(user_id="")


def test_forgetting_an_archived_record_removes_its_archive_row(
    store: Store, clock: ManualClock
) -> None:
    ids = seed(store, clock)
    store.prune(user_id=U, older_than=timedelta(days=90), unused=False, trace_id="t")
    store.forget(ids["tea"], user_id=U, trace_id="t")
    store.forget(ids["psg"], user_id=U, trace_id="t")
    assert store.archive.ids(user_id=U) == {ids["eps"], ids["new_job"]}


def test_export_import_round_trip_keeps_the_archive(
    tmp_path: Path, store: Store, clock: ManualClock
) -> None:
    ids = seed(store, clock)
    store.prune(user_id=U, older_than=timedelta(days=90), unused=False, trace_id="t")
    doc = json.loads(json.dumps(export_user(store, user_id=U)))
    # facts, passages and episodes are exported archived or not, with their archive rows
    archived = {ids["tea"], ids["psg"], ids["new_job"], ids["eps"]}
    assert {a["item_id"] for a in doc["archived"]} == archived
    assert ids["tea"] in {f["id"] for f in doc["facts"]}
    with Store.open(tmp_path / "other", embedder="hash", clock=clock) as other:
        report = import_user(other, doc, user_id=U, trace_id="t", count_tokens=len)
        assert report.kinds["archived"].created == 4
        assert export_user(other, user_id=U) == doc
        assert other.facts.valid_among([ids["tea"]], user_id=U) == {}
    # exports made before archiving (version 1 had no episodes either)
    older = {k: v for k, v in doc.items() if k not in ("archived", "episodes")} | {"version": 1}
    with Store.open(tmp_path / "third", embedder="hash", clock=clock) as third:
        report = import_user(third, older, user_id=U, trace_id="t", count_tokens=len)
        assert report.kinds["archived"].created == 0


# -- the CLI --


@pytest.fixture
def old_data(tmp_path: Path) -> tuple[str, dict[str, str]]:
    """Records written in 2020, so a prune with the wall clock finds them old."""
    path = tmp_path / "data"
    with Store.open(
        path, embedder="hash", clock=ManualClock(datetime(2020, 1, 1, tzinfo=UTC))
    ) as s:
        ids = {
            "fact": fact(s, "likes", "oolong tea"),
            "psg": s.insert_passage(user_id=U, text="Order ORD-58213 shipped", trace_id="t").id,
        }
    return str(path), ids


def cli(capsys: pytest.CaptureFixture[str], data: str, *args: str):
    return run_cli(capsys, "memory", *args, "--data-dir", data, "--user", U)


def test_cli_prune_dry_run_then_prune_list_show_restore(
    capsys: pytest.CaptureFixture[str], old_data: tuple[str, dict[str, str]]
) -> None:
    data, ids = old_data
    dry = cli(capsys, data, "prune", "--older-than", "6m", "--unused", "--dry-run", "--json")
    assert dry.code == 0, dry.err
    doc = dry.json()
    assert set(doc) == {"archived", "counts", "dry_run", "older_than", "unused", "trace_id"}
    assert doc["dry_run"] is True and doc["older_than"] == "6m" and doc["unused"] is True
    assert doc["counts"] == {"fact": 1, "passage": 1, "episode": 0}
    item = next(i for i in doc["archived"] if i["id"] == ids["psg"])
    assert item == {
        "id": ids["psg"],
        "kind": "passage",
        "text": "Order ORD-58213 shipped",
        "created_at": "2020-01-01T00:00:00Z",
        "last_used_at": None,
    }
    assert cli(capsys, data, "list", "--archived", "--json").json()["archived"] == []

    done = cli(capsys, data, "prune", "--older-than", "90d", "--json")
    assert done.code == 0 and done.json()["dry_run"] is False
    assert {i["id"] for i in done.json()["archived"]} == set(ids.values())
    listed = cli(capsys, data, "list", "--json").json()
    assert listed["facts"] == [] and listed["passages"] == [] and listed["archived"] == 2
    archive = cli(capsys, data, "list", "--archived", "--json").json()["archived"]
    assert {a["id"] for a in archive} == set(ids.values())
    assert {a["text"] for a in archive} == {"Maya likes oolong tea", "Order ORD-58213 shipped"}
    shown = cli(capsys, data, "show", ids["fact"], "--json").json()
    assert shown["object"] == "oolong tea" and shown["archived"]["reason"].startswith("prune:")
    human = cli(capsys, data, "show", ids["fact"])
    assert "archived: " in human.out and f"memvisor memory restore {ids['fact']}" in human.out

    nothing = cli(capsys, data, "prune", "--older-than", "90d")
    assert nothing.code == 0 and nothing.out.startswith("nothing to prune")

    back = cli(capsys, data, "restore", ids["fact"], "--json")
    assert back.code == 0, back.err
    assert back.json()["restored"] == [{"id": ids["fact"], "kind": "fact"}]
    assert cli(capsys, data, "show", ids["fact"], "--json").json()["archived"] is None
    assert [f["id"] for f in cli(capsys, data, "list", "--json").json()["facts"]] == [ids["fact"]]


def test_cli_prune_human_output_is_a_table_and_totals(
    capsys: pytest.CaptureFixture[str], old_data: tuple[str, dict[str, str]]
) -> None:
    data, ids = old_data
    dry = cli(capsys, data, "prune", "--older-than", "1y", "--dry-run")
    assert dry.code == 0, dry.err
    assert ids["psg"] in dry.out and "would archive" in dry.out
    assert "dry run: would archive 2 (1 fact, 1 passage, 0 episodes); nothing written" in dry.out
    done = cli(capsys, data, "prune", "--older-than", "1y")
    assert "archived 2 (1 fact, 1 passage, 0 episodes)" in done.out


def test_cli_restore_of_an_unknown_id_is_one_error_line(
    capsys: pytest.CaptureFixture[str], old_data: tuple[str, dict[str, str]]
) -> None:
    data, ids = old_data
    r = cli(capsys, data, "restore", ids["fact"])  # exists, but is not archived
    assert r.code == 1 and r.err.strip().count("\n") == 0
    assert "not archived" in r.err and r.out == ""


@pytest.mark.parametrize("bad", ["90", "d", "1.5d", "-3d", "0d", "90 days", "3x", "99999999y"])
def test_cli_rejects_a_bad_duration_with_exit_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, bad: str
) -> None:
    r = cli(capsys, str(tmp_path / "data"), "prune", "--older-than", bad, "--json")
    assert r.code == 2 and r.out == ""
    assert r.err.strip().count("\n") == 0 and "--older-than" in r.err, r.err


@pytest.mark.parametrize(
    "text,days",
    [("90d", 90), ("12w", 84), ("6m", 180), ("1y", 365), ("36h", 1.5), (" 2D ", 2)],
)
def test_durations(text: str, days: float) -> None:
    assert parse_duration(text).delta == timedelta(days=days)


@pytest.mark.parametrize("command", ["prune", "restore"])
def test_commands_have_help(capsys: pytest.CaptureFixture[str], command: str) -> None:
    r = run_cli(capsys, "memory", command, "--help")
    assert r.code == 0 and "Usage: memvisor memory " + command in r.out and "--json" in r.out


def test_stating_an_archived_fact_again_restores_it(tmp_path) -> None:
    from datetime import UTC, datetime, timedelta

    from memvisor.storage import ManualClock, Store

    clock = ManualClock(datetime(2026, 1, 1, tzinfo=UTC))
    with Store.open(tmp_path / "s", embedder="hash", clock=clock) as store:
        fact = store.remember_fact(
            user_id="u", subject="Ada", predicate="likes", object="tea", trace_id="t1"
        ).fact
        assert fact is not None
        clock.advance(timedelta(days=200))
        report = store.prune(user_id="u", older_than=timedelta(days=90), unused=True, trace_id="p")
        assert [i.id for i in report.archived] == [fact.id]
        write = store.remember_fact(
            user_id="u", subject="Ada", predicate="likes", object="tea", trace_id="t2"
        )
        assert write.action == "confirmed"
        assert store.archive.get(fact.id, user_id="u") is None
        kinds = [e.kind for e in store.events.list(user_id="u", trace_id="t2")]
        assert "memory_restore" in kinds


def test_index_ids_read_by_sql_match_the_items_built_from_records(
    store: Store, clock: ManualClock
) -> None:
    """Reconcile trusts memory_revisions to say what the index must hold; an id it left out
    would be deleted from the index as stale, a revision unlike the text re-indexed."""
    from memvisor.storage.index_items import memory_items, memory_revisions
    from memvisor.storage.vectors import text_revision

    ids = seed(store, clock)
    episode(store, "another user's garden", user="other")
    fact(store, "likes", "tea", user="other")
    with store.db.transaction() as conn:
        store.events.append_in(conn, user_id=U, kind="tool_result", payload={"x": 1})
    store.prune(user_id=U, older_than=timedelta(days=90), unused=False, trace_id="t")
    archived = store.archive.ids(user_id=U)
    assert {ids["psg"], ids["eps"]} & archived  # a passage or episode is hidden
    for user in (U, "other"):
        items = memory_items(store, user)
        built = {item.id for item in items}
        assert memory_revisions(store.db, user) == {i.id: text_revision(i.text) for i in items}
        assert not built & store.archive.ids(user_id=user)
