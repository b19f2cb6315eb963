"""Lazy package exports: a name's module is imported when the name is first used.

Packages whose import must stay cheap (``memvisor`` itself, for the CLI's start-up) or that
sit in an import cycle (``agent.memory`` and the firewall) export through this.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any


def lazy_exports(package: str, modules: dict[str, str]) -> Callable[[str], Any]:
    """A module-level ``__getattr__`` serving ``name`` from ``modules[name]`` (an absolute
    module name, or one relative to ``package``)."""

    def __getattr__(name: str) -> Any:
        if name in modules:
            return getattr(importlib.import_module(modules[name], package), name)
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    return __getattr__
