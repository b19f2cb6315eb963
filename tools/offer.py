"""Which tool descriptions a window can afford, and ``tool_help`` for the rest.

Full docstrings when they fit ``FULL_SHARE`` of the usable window. Otherwise the compact
form (the description's first sentence, the required arguments with their types) within
``COMPACT_SHARE``, plus ``tool_help``, which returns a tool's full description and every
argument when the model asks; the system prompt says so (``ToolOffer.prompt_note``). When
even the compact form overflows, tools with a ``shed`` rank leave the offer, lowest rank
first. Arguments are always checked against the full schema, whatever was offered.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import Field

from memvisor.tools.context import ToolContext
from memvisor.tools.registry import Tool, ToolRegistry

HELP_TOOL = "tool_help"
# Share of the usable window the full tool docstrings may take. Set by hand.
FULL_SHARE = 0.25
# Share the compact form may take. At 4,096 tokens (qwen2.5's tokenizer) it offers the seven
# memory tools of the system prompt and tool_help in 581 tokens; before, ten tools cut to 60
# characters took 741 (README, "How the context is paged"). Set by hand.
COMPACT_SHARE = 0.20
# Characters of a compact description at most (cut at a word). Set by hand.
COMPACT_DESCRIPTION_CHARS = 100
HELP_NOTE = (
    "Your tools are listed in short form to save room. Before using a tool whose arguments "
    f'you are unsure of, call {HELP_TOOL} with its name, e.g. {HELP_TOOL}(name="fact_remember"),'
    " to read its full description and every argument it takes."
)
SHED_NOTE = "More tools, not listed for room (read one with tool_help before calling it): "
_SENTENCE_END = re.compile(r"(?<=[.!?])\s")


@dataclass(frozen=True)
class ToolOffer:
    """The specs sent with each request, and whether they are the compact form."""

    specs: list[dict[str, Any]]
    compact: bool
    shed: tuple[str, ...] = ()  # left out for room, still callable by name

    @property
    def prompt_note(self) -> str:
        """What the system prompt adds: how to get a tool's full description, and the names
        of the tools left out for room (a user who asks to forget something must still be
        heard in a small window)."""
        offered = {s["function"]["name"] for s in self.specs}
        if not (self.compact and HELP_TOOL in offered):
            return ""
        if not self.shed:
            return HELP_NOTE
        return f"{HELP_NOTE} {SHED_NOTE}{', '.join(self.shed)}."


def offer_tools(registry: ToolRegistry, *, count: Callable[[str], int], usable: int) -> ToolOffer:
    """The most detail that fits: full specs, else compact ones (shedding by rank) and help."""
    names = [n for n in registry.names() if n != HELP_TOOL]
    full = [registry.get(n).spec() for n in names]
    if _size(full, count) <= usable * FULL_SHARE:
        return ToolOffer(full, compact=False)
    specs = [compact_spec(registry.get(n)) for n in registry.names()]
    shed: list[str] = []
    for name in registry.shed_order():
        if _size(specs, count) <= usable * COMPACT_SHARE:
            break
        specs = [s for s in specs if s["function"]["name"] != name]
        shed.append(name)
    return ToolOffer(specs, compact=True, shed=tuple(sorted(shed)))


def compact_spec(tool: Tool) -> dict[str, Any]:
    """The tool's first sentence and its required arguments with their types only."""
    required = list(tool.parameters.get("required", []))
    properties = tool.parameters.get("properties", {})
    parameters = {
        "type": "object",
        "properties": {name: _types_only(properties[name]) for name in required},
        "required": required,
    }
    function = {"name": tool.name, "description": first_sentence(tool.description)}
    return {"type": "function", "function": function | {"parameters": parameters}}


def first_sentence(text: str, limit: int = COMPACT_DESCRIPTION_CHARS) -> str:
    flat = " ".join(text.split("\n\n")[0].split())
    sentence = _SENTENCE_END.split(flat, maxsplit=1)[0]
    if len(sentence) <= limit:
        return sentence
    return sentence[: limit - 1].rsplit(" ", 1)[0] + "…"


def describe(tool: Tool) -> str:
    """A tool's full description and every argument, as ``tool_help`` shows it."""
    properties = tool.parameters.get("properties", {})
    required = set(tool.parameters.get("required", []))
    lines = [f"{tool.name}{tool.signature_hint()}", tool.description, "Arguments:"]
    for name, schema in properties.items():
        need = "required" if name in required else "optional"
        if "default" in schema:
            need += ", default " + json.dumps(schema["default"], ensure_ascii=False)
        lines.append(f"- {name} ({need}): {schema.get('description', '')}".rstrip(": "))
    if not properties:
        lines.append("- (none)")
    return "\n".join(lines)


def help_tool(registry: ToolRegistry) -> Tool:
    """``tool_help`` over ``registry``: any registered tool's full description."""

    def tool_help(
        ctx: ToolContext,
        name: Annotated[str, Field(description='A tool name from your list, e.g. "fact_search".')],
    ) -> str:
        """Show a tool's full description and every argument it takes.

        Good: tool_help(name="fact_remember") before saving a fact that expires
        Bad: tool_help(name="how do I save things?") (give one tool's name)
        """
        return describe(registry.get(name.strip()))

    return Tool.from_function(tool_help, name=HELP_TOOL)


def _types_only(schema: dict[str, Any]) -> dict[str, Any]:
    if "anyOf" in schema:
        kinds = [s.get("type") for s in schema["anyOf"] if s.get("type") not in (None, "null")]
        return {"type": kinds[0] if len(kinds) == 1 else kinds} if kinds else {}
    kept: dict[str, Any] = {k: schema[k] for k in ("type", "enum") if k in schema}
    if isinstance(schema.get("items"), dict):
        kept["items"] = _types_only(schema["items"])
    return kept


def _size(specs: list[dict[str, Any]], count: Callable[[str], int]) -> int:
    return count(json.dumps(specs, ensure_ascii=False))
