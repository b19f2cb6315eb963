"""Memory pressure, eviction into summaries and episodes, and what summaries keep."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from memvisor.agent.loop import Agent
from memvisor.agent.models.scripted import ScriptedModel
from memvisor.paging.pressure import MemoryPressure, PressureConfig
from memvisor.paging.summarize import DialogueTurn, ExtractiveSummarizer, fold, identifiers
from memvisor.paging.tokens import counter_for_model
from memvisor.storage import ManualClock, Store

T0 = datetime(2026, 5, 1, 9, tzinfo=UTC)


def test_warning_once_per_pressure_episode() -> None:
    pressure = MemoryPressure(PressureConfig())
    assert pressure.note(0.5) is None
    assert "76%" in (pressure.note(0.76) or "")
    assert pressure.note(0.8) is None and pressure.note(0.95) is None
    assert pressure.level(0.95) == "flush" and pressure.level(0.8) == "warn"
    assert pressure.note(0.4) is None  # episode over
    assert pressure.note(0.77) is not None


def test_thresholds_must_be_ordered() -> None:
    with pytest.raises(ValueError):
        PressureConfig(warn=0.8, flush=0.7, target=0.5)


def test_extractive_summary_keeps_identifiers_negations_conditions() -> None:
    turns = [
        DialogueTurn(
            "Hi! Lovely weather today. My order is ORD-58213 and it ships May 12. Never call me "
            "before 9am. If the desk is late, email anna@example.com. I like cats.",
            "Noted: ORD-58213, no calls before 9.",
            "evt_u",
            "evt_a",
            T0,
        )
    ]
    summary = ExtractiveSummarizer(sentences_per_message=3).summarize(turns)
    for kept in ("ORD-58213", "Never call me before 9am", "anna@example.com", "If the desk"):
        assert kept in summary
    assert "Lovely weather" not in summary


def test_fold_respects_cap_and_pins_identifiers() -> None:
    counter = counter_for_model(None)
    previous = "\n".join(
        f"- note {i}: we talked about the order A{i:03d}-X{i} at length" for i in range(8)
    )
    rolling = fold(previous, "- new: the user never eats meat", cap=90, counter=counter)
    assert counter.count(rolling) <= 90
    assert "never eats meat" in rolling
    assert "note 0" not in rolling and "A000-X0" in rolling  # line gone, identifier pinned
    # a tiny cap bounds the pinned line too, newest identifiers kept
    tiny = fold(previous, "- new: the user never eats meat", cap=40, counter=counter)
    assert counter.count(tiny) <= 40


def test_a_dropped_line_pins_its_identifiers_not_its_time() -> None:
    counter = counter_for_model(None)
    lines = [f"- 2026-05-01 09:{i:02d} user: code Q12{i}-X " + "filler " * 20 for i in range(6)]
    rolling = fold("\n".join(lines), "- new", cap=60, counter=counter)
    pinned = [ln for ln in rolling.splitlines() if ln.startswith("- earlier identifiers: ")]
    assert pinned and "Q120-X" in pinned[0] and "2026" not in pinned[0]


def _chatty(n: int) -> list[str]:
    return [f"Answer {i}: " + "details " * 60 for i in range(n)]


def run_small_window(store: Store, clock: ManualClock, turns: int, **kw) -> Agent:
    agent = Agent(
        user_id="u",
        session_id="s1",
        store=store,
        model=ScriptedModel(_chatty(turns), context_length=2048),
        **kw,
    )
    for i in range(turns):
        clock.advance(timedelta(minutes=3))
        turn = agent.step(f"Message {i} with code K{i:03d}-Z " + "words " * 40)
        assert max(turn.prompt_tokens) <= 2048 - agent.budget.reserve
    return agent


def test_flush_evicts_whole_turns_into_summary_and_episode(
    store: Store, clock: ManualClock
) -> None:
    agent = run_small_window(store, clock, 20)
    evictions = store.events.list(user_id="u", kinds=["eviction"])
    assert evictions, "a 2k window must evict"
    assert agent.base_tokens() <= 0.9 * agent.budget.usable
    summary, version = store.summaries.get(user_id="u", session_id="s1")
    assert version == len(evictions)
    # the rolling summary pins the newest identifiers within its cap; each eviction's
    # episode keeps its own, the oldest included
    last_evicted = store.events.get(evictions[-1].payload["evicted_event_ids"][-2], user_id="u")
    assert last_evicted.payload["content"].split()[4] in summary  # "Message 18 with code K018-Z"
    episodes = store.episodes.list(user_id="u")
    assert len(episodes) == len(evictions) and "K000-Z" in episodes[0].summary
    for event in evictions:  # turn boundaries: every evicted user message with its answer
        ids = event.payload["evicted_event_ids"]
        kinds = [store.events.get(i, user_id="u").kind for i in ids]
        assert kinds == ["user_message", "assistant_message"] * (len(ids) // 2)
    # evicted turns stay findable
    from memvisor.paging.pagein import PageIn

    hits = PageIn(store).retrieve("what was code K000-Z about?", user_id="u", kinds=("turn",))
    assert "K000-Z" in hits[0].text and "exact" in hits[0].routes
    # a restart resumes the window after the last eviction, not the whole session
    resumed = Agent(
        user_id="u", session_id="s1", store=store, model=ScriptedModel([], context_length=2048)
    )
    assert [t.user_event_id for t in resumed.turns] == [t.user_event_id for t in agent.turns]


def test_failed_summary_keeps_the_window(
    store: Store, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    class Broken:
        def summarize(self, turns):  # noqa: ANN001
            raise RuntimeError("summarizer down")

    agent = Agent(
        user_id="u",
        session_id="s1",
        store=store,
        model=ScriptedModel(_chatty(12), context_length=2048),
    )
    agent.summarizer = Broken()
    for i in range(12):
        agent.step(f"Message {i} " + "words " * 40)
    assert store.events.list(user_id="u", kinds=["eviction"]) == []
    assert len(agent.turns) == 12  # nothing dropped
    errors = [e.payload for e in store.events.list(user_id="u", kinds=["error"])]
    assert any(e.get("kind") == "eviction_failed" for e in errors)


def test_warning_note_reaches_the_model_once(store: Store, clock: ManualClock) -> None:
    model = ScriptedModel(_chatty(12), context_length=2048)
    agent = Agent(user_id="u", session_id="s1", store=store, model=model)
    for i in range(12):
        agent.step(f"Message {i} " + "words " * 40)
    seen = [any("Memory pressure" in m["content"] for m in call.messages) for call in model.calls]
    assert any(seen)
    assert not all(seen)


def test_identifier_regex_covers_common_shapes() -> None:
    found = identifiers("ORD-58213, a7-99312-k, +46 70 123 45 67, bob@x.se, AB1234, 2026")
    assert {"ORD-58213", "a7-99312-k", "bob@x.se", "AB1234", "2026"} <= set(found)
