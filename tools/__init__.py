"""Typed tools the model can call: the registry, the hidden context, and their errors."""

from memvisor.tools.context import ToolContext
from memvisor.tools.registry import Tool, ToolRegistry, ToolResult, tool

__all__ = [
    "Tool",
    "ToolContext",
    "ToolRegistry",
    "ToolResult",
    "tool",
]
