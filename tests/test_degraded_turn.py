"""A failing part degrades the turn instead of losing it (issue 19, first item)."""

from __future__ import annotations

import json

import pytest

from memvisor.agent.loop import SEARCH_UNAVAILABLE, Agent
from memvisor.agent.models.scripted import ScriptedModel
from memvisor.errors import StorageError
from memvisor.storage import Store
from memvisor.tools.builtin import builtin_registry


@pytest.mark.parametrize("fault", [StorageError("index fragment missing"), RuntimeError("onnx")])
def test_a_failing_page_in_still_answers_and_says_why(
    store: Store, monkeypatch: pytest.MonkeyPatch, fault: Exception
) -> None:
    model = ScriptedModel(["I can't look that up right now, but here is what I know."])
    agent = Agent(
        user_id="u",
        session_id="s",
        store=store,
        model=model,
        registry=builtin_registry(plugins=False),
    )

    def broken(*args: object, **kwargs: object) -> None:
        raise fault

    monkeypatch.setattr(agent.pagein, "retrieve", broken)
    turn = agent.step("what did I say about the desk order?")
    assert turn.error is None and turn.answer.startswith("I can't look that up")
    prompt = json.dumps(model.calls[0].messages)
    assert SEARCH_UNAVAILABLE in prompt and "No stored memory matched" not in prompt
    errors = store.events.list(user_id="u", kinds=["error"])
    assert [e.payload["kind"] for e in errors] == ["page_in_failed"]
    assert type(fault).__name__ in errors[0].payload["error"]
    assert errors[0].trace_id == turn.trace_id
    # The user's message and the answer are both in the log: nothing of the turn was lost.
    assert turn.paged_ids == []
    logged = store.events.list(user_id="u", kinds=["user_message", "assistant_message"])
    assert len(logged) == 2


def test_facts_still_page_in_from_the_records_when_the_index_fails(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    store.facts.remember(
        user_id="u", subject="desk order", predicate="order_id", object="ORD-58213",
        confidence=0.9, trace_id="trc_test",
    )  # fmt: skip
    model = ScriptedModel(["It is ORD-58213."])
    agent = Agent(
        user_id="u", session_id="s", store=store, model=model,
        registry=builtin_registry(plugins=False),
    )  # fmt: skip
    monkeypatch.setattr(
        agent.pagein, "retrieve", lambda *a, **k: (_ for _ in ()).throw(StorageError("no index"))
    )
    turn = agent.step("what was the desk order number?")
    prompt = json.dumps(model.calls[0].messages)
    assert "ORD-58213" in prompt and SEARCH_UNAVAILABLE in prompt
    assert len(turn.paged_ids) == 1
