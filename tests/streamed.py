"""A streaming model behind ``chat``, so one test body checks both paths of a client."""

from __future__ import annotations

from typing import Any

from memvisor.agent.models.base import AssistantTurn, StreamingModel


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
