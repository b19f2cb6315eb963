"""What the firewall judges (a ``WriteProposal``) and what it answers (a ``FirewallVerdict``).

A proposal carries who writes (``origin``), for which user, the typed arguments of one write
kind (``memvisor.agent.memory.writes``), the conversation it came from, and read access to the
user's memory (a ``MemoryView``) for the conflict and rate checks.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field

from memvisor.storage.facts import normalize_predicate

Verdict = Literal["allow", "redact", "quarantine", "reject"]
# Who proposes a write. The user's own words: "user" (the Python API or a server on the user's
# behalf), "cli" (a command the user typed) and "user_confirmed" (a held write the user
# released). "model": the model decided (the agent's tools, an MCP client's model). "tool":
# derived from a tool result. "import": an export being restored.
Origin = Literal["user", "cli", "user_confirmed", "model", "tool", "import"]
# Origins whose words are the user's own, stated on purpose: no provenance guess, no conflict
# hold and no confidence floor (the user is correcting their memory), but every other check.
AUTHORITATIVE: frozenset[str] = frozenset({"cli", "user_confirmed"})
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
    # The write kind (a tool name for the model's writes, e.g. "fact_remember").
    tool: str
    arguments: dict[str, Any]
    source: Origin = "model"
    # The recent conversation the write came from, oldest first (role, content); the user's
    # latest message is the last user item, tool results of this step may follow it.
    context: list[dict[str, Any]] = Field(default_factory=list)
    session_id: str | None = None
    trace_id: str | None = None
    # Read access to memory; None offline (``memvisor firewall scan``): conflict/rate unchecked.
    memory: Any = Field(default=None, exclude=True, repr=False)


class SealedValue(BaseModel):
    """A secret the user asked to keep: stored encrypted, its ``placeholder`` in the record."""

    placeholder: str  # "[SEALED:1]" in the screened arguments
    value: str = Field(repr=False)
    kind: str  # password | pin | code | card_number ...
    description: str  # "allotment gate code"


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
    # What the writer is told when the verdict is not a plain allow.
    message: str = ""
    # Values to seal before the write is performed; never logged or shown (excluded).
    sealed: list[SealedValue] = Field(default_factory=list, exclude=True, repr=False)


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
        # Only the model's and tools' live writes count; imports screen thousands at once.
        return sum(
            1
            for e in events
            if e.ts >= since
            and e.payload.get("verdict") in STORING_VERDICTS
            and e.payload.get("source") in ("model", "tool")
        )

    def now(self) -> datetime:
        return self._store.clock.now()
