"""``POST /v1/chat`` with ``"stream": true``: one agent turn as server-sent events.

``delta`` events carry the answer's text as the model writes it (``{"text": …}``);
``discard`` says the text since the last one was not the answer (the model went on to call
tools); the stream ends with one ``answer`` event (the turn: answer, trace id, memory ids …)
or one ``error`` event (``{"error": …, "trace_id": …}``). A failure after the stream began
is that final event, never an HTTP 500: the status line was sent with the first byte.
"""

from __future__ import annotations

import json
import queue
import threading
from collections.abc import Callable, Iterator
from typing import Any

from memvisor.agent.streaming import AnswerStream
from memvisor.agent.turn import Turn
from memvisor.storage.logger import logger

Event = tuple[str, dict[str, Any]]


class QueuedAnswer(AnswerStream):
    """Puts each piece on the queue the response reads (the turn runs in its own thread)."""

    def __init__(self, events: queue.SimpleQueue[Event | None]) -> None:
        self._events = events

    def text(self, piece: str) -> None:
        self._events.put(("delta", {"text": piece}))

    def discard(self) -> None:
        self._events.put(("discard", {}))


def turn_events(
    run: Callable[[AnswerStream], Turn], result: Callable[[Turn], dict[str, Any]]
) -> Iterator[str]:
    """The SSE text of one turn: ``run`` it in a thread and pass its events on as they come.

    The turn runs to its end even when the client leaves, so the store keeps it whole."""
    events: queue.SimpleQueue[Event | None] = queue.SimpleQueue()

    def work() -> None:
        try:
            turn = run(QueuedAnswer(events))
            final: Event = (
                ("error", {"error": turn.error, "trace_id": turn.trace_id})
                if turn.error
                else ("answer", result(turn))
            )
        except Exception as exc:  # a failure outside the model's (storage, a bug): said once
            logger.warning("a streamed chat turn failed: {}: {}", type(exc).__name__, exc)
            final = ("error", {"error": f"the turn failed: {type(exc).__name__}: {exc}"})
        events.put(final)
        events.put(None)

    threading.Thread(target=work, name="chat-turn", daemon=True).start()
    while (event := events.get()) is not None:
        kind, data = event
        yield f"event: {kind}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n"
