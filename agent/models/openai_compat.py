"""Chat with a model behind an OpenAI-compatible server through the official ``openai`` client.

vLLM, llama.cpp's ``llama-server``, LM Studio and Ollama's own ``/v1`` all speak it. The same
protocol as ``OllamaModel``: native tool calls, calls written in content (``<tool_call>``
blocks, bare JSON) recovered and validated, reasoning (``reasoning_content``) kept apart from
the answer, streaming, and one actionable line when the server fails. The window is
``num_ctx`` when given, else what the server reports for the model (vLLM's
``max_model_len``, llama.cpp's ``n_ctx``), else a default with a warning.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import openai

from memvisor.agent.models.base import AssistantTurn, ReplyStream, ToolCall, Usage
from memvisor.agent.models.base import tool_names as _tool_names
from memvisor.agent.toolcalls import turn_from_text
from memvisor.errors import ModelError, ModelUnavailable
from memvisor.storage.logger import logger

DEFAULT_BASE_URL = "http://127.0.0.1:8000/v1"  # vLLM's default
DEFAULT_WINDOW = 4096
# Where servers report a model's window in /v1/models, in the order they are tried.
_WINDOW_KEYS = ("max_model_len", "context_length", "context_window", "n_ctx", "max_context_length")


class OpenAIModel:
    """A ``ChatModel`` backed by an OpenAI-compatible chat-completions server."""

    def __init__(
        self,
        model: str,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        num_ctx: int | None = None,
        timeout: float = 120.0,
    ) -> None:
        self.name = model
        self.base_url = base_url or os.environ.get("OPENAI_BASE_URL") or DEFAULT_BASE_URL
        self.timeout = timeout
        self._num_ctx = num_ctx
        self._context_length: int | None = None
        # Local servers want no key; the client insists on one, so a placeholder is sent.
        key = api_key or os.environ.get("OPENAI_API_KEY") or "not-needed"
        self._client = openai.OpenAI(
            base_url=self.base_url, api_key=key, timeout=timeout, max_retries=0
        )

    @property
    def context_length(self) -> int:
        if self._context_length is None:
            self._context_length = self._num_ctx or self._served_window() or DEFAULT_WINDOW
        return self._context_length

    def chat(
        self,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]],
        options: dict[str, Any] | None = None,
    ) -> AssistantTurn:
        with self._translate_errors():
            response = self._client.chat.completions.create(**self._request(messages, tools))
            if not response.choices:
                raise ModelError(f"{self.base_url} answered with no choices for {self.name}")
            message = response.choices[0].message
            native = [(c.function.name, c.function.arguments) for c in message.tool_calls or []]
            usage = _usage(response.usage)
            return self._turn(message.content or "", _reasoning(message), native, usage, tools)

    def stream(
        self,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]],
        options: dict[str, Any] | None = None,
    ) -> ReplyStream:
        """Server-sent deltas: each content piece as it arrives, then the whole turn (tool
        calls folded from their pieces)."""
        content: list[str] = []
        reasoning: list[str] = []
        calls: dict[int, list[str]] = {}
        usage = Usage()
        with self._translate_errors():
            chunks = self._client.chat.completions.create(
                **self._request(messages, tools), stream=True
            )
            for chunk in chunks:
                if chunk.usage is not None:
                    usage = _usage(chunk.usage)
                for choice in chunk.choices:
                    delta = choice.delta
                    reasoning.append(_reasoning(delta))
                    _fold_calls(calls, delta.tool_calls or [])
                    if delta.content:
                        content.append(delta.content)
                        yield delta.content
            native = [(name, arguments) for _, (name, arguments) in sorted(calls.items())]
            return self._turn("".join(content), "".join(reasoning), native, usage, tools)

    def _request(
        self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]
    ) -> dict[str, Any]:
        request: dict[str, Any] = {"model": self.name, "messages": to_openai_messages(messages)}
        if tools:
            request["tools"] = tools
        return request

    def close(self) -> None:
        self._client.close()

    def _turn(
        self,
        content: str,
        reasoning: str,
        native: list[tuple[str, str]],
        usage: Usage,
        tools: list[dict[str, Any]],
    ) -> AssistantTurn:
        calls, broken = [], []
        for n, (name, arguments) in enumerate(native, start=1):
            try:
                parsed = json.loads(arguments or "{}")
            except json.JSONDecodeError:
                broken.append(f"the arguments of {name!r} are not valid JSON")
                continue
            if not isinstance(parsed, dict):
                broken.append(f"the arguments of {name!r} must be a JSON object")
                continue
            calls.append(ToolCall(id=f"call_{n}", name=name, arguments=parsed))
        turn = turn_from_text(
            content, _tool_names(tools), native_calls=calls, reasoning=reasoning, usage=usage
        )
        if broken:
            turn.parse_errors = [*turn.parse_errors, *broken]
        if turn.parse_errors or turn.invented_output:
            logger.bind(model=self.name).warning(
                "tool calls needed repair: errors={}, invented_output={}",
                turn.parse_errors,
                turn.invented_output,
            )
        return turn

    def _served_window(self) -> int | None:
        try:
            with self._translate_errors():
                listed = self._client.models.retrieve(self.name)
        except ModelError as exc:  # the window is a nicety; chat reports a real failure
            logger.bind(model=self.name).warning("no window from {}: {}", self.base_url, exc)
            return None
        extra = {**(listed.model_extra or {}), **((listed.model_extra or {}).get("meta") or {})}
        for key in _WINDOW_KEYS:
            value = extra.get(key)
            if isinstance(value, int) and value > 0:
                return value
        logger.bind(model=self.name).warning(
            "{} reports no context length for {}; assuming {} tokens (set --num-ctx)",
            self.base_url,
            self.name,
            DEFAULT_WINDOW,
        )
        return None

    @contextmanager
    def _translate_errors(self) -> Iterator[None]:
        """Every client failure as one actionable ``ModelError`` line."""
        where = f"the OpenAI-compatible server at {self.base_url}"
        try:
            yield
        except openai.APITimeoutError as exc:
            raise ModelError(
                f"{where} did not answer within {self.timeout:g} s (model {self.name})"
            ) from exc
        except openai.APIConnectionError as exc:
            raise ModelUnavailable(
                f"{where} is not reachable: start it (e.g. `vllm serve {self.name}` or "
                "`llama-server`) or point --base-url / OPENAI_BASE_URL at it"
            ) from exc
        except openai.NotFoundError as exc:
            raise ModelError(
                f"model {self.name!r} is not served by {where}: {_first_line(exc)}; "
                "list the served models at GET /v1/models"
            ) from exc
        except openai.AuthenticationError as exc:
            raise ModelError(f"{where} refused the API key: set OPENAI_API_KEY") from exc
        except openai.APIStatusError as exc:
            raise ModelError(
                f"{where} returned HTTP {exc.status_code} for {self.name}: {_first_line(exc)}"
            ) from exc
        except (openai.APIError, json.JSONDecodeError, ValueError) as exc:
            raise ModelError(
                f"{where} sent a reply Memvisor cannot read (model {self.name}): {_first_line(exc)}"
            ) from exc


def to_openai_messages(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """OpenAI wire messages: tool calls get ids, and each tool result the id it answers."""
    wire: list[dict[str, Any]] = []
    pending: list[str] = []
    count = 0
    for message in messages:
        role = message.get("role")
        item: dict[str, Any] = {"role": role, "content": message.get("content") or ""}
        if role == "assistant" and message.get("tool_calls"):
            calls = []
            for call in message["tool_calls"]:
                function = call.get("function", call)
                arguments = function.get("arguments") or {}
                count += 1
                call_id = call.get("id") or f"call_{count}"
                pending.append(call_id)
                calls.append(
                    {
                        "id": call_id,
                        "type": "function",
                        "function": {
                            "name": function.get("name", ""),
                            "arguments": arguments
                            if isinstance(arguments, str)
                            else json.dumps(arguments, ensure_ascii=False),
                        },
                    }
                )
            item["tool_calls"] = calls
        elif role == "tool":
            item["tool_call_id"] = pending.pop(0) if pending else f"call_{count or 1}"
        wire.append(item)
    return wire


def _fold_calls(calls: dict[int, list[str]], pieces: Any) -> None:
    """Add streamed tool-call pieces to ``calls`` (index -> [name, arguments so far])."""
    for call in pieces:
        function = call.function
        if function is not None:
            name, arguments = calls.setdefault(call.index, ["", ""])
            calls[call.index] = [
                name + (function.name or ""),
                arguments + (function.arguments or ""),
            ]


def _reasoning(message: Any) -> str:
    extra = getattr(message, "model_extra", None) or {}
    return str(extra.get("reasoning_content") or extra.get("reasoning") or "")


def _usage(usage: Any) -> Usage:
    if usage is None:
        return Usage()
    return Usage(
        prompt_tokens=usage.prompt_tokens or 0, completion_tokens=usage.completion_tokens or 0
    )


def _first_line(exc: Exception) -> str:
    return " ".join(str(exc).split())[:200]
