"""Core memory tools: edit the always-in-context blocks (persona, human)."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from memvisor.tools.context import ToolContext
from memvisor.tools.registry import tool

Label = Annotated[str, Field(description="Block label: 'human' (about the user) or 'persona'.")]


@tool
def core_memory_append(
    ctx: ToolContext,
    label: Label,
    content: Annotated[str, Field(description="Text to add on a new line of the block.")],
) -> str:
    """Add a line to a core memory block, which is always in your context.

    Use it for lasting facts about the user and standing preferences.
    Good: core_memory_append(label="human", content="Prefers answers in bullet points.")
    Bad: core_memory_append(label="human", content="User said hi") (not worth keeping).
    """
    return ctx.write("core_memory_append", {"label": label, "content": content}).detail


@tool(shed=11)
def core_memory_replace(
    ctx: ToolContext,
    label: Label,
    old_content: Annotated[str, Field(description="Exact text currently in the block.")],
    new_content: Annotated[str, Field(description="Replacement text ('' deletes it).")],
) -> str:
    """Replace exact text in a core memory block (to correct or remove it).

    Good: core_memory_replace(label="human", old_content="Lives in Oslo",
    new_content="Lives in Bergen")
    Bad: core_memory_replace(label="human", old_content="oslo?", new_content="...")
    (old_content must match the block exactly).
    """
    arguments = {"label": label, "old_content": old_content, "new_content": new_content}
    return ctx.write("core_memory_replace", arguments).detail
