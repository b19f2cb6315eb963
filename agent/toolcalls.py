"""Recovering tool calls that local models write as text instead of native ``tool_calls``.

qwen2.5 served by Ollama sometimes answers with ``<tool_call>{...}</tool_call>`` or a bare
JSON object in ``content`` when Ollama's template parse fails. This module turns that text
into ``ToolCall`` records, reports malformed calls precisely instead of dropping them, and
strips tool results the model made up after its own call (they are never real).

Only objects naming a *known* tool count as a bare-JSON call, so JSON the assistant is
showing the user stays content. Inside ``<tool_call>`` tags every name counts: unknown
names are returned so the runtime can answer with the list of real tools.
"""

from __future__ import annotations

import json
import re
from bisect import bisect_right
from dataclasses import dataclass, field
from typing import Any

from memvisor.agent.models.base import AssistantTurn, ToolCall, Usage

_OPEN_RE = re.compile(r"<tool_call>", re.IGNORECASE)
_THINK_CLOSE_RE = re.compile(r"</think>", re.IGNORECASE)
_CLOSE_RE = re.compile(r"</tool_call>", re.IGNORECASE)
_STRAY_TAG_RE = re.compile(r"</?tool_call>", re.IGNORECASE)
_FENCE_RE = re.compile(r"\A\s*```[a-zA-Z0-9_-]*[ \t]*\n?(?P<body>.*?)\n?[ \t]*```", re.DOTALL)
# Text that pretends to be the result of a call the model has only just asked for.
_INVENTED_RE = re.compile(
    r"<tool_response>|<tool_result>|<tool_output>|<\|im_start\|>\s*tool\b"
    r"|^[ \t]*(?:tool[ _]?(?:result|response|output)s?|observation|function[ _]?"
    r"(?:result|response|output)s?)[ \t]*:",
    re.IGNORECASE | re.MULTILINE,
)
_THINK_RE = re.compile(r"<think>(?P<body>.*?)(?:</think>|\Z)", re.DOTALL | re.IGNORECASE)
_CLOSING_JUNK = set(" \t\r\n}]")


@dataclass
class ExtractResult:
    """Calls found in content, the text left for the user, and what went wrong."""

    calls: list[ToolCall] = field(default_factory=list)
    remaining_text: str = ""
    errors: list[str] = field(default_factory=list)
    invented_output: bool = False
    raw_text: str | None = None


def extract_tool_calls(content: str, known_tools: set[str]) -> ExtractResult:
    """Find tool calls written in ``content``; never raises on any string."""
    opening = _OPEN_RE.search(content)
    # A reply that is one JSON document is a bare call even if an argument quotes the tag.
    if opening and not (content.lstrip()[:1] in ("{", "[") and _whole_json(content)):
        return _extract_tagged(content, opening.end())
    bare = _extract_bare(content, known_tools)
    return bare if bare is not None else ExtractResult(remaining_text=content.strip())


def strip_invented_output(text: str) -> tuple[str, bool]:
    """Cut a made-up tool result (and everything after it) from text next to a call."""
    match = _INVENTED_RE.search(text)
    if match is None:
        return text, False
    return text[: match.start()].rstrip(), True


def split_thinking(content: str) -> tuple[str | None, str]:
    """Move ``<think>`` blocks out of the answer; returns (reasoning, answer)."""
    thoughts: list[str] = []
    # Some templates open the think tag in the prompt, so only the close appears.
    close = _THINK_CLOSE_RE.search(content)
    if close and "<think>" not in content[: close.start()].lower():
        thoughts.append(content[: close.start()].strip())
        content = content[close.end() :]

    def keep(match: re.Match[str]) -> str:
        thoughts.append(match.group("body").strip())
        return ""

    answer = _THINK_RE.sub(keep, content)
    reasoning = "\n\n".join(t for t in thoughts if t)
    return (reasoning or None), answer.strip()


def turn_from_text(
    content: str,
    known_tools: set[str],
    *,
    native_calls: list[ToolCall] | None = None,
    reasoning: str | None = None,
    usage: Usage | None = None,
) -> AssistantTurn:
    """Build the turn a model reply means: native calls first, else calls in the text."""
    thought, answer = split_thinking(content or "")
    reasoning = "\n\n".join(r for r in (reasoning, thought) if r) or None
    usage = usage or Usage()
    if native_calls:
        text, invented = strip_invented_output(answer)
        return AssistantTurn(
            content=text,
            tool_calls=native_calls,
            reasoning=reasoning,
            usage=usage,
            invented_output=invented,
        )
    found = extract_tool_calls(answer, known_tools)
    return AssistantTurn(
        content=found.remaining_text,
        tool_calls=found.calls,
        reasoning=reasoning,
        usage=usage,
        raw_tool_text=found.raw_text,
        parse_errors=found.errors,
        invented_output=found.invented_output,
    )


