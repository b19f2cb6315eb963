"""A turn's answer as it is written: the model's text pieces, passed on as they arrive.

``ask`` makes one model request for the loop. Without an ``AnswerStream`` (replay, evals,
the MCP server) it is ``model.chat``; with one and a model that streams (``OllamaModel``,
``OpenAIModel``) the visible text of the reply goes to the stream piece by piece. Either way
the reply returned is the same, so what the loop logs does not change.

What is visible while a reply arrives is the answer text only: never a ``<think>`` block,
never tool-call markup, nothing of a reply that opens like a call written as bare JSON.
A reply that turns out to call tools is not the answer: the stream is told to ``discard``
what it showed. The final answer (``Turn.answer``) stays the truth a viewer settles on.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from memvisor.agent.models.base import AssistantTurn, ChatModel, ReplyStream
from memvisor.agent.toolcalls import split_thinking

# Where the text stops being for the user: a call or a result the model wrote in content.
_MARKUP_RE = re.compile(
    r"<tool_call>|<tool_response>|<tool_result>|<tool_output>|<\|im_start\|>", re.IGNORECASE
)
_TAGS = ("<think>", "<tool_call>", "<tool_response>", "<tool_result>", "<tool_output>",
         "<|im_start|>")  # fmt: skip
_FENCE = "```"


class AnswerStream:
    """Where a turn's answer goes while it is written; this base shows nothing."""

    def text(self, piece: str) -> None:
        """Another piece of the answer, as it arrived."""

    def discard(self) -> None:
        """What was shown since the last discard was not the answer (the reply called tools)."""

    @contextmanager
    def waiting(self) -> Iterator[None]:
        """Around each model request: the REPL lets Ctrl-C cut the wait here."""
        yield


class ShownText:
    """The part of a reply streamed so far that may be shown (see the module docstring)."""

    def __init__(self) -> None:
        self._raw = ""
        self._shown = ""
        self._stopped = False

    def feed(self, piece: str) -> str:
        """Add a piece of the reply; returns the newly visible text ("" when none)."""
        if self._stopped:
            return ""
        self._raw += piece
        visible = self._visible()
        if visible is None or not visible.startswith(self._shown):
            self._stopped = True  # what was shown is not the answer; the turn will say so
            return ""
        new = visible[len(self._shown) :]
        self._shown = visible
        return new

    def _visible(self) -> str | None:
        _, answer = split_thinking(self._raw)  # an unclosed <think> hides the rest
        if answer.startswith(("{", "[", _FENCE)):
            return None  # a call written as bare JSON, perhaps: shown whole, at the end
        if _FENCE.startswith(answer):
            return ""
        markup = _MARKUP_RE.search(answer)
        if markup:
            self._stopped = True
            return answer[: markup.start()].rstrip()
        tag = answer.rfind("<")
        if tag >= 0 and any(t.startswith(answer[tag:].lower()) for t in _TAGS):
            return answer[:tag].rstrip()  # perhaps the start of a tag: wait for the rest
        return answer


def ask(
    model: ChatModel,
    messages: list[dict[str, Any]],
    tools: list[dict[str, Any]],
    options: dict[str, Any] | None,
    stream: AnswerStream | None,
) -> AssistantTurn:
    """One model request; with a stream, the answer's visible text goes to it as it arrives."""
    if stream is None:
        return model.chat(messages, tools, options)
    with stream.waiting():
        streamer = getattr(model, "stream", None)
        if callable(streamer):
            reply = _follow(streamer(messages, tools, options), stream)
        else:  # replay and scripted models answer whole; the turn's answer shows it
            reply = model.chat(messages, tools, options)
    if reply.tool_calls or reply.parse_errors:
        stream.discard()
    return reply


def _follow(pieces: ReplyStream, stream: AnswerStream) -> AssistantTurn:
    shown = ShownText()
    try:
        while True:
            try:
                piece = next(pieces)
            except StopIteration as done:
                reply: AssistantTurn = done.value
                return reply
            visible = shown.feed(piece)
            if visible:
                stream.text(visible)
    finally:
        pieces.close()  # a cancelled wait closes the HTTP response
