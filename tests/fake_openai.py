"""A fake OpenAI-compatible server on 127.0.0.1 for driving the real ``openai`` client.

Script it per test::

    fake_openai.reply("hello")                                       # plain content
    fake_openai.reply({"tool_calls": [{"name": "fact_search", "arguments": {"query": "x"}}]})
    fake_openai.reply({"reasoning_content": "hmm", "content": "42"})
    fake_openai.reply({"status": 500, "error": "CUDA out of memory"})
    fake_openai.reply({"raw": b"not json"})
    fake_openai.reply({"content": "partial", "stream_error": "out of memory"})  # mid-stream

``POST /v1/chat/completions`` pops the next reply (streamed as server-sent events when the
request asks); ``GET /v1/models/NAME`` reports ``max_model_len`` for the served models.
Requests are kept in ``bodies``.
"""

from __future__ import annotations

import contextlib
import json
import threading
from collections import deque
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest


class FakeOpenAI:
    def __init__(self) -> None:
        self.models: dict[str, int | None] = {"qwen2.5-7b-instruct": 8192}
        self.bodies: list[dict[str, Any]] = []
        self._replies: deque[Any] = deque()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self._server.daemon_threads = True
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True
        )

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def reply(self, *replies: Any) -> None:
        self._replies.extend(replies)

    def __enter__(self) -> FakeOpenAI:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    def next_reply(self) -> dict[str, Any]:
        if not self._replies:
            return {"status": 500, "error": "no scripted reply left"}
        reply = self._replies.popleft()
        return {"content": reply} if isinstance(reply, str) else dict(reply)


def _message(reply: dict[str, Any]) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": reply.get("content")}
    if reply.get("reasoning_content"):
        message["reasoning_content"] = reply["reasoning_content"]
    if reply.get("tool_calls"):
        message["tool_calls"] = [
            {
                "id": f"call_{n}",
                "type": "function",
                "function": {
                    "name": c["name"],
                    "arguments": c["arguments"]
                    if isinstance(c["arguments"], str)
                    else json.dumps(c["arguments"]),
                },
            }
            for n, c in enumerate(reply["tool_calls"])
        ]
    return message


def _completion(model: str, reply: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 0,
        "model": model,
        "choices": [{"index": 0, "message": _message(reply), "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18},
    }


def _chunks(model: str, reply: dict[str, Any]) -> Iterator[dict[str, Any]]:
    def chunk(delta: dict[str, Any], usage: Any = None) -> dict[str, Any]:
        return {
            "id": "chatcmpl-1",
            "object": "chat.completion.chunk",
            "created": 0,
            "model": model,
            "choices": [{"index": 0, "delta": delta, "finish_reason": None}],
            "usage": usage,
        }

    yield chunk({"role": "assistant", "content": ""})
    if reply.get("reasoning_content"):
        yield chunk({"reasoning_content": reply["reasoning_content"]})
    text = reply.get("content") or ""
    for start in range(0, len(text), 5):
        yield chunk({"content": text[start : start + 5]})
    for call in _message(reply).get("tool_calls", []):
        arguments = call["function"]["arguments"]
        index = int(call["id"].split("_")[1])
        head = {"index": index, "id": call["id"], "type": "function"}
        yield chunk({"tool_calls": [{**head, "function": {"name": call["function"]["name"]}}]})
        for start in range(0, len(arguments), 7):
            part = {"arguments": arguments[start : start + 7]}
            yield chunk({"tool_calls": [{"index": index, "function": part}]})
    yield {**chunk({}), "choices": [], "usage": {"prompt_tokens": 11, "completion_tokens": 7}}


def _handler(fake: FakeOpenAI) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
            pass

        def handle(self) -> None:
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                super().handle()

        def do_GET(self) -> None:
            name = self.path.removeprefix("/v1/models/")
            if self.path.startswith("/v1/models/") and name in fake.models:
                window = fake.models[name]
                extra = {"max_model_len": window} if window else {}
                model = {"id": name, "object": "model", "created": 0, "owned_by": "fake"}
                return self._json(200, model | extra)
            self._json(404, {"error": {"message": f"model {name} not found"}})

        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)))
            fake.bodies.append(body)
            if body.get("model") not in fake.models:
                message = f"The model `{body.get('model')}` does not exist."
                return self._json(404, {"error": {"message": message, "type": "NotFound"}})
            reply = fake.next_reply()
            if "raw" in reply:
                return self._send(200, reply["raw"], "application/json")
            if reply.get("status", 200) != 200:
                return self._json(reply["status"], {"error": {"message": reply["error"]}})
            if body.get("stream"):
                chunks: list[Any] = list(_chunks(body["model"], reply))
                if reply.get("stream_error"):  # vLLM's way: an error object as an event
                    chunks.insert(2, {"error": {"message": reply["stream_error"], "code": 500}})
                return self._stream([*(json.dumps(c) for c in chunks), "[DONE]"])
            self._json(200, _completion(body["model"], reply))

        def _stream(self, events: list[str]) -> None:
            """Server-sent events one by one, flushed as a server sends them."""
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.end_headers()  # no length: the stream ends when the connection closes
            for event in events:
                self.wfile.write(f"data: {event}\n\n".encode())
                self.wfile.flush()
            self.close_connection = True

        def _json(self, status: int, payload: Any) -> None:
            self._send(status, json.dumps(payload).encode(), "application/json")

        def _send(self, status: int, data: bytes, kind: str) -> None:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    return Handler


@pytest.fixture
def fake_openai() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as server:
        yield server
