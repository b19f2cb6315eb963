"""200 turns in a 2,048-token window: turn-3 facts answered at turn 190, the format rule
visible on every request, no prompt over the window."""

from __future__ import annotations

import json
from pathlib import Path

from memvisor.agent.loop import Agent
from memvisor.agent.models.base import AssistantTurn, ToolCall
from memvisor.agent.models.scripted import ScriptedModel
from memvisor.evals.replay import replay
from memvisor.storage import ManualClock, Store

RULE = "Wants every answer to end with '— E.'"
TOPICS = ["tomatoes", "bikes", "tea", "rain", "chess", "jazz", "bread", "trains", "moss", "kites"]


def user_turn(i: int) -> str:
    if i == 2:
        return "Please always end your answers with '— E.' from now on."
    if i == 3:
        return "I live in Tromsø and my cat is called Pixel."
    if i == 190:
        return "Quick check: what's my cat called and which town do I live in?"
    topic = TOPICS[i % len(TOPICS)]
    return f"Turn {i}: tell me one thing about {topic}, something I can try this week."


def reader(messages: list[dict], tools: list[dict]) -> AssistantTurn:
    """A stand-in model that can only use what is in its prompt."""
    last_user = next(m["content"] for m in reversed(messages) if m["role"] == "user")
    if messages[-1]["role"] == "user" and last_user.startswith("Please always end"):
        return AssistantTurn(
            tool_calls=[
                ToolCall(
                    id="1", name="core_memory_append", arguments={"label": "human", "content": RULE}
                )
            ]
        )
    if messages[-1]["role"] == "user" and last_user.startswith("I live in Tromsø"):
        return AssistantTurn(
            tool_calls=[
                ToolCall(
                    id="1",
                    name="fact_remember",
                    arguments={"subject": "user", "predicate": "lives_in", "object": "Tromsø"},
                ),
                ToolCall(
                    id="2",
                    name="fact_remember",
                    arguments={"subject": "user", "predicate": "cat_name", "object": "Pixel"},
                ),
            ]
        )
    prompt = "\n".join(str(m.get("content", "")) for m in messages)
    suffix = " — E." if RULE in messages[0]["content"] else ""
    if last_user.startswith("Quick check"):
        cat = "Pixel" if "Pixel" in prompt else "I don't know"
        town = "Tromsø" if "Tromsø" in prompt else "I don't know"
        return AssistantTurn(content=f"Your cat is {cat} and you live in {town}.{suffix}")
    return AssistantTurn(content=f"Try something small with it this week.{suffix}")


def test_two_hundred_turns_in_a_2k_window(store: Store, clock: ManualClock) -> None:
    model = ScriptedModel([reader] * 600, context_length=2048)
    agent = Agent(user_id="u", session_id="long", store=store, model=model)
    answers = {}
    for i in range(1, 201):
        turn = agent.step(user_turn(i))
        assert turn.error is None, turn.error
        assert max(turn.prompt_tokens) <= 2048
        answers[i] = turn.answer
    for i in range(3, 201):  # the rule was set at turn 2 and is obeyed on every later turn
        assert answers[i].endswith("— E."), (i, answers[i])
    assert "Pixel" in answers[190] and "Tromsø" in answers[190]
    assert store.events.list(user_id="u", kinds=["eviction"])  # the window really turned over
    assert all(c.options == {"num_ctx": 2048} for c in model.calls)


def transcript_lines() -> list[dict]:
    lines: list[dict] = [
        {
            "format": "memvisor.transcript",
            "version": 1,
            "user_id": "long",
            "start": "2026-05-04T08:00:00Z",
            "num_ctx": 2048,
        },
        {"type": "session", "id": "s1"},
    ]
    for i in range(1, 201):
        lines.append({"type": "time", "advance": "2m"})
        lines.append({"type": "user", "content": user_turn(i)})
        if i == 2:
            lines.append(
                {
                    "type": "assistant",
                    "tool_calls": [
                        {
                            "name": "core_memory_append",
                            "arguments": {"label": "human", "content": RULE},
                        }
                    ],
                }
            )
        if i == 3:
            lines.append(
                {
                    "type": "assistant",
                    "tool_calls": [
                        {
                            "name": "fact_remember",
                            "arguments": {
                                "subject": "user",
                                "predicate": "lives_in",
                                "object": "Tromsø",
                            },
                        },
                        {
                            "name": "fact_remember",
                            "arguments": {
                                "subject": "user",
                                "predicate": "cat_name",
                                "object": "Pixel",
                            },
                        },
                    ],
                }
            )
        answer = (
            "Your cat is Pixel and you live in Tromsø. — E."
            if i == 190
            else "Try something small with it this week." + (" — E." if i >= 2 else "")
        )
        lines.append({"type": "assistant", "content": answer})
        if i % 25 == 0 or i == 190:
            lines.append(
                {
                    "type": "expect",
                    "probe": "memory_contains",
                    "text": "— E.",
                    "label": f"format rule still in core at turn {i}",
                }
            )
            lines.append({"type": "expect", "probe": "within_budget"})
    lines.append({"type": "expect", "probe": "memory_contains", "object": "Pixel"})
    return lines


def test_replayed_transcript_pages_the_turn_3_fact_in_at_turn_190(tmp_path: Path) -> None:
    lines = transcript_lines()
    at_190 = next(n for n, line in enumerate(lines) if line.get("content") == user_turn(190))
    lines.insert(
        at_190 + 2,
        {
            "type": "expect",
            "probe": "recall_mentions",
            "text": "Pixel",
            "label": "turn-3 fact paged in at turn 190",
        },
    )
    path = tmp_path / "long.jsonl"
    path.write_text("\n".join(json.dumps(x, ensure_ascii=False) for x in lines) + "\n")
    report = replay(path, data_dir=tmp_path / "run", embedder="hash")
    failed = [p for p in report.probes if not p.passed]
    assert not failed, failed
    assert report.metrics()["turns"] == 200
    assert report.metrics()["prompt_tokens"]["max"] <= 2048
