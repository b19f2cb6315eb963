"""The shape of a write: a known kind, typed arguments, a whitelisted label, a sane predicate, size.

``check_schema`` validates a proposal against its kind's model (``memory.writes``) and returns
the kind, the normalised arguments and notes, or raises ``SchemaViolation`` with a
machine-readable reason and a message telling the writer how to fix the call.
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import ValidationError

from memvisor.agent.memory.writes import WRITE_KINDS, Write, strings_in
from memvisor.storage.facts import normalize_predicate

from .config import FirewallConfig

_RANGE_ERRORS = ("greater_than", "less_than", "too_short", "too_long")


class SchemaViolation(Exception):
    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message


def write_kind(tool: str) -> type[Write]:
    """The declared kind of a write, or ``SchemaViolation`` naming the real ones."""
    kind = WRITE_KINDS.get(tool) if isinstance(tool, str) else None
    if kind is None:
        raise SchemaViolation(
            f"schema:unknown_tool:{str(tool)[:40]}",
            f"'{str(tool)[:60]}' is not a memory write; use one of {', '.join(WRITE_KINDS)}",
        )
    return kind


def check_schema(
    tool: str, arguments: dict[str, Any], config: FirewallConfig, *, check_label: bool = True
) -> tuple[type[Write], dict[str, Any], list[str]]:
    """Validate one proposal; return (its kind, the normalised arguments, notes)."""
    kind = write_kind(tool)
    if not isinstance(arguments, dict):
        raise SchemaViolation("schema:type:arguments", f"{tool} takes an object of arguments")
    try:
        write = kind.model_validate(arguments)
    except ValidationError as exc:
        raise _violation(tool, kind, exc) from None
    args = write.model_dump()
    # Keep the proposal's own keys only: defaults the writer left out are not "changes".
    args = {k: v for k, v in args.items() if k in arguments or v is not None}
    notes: list[str] = []
    if "label" in args and check_label and args["label"] not in config.labels:
        raise SchemaViolation(
            f"schema:unknown_label:{args['label'][:40]}",
            f"core block '{args['label'][:60]}' is not writable; use one of "
            f"{', '.join(sorted(config.labels))}",
        )
    if tool == "fact_remember":
        notes += _check_predicate(args, config)
    _check_sizes(kind, args, config)
    return kind, args, notes


def _violation(tool: str, kind: type[Write], exc: ValidationError) -> SchemaViolation:
    error = exc.errors()[0]
    name = str(error["loc"][0]) if error["loc"] else "arguments"
    if error["type"] == "extra_forbidden":
        fields = ", ".join(kind.model_fields)
        return SchemaViolation(
            f"schema:unexpected_argument:{name[:40]}", f"{tool} takes {fields}; drop '{name[:40]}'"
        )
    if error["type"].startswith(_RANGE_ERRORS):
        return SchemaViolation(f"schema:range:{name}", f"'{name}' for {tool}: {error['msg']}")
    return SchemaViolation(f"schema:type:{name}", f"'{name}' for {tool}: {error['msg']}")


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


def _check_sizes(kind: type[Write], args: dict[str, Any], config: FirewallConfig) -> None:
    limits = config.max_chars
    group = "archival" if kind.kind == "archival_memory_insert" else "core"
    for name in kind.stored_text:
        limit = limits.get(name if kind.kind == "fact_remember" else group)
        size = sum(len(s) for s in strings_in(args.get(name)))
        if limit is not None and size > limit:
            raise SchemaViolation(
                f"schema:too_long:{name}",
                f"'{name}' is {size} characters; the limit is {limit}. Shorten it or "
                "split it into several writes",
            )
