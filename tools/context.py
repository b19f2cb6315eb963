"""The hidden first parameter of every tool: who is asking, in which turn, through which door.

Tools write only through ``ctx.write`` (the memory API, origin ``model`` for the agent's own
tools), which screens every write with the firewall and fails closed; they read through
``ctx.store``. Nothing here is a dict of string keys: each field says what a tool may use.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from memvisor.errors import ToolError, UserError, WriteRefused
from memvisor.tools.turn_log import TurnLog

if TYPE_CHECKING:
    from memvisor.agent.guards.proposal import Origin
    from memvisor.agent.memory.api import Memory, WriteOutcome
    from memvisor.storage import Store
    from memvisor.storage.clock import Clock


@dataclass
class ToolContext:
    """Per-turn state a tool may use; never part of a tool's JSON schema."""

    user_id: str
    session_id: str
    trace_id: str
    # The guarded memory API: every write of a tool goes through it.
    memory: Memory
    # The user message event(s) this turn answers: the provenance of every write.
    source_event_ids: list[str]
    # What the turn collects: writes (against its cap), memory read, firewall notes.
    turn: TurnLog = field(default_factory=TurnLog)
    # Who decided the writes: the agent's model, or an MCP client's ("model").
    origin: Origin = "model"
    # The recent conversation, oldest first ({"role", "content"}); the firewall checks whose
    # words a write is against it, recipes look for the user's confirmation in it.
    recent_messages: list[dict[str, Any]] = field(default_factory=list)
    # The session's current topic label (kept with session state slots).
    topic: str | None = None
    # Summarize the running session into an episode now (None outside a session).
    save_episode: Callable[[], str | None] | None = None

    @property
    def store(self) -> Store:
        """Read access to the user's records (writes go through ``write``)."""
        return self.memory.store

    @property
    def clock(self) -> Clock:
        return self.memory.store.clock

    def write(
        self, kind: str, arguments: dict[str, Any], *, note: dict[str, Any] | None = None
    ) -> WriteOutcome:
        """One write through the memory API; a refusal becomes a ``ToolError`` for the model."""
        try:
            return self.memory.write(
                kind,
                arguments,
                user_id=self.user_id,
                origin=self.origin,
                trace_id=self.trace_id,
                session_id=self.session_id,
                source_event_ids=self.source_event_ids,
                context=self.recent_messages,
                turn=self.turn,
                note=note,
                topic=self.topic,
            )
        except (WriteRefused, UserError) as exc:
            raise ToolError(str(exc)) from None

    def note_read(self, tool: str, query: str, ids: list[str]) -> None:
        """Log a memory read and remember which ids entered the model's context this turn."""
        self.turn.saw(ids)
        self.store.events.append(
            user_id=self.user_id,
            kind="memory_read",
            trace_id=self.trace_id,
            session_id=self.session_id,
            payload={"tool": tool, "query": query, "ids": ids},
        )
