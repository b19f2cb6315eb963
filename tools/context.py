"""The hidden first parameter of every tool: who is asking, in which turn, with which store."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from memvisor.storage import Store
    from memvisor.storage.clock import Clock


@dataclass
class ToolContext:
    """Per-turn state a tool may use; never part of a tool's JSON schema."""

    user_id: str
    session_id: str
    trace_id: str
    store: Store | Any
    clock: Clock | Any
    # The user message event(s) this turn answers: the provenance of every write.
    source_event_ids: list[str]
    writes: int = 0
    max_writes: int = 8
    # Runtime-owned state (e.g. the firewall); tools read it, they do not own it.
    extras: dict[str, Any] = field(default_factory=dict)

    def count_write(self) -> None:
        """Record one memory write; refuse it once the turn's cap is reached."""
        # Imported here: registry.py imports this module to recognise the context parameter.
        from memvisor.errors import ToolError

        if self.writes >= self.max_writes:
            raise ToolError(
                f"memory write limit reached for this turn ({self.max_writes}); "
                "answer the user now and save anything else in a later turn"
            )
        self.writes += 1

    def log_event(self, kind: str, payload: dict[str, Any], *, conn: Any = None) -> None:
        """An event of this turn (user, session, trace); inside ``conn``'s transaction if given,
        so it commits with the write it describes."""
        fields: dict[str, Any] = {
            "user_id": self.user_id,
            "kind": kind,
            "trace_id": self.trace_id,
            "session_id": self.session_id,
            "payload": payload,
        }
        if conn is None:
            self.store.events.append(**fields)
        else:
            self.store.events.append_in(conn, **fields)
