"""``memvisor memory reindex``: rebuild the search index after the embedding model changes."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from memvisor.errors import StorageError
from memvisor.storage import ManualClock, Store
from memvisor.storage.embedders import HashEmbedder
from memvisor.storage.store import MEMORY_TABLE
from tests.cli_helpers import run_cli

pytestmark = pytest.mark.usefixtures("backend")  # a storage contract

OLD_MODEL = "hash-v1-256"  # what embedder="hash" builds with
NEW_MODEL = "hash-v1-64"


def new_embedder() -> HashEmbedder:
    embedder = HashEmbedder(dim=64)
    assert embedder.model_id == NEW_MODEL
    return embedder


def seed(store: Store) -> dict[str, Any]:
    """Facts, passages, turns and an episode for two users; one of alice's passages archived."""
    ids: dict[str, set[str]] = {"alice": set(), "bob": set()}
    for user, predicate, obj in (
        ("alice", "lives_in", "Oslo"),
        ("alice", "likes", "oolong tea"),
        ("bob", "lives_in", "Bergen"),
    ):
        write = store.remember_fact(
            user_id=user, subject=user, predicate=predicate, object=obj, trace_id="t"
        )
        assert write.fact is not None
        ids[user].add(write.fact.id)
    for user, text in (
        ("alice", "Order ORD-1: standing desk for the Oslo flat"),
        ("bob", "Bob returned the desk lamp to the shop"),
    ):
        ids[user].add(store.insert_passage(user_id=user, text=text, trace_id="t").id)
    archived = store.insert_passage(
        user_id="alice", text="Old receipt: umbrella from the market", trace_id="t"
    ).id
    store.archive.add({archived: "passage"}, user_id="alice", trace_id="t", reason="test")
    if store.shared:  # it indexes at write time, so it has indexed it: out, as prune does
        store.index.forget(MEMORY_TABLE, [archived], user_id="alice")
    turns = [
        {"role": "user", "content": "alice wants a new desk chair", "session_id": "s1"},
        {"role": "assistant", "content": "Noted, a desk chair.", "session_id": "s1"},
    ]
    ids["alice"].update(event.id for event in store.log_turns(turns, user_id="alice"))
    bob_turn = store.log_turn(user_id="bob", role="user", content="bob needs a desk too")
    ids["bob"].add(bob_turn.id)
    now = store.clock.now()
    episode = store.episodes.build(
        user_id="alice",
        session_id="s1",
        start_ts=now - timedelta(hours=1),
        end_ts=now,
        summary="Alice planned her desk setup in Oslo",
        entities=[],
        source_event_ids=[],
        trace_id="t",
    )
    store.save_episode(episode)
    ids["alice"].add(episode.id)
    return {"ids": ids, "archived": archived}


def records(store: Store, user: str) -> dict[str, Any]:
    """Everything reindex must leave alone (its own events aside)."""
    return {
        "facts": store.facts.list(user_id=user, include_inactive=True),
        "passages": store.passages.list(user_id=user, include_archived=True),
        "episodes": store.episodes.list(user_id=user, include_archived=True),
        "archived": store.archive.ids(user_id=user),
        "events": [e for e in store.events.list(user_id=user) if e.kind != "index_rebuilt"],
    }


@pytest.fixture
def built(tmp_path: Path, clock: ManualClock) -> dict[str, Any]:
    """A data directory whose index was built with the old model."""
    data = tmp_path / "data"
    with Store.open(data, embedder="hash", clock=clock) as store:
        seeded = seed(store)
        assert store.search("desk", user_id="alice")  # builds the index with OLD_MODEL
    return {"data": data, **seeded}


def test_reindex_rebuilds_a_table_of_another_model(built: dict[str, Any], clock) -> None:
    ids = built["ids"]
    with Store.open(built["data"], embedder=new_embedder(), clock=clock) as store:
        before = {user: records(store, user) for user in ids}
        with pytest.raises(StorageError, match=f"{OLD_MODEL}.*memvisor memory reindex"):
            store.search("desk", user_id="alice")

        result = store.reindex(trace_id="trc_reindex")

        assert result == {"users": 2, "items": 9, "model": NEW_MODEL}
        vectors = store.index.index
        for user, expected in ids.items():
            assert vectors.ids(MEMORY_TABLE, user_id=user) == expected
            hits = store.search("desk", user_id=user, kinds=("fact", "passage", "turn", "episode"))
            assert hits and {h.id for h in hits} <= expected  # each user's own items only
        umbrella = store.search("umbrella receipt market", user_id="alice")
        assert built["archived"] not in {h.id for h in umbrella}
        assert {user: records(store, user) for user in ids} == before
        for user, expected in ids.items():
            events = store.events.list(user_id=user, kinds=["index_rebuilt"])
            assert [(e.trace_id, e.payload) for e in events] == [
                ("trc_reindex", {"items": len(expected), "model": NEW_MODEL})
            ]

    # The new model is recorded: it searches without a rebuild, the old one is refused.
    with Store.open(built["data"], embedder=new_embedder(), clock=clock) as store:
        assert store.search("Oslo", user_id="alice")
    with (
        Store.open(built["data"], embedder="hash", clock=clock) as store,
        pytest.raises(StorageError, match=NEW_MODEL),
    ):
        store.search("Oslo", user_id="alice")


