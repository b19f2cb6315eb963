"""Chat with a model served by Ollama through the official ``ollama`` client.

The context window is resolved lazily: the first ``chat()`` or the first read of
``context_length`` asks ``/api/show`` and caches the answer, so constructing the model
(for example for a health check that only lists models) never touches the network.
Every chat request then sends ``options.num_ctx`` equal to that window, so the prompt
budget and the window Ollama actually serves are the same number.
"""

from __future__ import annotations

import copy
import json
import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import ollama
import pydantic

from memvisor.agent.models.base import AssistantTurn, ReplyStream, ToolCall, Usage
from memvisor.agent.models.base import tool_names as _tool_names
from memvisor.agent.toolcalls import turn_from_text
from memvisor.errors import ModelError, ModelUnavailable
from memvisor.storage.logger import logger

DEFAULT_HOST = "http://127.0.0.1:11434"
OLLAMA_DEFAULT_NUM_CTX = 2048
_NUM_CTX_RE = re.compile(r"^\s*num_ctx\s+(\d+)\s*$", re.MULTILINE)
_MESSAGE_KEYS = ("role", "content", "thinking", "images", "tool_name", "tool_calls")


class OllamaModel:
    """A ``ChatModel`` backed by an Ollama server."""

    def __init__(
        self,
        model: str,
        *,
        host: str | None = None,
        num_ctx: int | None = None,
        timeout: float = 120.0,
        options: dict[str, Any] | None = None,
    ) -> None:
        self.name = model
        self.host = host or os.environ.get("OLLAMA_HOST") or DEFAULT_HOST
        self.timeout = timeout
        self._num_ctx_override = num_ctx
        self._options = dict(options or {})
        self._context_length: int | None = None
        self._client = ollama.Client(host=self.host, timeout=timeout)

    @property
    def context_length(self) -> int:
        """The effective window: min(served, num_ctx override); asks /api/show once."""
        if self._context_length is None:
            self._context_length = self._resolve_context_length()
        return self._context_length

    def chat(
        self,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]],
        options: dict[str, Any] | None = None,
    ) -> AssistantTurn:
        with self._translate_errors():
            response = self._client.chat(
                self.name, **self._request(messages, tools, options), stream=False
            )
            message = response.message
            return self._turn(
                message.content or "",
                message.thinking or "",
                list(message.tool_calls or []),
                response,
                tools,
            )

    def stream(
        self,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]],
        options: dict[str, Any] | None = None,
    ) -> ReplyStream:
        """Ollama's NDJSON stream: each content piece as it arrives, then the whole turn."""
        content: list[str] = []
        thinking: list[str] = []
        calls: list[Any] = []
        final = None
        with self._translate_errors():
            parts = self._client.chat(
                self.name, **self._request(messages, tools, options), stream=True
            )
            for part in parts:
                final = part
                thinking.append(part.message.thinking or "")
                calls.extend(part.message.tool_calls or [])
                if part.message.content:
                    content.append(part.message.content)
                    yield part.message.content
            return self._turn("".join(content), "".join(thinking), calls, final, tools)

    def _request(
        self,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]],
        options: dict[str, Any] | None,
    ) -> dict[str, Any]:
        return {
            "messages": [to_ollama_message(m) for m in messages],
            "tools": [to_ollama_tool(t) for t in tools] or None,
            # num_ctx is always ours: the prompt was packed for exactly this window.
            "options": {**self._options, **(options or {}), "num_ctx": self.context_length},
        }

    def close(self) -> None:
        """Close the HTTP connection pool."""
        self._client.close()

    def __enter__(self) -> OllamaModel:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def list_models(self) -> list[str]:
        """Names of the models the server has pulled (``/api/tags``)."""
        with self._translate_errors():
            listing = self._client.list()
        return [m.model for m in listing.models if m.model]

    def _turn(
        self,
        content: str,
        thinking: str,
        native: list[Any],
        final: Any,
        tools: list[dict[str, Any]],
    ) -> AssistantTurn:
        calls = [
            ToolCall(id=f"call_{n}", name=c.function.name, arguments=dict(c.function.arguments))
            for n, c in enumerate(native, start=1)
        ]
        usage = Usage(
            prompt_tokens=getattr(final, "prompt_eval_count", None) or 0,
            completion_tokens=getattr(final, "eval_count", None) or 0,
        )
        turn = turn_from_text(
            content, _tool_names(tools), native_calls=calls, reasoning=thinking, usage=usage
        )
        if turn.parse_errors or turn.invented_output:
            logger.bind(model=self.name).warning(
                "tool calls written in content: errors={}, invented_output={}",
                turn.parse_errors,
                turn.invented_output,
            )
        return turn

    def _resolve_context_length(self) -> int:
        with self._translate_errors():
            shown = self._client.show(self.name)
        served = served_context_length(shown.modelinfo or {}, shown.parameters or "")
        override = self._num_ctx_override
        known = [n for n in (served, override) if n]
        if known:
            return min(known)
        logger.bind(model=self.name).warning(
            "Ollama did not report a context length for {}; assuming its default of {} tokens",
            self.name,
            OLLAMA_DEFAULT_NUM_CTX,
        )
        return OLLAMA_DEFAULT_NUM_CTX

    @contextmanager
    def _translate_errors(self) -> Iterator[None]:
        """Turn every client failure into one actionable ``ModelError`` line."""
        try:
            yield
        except (ConnectionError, httpx.ConnectError, httpx.ConnectTimeout) as exc:
            raise ModelUnavailable(
                f"Ollama is not reachable at {self.host}: start it with `ollama serve`, "
                f"pull the model with `ollama pull {self.name}`; "
                "`make demo` runs offline without Ollama."
            ) from exc
        except httpx.TimeoutException as exc:
            raise ModelError(
                f"Ollama at {self.host} did not answer within the {self.timeout:g} s timeout "
                f"(model {self.name}); raise the timeout or use a smaller model or context"
            ) from exc
        except ollama.ResponseError as exc:
            raise self._response_error(exc) from exc
        except httpx.HTTPError as exc:
            raise ModelError(
                f"Ollama at {self.host} failed mid-request: {_one_line(str(exc))}"
            ) from exc
        except (pydantic.ValidationError, json.JSONDecodeError) as exc:
            raise ModelError(
                f"Ollama at {self.host} sent a reply Memvisor cannot read "
                f"(model {self.name}): {_one_line(str(exc))[:200]}"
            ) from exc

    def _response_error(self, exc: ollama.ResponseError) -> ModelError:
        text = _one_line(str(exc.error))
        if exc.status_code == 404:
            return ModelError(
                f"model {self.name!r} is not available from Ollama at {self.host} ({text}): "
                f"pull it with `ollama pull {self.name}`"
            )
        status = f"HTTP {exc.status_code}" if exc.status_code > 0 else "an error"
        return ModelError(f"Ollama at {self.host} returned {status} for {self.name}: {text}")


