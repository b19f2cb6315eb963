"""The one guarded memory API: every write of every door passes ``Memory``.

Names load lazily: the firewall imports ``writes`` from here while ``Memory`` imports the
firewall, so importing this package must not import ``api`` up front.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .api import Memory, WriteOutcome

__all__ = ["Memory", "WriteOutcome"]

_LAZY = {"Memory": ".api", "WriteOutcome": ".api"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name], __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
