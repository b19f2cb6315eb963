"""Session-end episodes, episode_search, and resuming a session with its last episode."""

from __future__ import annotations

from datetime import timedelta

import pytest

from memvisor.agent.loop import Agent
from memvisor.agent.models.base import AssistantTurn, ToolCall
from memvisor.agent.models.scripted import ScriptedModel
from memvisor.storage import ManualClock, Store

# A storage contract: every test runs on DuckDB and on PostgreSQL (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("backend")


def chat(store: Store, session: str, messages: list[str], model: ScriptedModel) -> Agent:
    agent = Agent(user_id="u", session_id=session, store=store, model=model)
    for message in messages:
        agent.step(message)
    return agent


def test_session_end_episode_resumes_and_is_searchable(store: Store, clock: ManualClock) -> None:
    agent = chat(
        store,
        "s1",
        [
            "We need to fix the roof leak before the storm on Friday",
            "Order the tarp, reference TRP-7781",
        ],
        ScriptedModel(["I'll help with the roof.", "Noted TRP-7781."]),
    )
    episode_id = agent.end_session()
    [episode] = store.episodes.list(user_id="u", session_id="s1")
    assert episode.id == episode_id and "TRP-7781" in episode.summary
    assert [e.kind for e in store.events.list(user_id="u", kinds=["session_end"])] == [
        "session_end"
    ]
    clock.advance(timedelta(days=3))
    # resuming s1: the last episode is in working memory, no search needed
    model = ScriptedModel(["We were fixing the roof."])
    resumed = Agent(user_id="u", session_id="s1", store=store, model=model)
    resumed.step("where were we?")
    prompt = "\n".join(str(m["content"]) for m in model.calls[0].messages)
    assert "TRP-7781" in prompt and episode.id in prompt
    # another session finds it with episode_search and a time expression
    model = ScriptedModel(
        [
            AssistantTurn(
                tool_calls=[
                    ToolCall(
                        id="1",
                        name="episode_search",
                        arguments={"query": "what did we discuss last week about the roof"},
                    )
                ]
            ),
            "The roof.",
        ]
    )
    chat(store, "s2", ["what did we talk about regarding the roof?"], model)
    result = model.calls[1].messages[-1]["content"]
    assert episode.id in result and "TRP-7781" in result


def test_episode_search_rejects_bad_dates(store: Store) -> None:
    model = ScriptedModel(
        [
            AssistantTurn(
                tool_calls=[
                    ToolCall(
                        id="1", name="episode_search", arguments={"query": "x", "start": "someday"}
                    )
                ]
            ),
            "ok",
        ]
    )
    chat(store, "s", ["hi"], model)
    assert "ISO-8601" in model.calls[1].messages[-1]["content"]


def test_relative_valid_until_resolves_against_the_session_clock(
    store: Store, clock: ManualClock
) -> None:
    model = ScriptedModel(
        [
            AssistantTurn(
                tool_calls=[
                    ToolCall(
                        id="1",
                        name="fact_remember",
                        arguments={
                            "subject": "u",
                            "predicate": "staying_at",
                            "object": "Hotel Nord",
                            "valid_until": "next week",
                        },
                    )
                ]
            ),
            "Noted.",
        ]
    )
    chat(store, "s", ["I'm at Hotel Nord this week"], model)
    [fact] = store.facts.list(user_id="u")
    assert fact.valid_until is not None
    assert clock.now() < fact.valid_until <= clock.now() + timedelta(days=14)
    clock.advance(timedelta(days=15))
    assert store.facts.list(user_id="u") == []  # expired: never paged in again
    bad = ScriptedModel(
        [
            AssistantTurn(
                tool_calls=[
                    ToolCall(
                        id="1",
                        name="fact_remember",
                        arguments={
                            "subject": "u",
                            "predicate": "staying_at",
                            "object": "X",
                            "valid_until": "whenever",
                        },
                    )
                ]
            ),
            "ok",
        ]
    )
    chat(store, "s", ["x"], bad)
    assert "is not a date" in bad.calls[1].messages[-1]["content"]


def test_episode_on_demand_then_session_end_covers_only_new_turns(
    store: Store, clock: ManualClock
) -> None:
    save = AssistantTurn(tool_calls=[ToolCall(id="1", name="episode_save", arguments={})])
    model = ScriptedModel(["Noted the budget.", save, "Saved where we are.", "Tiles noted."])
    agent = chat(store, "s1", ["The kitchen budget is 9000 euros", "let's stop here"], model)
    assert "episode saved: eps_" in model.calls[2].messages[-1]["content"]
    [first] = store.episodes.list(user_id="u", session_id="s1")
    assert "9000" in first.summary and first.participants == ["u", "assistant"]
    clock.advance(timedelta(hours=1))
    agent.step("We picked green tiles")
    second = agent.end_session()
    assert second is not None
    episodes = store.episodes.list(user_id="u", session_id="s1")
    assert [e.id for e in episodes] == [first.id, second]
    assert "green tiles" in episodes[1].summary and "9000" not in episodes[1].summary
    # a restart reloads the window; its turns are in episodes already: nothing twice
    resumed = Agent(user_id="u", session_id="s1", store=store, model=ScriptedModel([]))
    assert resumed.end_session() is None
    assert len(store.episodes.list(user_id="u", session_id="s1")) == 2
