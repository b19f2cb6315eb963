"""Small windows get the compact tool specs and tool_help; large ones the full docstrings."""

from __future__ import annotations

import json

from memvisor.agent.loop import Agent
from memvisor.agent.models.base import AssistantTurn, ToolCall
from memvisor.agent.models.scripted import ScriptedModel
from memvisor.paging.budget import ContextBudget
from memvisor.paging.tokens import counter_for_model
from memvisor.storage import Store
from memvisor.tools.builtin import builtin_registry
from memvisor.tools.context import ToolContext
from memvisor.tools.offer import (
    COMPACT_SHARE,
    HELP_NOTE,
    HELP_TOOL,
    SHED_NOTE,
    compact_spec,
    first_sentence,
    offer_tools,
)

QWEN = counter_for_model("qwen2.5:7b")
MEMORY_TOOLS = {
    "core_memory_append",
    "archival_memory_insert",
    "archival_memory_search",
    "conversation_search",
    "fact_remember",
    "fact_search",
}
# The tools section of a 4,096-token request before the compact form (issue 15).
TOOLS_BEFORE_AT_4K = 741


def names(specs: list[dict]) -> set[str]:
    return {s["function"]["name"] for s in specs}


def size(specs: list[dict]) -> int:
    return QWEN.count(json.dumps(specs, ensure_ascii=False))


def test_a_4k_window_gets_the_memory_tools_compact_and_tool_help() -> None:
    usable = ContextBudget(4096).usable
    offer = offer_tools(builtin_registry(), count=QWEN.count, usable=usable)
    assert offer.compact and offer.prompt_note.startswith(HELP_NOTE)
    assert MEMORY_TOOLS | {HELP_TOOL} <= names(offer.specs)
    assert size(offer.specs) <= usable * COMPACT_SHARE < TOOLS_BEFORE_AT_4K
    print(f"tools at 4,096: {TOOLS_BEFORE_AT_4K} -> {size(offer.specs)} tokens")


def test_a_large_window_gets_full_docstrings_without_tool_help() -> None:
    registry = builtin_registry()
    offer = offer_tools(registry, count=QWEN.count, usable=ContextBudget(32768).usable)
    assert not offer.compact and offer.prompt_note == ""
    assert names(offer.specs) == set(registry.names()) - {HELP_TOOL}
    remember = next(s for s in offer.specs if s["function"]["name"] == "fact_remember")
    assert "Good:" in remember["function"]["description"]


def test_the_compact_form_keeps_the_first_sentence_and_required_types() -> None:
    spec = compact_spec(builtin_registry().get("fact_remember"))["function"]
    assert spec["description"] == "Save one fact about the user or their world."
    assert spec["parameters"] == {
        "type": "object",
        "properties": {k: {"type": "string"} for k in ("subject", "predicate", "object")},
        "required": ["subject", "predicate", "object"],
    }
    assert first_sentence("word " * 60).endswith("…") and len(first_sentence("word " * 60)) <= 100


def test_tool_help_shows_every_argument_and_names_a_near_miss() -> None:
    registry = builtin_registry()
    # tool_help never reaches memory
    ctx = ToolContext("u", "s", "t", memory=None, source_event_ids=[])  # type: ignore[arg-type]
    shown = registry.call(HELP_TOOL, {"name": "fact_remember"}, ctx)
    assert shown.ok and "valid_until (optional, default null)" in shown.content
    assert "Good: fact_remember(" in shown.content
    wrong = registry.call(HELP_TOOL, {"name": "fact_remembr"}, ctx)
    assert not wrong.ok and "did you mean 'fact_remember'" in wrong.content


def test_a_small_model_reads_tool_help_then_uses_an_optional_argument(store: Store) -> None:
    """The flow the system prompt's note asks for, at 4,096 tokens."""
    asked = {"name": "fact_remember"}
    remember = {
        "subject": "user",
        "predicate": "trial_plan",
        "object": "Pro trial",
        "valid_until": "2026-06-01",
    }
    model = ScriptedModel(
        [
            AssistantTurn(tool_calls=[ToolCall(id="1", name=HELP_TOOL, arguments=asked)]),
            AssistantTurn(tool_calls=[ToolCall(id="2", name="fact_remember", arguments=remember)]),
            "Saved: your Pro trial runs until June 1st.",
        ],
        context_length=4096,
    )
    agent = Agent(user_id="u", session_id="s", store=store, model=model)
    turn = agent.step("I'm on the Pro trial until June 1st.")
    first = model.calls[0]
    assert HELP_NOTE in first.messages[0]["content"]
    assert HELP_TOOL in names(first.tools) and size(first.tools) < TOOLS_BEFORE_AT_4K
    assert "valid_until" in str(model.calls[1].messages[-1]["content"])  # the help it read
    assert [c.ok for c in turn.tool_calls] == [True, True]
    fact = store.facts.list(user_id="u")[0]
    assert fact.object == "Pro trial" and fact.valid_until is not None


def test_tools_left_out_for_room_are_named_and_a_forget_still_works(store: Store) -> None:
    """At 4,096 tokens some tools leave the offer; the prompt names them, and the model can
    read one with tool_help and call it: a user asking to forget is still heard."""
    usable = ContextBudget(4096).usable
    offer = offer_tools(builtin_registry(), count=QWEN.count, usable=usable)
    assert offer.shed and not set(offer.shed) & names(offer.specs)
    assert "fact_forget" in offer.shed and "fact_forget" in offer.prompt_note
    assert offer.prompt_note.startswith(HELP_NOTE) and SHED_NOTE in offer.prompt_note
    fact = store.remember_fact(
        user_id="u", subject="user", predicate="lives_in", object="Oslo", trace_id="t"
    ).fact
    assert fact is not None
    model = ScriptedModel(
        [
            AssistantTurn(
                tool_calls=[ToolCall(id="1", name=HELP_TOOL, arguments={"name": "fact_forget"})]
            ),
            AssistantTurn(
                tool_calls=[ToolCall(id="2", name="fact_forget", arguments={"fact_id": fact.id})]
            ),
            "Done: I no longer remember where you live.",
        ],
        context_length=4096,
    )
    agent = Agent(user_id="u", session_id="s", store=store, model=model)
    turn = agent.step("Please forget where I live.")
    assert "fact_forget" in model.calls[0].messages[0]["content"]
    assert "fact_forget" not in names(model.calls[0].tools)
    assert [c.ok for c in turn.tool_calls] == [True, True], turn.tool_calls
    assert store.facts.list(user_id="u") == []
