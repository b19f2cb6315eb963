"""Streaming in tests: a client's stream behind ``chat``, and a scripted model that streams."""

from __future__ import annotations

import re
from typing import Any

from memvisor.agent.models.base import AssistantTurn, ReplyStream, StreamingModel
from memvisor.agent.models.scripted import ScriptedModel


class Streamed:
    """``chat`` runs the model's ``stream`` to the end and keeps the pieces it yielded."""

    def __init__(self, model: StreamingModel) -> None:
        self.model = model
        self.pieces: list[str] = []

    def chat(
        self,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]],
        options: dict[str, Any] | None = None,
    ) -> AssistantTurn:
        stream = self.model.stream(messages, tools, options)
        while True:
            try:
                self.pieces.append(next(stream))
            except StopIteration as done:
                turn: AssistantTurn = done.value
                return turn


class StreamedScript(ScriptedModel):
    """A scripted model that also streams: each reply's content, word by word."""

    def stream(
        self,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]],
        options: dict[str, Any] | None = None,
    ) -> ReplyStream:
        turn = self.chat(messages, tools, options)
        yield from re.findall(r"\S+\s*|\s+", turn.content)
        return turn
