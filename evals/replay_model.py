"""ReplayModel: answers from a transcript's recorded ``assistant`` events, in order."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from memvisor.agent.models.base import AssistantTurn, ToolCall
from memvisor.evals.transcripts import AssistantEvent, load_transcript

from memvisor.errors import ModelError


def turn_from_event(event: AssistantEvent, index: int) -> AssistantTurn:
    calls = [
        ToolCall(id=f"call_{index}_{i}", name=c.name, arguments=c.arguments)
        for i, c in enumerate(event.tool_calls, 1)
    ]
    return AssistantTurn(content=event.content, tool_calls=calls)


class ReplayModel:
    """Deterministic: each ``chat`` pops the next recorded response."""

    name = "replay"

    def __init__(
        self, events: Iterable[AssistantEvent] = (), *, context_length: int = 8192
    ) -> None:
        self.context_length = context_length
        self._queue: deque[AssistantEvent] = deque(events)
        self._served = 0

    @classmethod
    def from_file(cls, path: str | Path) -> ReplayModel:
        transcript = load_transcript(path)
        events = [e for e in transcript.events if isinstance(e, AssistantEvent)]
        return cls(events, context_length=transcript.header.num_ctx)

    def load(self, events: Iterable[AssistantEvent]) -> None:
        """Queue the recorded responses of the next step (dropping any left over)."""
        self._queue = deque(events)

    @property
    def remaining(self) -> int:
        return len(self._queue)

    def chat(
        self,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]],
        options: dict[str, Any] | None = None,
    ) -> AssistantTurn:
        if not self._queue:
            raise ModelError(
                f"the recording has no model response left (after "
                f"{self._served}); the transcript's assistant events do not "
                "cover this step"
            )
        self._served += 1
        return turn_from_event(self._queue.popleft(), self._served)
