"""The shape of a write: known tool, typed arguments, whitelisted label, a sane predicate, size.

``check_schema`` returns the normalised arguments and notes, or raises ``SchemaViolation`` with a
machine-readable reason and a message telling the model how to fix the call.
"""

from __future__ import annotations

import math
import re
from typing import Any

from memvisor.storage.facts import normalize_predicate

from .config import FirewallConfig

# tool -> (required text fields, optional fields with their accepted types)
TOOL_FIELDS: dict[str, tuple[tuple[str, ...], dict[str, tuple[type, ...]]]] = {
    "core_memory_append": (("label", "content"), {}),
    "core_memory_replace": (("label", "old_content", "new_content"), {}),
    "archival_memory_insert": (("content",), {}),
    "fact_remember": (
        ("subject", "predicate", "object"),
        {
            "confidence": (int, float, type(None)),
            "importance": (int, float, type(None)),
            "valid_until": (str, type(None)),
        },
    ),
}
# Fields whose text is stored (old_content only locates text already in a block).
STORED_TEXT = {
    "core_memory_append": ("content",),
    "core_memory_replace": ("new_content",),
    "archival_memory_insert": ("content",),
    "fact_remember": ("subject", "predicate", "object"),
}


class SchemaViolation(Exception):
    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message


def check_schema(
    tool: str, arguments: dict[str, Any], config: FirewallConfig, *, check_label: bool = True
) -> tuple[dict[str, Any], list[str]]:
    """Validate one proposal; return (normalised arguments, notes)."""
    if tool not in TOOL_FIELDS:
        raise SchemaViolation(
            f"schema:unknown_tool:{str(tool)[:40]}",
            f"'{tool}' is not a memory write tool; use one of {', '.join(TOOL_FIELDS)}",
        )
    required, optional = TOOL_FIELDS[tool]
    extra = sorted(set(arguments) - set(required) - set(optional))
    if extra:
        raise SchemaViolation(
            f"schema:unexpected_argument:{extra[0][:40]}",
            f"{tool} takes {', '.join([*required, *optional])}; drop '{extra[0]}'",
        )
    for name in required:
        value = arguments.get(name)
        empty_ok = name == "new_content"  # replacing with "" deletes the text
        if not isinstance(value, str) or (not value.strip() and not empty_ok):
            raise SchemaViolation(
                f"schema:type:{name}", f"'{name}' must be non-empty text for {tool}"
            )
    for name, types in optional.items():
        if name in arguments and not isinstance(arguments[name], types):
            raise SchemaViolation(f"schema:type:{name}", f"'{name}' has the wrong type for {tool}")
        if isinstance(arguments.get(name), bool):  # bool is an int; a confidence is not
            raise SchemaViolation(f"schema:type:{name}", f"'{name}' must be a number")
    for name in ("confidence", "importance"):
        value = arguments.get(name)
        if value is not None and not (math.isfinite(value) and 0.0 <= value <= 1.0):
            raise SchemaViolation(f"schema:range:{name}", f"'{name}' must be between 0 and 1")
    args = dict(arguments)
    notes: list[str] = []
    if "label" in args and check_label and args["label"] not in config.labels:
        raise SchemaViolation(
            f"schema:unknown_label:{args['label'][:40]}",
            f"core block '{args['label']}' is not writable; use one of "
            f"{', '.join(sorted(config.labels))}",
        )
    if tool == "fact_remember":
        notes += _check_predicate(args, config)
    _check_sizes(tool, args, config)
    return args, notes


def _check_predicate(args: dict[str, Any], config: FirewallConfig) -> list[str]:
    raw = args["predicate"]
    predicate = normalize_predicate(raw)
    if not re.fullmatch(config.predicate_pattern, predicate):
        raise SchemaViolation(
            "schema:bad_predicate",
            f"predicate '{raw[:60]}' is not a relation name; use snake_case words like "
            "'lives_in' or 'has_daughter'",
        )
    notes = []
    if predicate != raw:
        notes.append(f"schema:predicate_normalized:{predicate}")
        args["predicate"] = predicate
    if predicate not in config.predicates:
        notes.append(f"schema:predicate_unlisted:{predicate}")
    return notes


def _check_sizes(tool: str, args: dict[str, Any], config: FirewallConfig) -> None:
    limits = config.max_chars
    kind = {"archival_memory_insert": "archival"}.get(tool, "core")
    for name in STORED_TEXT[tool]:
        limit = limits.get(name if tool == "fact_remember" else kind)
        value = args.get(name) or ""
        if limit is not None and len(value) > limit:
            raise SchemaViolation(
                f"schema:too_long:{name}",
                f"'{name}' is {len(value)} characters; the limit is {limit}. Shorten it or "
                "split it into several writes",
            )
