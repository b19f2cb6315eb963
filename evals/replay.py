"""Replay a transcript through the real agent runtime and score its probes."""

from __future__ import annotations

import statistics
from collections import defaultdict, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memvisor.agent.loop import Agent
from memvisor.agent.models.base import ChatModel
from memvisor.agent.models.replay import ReplayModel
from memvisor.agent.turn import Turn
from memvisor.errors import UserError
from memvisor.evals.probes import ProbeResult, evaluate
from memvisor.evals.transcripts import (
    AssistantEvent,
    CrashEvent,
    ExpectEvent,
    SessionEvent,
    TimeEvent,
    ToolEvent,
    Transcript,
    UserEvent,
    load_transcript,
)
from memvisor.storage import ManualClock, Store


@dataclass
class ReplayReport:
    transcript: str
    user_id: str
    data_dir: str
    probes: list[ProbeResult] = field(default_factory=list)
    turns: list[Turn] = field(default_factory=list)
    sessions: int = 0
    restarts: int = 0
    crashes: int = 0

    @property
    def passed(self) -> bool:
        return all(p.passed for p in self.probes)

    def metrics(self) -> dict[str, Any]:
        prompts = [p for t in self.turns for p in t.prompt_tokens]
        return {
            "turns": len(self.turns),
            "sessions": self.sessions,
            "restarts": self.restarts,
            "crashes": self.crashes,
            "tool_calls": sum(len(t.tool_calls) for t in self.turns),
            "invalid_calls": sum(t.invalid_calls for t in self.turns),
            "repaired_calls": sum(t.repaired_calls for t in self.turns),
            "writes": sum(t.writes for t in self.turns),
            "capped_turns": sum(t.capped is not None for t in self.turns),
            "errors": sum(t.error is not None for t in self.turns),
            "prompt_tokens": {
                "mean": round(statistics.fmean(prompts), 1) if prompts else 0,
                "max": max(prompts, default=0),
            },
            "probes": {"passed": sum(p.passed for p in self.probes), "total": len(self.probes)},
        }

    def as_dict(self) -> dict[str, Any]:
        return {
            "transcript": self.transcript,
            "user_id": self.user_id,
            "data_dir": self.data_dir,
            "passed": self.passed,
            "metrics": self.metrics(),
            "probes": [p.as_dict() for p in self.probes],
            "turns": [
                {
                    "trace_id": t.trace_id,
                    "answer": t.answer,
                    "tools": [c.name for c in t.tool_calls],
                    "prompt_tokens": t.prompt_tokens,
                    "window": t.window,
                    "evictions": t.evicted_turns,
                    "paged_in": len(t.paged_ids),
                }
                for t in self.turns
            ],
        }


def _steps(transcript: Transcript) -> dict[int, tuple[list[AssistantEvent], list[ToolEvent]]]:
    """For each user event (by position): its recorded model responses and tool results."""
    steps: dict[int, tuple[list[AssistantEvent], list[ToolEvent]]] = {}
    current: int | None = None
    for i, event in enumerate(transcript.events):
        if isinstance(event, UserEvent):
            current = i
            steps[i] = ([], [])
        elif isinstance(event, SessionEvent | CrashEvent):
            current = None
        elif current is not None and isinstance(event, AssistantEvent):
            steps[current][0].append(event)
        elif current is not None and isinstance(event, ToolEvent):
            steps[current][1].append(event)
    return steps


def replay(
    path: str | Path,
    *,
    data_dir: Path,
    model: ChatModel | None = None,
    embedder: str | None = None,
    num_ctx: int | None = None,
    reuse_store: bool = False,
    progress: Callable[[str, int, int], None] | None = None,
    user_id: str | None = None,
) -> ReplayReport:
    """Run every step of the transcript; recorded model turns unless ``model`` is given.

    The turns are the transcript's user's, or ``user_id``'s when given. ``progress(stage,
    done, total)`` is told after each user turn."""
    transcript = load_transcript(path)
    header = transcript.header
    if not reuse_store and data_dir.exists() and any(data_dir.iterdir()):
        raise UserError(f"replay needs a fresh data directory; {data_dir} is not empty")
    clock = ManualClock(header.start)
    window = num_ctx or header.num_ctx
    replayer = ReplayModel(context_length=window)
    chat_model: ChatModel = model or replayer
    steps = _steps(transcript)
    stage = f"replaying {Path(path).name}"
    report_progress = progress or (lambda _stage, _done, _total: None)
    user = user_id or header.user_id
    report = ReplayReport(transcript=str(path), user_id=user, data_dir=str(data_dir))
    store = Store.open(data_dir, embedder=embedder, clock=clock, reproducible=True)
    agent: Agent | None = None
    session_id = "s1"
    last: Turn | None = None
    recorded: dict[str, deque[str]] = defaultdict(deque)

    def external(name: str, arguments: dict[str, Any]) -> str | None:
        return recorded[name].popleft() if recorded[name] else None

    def new_agent(session_id: str) -> Agent:
        return Agent(
            user_id=user,
            session_id=session_id,
            model=chat_model,
            store=store,
            external_tool=external,
            num_ctx=window,
        )

    try:
        for i, event in enumerate(transcript.events):
            if isinstance(event, SessionEvent):
                report.sessions += 1
                if agent is not None:  # the previous session ended: keep it as an episode
                    agent.end_session()
                if event.restart:
                    report.restarts += 1
                    store.close()
                    store = Store.open(data_dir, embedder=embedder, clock=clock, reproducible=True)
                session_id = event.id
                agent = new_agent(session_id)
            elif isinstance(event, CrashEvent):
                # What a killed process leaves: committed records only. The session is not
                # ended (no episode) and the next step runs in a fresh process on the same
                # session, as `memvisor chat --session S` would after the crash.
                report.crashes += 1
                agent = None
                store.close()
                store = Store.open(data_dir, embedder=embedder, clock=clock, reproducible=True)
            elif isinstance(event, TimeEvent):
                if event.at:
                    clock.set(event.at)
                else:
                    clock.advance(event.delta())
            elif isinstance(event, UserEvent):
                agent = agent or new_agent(session_id)
                responses, tools = steps[i]
                replayer.load(responses)
                recorded.clear()
                for tool_event in tools:
                    recorded[tool_event.name].append(tool_event.content)
                last = agent.step(event.content)
                report.turns.append(last)
                report_progress(stage, len(report.turns), len(steps))
            elif isinstance(event, ExpectEvent):
                report.probes.append(
                    evaluate(
                        event,
                        turn=last,
                        store=store,
                        user_id=user,
                        all_turns=report.turns,
                    )
                )
        if agent is not None:
            agent.end_session()
    finally:
        store.close()
    return report
