"""Transcript probes: checks of what the agent answered, called, stored and sent."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from memvisor.agent.turn import Turn
from memvisor.errors import NotFound
from memvisor.evals.transcripts import ExpectEvent
from memvisor.storage import Store
from memvisor.storage.text import snippet


@dataclass
class ProbeResult:
    line: int
    probe: str
    label: str
    passed: bool
    detail: str

    def as_dict(self) -> dict[str, Any]:
        return {
            "line": self.line,
            "probe": self.probe,
            "label": self.label,
            "passed": self.passed,
            "detail": self.detail,
        }


# A probe's detail is one line of at most this many characters; a cut is marked with "…".
DETAIL_CHARS = 160


def _quote(text: str) -> str:
    """The start of ``text`` on one line, in quotes."""
    return f'"{snippet(text, DETAIL_CHARS - 20)}"'


def _quote_end(text: str) -> str:
    """The end of ``text`` on one line, in quotes: where a format rule is checked."""
    flat = " ".join(text.split())
    return f'"{flat}"' if len(flat) <= 80 else f'"…{flat[-79:]}"'


def _fold(text: str) -> str:
    return " ".join(text.lower().split())


def _memory_matches(store: Store, user_id: str, spec: dict[str, Any]) -> list[str]:
    """Active facts, core blocks and passages matching the probe's fields."""
    found: list[str] = []
    fields = {k: _fold(str(spec[k])) for k in ("subject", "predicate", "object") if k in spec}
    text = _fold(str(spec["text"])) if spec.get("text") else None
    for fact in store.facts.list(user_id=user_id):
        values = {"subject": fact.subject, "predicate": fact.predicate, "object": fact.object}
        if (
            fields
            and all(v in _fold(values[k]) for k, v in fields.items())
            or text
            and text in _fold(fact.text())
        ):
            found.append(f"fact {fact.id}: {fact.text()}")
    if text:
        for block in store.core.list(user_id=user_id):
            if text in _fold(block.value):
                found.append(f"core block {block.label}")
        for passage in store.passages.list(user_id=user_id):
            if text in _fold(passage.text):
                found.append(f"passage {passage.id}")
    return found


def _task_progress(
    store: Store, user_id: str, spec: dict[str, Any], result: Callable[[bool, str], ProbeResult]
) -> ProbeResult:
    """The task record holds the expected ``completed`` / ``total`` / ``status``."""
    try:
        task = store.tasks.get(str(spec.get("task_id", "")), user_id=user_id)
    except NotFound:
        return result(False, f"no task {spec.get('task_id')!r}")
    want = {k: spec[k] for k in ("completed", "total", "status") if k in spec}
    have = {k: getattr(task, k) for k in want}
    return result(have == want, f"{task.task_id}: {task.progress()}, {task.status}")


def evaluate(
    probe: ExpectEvent, *, turn: Turn | None, store: Store, user_id: str, all_turns: list[Turn]
) -> ProbeResult:
    spec = probe.model_extra or {}
    answer = turn.answer if turn else ""
    kind = probe.probe

    def result(passed: bool, detail: str) -> ProbeResult:
        return ProbeResult(probe.line, kind, probe.label or kind, passed, detail)

    if kind in ("memory_contains", "memory_excludes"):
        found = _memory_matches(store, user_id, spec)
        want = kind == "memory_contains"
        if found:
            return result(want, snippet("; ".join(found[:3]), DETAIL_CHARS))
        return result(not want, "nothing matches, as expected" if not want else "no match")
    if kind in ("answer_mentions", "answer_omits"):
        options = spec.get("any") or [spec.get("text", "")]
        hit = [o for o in options if _fold(str(o)) in _fold(answer)]
        return result(bool(hit) == (kind == "answer_mentions"), f"answer: {_quote(answer)}")
    if kind == "answer_format":
        pattern = str(spec.get("pattern", ""))
        ok = re.search(pattern, answer.strip(), re.DOTALL) is not None
        return result(ok, f"/{pattern}/ vs the answer's end {_quote_end(answer)}")
    if kind in ("tool_called", "tool_not_called"):
        names = [c.name for c in turn.tool_calls] if turn else []
        called = spec.get("name") in names
        return result(called == (kind == "tool_called"), f"called: {', '.join(names) or 'no tool'}")
    if kind == "recall_mentions":
        needle = _fold(str(spec.get("text", "")))
        seen = [c.result for c in turn.tool_calls] + turn.paged_texts if turn else []
        ok = any(needle in _fold(s) for s in seen)
        shown = " | ".join(snippet(s, 60) for s in seen) or "(nothing)"
        return result(ok, snippet(f"tool results and paged memory: {shown}", DETAIL_CHARS))
    if kind == "quarantined":
        needle = _fold(str(spec.get("text", "")))
        held = [
            q
            for q in store.quarantine.list(user_id=user_id)
            if needle in _fold(json.dumps(q.arguments, ensure_ascii=False))
        ]
        return result(
            bool(held),
            ", ".join(f"{q.id} ({'; '.join(q.reasons)})" for q in held) or "nothing held",
        )
    if kind == "event_logged":
        events = store.events.list(user_id=user_id, trace_id=turn.trace_id) if turn else []
        needle = _fold(str(spec.get("text", "")))
        hits = [
            e
            for e in events
            if e.kind == spec.get("kind")
            and needle in _fold(json.dumps(e.payload, ensure_ascii=False))
        ]
        kinds = ", ".join(sorted({e.kind for e in events})) or "none"
        return result(bool(hits), f"events of the step: {kinds}")
    if kind == "task_progress":
        return _task_progress(store, user_id, spec, result)
    if kind == "context_mentions":
        needle = _fold(str(spec.get("text", "")))
        working = turn.working_memory if turn else ""
        return result(needle in _fold(working), f"working memory: {_quote(working)}")
    if kind == "within_budget":
        worst = (
            max((max(t.prompt_tokens, default=0), t.window) for t in all_turns)
            if all_turns
            else (0, 0)
        )
        over = [t for t in all_turns if any(p > t.window for p in t.prompt_tokens)]
        return result(not over, f"largest prompt {worst[0]} of window {worst[1]}")
    return result(False, f"unknown probe {kind}")
