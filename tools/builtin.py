"""The built-in memory tools, registered together."""

from __future__ import annotations

from memvisor.tools import (
    archival,
    core_memory,
    episodes,
    fact_tools,
    messaging,
    recipes,
    session_state,
    tasks,
)
from memvisor.tools.offer import help_tool
from memvisor.tools.registry import ToolRegistry


def builtin_registry(*, plugins: bool = True) -> ToolRegistry:
    """Every built-in tool, plus third-party tools from the ``memvisor.tools`` entry points, and
    ``tool_help`` over them all (offered with the compact specs of small windows)."""
    registry = ToolRegistry()
    for module in (
        messaging,
        core_memory,
        archival,
        fact_tools,
        episodes,
        recipes,
        tasks,
        session_state,
    ):
        registry.register_module(module)
    if plugins:
        registry.load_entry_points()
    registry.register(help_tool(registry))
    return registry
