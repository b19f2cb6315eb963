"""A model that answers from a queue: deterministic turns for tests."""

from __future__ import annotations

import copy
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, TypeAlias

from memvisor.agent.models.base import AssistantTurn, tool_names
from memvisor.agent.toolcalls import turn_from_text
from memvisor.errors import ModelError

Messages = list[dict[str, Any]]
Tools = list[dict[str, Any]]
ScriptedTurn: TypeAlias = AssistantTurn | str | Callable[[Messages, Tools], "AssistantTurn | str"]


@dataclass(frozen=True)
class ScriptedCall:
    """What one ``chat()`` was asked (copied, so later mutation does not rewrite history)."""

    messages: Messages
    tools: Tools
    options: dict[str, Any] | None


class ScriptedModel:
    """Each ``chat()`` pops the next scripted turn and records what it was asked.

    A ``str`` goes through the same text path as Ollama content (``<think>`` blocks,
    ``<tool_call>`` and bare-JSON calls); an ``AssistantTurn`` is returned as given; a
    callable gets ``(messages, tools)`` and returns either.
    """

    def __init__(
        self,
        turns: Iterable[ScriptedTurn],
        *,
        context_length: int = 8192,
        name: str = "scripted",
    ) -> None:
        self.name = name
        self.context_length = context_length
        self.calls: list[ScriptedCall] = []
        self._queue: deque[ScriptedTurn] = deque(turns)

    @property
    def remaining(self) -> int:
        return len(self._queue)

    def chat(
        self,
        messages: Messages,
        tools: Tools,
        options: dict[str, Any] | None = None,
    ) -> AssistantTurn:
        self.calls.append(
            ScriptedCall(copy.deepcopy(messages), copy.deepcopy(tools), copy.deepcopy(options))
        )
        if not self._queue:
            raise ModelError(f"scripted model ran out of turns after {len(self.calls) - 1} calls")
        turn = self._queue.popleft()
        if callable(turn):
            turn = turn(messages, tools)
        if isinstance(turn, str):
            return turn_from_text(turn, tool_names(tools))
        return turn.model_copy(deep=True)
