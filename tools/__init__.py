"""Typed tools the model can call: the registry, the hidden context, and their errors."""

from memvisor.tools.context import ToolContext
from memvisor.tools.registry import (
    Tool,
    ToolControl,
    ToolDefinitionError,
    ToolError,
    ToolRegistry,
    ToolResult,
    tool,
)

__all__ = [
    "Tool",
    "ToolContext",
    "ToolControl",
    "ToolDefinitionError",
    "ToolError",
    "ToolRegistry",
    "ToolResult",
    "tool",
]
