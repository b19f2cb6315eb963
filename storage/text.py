"""Small text helpers shared by reports, logs and listings."""

from __future__ import annotations

import re
from typing import Any

# Lone surrogates: Python strings may hold them (a model's JSON "\ud800", a bad file), UTF-8
# cannot, and DuckDB, Arrow and every client refuse them.
_SURROGATE = re.compile("[\ud800-\udfff]")


def snippet(text: str, limit: int) -> str:
    """``text`` on one line, cut to ``limit`` characters with an ellipsis."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def valid_utf8(value: Any) -> Any:
    """``value`` with every lone surrogate in its strings (nested ones too) made U+FFFD."""
    if isinstance(value, str):
        return value if value.isascii() else _SURROGATE.sub("\ufffd", value)
    if isinstance(value, list | tuple):
        return [valid_utf8(v) for v in value]
    if isinstance(value, dict):
        return {valid_utf8(k): valid_utf8(v) for k, v in value.items()}
    return value
