"""The single write path of memory tools: every proposed write passes the guard first.

The guard itself (the firewall) belongs to the runtime and is handed to tools in
``ctx.extras["guard"]``; without one, writes fail closed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from pydantic import BaseModel, Field

from tools.context import ToolContext
from tools.registry import ToolError

Verdict = Literal["allow", "redact", "quarantine", "reject"]


class WriteProposal(BaseModel):
    user_id: str
    tool: str
    arguments: dict[str, Any]
    source: Literal["user", "model", "tool", "import"] = "model"
    # The recent conversation the write came from, oldest first (role, content).
    context: list[dict[str, Any]] = Field(default_factory=list)


class FirewallVerdict(BaseModel):
    verdict: Verdict
    reasons: list[str] = Field(default_factory=list)
    # The arguments to store when the verdict is ``redact`` (secrets masked).
    stored: dict[str, Any] | None = None
    confidence: float | None = None


WriteGuard = Callable[[WriteProposal], FirewallVerdict]


def guarded_write(ctx: ToolContext, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """Count, check and log a proposed write; return the arguments to store.

    Raises ``ToolError`` (shown to the model) when the write is rejected or held.
    """
    guard: WriteGuard | None = ctx.extras.get("guard")
    if guard is None:
        raise ToolError("memory writes are disabled: no write firewall is configured")
    ctx.count_write()
    proposal = WriteProposal(
        user_id=ctx.user_id,
        tool=tool,
        arguments=arguments,
        source=ctx.extras.get("write_source", "model"),
        context=ctx.extras.get("recent_messages", []),
    )
    verdict = guard(proposal)
    ctx.store.events.append(
        user_id=ctx.user_id,
        kind="firewall_verdict",
        trace_id=ctx.trace_id,
        session_id=ctx.session_id,
        payload={"tool": tool, "verdict": verdict.verdict, "reasons": verdict.reasons},
    )
    if verdict.verdict == "reject":
        raise ToolError(
            f"write refused by the memory firewall ({'; '.join(verdict.reasons)}); "
            "do not retry it, tell the user what you could not save"
        )
    if verdict.verdict == "quarantine":
        item = ctx.store.quarantine.hold(
            user_id=ctx.user_id,
            tool=tool,
            arguments=arguments,
            reasons=verdict.reasons,
            trace_id=ctx.trace_id,
            confidence=verdict.confidence,
            source_event_ids=ctx.source_event_ids,
        )
        raise ToolError(
            f"write held in quarantine as {item.id} ({'; '.join(verdict.reasons)}); "
            "it will not be used until the user confirms it"
        )
    return verdict.stored if verdict.verdict == "redact" and verdict.stored else arguments


def note_read(ctx: ToolContext, tool: str, query: str, ids: list[str]) -> None:
    """Log a memory read and remember which ids entered the model's context this turn."""
    seen: list[str] = ctx.extras.setdefault("memory_ids", [])
    seen.extend(i for i in ids if i not in seen)
    ctx.store.events.append(
        user_id=ctx.user_id,
        kind="memory_read",
        trace_id=ctx.trace_id,
        session_id=ctx.session_id,
        payload={"tool": tool, "query": query, "ids": ids},
    )