def _extract_tagged(content: str, first_body: int) -> ExtractResult:
    invented = _invented_outside_calls(content, first_body)
    cut = invented.start() if invented else len(content)
    head, tail = content[:cut], content[cut:]

    result = ExtractResult(invented_output=invented is not None)
    raw_blocks: list[str] = []
    attempt = 0
    blocks = _blocks(head)
    for start, body, end in blocks:
        raw_blocks.append(head[start:end].strip())
        attempt = _parse_block(body, attempt, result)
    ignored = len(_blocks(tail))
    if ignored:
        result.errors.append(
            f"{ignored} tool call(s) written after an invented tool result were ignored: "
            "call a tool, then wait for its real result"
        )
    kept, last = [], 0
    for start, _, end in blocks:
        kept.append(head[last:start])
        last = end
    text = _STRAY_TAG_RE.sub("", "".join([*kept, head[last:]]))
    result.remaining_text = re.sub(r"\n{3,}", "\n\n", text).strip()
    result.raw_text = "\n".join(raw_blocks) or None
    _number_calls(result.calls)
    return result


def _invented_outside_calls(content: str, start: int) -> re.Match[str] | None:
    """The first made-up tool result after ``start`` that is not inside a closed call: a
    call's own argument may quote one ("<tool_response>" in a note about the format)."""
    calls = _closed_calls(content)
    starts = [begin for begin, _ in calls]
    for found in _INVENTED_RE.finditer(content, start):
        at = bisect_right(starts, found.start()) - 1  # the last call opened at or before it
        if at < 0 or found.start() >= calls[at][1]:
            return found
    return None


def _blocks(text: str) -> list[tuple[int, str, int]]:
    """Each ``<tool_call>`` block as (start, body, end): up to its ``</tool_call>``, or, when
    another opening tag comes first, up to that one (a call left unclosed), unless the body
    up to the closing tag is whole JSON: a call's argument may quote the tag. One pass: the
    next closing tag is searched again only once the scan has passed it."""
    blocks: list[tuple[int, str, int]] = []
    closing = _CLOSE_RE.search(text)
    pos = 0
    while (opening := _OPEN_RE.search(text, pos)) is not None:
        begin = opening.end()
        if closing is not None and closing.start() < begin:
            closing = _CLOSE_RE.search(text, begin)
        following = _OPEN_RE.search(text, begin, closing.start() if closing else len(text))
        closed = text[begin : closing.start()] if closing is not None else None
        if closed is not None and (following is None or _whole_json(closed)):
            body, end = closed, closing.end()  # type: ignore[union-attr]
        elif following is not None:
            body, end = text[begin : following.start()], following.start()
        else:
            body, end = text[begin:], len(text)
        blocks.append((opening.start(), body, end))
        pos = end
    return blocks


def _whole_json(body: str) -> bool:
    try:
        _decode_values(_unfence(body).strip())
    except json.JSONDecodeError:
        return False
    return True


def _closed_calls(content: str) -> list[tuple[int, int]]:
    """The spans ``<tool_call>.*?</tool_call>`` would match, in one pass over the tags (the
    regex rescans to the end from every opening tag that is never closed: quadratic)."""
    spans: list[tuple[int, int]] = []
    opened: int | None = None
    for tag in _STRAY_TAG_RE.finditer(content):
        closing = tag.group(0)[1] == "/"
        if opened is None and not closing:
            opened = tag.start()
        elif opened is not None and closing:
            spans.append((opened, tag.end()))
            opened = None
    return spans


def _parse_block(body: str, attempt: int, result: ExtractResult) -> int:
    """Parse one ``<tool_call>`` body into result; returns the updated call counter."""
    text = _unfence(body).strip()
    if not text:
        attempt += 1
        result.errors.append(f"tool call {attempt} is empty: write a JSON object inside the tags")
        return attempt
    try:
        values, rest = _decode_values(text)
    except json.JSONDecodeError as exc:
        attempt += 1
        result.errors.append(_json_problem(f"tool call {attempt}", text, exc))
        return attempt
    for value in values:
        for item in value if isinstance(value, list) else [value]:
            attempt += 1
            call, problem = _call_from_object(item, f"tool call {attempt}")
            if call is not None:
                result.calls.append(call)
            if problem:
                result.errors.append(problem)
    if rest:
        result.errors.append(
            f"tool call {attempt} has unexpected text after its JSON: {_snippet(rest)}"
        )
    return attempt


