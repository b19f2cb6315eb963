"""Forgetting that sticks: derived records go too, and a replay cannot bring it back."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from memvisor.errors import NotFound, UserError
from memvisor.evals.replay import replay
from memvisor.storage import ManualClock, Store
from memvisor.storage.events import MESSAGE_KINDS as TURN_KINDS
from memvisor.storage.forgetting import content_hash

# A storage contract: every test runs on DuckDB and on PostgreSQL (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("backend")

TRANSCRIPT = [
    {
        "format": "memvisor.transcript",
        "version": 1,
        "user_id": "maya",
        "start": "2026-05-04T08:30:00Z",
        "num_ctx": 8192,
    },
    {"type": "session", "id": "s1"},
    {"type": "user", "content": "My bank is Nordea, account ends in 4471."},
    {
        "type": "assistant",
        "tool_calls": [
            {
                "name": "fact_remember",
                "arguments": {"subject": "Maya", "predicate": "bank", "object": "Nordea"},
            },
            {
                "name": "archival_memory_insert",
                "arguments": {"content": "Maya banks with Nordea; account ends in 4471."},
            },
        ],
    },
    {"type": "assistant", "content": "Noted."},
    {"type": "user", "content": "I live in Gothenburg."},
    {
        "type": "assistant",
        "tool_calls": [
            {
                "name": "fact_remember",
                "arguments": {"subject": "Maya", "predicate": "lives_in", "object": "Gothenburg"},
            }
        ],
    },
    {"type": "assistant", "content": "Nice."},
]


def write(path: Path, lines: list[dict]) -> Path:
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    return path


def test_forget_then_replay_stays_gone(tmp_path: Path) -> None:
    path = write(tmp_path / "t.jsonl", TRANSCRIPT)
    data = tmp_path / "store"
    replay(path, data_dir=data, embedder="hash")
    with Store.open(data, embedder="hash") as store:
        [bank] = [f for f in store.facts.list(user_id="maya") if f.predicate == "bank"]
        store.forget(bank.id, user_id="maya", trace_id="trc_forget")
        assert not any("Nordea" in p.text for p in store.passages.list(user_id="maya"))
        assert [f.predicate for f in store.facts.list(user_id="maya")] == ["lives_in"]
        hits = store.search("Nordea bank", user_id="maya", kinds=["fact", "passage"])
        assert not any("Nordea" in h.text for h in hits)
    # the whole transcript again, into the same store: the same words do not resurrect it
    again = replay(path, data_dir=data, embedder="hash", reuse_store=True)
    assert again.metrics()["turns"] == 2
    with Store.open(data, embedder="hash") as store:
        facts = store.facts.list(user_id="maya")
        assert not any(f.object == "Nordea" for f in facts)
        assert any(f.object == "Gothenburg" and f.confirmations == 1 for f in facts)
        writes = [e.payload for e in store.events.list(user_id="maya", kinds=["memory_write"])]
        assert writes  # the replay did run its writes
    # the user saying it anew, in other words, is a new fact
    lines = [
        *TRANSCRIPT[:2],
        {"type": "user", "content": "I moved my money back to Nordea."},
        {
            "type": "assistant",
            "tool_calls": [
                {
                    "name": "fact_remember",
                    "arguments": {"subject": "Maya", "predicate": "bank", "object": "Nordea"},
                }
            ],
        },
        {"type": "assistant", "content": "Updated."},
    ]
    replay(write(tmp_path / "new.jsonl", lines), data_dir=data, embedder="hash", reuse_store=True)
    with Store.open(data, embedder="hash") as store:
        assert any(f.object == "Nordea" for f in store.facts.list(user_id="maya"))


def test_forget_takes_the_value_out_of_tool_calls_results_and_requests(tmp_path: Path) -> None:
    from memvisor.storage.export import export_user

    path = write(tmp_path / "t.jsonl", TRANSCRIPT)
    data = tmp_path / "store"
    replay(path, data_dir=data, embedder="hash")
    with Store.open(data, embedder="hash") as store:
        store.log_turn(user_id="other", role="user", content="Nordea is my bank too.")
        store.events.append(
            user_id="maya", kind="api_request", trace_id="trc_api",
            payload={"command": "POST /v1/memories", "arguments": {"note": "paid Nordea"}},
        )  # fmt: skip
        kinds = {e.kind for e in store.events.list(user_id="maya") if "Nordea" in str(e.payload)}
        assert {"tool_call", "api_request"} <= kinds  # what a forget must reach
        [bank] = [f for f in store.facts.list(user_id="maya") if f.predicate == "bank"]
        store.forget(bank.id, user_id="maya", trace_id="trc_forget")
        [forget] = store.events.list(user_id="maya", kinds=["memory_forget"])
        assert forget.payload["redacted"]["events"]
        payloads = json.dumps([e.payload for e in store.events.list(user_id="maya")])
        assert "Nordea" not in payloads and "[forgotten]" in payloads
        assert "Nordea" not in json.dumps(export_user(store, user_id="maya"), default=str)
        calls = store.events.list(user_id="maya", kinds=["tool_call"])
        assert any(c.payload.get("arguments", {}).get("object") == "[forgotten]" for c in calls)
        assert "Gothenburg" in payloads  # only the forgotten value goes
        [theirs] = store.events.list(user_id="other")
        assert theirs.payload["content"] == "Nordea is my bank too."


def test_forget_redacts_episode_and_summary_mentions(store: Store) -> None:
    from datetime import timedelta

    event = store.log_turn(
        user_id="u", role="user", content="My PIN hint is Rosebud", session_id="s1"
    )
    fact = store.remember_fact(
        user_id="u",
        subject="u",
        predicate="pin_hint",
        object="Rosebud",
        trace_id="t",
        source_event_ids=[event.id],
    ).fact
    episode = store.episodes.build(
        user_id="u",
        session_id="s1",
        start_ts=event.ts,
        end_ts=event.ts + timedelta(minutes=1),
        summary="- user: My PIN hint is Rosebud",
        entities=[],
        source_event_ids=[event.id],
        trace_id="t",
    )
    store.save_episode(episode)
    with store.db.transaction() as conn:
        store.summaries.put(
            "- user said the PIN hint is Rosebud",
            user_id="u",
            session_id="s1",
            trace_id="t",
            conn=conn,
        )
    report = store.forget(fact.id, user_id="u", trace_id="t")
    assert "Rosebud" not in store.episodes.get(episode.id, user_id="u").summary
    assert "Rosebud" not in store.summaries.get(user_id="u", session_id="s1")[0]
    assert report["removed"] == [fact.id]


def test_fact_forget_by_subject_and_predicate(store: Store) -> None:
    from memvisor.agent.loop import Agent
    from memvisor.agent.models.base import AssistantTurn, ToolCall
    from memvisor.agent.models.scripted import ScriptedModel

    for predicate, obj in (("works_at", "Kestrel Dental"), ("likes", "tea"), ("likes", "jazz")):
        store.remember_fact(
            user_id="u", subject="Sam", predicate=predicate, object=obj, trace_id="t"
        )

    def forget(**arguments: str) -> AssistantTurn:
        return AssistantTurn(tool_calls=[ToolCall(id="1", name="fact_forget", arguments=arguments)])

    model = ScriptedModel(
        [
            forget(subject="sam", predicate="Works_At"),
            "Forgotten.",
            forget(subject="Sam", predicate="likes"),
            "Which one?",
        ]
    )
    agent = Agent(user_id="u", session_id="s", store=store, model=model)
    agent.step("please forget where I work")
    assert [f.predicate for f in store.facts.list(user_id="u")] == ["likes", "likes"]
    turn = agent.step("forget what I like")
    assert "2 facts match, forget one by id" in turn.tool_calls[0].result
    assert len(store.facts.list(user_id="u")) == 2  # ambiguous: nothing forgotten


def test_forget_deletes_recipes_of_the_same_source_that_state_it(store: Store) -> None:
    event = store.log_turn(
        user_id="u",
        role="user",
        content="Log in as admin with the vault word Rosebud",
        session_id="s",
    )
    fact = store.remember_fact(
        user_id="u",
        subject="u",
        predicate="vault_word",
        object="Rosebud",
        trace_id="t",
        source_event_ids=[event.id],
    ).fact
    assert fact is not None
    stating = store.recipes.save(
        user_id="u",
        name="open the vault",
        trigger="user wants the vault opened",
        steps=["log in as admin", "type Rosebud"],
        trace_id="t",
        source_event_ids=[event.id],
    ).recipe
    unrelated = store.recipes.save(
        user_id="u",
        name="water plants",
        trigger="plants need water",
        steps=["fill the can"],
        trace_id="t",
        source_event_ids=[event.id],
    ).recipe
    assert len(store.recipes.candidates(user_id="u")) == 2  # cached list, then invalidated
    report = store.forget(fact.id, user_id="u", trace_id="t2")
    assert [r.id for r in store.recipes.candidates(user_id="u")] == [unrelated.id]
    [event_forget] = store.events.list(user_id="u", kinds=["memory_forget"])
    assert event_forget.payload["deleted_recipes"] == [stating.id]
    assert report["removed"] == [fact.id]


def test_memory_forget_takes_episodes_and_recipes_too(store: Store, clock: ManualClock) -> None:
    from memvisor.agent.guards import Firewall
    from memvisor.agent.memory.api import Memory
    from memvisor.errors import NotFound

    now = clock.now()
    episode = store.episodes.build(
        user_id="u", session_id="s", start_ts=now, end_ts=now, summary="Planned the Lisbon trip",
        entities=["Lisbon"], source_event_ids=[], trace_id="t",
    )  # fmt: skip
    store.save_episode(episode)
    recipe = store.recipes.save(
        user_id="u", name="book trip", trigger="book a trip", steps=["search()", "book()"],
        trace_id="t",
    ).recipe  # fmt: skip
    assert store.search("Lisbon trip", user_id="u", kinds=("episode",))[0].id == episode.id
    memory = Memory(store, guard=Firewall())
    with pytest.raises(NotFound):
        memory.forget(episode.id, user="someone_else")
    for record_id in (episode.id, recipe.id):
        memory.forget(record_id, user="u")
    with pytest.raises(NotFound):
        store.episodes.get(episode.id, user_id="u")
    with pytest.raises(NotFound):
        store.recipes.get(recipe.id, user_id="u")
    assert store.search("Lisbon trip", user_id="u", kinds=("episode",)) == []
    forgets = store.events.list(user_id="u", kinds=["memory_forget"])
    assert [e.payload["id"] for e in forgets] == [episode.id, recipe.id]


def test_forget_cuts_the_sentence_that_states_it_from_core_blocks(store: Store) -> None:
    from memvisor.paging.tokens import counter_for_model

    count = counter_for_model("qwen2.5:7b").count
    store.core.update(
        "human",
        "Name: Maya.\nPartner: Jonas.\nLives in Oslo; works at Kestrel.",
        user_id="u",
        expected_version=store.core.get("human", user_id="u").version,
        count_tokens=count,
    )
    fact = store.remember_fact(
        user_id="u", subject="Maya", predicate="has_partner", object="Jonas", trace_id="t"
    )
    before = store.core.get("human", user_id="u")
    assert fact.fact is not None
    store.forget(fact.fact.id, user_id="u", trace_id="t2")
    after = store.core.get("human", user_id="u")
    assert "Jonas" not in after.value and "Name: Maya." in after.value and "Oslo" in after.value
    assert after.version == before.version + 1


def test_cli_forget_takes_the_value_out_of_the_turns_that_stated_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, clock: ManualClock
) -> None:
    from tests.cli_helpers import run_cli

    data = tmp_path / "data"
    with Store.open(data, embedder="hash", clock=clock) as store:
        said = store.log_turn(
            user_id="maya", role="user", content="My partner is Jonas.", session_id="s1"
        )
        echo = store.log_turn(
            user_id="maya", role="assistant", content="Noted: Jonas.", session_id="s1"
        )
        later = store.log_turn(
            user_id="maya", role="user", content="Jonas and I cook on Fridays.", session_id="s2"
        )
        store.log_turn(user_id="maya", role="user", content="I like rain.", session_id="s2")
        store.log_turn(user_id="other", role="user", content="Jonas is my brother.")
        fact = store.remember_fact(
            user_id="maya", subject="Maya", predicate="has_partner", object="Jonas",
            trace_id="t", source_event_ids=[said.id],
        ).fact  # fmt: skip
        assert fact is not None
        assert store.search("Jonas", user_id="maya", kinds=("turn",))  # indexed: then forgotten

    def cli(*args: str, user: str = "maya") -> Any:
        return run_cli(capsys, "memory", *args, "--data-dir", str(data), "--user", user)

    forgot = cli("forget", fact.id)
    assert forgot.code == 0 and forgot.err == "", forgot.err
    for mode in ("ranked", "hybrid", "fts"):
        searched = cli("search", "Jonas", "--mode", mode, "--json")
        assert searched.code == 0, searched.err
        assert "Jonas" not in json.dumps(searched.json()["hits"])
    partner = cli("search", "partner", "--kind", "turn", "--mode", "fts", "--json")
    assert "My partner is [forgotten]." in partner.out
    others = cli("search", "Jonas", "--json", user="other")
    assert "Jonas is my brother." in others.out  # another user's words are untouched
    with Store.open(data, embedder="hash", clock=clock) as store:
        turns = {e.id: e.payload for e in store.events.list(user_id="maya", kinds=TURN_KINDS)}
        assert [turns[i]["content"] for i in (said.id, echo.id, later.id)] == [
            "My partner is [forgotten].",
            "Noted: [forgotten].",
            "[forgotten] and I cook on Fridays.",
        ]
        assert turns[said.id]["redacted_from"] == [content_hash("My partner is Jonas.")]
        [forget] = store.events.list(user_id="maya", kinds=["memory_forget"])
        assert sorted(forget.payload["redacted"]["turns"]) == sorted([said.id, echo.id, later.id])
        assert "Jonas" not in json.dumps(forget.payload)
        # what page-in shows as a neighbouring turn is redacted too
        assert "Jonas" not in json.dumps([e.payload for e in store.events.list(user_id="maya")])


def test_a_forgotten_value_stays_out_of_turns_after_a_replay(tmp_path: Path) -> None:
    path = write(tmp_path / "t.jsonl", TRANSCRIPT)
    data = tmp_path / "store"
    replay(path, data_dir=data, embedder="hash")
    every_kind = ("fact", "passage", "turn", "episode")
    with Store.open(data, embedder="hash") as store:
        assert any("Nordea" in h.text for h in store.search("Nordea", user_id="maya"))
        [bank] = [f for f in store.facts.list(user_id="maya") if f.predicate == "bank"]
        store.forget(bank.id, user_id="maya", trace_id="trc_forget")
        hits = store.search("Nordea bank", user_id="maya", kinds=every_kind)
        assert hits and not any("Nordea" in h.text for h in hits)
    # The same words again: logged as the forget left them, so no turn states it again.
    again = replay(path, data_dir=data, embedder="hash", reuse_store=True)
    assert again.metrics()["turns"] == 2
    with Store.open(data, embedder="hash") as store:
        hits = store.search("Nordea bank", user_id="maya", kinds=every_kind)
        assert hits and not any("Nordea" in h.text for h in hits)
        assert not any(f.object == "Nordea" for f in store.facts.list(user_id="maya"))
        notes = [p.text for p in store.passages.list(user_id="maya") if "4471" in p.text]
        assert notes == ["Maya banks with [forgotten]; account ends in 4471."]
        said = [
            e.payload["content"]
            for e in store.events.list(user_id="maya", kinds=["user_message"])
            if "account ends in 4471" in e.payload["content"]
        ]
        assert said == ["My bank is [forgotten], account ends in 4471."] * 2


def test_a_note_from_a_new_message_keeps_a_value_once_forgotten(store: Store) -> None:
    tea = store.log_turn(user_id="v", role="user", content="I like tea.")
    # the embedded store now knows who ever forgot anything (nobody): a forget must add "u"
    store.insert_passage(user_id="v", text="Likes tea.", trace_id="t", source_event_ids=[tea.id])
    said = store.log_turn(user_id="u", role="user", content="My partner is Jonas Berg.")
    fact = store.remember_fact(
        user_id="u", subject="u", predicate="has_partner", object="Jonas Berg", trace_id="t",
        source_event_ids=[said.id],
    ).fact  # fmt: skip
    assert fact is not None
    forgot = store.forget(fact.id, user_id="u", trace_id="t")
    [event] = store.events.list(user_id="u", kinds=["memory_forget"])
    assert event.payload["value_hashes"] and "Jonas" not in json.dumps(event.payload)
    assert forgot["removed"] == [fact.id]
    again = store.log_turn(user_id="u", role="user", content="My partner is Jonas Berg.")
    assert again.payload["content"] == "My partner is [forgotten]."  # the replayed words
    replayed = store.insert_passage(
        user_id="u", text="Partner: Jonas  Berg, met in 2019.", trace_id="t",
        source_event_ids=[again.id],
    )  # fmt: skip
    assert replayed.text == "Partner: [forgotten], met in 2019."
    told = store.log_turn(user_id="u", role="user", content="Jonas Berg is my brother-in-law.")
    fresh = store.insert_passage(
        user_id="u", text="Jonas Berg is Maya's brother-in-law.", trace_id="t",
        source_event_ids=[told.id],
    )  # fmt: skip
    assert fresh.text == "Jonas Berg is Maya's brother-in-law."  # said anew: kept


def test_neighbouring_turns_read_before_a_forget_are_read_again(store: Store) -> None:
    from memvisor.paging.turn_order import turn_order_for

    said = store.log_turn(user_id="u", role="user", content="My partner is Jonas.", session_id="s")
    answer = store.log_turn(user_id="u", role="assistant", content="Hi Jonas!", session_id="s")
    order = turn_order_for(store)
    assert [m.text for m in order.neighbours([answer.id], user_id="u")[answer.id]] == [
        "My partner is Jonas."
    ]
    fact = store.remember_fact(
        user_id="u", subject="u", predicate="has_partner", object="Jonas", trace_id="t",
        source_event_ids=[said.id],
    ).fact  # fmt: skip
    assert fact is not None
    store.forget(fact.id, user_id="u", trace_id="t")
    assert [m.text for m in order.neighbours([said.id], user_id="u")[said.id]] == [
        "Hi [forgotten]!"
    ]


@pytest.mark.duckdb_only  # two stores: on PostgreSQL both would open the one test database
def test_an_imported_forget_redacts_the_words_logged_after_it(tmp_path: Path) -> None:
    from memvisor.storage.export import export_user, import_user

    with Store.open(tmp_path / "a", embedder="hash") as first:
        said = first.log_turn(user_id="u", role="user", content="My partner is Jonas Berg.")
        fact = first.remember_fact(
            user_id="u", subject="u", predicate="has_partner", object="Jonas Berg",
            trace_id="t", source_event_ids=[said.id],
        ).fact  # fmt: skip
        assert fact is not None
        first.forget(fact.id, user_id="u", trace_id="t")
        exported = export_user(first, user_id="u")
    with Store.open(tmp_path / "b", embedder="hash") as second:
        second.log_turn(user_id="u", role="user", content="Hello.")  # reads the redactions
        import_user(second, exported, user_id="u", trace_id="t", count_tokens=len)
        again = second.log_turn(user_id="u", role="user", content="My partner is Jonas Berg.")
        assert again.payload["content"] == "My partner is [forgotten]."


def test_a_message_forgotten_by_its_id_leaves_search_and_keeps_its_place(store: Store) -> None:
    said = store.log_turn(
        user_id="u", role="user", content="My locker code is on the blue note.", session_id="s"
    )
    answer = store.log_turn(user_id="u", role="assistant", content="Got it.", session_id="s")
    other = store.log_turn(user_id="v", role="user", content="My locker is blue.", session_id="s")
    assert [h.id for h in store.search("locker blue note", user_id="u", kinds=("turn",))][:1] == [
        said.id
    ]
    with pytest.raises(NotFound):  # another user's message is no message of this user's
        store.forget(other.id, user_id="u", trace_id="t")
    report = store.forget(said.id, user_id="u", trace_id="t")
    assert report["removed"] == [said.id]
    hits = store.search("locker blue note", user_id="u", kinds=("turn",))
    assert said.id not in [h.id for h in hits] and all("locker" not in h.text for h in hits)
    (kept,) = store.events.many([said.id], user_id="u")
    assert kept.payload["content"] == "[forgotten]"  # the turn keeps its place in the log
    assert store.events.many([answer.id], user_id="u")[0].payload["content"] == "Got it."
    assert store.search("locker blue", user_id="v", kinds=("turn",))[0].id == other.id
    (event,) = store.events.list(user_id="u", kinds=["memory_forget"])
    assert "locker" not in json.dumps(event.payload)
    # the same words said again (a replay) are logged forgotten too
    again = store.log_turn(
        user_id="u", role="user", content="My locker code is on the blue note.", session_id="s2"
    )
    assert again.payload["content"] == "[forgotten]"
    with pytest.raises(UserError, match="forget a message"):
        store.forget(event.id, user_id="u", trace_id="t")  # the log's own events stay


def test_a_forgotten_message_stays_out_of_a_rebuilt_index(store: Store) -> None:
    said = store.log_turn(
        user_id="u", role="user", content="Alarm code is kiwi fruit.", session_id="s"
    )
    store.log_turn(user_id="u", role="assistant", content="Noted the alarm.", session_id="s")
    store.forget(said.id, user_id="u", trace_id="t")
    store.reindex(trace_id="t")
    found = store.search("alarm code kiwi fruit", user_id="u", kinds=("turn",))
    assert [h.text for h in found] == ["Noted the alarm."]
