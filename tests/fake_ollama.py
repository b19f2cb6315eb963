"""A fake Ollama server on 127.0.0.1 for driving the real ``ollama`` client in tests.

Script it per test::

    def test_reply(fake_ollama):
        fake_ollama.add_model("tiny", context_length=4096, num_ctx=2048)
        fake_ollama.reply("hello")                                  # plain content
        fake_ollama.reply({"tool_calls": [{"name": "memory_search",
                                           "arguments": {"query": "cats"}}]})
        fake_ollama.reply({"thinking": "hmm", "content": "42", "eval_count": 3})
        fake_ollama.reply({"status": 500, "error": "CUDA out of memory"})
        fake_ollama.reply({"delay": 1.0, "content": "too late"})
        fake_ollama.reply({"raw": b"not json"})                     # malformed body
        fake_ollama.reply({"content": "a b", "hold": event})        # streams "a", waits
        fake_ollama.reply(lambda body: {"content": str(len(body["messages"]))})
        model = OllamaModel("tiny", host=fake_ollama.host)
        ...
        assert all(b["options"]["num_ctx"] == 2048 for b in fake_ollama.chat_bodies())

Each ``/api/chat`` pops the next scripted reply (stream or not, as the request asks);
with the queue empty it answers HTTP 500. Unknown models get Ollama's 404. Every request
is recorded in ``requests`` as ``FakeRequest(method, path, body)``.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import socket
import threading
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

Reply = str | dict[str, Any] | Callable[[dict[str, Any]], "str | dict[str, Any]"]
_MESSAGE_KEYS = ("content", "thinking", "tool_calls")
_CREATED_AT = "2024-01-01T00:00:00Z"


@dataclass(frozen=True)
class FakeRequest:
    method: str
    path: str
    body: Any


class FakeOllama:
    """A scripted Ollama HTTP server; use as a context manager or the ``fake_ollama`` fixture."""

    def __init__(self, *, embed_dim: int = 8) -> None:
        self.embed_dim = embed_dim
        self.requests: list[FakeRequest] = []
        self.holds: list[bool] = []
        self.models: dict[str, dict[str, Any]] = {}
        self.add_model("qwen2.5:7b", context_length=32768)
        self._replies: deque[Reply] = deque()
        self._lock = threading.Lock()
        self._closing = threading.Event()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(self))
        self._server.daemon_threads = True
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True
        )

    @property
    def port(self) -> int:
        return int(self._server.server_address[1])

    @property
    def host(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> FakeOllama:
        self._thread.start()
        return self

    def close(self) -> None:
        self._closing.set()  # wakes handlers sleeping on a scripted delay
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    def __enter__(self) -> FakeOllama:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- scripting ---------------------------------------------------------------
    def add_model(
        self,
        name: str,
        *,
        context_length: int | None = 32768,
        num_ctx: int | None = None,
        family: str = "qwen2",
    ) -> None:
        """Serve ``name``; ``context_length`` goes to model_info, ``num_ctx`` to parameters."""
        self.models[name] = {"context_length": context_length, "num_ctx": num_ctx, "family": family}

    def reply(self, *replies: Reply) -> None:
        """Queue replies for ``/api/chat``, answered in order."""
        with self._lock:
            self._replies.extend(replies)

    @property
    def pending(self) -> int:
        return len(self._replies)

    def bodies(self, path: str) -> list[Any]:
        return [r.body for r in self.requests if r.path == path]

    def chat_bodies(self) -> list[dict[str, Any]]:
        return self.bodies("/api/chat")

    # -- answering (called from handler threads) ----------------------------------
    def _next_reply(self, body: dict[str, Any]) -> dict[str, Any]:
        with self._lock:
            reply = self._replies.popleft() if self._replies else None
        if reply is None:
            return {"status": 500, "error": "fake ollama: no scripted reply left"}
        if callable(reply):
            reply = reply(body)
        return {"content": reply} if isinstance(reply, str) else dict(reply)

    def _show(self, name: str) -> dict[str, Any]:
        info = self.models[name]
        model_info: dict[str, Any] = {"general.architecture": info["family"]}
        if info["context_length"] is not None:
            model_info[f"{info['family']}.context_length"] = info["context_length"]
        parameters = 'stop                           "<|im_end|>"'
        if info["num_ctx"] is not None:
            parameters += f"\nnum_ctx                        {info['num_ctx']}"
        return {
            "modelfile": f"FROM {name}",
            "parameters": parameters,
            "template": "{{ .Prompt }}",
            "details": {"format": "gguf", "family": info["family"], "parameter_size": "7.6B"},
            "model_info": model_info,
            "capabilities": ["completion", "tools"],
            "modified_at": _CREATED_AT,
        }

    def _tags(self) -> dict[str, Any]:
        return {
            "models": [
                {
                    "name": name,
                    "model": name,
                    "modified_at": _CREATED_AT,
                    "size": 4_683_087_332,
                    "digest": hashlib.sha256(name.encode()).hexdigest(),
                    "details": {"format": "gguf", "family": info["family"]},
                }
                for name, info in self.models.items()
            ]
        }

    def _embed(self, body: dict[str, Any]) -> dict[str, Any]:
        inputs = body.get("input", "")
        texts = [inputs] if isinstance(inputs, str) else list(inputs)
        return {"model": body["model"], "embeddings": [self.vector(t) for t in texts]}

    def vector(self, text: str) -> list[float]:
        """The deterministic unit vector ``/api/embed`` returns for ``text``."""
        digest = hashlib.sha256(text.encode()).digest()
        raw = [(digest[i % len(digest)] - 127.5) / 127.5 for i in range(self.embed_dim)]
        norm = math.sqrt(sum(x * x for x in raw)) or 1.0
        return [x / norm for x in raw]


def chat_chunks(model: str, reply: dict[str, Any]) -> list[dict[str, Any]]:
    """The NDJSON parts Ollama streams for one reply: thinking, content words, calls, done."""
    base = {"model": model, "created_at": _CREATED_AT}
    chunks: list[dict[str, Any]] = []

    def part(**message: Any) -> None:
        chunks.append(
            {**base, "message": {"role": "assistant", "content": "", **message}, "done": False}
        )

    if reply.get("thinking"):
        for piece in _pieces(reply["thinking"]):
            part(thinking=piece)
    for piece in _pieces(reply.get("content") or ""):
        part(content=piece)
    if reply.get("tool_calls"):
        part(tool_calls=[_wire_call(c) for c in reply["tool_calls"]])
    chunks.append({**base, "message": {"role": "assistant", "content": ""}, **_done(reply)})
    return chunks


def chat_response(model: str, reply: dict[str, Any]) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": reply.get("content") or ""}
    if reply.get("thinking"):
        message["thinking"] = reply["thinking"]
    if reply.get("tool_calls"):
        message["tool_calls"] = [_wire_call(c) for c in reply["tool_calls"]]
    return {"model": model, "created_at": _CREATED_AT, "message": message, **_done(reply)}


def _done(reply: dict[str, Any]) -> dict[str, Any]:
    return {
        "done": True,
        "done_reason": "stop",
        "prompt_eval_count": reply.get("prompt_eval_count", 11),
        "eval_count": reply.get("eval_count", 7),
    }


def _wire_call(call: dict[str, Any]) -> dict[str, Any]:
    """Accept ``{"name", "arguments"}`` shorthand or the wire ``{"function": {...}}`` form."""
    return call if "function" in call else {"function": dict(call)}


def _pieces(text: str) -> Iterator[str]:
    """Split text into word-sized pieces that join back exactly."""
    start = 0
    for i, ch in enumerate(text):
        if ch == " " and i > start:
            yield text[start:i]
            start = i
    if start < len(text):
        yield text[start:]


def _handler_for(fake: FakeOllama) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
            pass  # keep test output clean

        def handle(self) -> None:
            # The client may give up first (timeout test); there is nobody to answer.
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                super().handle()

        def do_GET(self) -> None:
            fake.requests.append(FakeRequest("GET", self.path, None))
            if self.path == "/api/tags":
                self._json(200, fake._tags())
            elif self.path == "/api/version":
                self._json(200, {"version": "0.6.0-fake"})
            elif self.path == "/":
                self._send(200, b"Ollama is running", "text/plain")
            else:
                self._json(404, {"error": f"no route for GET {self.path}"})

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length)
            try:
                body = json.loads(raw or b"{}")
            except json.JSONDecodeError:
                body = None
            fake.requests.append(FakeRequest("POST", self.path, body))
            if not isinstance(body, dict):
                return self._json(400, {"error": "invalid JSON body"})
            model = body.get("model", "")
            routes = {"/api/chat": self._chat, "/api/show": self._show, "/api/embed": self._embed}
            if self.path not in routes:
                return self._json(404, {"error": f"no route for POST {self.path}"})
            if model not in fake.models:
                return self._json(
                    404, {"error": f'model "{model}" not found, try pulling it first'}
                )
            routes[self.path](body)

        def _show(self, body: dict[str, Any]) -> None:
            self._json(200, fake._show(body["model"]))

        def _embed(self, body: dict[str, Any]) -> None:
            self._json(200, fake._embed(body))

        def _chat(self, body: dict[str, Any]) -> None:
            reply = fake._next_reply(body)
            if reply.get("delay"):
                fake._closing.wait(float(reply["delay"]))
            if "raw" in reply:
                raw = reply["raw"]
                return self._send(200, raw if isinstance(raw, bytes) else raw.encode())
            if reply.get("status", 200) != 200:
                return self._json(int(reply["status"]), {"error": reply.get("error", "")})
            if body.get("stream", True):
                lines = [json.dumps(c) for c in chat_chunks(body["model"], reply)]
                if reply.get("stream_error"):
                    lines.insert(1, json.dumps({"error": reply["stream_error"]}))
                self._stream(lines, reply.get("hold"))
            else:
                self._json(200, chat_response(body["model"], reply))

        def _stream(self, lines: list[str], hold: threading.Event | None) -> None:
            """NDJSON line by line, as Ollama sends it; with ``hold``, the first line alone
            until the test sets the event (proof that a client shows pieces as they come)."""
            self.send_response(200)
            self.send_header("Content-Type", "application/x-ndjson")
            self.end_headers()  # no length: the stream ends when the connection closes
            for n, line in enumerate(lines):
                self.wfile.write((line + "\n").encode())
                self.wfile.flush()
                if n == 0 and hold is not None:
                    fake.holds.append(hold.wait(60))  # False: the client never showed it
            self.close_connection = True

        def _json(self, status: int, payload: Any) -> None:
            self._send(status, json.dumps(payload).encode())

        def _send(self, status: int, data: bytes, kind: str = "application/json") -> None:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    return Handler


def unused_port() -> int:
    """A local port nothing listens on (for connection-refused tests)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def fake_ollama() -> Iterator[FakeOllama]:
    """A running FakeOllama serving ``qwen2.5:7b`` (32768-token window); closed after."""
    with FakeOllama() as server:
        yield server
