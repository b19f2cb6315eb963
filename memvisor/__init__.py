"""Memvisor: a local-first memory agent whose guarded runtime pages memory in and out.

The public API, imported lazily so that ``import memvisor`` (and the CLI's start-up) costs
nothing until a name is used::

    from memvisor import Agent, Memory, ToolContext, tool
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from memvisor.lazy import lazy_exports

if TYPE_CHECKING:
    from memvisor.agent.loop import Agent
    from memvisor.agent.memory.api import Memory, WriteOutcome
    from memvisor.storage import Store
    from memvisor.tools import ToolContext, tool

__all__ = ["Agent", "Memory", "Store", "ToolContext", "WriteOutcome", "tool"]

_LAZY = {
    "Agent": "memvisor.agent.loop",
    "Memory": "memvisor.agent.memory.api",
    "WriteOutcome": "memvisor.agent.memory.api",
    "Store": "memvisor.storage",
    "ToolContext": "memvisor.tools",
    "tool": "memvisor.tools",
}


__getattr__ = lazy_exports(__name__, _LAZY)
