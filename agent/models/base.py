"""What every chat model returns, and the protocol the runtime talks to.

A model reply is one ``AssistantTurn``: the answer text, the tool calls (native or
recovered from text), the reasoning kept apart from the answer, and token usage.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any, Protocol

from pydantic import BaseModel, Field


class ToolCall(BaseModel):
    """One call the model asked for; ``arguments`` are not yet validated."""

    id: str
    name: str
    arguments: dict[str, Any] = Field(default_factory=dict)


class Usage(BaseModel):
    prompt_tokens: int = 0
    completion_tokens: int = 0


class AssistantTurn(BaseModel):
    """One model reply."""

    content: str = ""
    """The answer text, never the reasoning and never tool-call markup."""
    tool_calls: list[ToolCall] = Field(default_factory=list)
    reasoning: str | None = None
    """A separate thinking field (or ``<think>`` blocks), kept apart from the answer."""
    usage: Usage = Field(default_factory=Usage)
    raw_tool_text: str | None = None
    """The text the tool calls were parsed from, when they were written in content."""
    parse_errors: list[str] = Field(default_factory=list)
    """Precise problems with calls written in content (bad JSON, missing name ...)."""
    invented_output: bool = False
    """The model wrote a made-up tool result after its call; it was stripped."""


class ChatModel(Protocol):
    """A chat model: OllamaModel, ReplayModel, ScriptedModel.

    Not ``runtime_checkable`` on purpose: on Python 3.11 ``isinstance`` would read
    ``OllamaModel.context_length``, which asks the server.
    """

    name: str

    @property
    def context_length(self) -> int | None:
        """The served context window in tokens, if known."""
        ...

    def chat(
        self,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]],
        options: dict[str, Any] | None = None,
    ) -> AssistantTurn: ...


ReplyStream = Generator[str, None, AssistantTurn]
"""A reply as it arrives: yields pieces of the content (never reasoning), returns the turn."""


class StreamingModel(ChatModel, Protocol):
    """A chat model that can also stream: ``OllamaModel``, ``OpenAIModel``."""

    def stream(
        self,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]],
        options: dict[str, Any] | None = None,
    ) -> ReplyStream:
        """The same reply as ``chat``, its content yielded piece by piece as it arrives."""
        ...


def drain(stream: ReplyStream) -> AssistantTurn:
    """The turn a reply stream returns, its pieces dropped."""
    while True:
        try:
            next(stream)
        except StopIteration as done:
            turn: AssistantTurn = done.value
            return turn


def tool_names(tools: list[dict[str, Any]]) -> set[str]:
    """Names of the JSON-schema function specs offered to the model."""
    names = set()
    for tool in tools:
        function = tool.get("function") if isinstance(tool, dict) else None
        if isinstance(function, dict) and isinstance(function.get("name"), str):
            names.add(function["name"])
    return names