def _extract_bare(content: str, known_tools: set[str]) -> ExtractResult | None:
    """A whole-content JSON call (or list of calls) naming known tools, else None."""
    stripped = content.strip()
    if not stripped or stripped[0] not in "[{`":
        return None
    fence = _FENCE_RE.match(stripped)
    if fence:
        text, after = fence.group("body").strip(), stripped[fence.end() :]
    else:
        text, after = stripped, ""
    try:
        values, rest = _decode_values(text)
    except json.JSONDecodeError:
        return None
    if fence and rest:
        return None
    after = (rest if not fence else after).strip()
    invented = bool(after) and _INVENTED_RE.match(after) is not None
    if after and not invented:
        return None
    items = [i for v in values for i in (v if isinstance(v, list) else [v])]
    if not items or not all(_names_known_tool(i, known_tools) for i in items):
        return None
    result = ExtractResult(invented_output=invented, raw_text=text)
    for n, item in enumerate(items, start=1):
        call, problem = _call_from_object(item, f"tool call {n}")
        if call is not None:
            result.calls.append(call)
        if problem:
            result.errors.append(problem)
    _number_calls(result.calls)
    return result


def _decode_values(text: str) -> tuple[list[Any], str]:
    """Decode one or more JSON values; returns them and any non-bracket leftover text."""
    decoder = json.JSONDecoder()
    values: list[Any] = []
    pos = 0
    while pos < len(text):
        while pos < len(text) and text[pos] in " \t\r\n,":
            pos += 1
        if pos >= len(text):
            break
        try:
            value, pos = decoder.raw_decode(text, pos)
        except RecursionError as exc:  # '{"a":' repeated: not a call, and never a crash
            raise json.JSONDecodeError("JSON nested too deeply", text, pos) from exc
        except json.JSONDecodeError:
            if not values:
                raise
            rest = text[pos:]
            # Models often miscount closing braces; a surplus of them is harmless.
            return values, "" if set(rest) <= _CLOSING_JUNK else rest.strip()
        values.append(value)
    return values, ""


def _names_known_tool(item: Any, known_tools: set[str]) -> bool:
    obj = _unwrap_function(item)
    if not isinstance(obj, dict) or not isinstance(obj.get("name"), str):
        return False
    return obj["name"] in known_tools and ("arguments" in obj or "parameters" in obj)


def _unwrap_function(item: Any) -> Any:
    """Accept the OpenAI shape ``{"type": "function", "function": {...}}`` too."""
    if isinstance(item, dict) and "name" not in item and isinstance(item.get("function"), dict):
        return item["function"]
    return item


def _call_from_object(item: Any, label: str) -> tuple[ToolCall | None, str | None]:
    obj = _unwrap_function(item)
    if not isinstance(obj, dict):
        return None, f'{label} is not a JSON object: write {{"name": ..., "arguments": {{...}}}}'
    name = obj.get("name")
    if not isinstance(name, str) or not name.strip():
        return None, f'{label} has no "name": write {{"name": "TOOL", "arguments": {{...}}}}'
    args: Any = obj.get("arguments", obj.get("parameters"))
    if args is None or args == "":
        args = {}
    if isinstance(args, str):
        try:
            args = json.loads(args)
        except json.JSONDecodeError as exc:
            return None, _json_problem(f"{label} ({name}) arguments", args, exc)
        except RecursionError:
            return None, f"{label} ({name}) arguments are JSON nested too deeply"
    if not isinstance(args, dict):
        kind = type(args).__name__
        return None, f'{label} ({name}) "arguments" must be a JSON object, got {kind}'
    given_id = obj.get("id")
    call_id = given_id if isinstance(given_id, str) else ""
    return ToolCall(id=call_id, name=name.strip(), arguments=args), None


def _number_calls(calls: list[ToolCall]) -> None:
    for n, call in enumerate(calls, start=1):
        if not call.id:
            call.id = f"call_{n}"


def _unfence(body: str) -> str:
    """Drop a ```json fence around a block body (the closing fence may be missing)."""
    text = body.strip()
    if not text.startswith("```"):
        return text
    text = re.sub(r"\A```[a-zA-Z0-9_-]*", "", text)
    return text[:-3] if text.endswith("```") else text


def _json_problem(label: str, text: str, exc: json.JSONDecodeError) -> str:
    near = _snippet(text[max(0, exc.pos - 15) : exc.pos + 15])
    return f"{label} is not valid JSON: {exc.msg} at char {exc.pos} (near {near})"


def _snippet(text: str, limit: int = 60) -> str:
    one_line = " ".join(text.split())
    return repr(one_line if len(one_line) <= limit else one_line[:limit] + "...")