def test_reindex_without_a_table_and_on_an_empty_store(tmp_path: Path, clock) -> None:
    with Store.open(tmp_path / "empty", embedder="hash", clock=clock) as store:
        assert store.reindex(trace_id="t") == {"users": 0, "items": 0, "model": OLD_MODEL}
        assert store.search("anything", user_id="alice") == []
    with Store.open(tmp_path / "fresh", embedder="hash", clock=clock) as store:
        seeded = seed(store)  # never searched: no vector table yet
        assert not (tmp_path / "fresh" / "vectors").exists()
        assert store.reindex(trace_id="t")["items"] == 9
        for user, expected in seeded["ids"].items():
            assert store.index.index.ids(MEMORY_TABLE, user_id=user) == expected


def test_reindex_in_a_process_that_already_searched(built: dict[str, Any], clock) -> None:
    with Store.open(built["data"], embedder="hash", clock=clock) as store:
        assert store.search("desk", user_id="bob")  # index loaded, bob reconciled
        assert store.reindex(trace_id="t") == {"users": 2, "items": 9, "model": OLD_MODEL}
        passage = store.insert_passage(user_id="bob", text="Bob bought a walnut desk", trace_id="t")
        assert passage.id in {h.id for h in store.search("walnut", user_id="bob")}


class BrokenEmbedder:
    model_id = "broken-1"
    dim = 8

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        raise StorageError("embedding server is down")


def test_a_broken_embedder_leaves_the_old_index(built: dict[str, Any], clock) -> None:
    with Store.open(built["data"], embedder=BrokenEmbedder(), clock=clock) as store:
        with pytest.raises(StorageError, match="down"):
            store.reindex(trace_id="t")
        assert store.events.list(user_id="alice", kinds=["index_rebuilt"]) == []
        # Not dropped: the old rows are all there, no reconcile needed to bring them back.
        assert store.index.index.ids(MEMORY_TABLE, user_id="alice") == built["ids"]["alice"]
    with Store.open(built["data"], embedder="hash", clock=clock) as store:
        assert store.search("desk", user_id="alice")


# --- the CLI ----------------------------------------------------------------------------


def test_cli_reindex_after_a_model_change(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, clock
) -> None:
    data = str(tmp_path / "data")
    with Store.open(data, embedder=new_embedder(), clock=clock) as store:
        store.remember_fact(
            user_id="alice", subject="alice", predicate="lives_in", object="Oslo", trace_id="t"
        )
        store.insert_passage(user_id="bob", text="Bob returned the desk lamp", trace_id="t")
        assert store.search("Oslo", user_id="alice")  # built with NEW_MODEL

    def cli(*args: str) -> Any:
        return run_cli(capsys, "memory", *args, "--data-dir", data, "--user", "alice")

    refused = cli("search", "Oslo")  # MEMVISOR_EMBEDDER=hash (conftest): another model
    assert refused.code == 1 and "memvisor memory reindex" in refused.err

    human = cli("reindex")
    assert human.code == 0, human.err
    assert human.out == f"rebuilt the search index: 2 items for 2 users with {OLD_MODEL}\n"
    found = cli("search", "Oslo", "--json")
    assert found.code == 0, found.err

    as_json = cli("reindex", "--json", "--embedder", "hash")
    assert as_json.code == 0, as_json.err
    assert as_json.json() == {"users": 2, "items": 2, "model": OLD_MODEL}


def test_cli_reindex_errors_and_help(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    data = str(tmp_path / "data")
    bad = run_cli(capsys, "memory", "reindex", "--embedder", "nope", "--data-dir", data)
    assert bad.code != 0 and bad.out == ""
    assert bad.err.startswith("error: unknown embedder 'nope'") and bad.err.count("\n") == 1
    helped = run_cli(capsys, "memory", "reindex", "--help")
    assert helped.code == 0 and "ALL users" in helped.out and "--embedder" in helped.out