def served_context_length(modelinfo: Any, parameters: str) -> int | None:
    """The window Ollama serves: the Modelfile's num_ctx, capped by the model's maximum."""
    maximum = None
    for key, value in dict(modelinfo).items():
        if key.endswith(".context_length") and isinstance(value, int) and value > 0:
            maximum = value
    match = _NUM_CTX_RE.search(parameters)
    configured = int(match.group(1)) if match else None
    if maximum and configured:
        return min(maximum, configured)
    return configured or maximum


def to_ollama_message(message: dict[str, Any]) -> dict[str, Any]:
    """An Ollama wire message from an Ollama/OpenAI-style message dict."""
    wire = {k: message[k] for k in _MESSAGE_KEYS if message.get(k) is not None}
    wire["content"] = wire.get("content") or ""
    if wire.get("role") == "tool" and "tool_name" not in wire and message.get("name"):
        wire["tool_name"] = message["name"]
    if "tool_calls" in wire:
        wire["tool_calls"] = [_wire_tool_call(c) for c in wire["tool_calls"]]
    return wire


def to_ollama_tool(tool: dict[str, Any]) -> dict[str, Any]:
    """A tool spec Ollama's client keeps intact: ``Optional`` anyOf collapsed to its type."""
    spec = copy.deepcopy(tool)
    parameters = (spec.get("function") or {}).get("parameters") or {}
    for prop in (parameters.get("properties") or {}).values():
        if isinstance(prop, dict):
            _collapse_nullable(prop)
    return spec


def _collapse_nullable(prop: dict[str, Any]) -> None:
    # The client keeps only type/items/description/enum per property, so an
    # ``anyOf: [T, null]`` (pydantic's Optional[T]) would reach the model with no type.
    options = prop.get("anyOf")
    if isinstance(options, list):
        real = [o for o in options if isinstance(o, dict) and o.get("type") != "null"]
        if len(real) == 1:
            del prop["anyOf"]
            for key, value in real[0].items():
                prop.setdefault(key, value)
    kinds = prop.get("type")
    if isinstance(kinds, list):
        real_kinds = [k for k in kinds if k != "null"]
        if len(real_kinds) == 1:
            prop["type"] = real_kinds[0]


def _wire_tool_call(call: Any) -> dict[str, Any]:
    if isinstance(call, ToolCall):
        call = call.model_dump()
    function = call.get("function") if isinstance(call.get("function"), dict) else call
    arguments = function.get("arguments") or {}
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments)
        except json.JSONDecodeError:
            arguments = {}
    return {"function": {"name": function.get("name", ""), "arguments": arguments}}


def _one_line(text: str) -> str:
    return " ".join(text.split())
