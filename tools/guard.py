"""The single write path of memory tools: every proposed write passes the guard first.

The guard itself (the firewall, ``agent.guards.Firewall``) belongs to the runtime and is handed
to tools in ``ctx.extras["guard"]``; without one, writes fail closed. The guard reads the user's
memory (for conflicts and the per-minute rate) through a ``MemoryView`` carried by the proposal,
so one firewall object serves every user and store.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any, Literal, Protocol

from loguru import logger
from memvisor.storage.facts import normalize_predicate
from memvisor.tools.context import ToolContext
from pydantic import BaseModel, ConfigDict, Field

from memvisor.errors import ToolError

Verdict = Literal["allow", "redact", "quarantine", "reject"]
Source = Literal["user", "model", "tool", "import"]
# Verdicts whose write lands somewhere (a record or the quarantine): these count for the rate.
STORING_VERDICTS = ("allow", "redact", "quarantine")


class MemoryView(Protocol):
    """What the firewall may read of one user's memory."""

    def active_facts(self, subject: str, predicate: str) -> list[Any]: ...

    def writes_since(self, since: datetime) -> int: ...

    def now(self) -> datetime: ...


class WriteProposal(BaseModel):
    model_config = ConfigDict(arbitrary_types_allowed=True)

    user_id: str
    tool: str
    arguments: dict[str, Any]
    source: Source = "model"
    # The recent conversation the write came from, oldest first (role, content); the user's
    # latest message is the last user item, tool results of this step may follow it.
    context: list[dict[str, Any]] = Field(default_factory=list)
    session_id: str | None = None
    trace_id: str | None = None
    # Read access to memory; None offline (``memvisor firewall scan``): conflict/rate unchecked.
    memory: Any = Field(default=None, exclude=True, repr=False)


class FirewallVerdict(BaseModel):
    verdict: Verdict
    # Machine-readable, e.g. "injection:ignore_instructions", "provenance:tool_derived".
    reasons: list[str] = Field(default_factory=list)
    # The arguments to store when they differ from the proposal (secrets masked, predicate
    # normalised, confidence capped); for ``quarantine`` what is held.
    stored: dict[str, Any] | None = None
    confidence: float | None = None
    # user_explicit | user_implied | model_inferred | tool_derived | imported
    provenance: str | None = None
    # What the model is told when the verdict is not a plain allow.
    message: str = ""


WriteGuard = Callable[[WriteProposal], FirewallVerdict]


class StoreMemory:
    """A ``MemoryView`` over a ``Store`` for one user."""

    def __init__(self, store: Any, user_id: str) -> None:
        self._store = store
        self._user_id = user_id

    def active_facts(self, subject: str, predicate: str) -> list[Any]:
        wanted = normalize_predicate(predicate)
        return [
            f
            for f in self._store.facts.list(user_id=self._user_id, subject=subject)
            if f.status == "active" and f.predicate == wanted
        ]

    def writes_since(self, since: datetime) -> int:
        # Newest first and capped: the limit is small, so a long history costs nothing.
        events = self._store.events.list(
            user_id=self._user_id, kinds=["firewall_verdict"], newest_first=True, limit=1000
        )
        # An import screens thousands of records at once; only live writes count.
        return sum(
            1
            for e in events
            if e.ts >= since
            and e.payload.get("verdict") in STORING_VERDICTS
            and e.payload.get("source") != "import"
        )

    def now(self) -> datetime:
        return self._store.clock.now()


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
        context=list(ctx.extras.get("recent_messages", [])),
        session_id=ctx.session_id,
        trace_id=ctx.trace_id,
        memory=StoreMemory(ctx.store, ctx.user_id),
    )
    verdict = _ask(guard, proposal)
    ctx.extras["last_verdict"] = verdict
    stored = verdict.stored if verdict.stored is not None else arguments
    held = _hold(ctx, tool, stored, verdict) if verdict.verdict == "quarantine" else None
    _log_verdict(ctx, tool, verdict, held)
    if verdict.verdict == "reject":
        raise ToolError(
            f"write refused by the memory firewall ({'; '.join(verdict.reasons)}). "
            f"{verdict.message or 'Do not retry it; tell the user what you could not save.'}"
        )
    if held is not None:
        raise ToolError(
            f"write held in quarantine as {held} ({'; '.join(verdict.reasons)}); it will not "
            f"be used until the user confirms it (`memvisor memory confirm {held}`). "
            f"{verdict.message}".strip()
        )
    if verdict.message:
        # Tools render their own success text; the note tells the model what changed.
        ctx.extras.setdefault("firewall_notes", []).append(verdict.message)
    return stored


def _ask(guard: WriteGuard, proposal: WriteProposal) -> FirewallVerdict:
    try:
        return guard(proposal)
    except Exception as exc:  # a broken guard must not let the write through
        logger.bind(trace_id=proposal.trace_id, user_id=proposal.user_id).opt(
            exception=exc
        ).warning("write guard raised; refusing the write")
        return FirewallVerdict(
            verdict="reject",
            reasons=["firewall:error"],
            message="The memory firewall failed on this write; it was not saved.",
        )


def _hold(ctx: ToolContext, tool: str, arguments: dict[str, Any], verdict: FirewallVerdict) -> str:
    # What is held is what the firewall would store: secrets already masked.
    item = ctx.store.quarantine.hold(
        user_id=ctx.user_id,
        tool=tool,
        arguments=arguments,
        reasons=verdict.reasons or ["firewall:held"],
        trace_id=ctx.trace_id,
        confidence=verdict.confidence,
        source_event_ids=ctx.source_event_ids,
    )
    return str(item.id)


def _log_verdict(ctx: ToolContext, tool: str, verdict: FirewallVerdict, held: str | None) -> None:
    # Reasons and metadata only: the arguments may hold the very secret that was masked.
    ctx.log_event(
        "firewall_verdict",
        {
            "tool": tool,
            "source": ctx.extras.get("write_source", "model"),
            "verdict": verdict.verdict,
            "reasons": verdict.reasons,
            "provenance": verdict.provenance,
            "confidence": verdict.confidence,
            "quarantine_id": held,
            "source_event_ids": ctx.source_event_ids,
        },
    )


def log_write(ctx: ToolContext, conn: Any, record: str, **payload: Any) -> None:
    """The ``memory_write`` event of a tool's write, committed in the write's transaction."""
    ctx.log_event(
        "memory_write",
        {
            "record": record,
            **payload,
            "origin": ctx.extras.get("write_source", "model"),
            "source_event_ids": list(ctx.source_event_ids),
        },
        conn=conn,
    )


def note_read(ctx: ToolContext, tool: str, query: str, ids: list[str]) -> None:
    """Log a memory read and remember which ids entered the model's context this turn."""
    seen: list[str] = ctx.extras.setdefault("memory_ids", [])
    seen.extend(i for i in ids if i not in seen)
    ctx.log_event("memory_read", {"tool": tool, "query": query, "ids": ids})
