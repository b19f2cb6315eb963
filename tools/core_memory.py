"""Core memory tools: edit the always-in-context blocks (persona, human)."""

from __future__ import annotations

from typing import Annotated

from memvisor.paging.tokens import counter_for_model
from memvisor.tools.context import ToolContext
from memvisor.tools.guard import guarded_write, log_write
from memvisor.tools.registry import tool
from pydantic import Field

from memvisor.errors import ToolError

Label = Annotated[str, Field(description="Block label: 'human' (about the user) or 'persona'.")]


def _tokens(ctx: ToolContext, text: str) -> int:
    return counter_for_model(ctx.extras.get("model_name")).count(text)


def _write_block(ctx: ToolContext, label: str, new_value: str, expected_version: int) -> str:
    block = ctx.store.core.get(label, user_id=ctx.user_id)
    size = _tokens(ctx, new_value)
    if size > block.token_limit:
        raise ToolError(
            f"block '{label}' would be {size} tokens; its limit is {block.token_limit} "
            f"(now {_tokens(ctx, block.value)}). Replace or shorten old content with "
            "core_memory_replace, or save details with archival_memory_insert instead"
        )
    with ctx.store.db.transaction() as conn:  # the block and its event commit together
        updated = ctx.store.core.update(
            label,
            new_value,
            user_id=ctx.user_id,
            expected_version=expected_version,
            trace_id=ctx.trace_id,
        )
        log_write(ctx, conn, "core_block", label=label, version=updated.version)
    return f"saved: block '{label}' is now {size}/{block.token_limit} tokens"


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
    block = ctx.store.core.get(label, user_id=ctx.user_id)
    args = guarded_write(ctx, "core_memory_append", {"label": label, "content": content})
    line = args["content"].strip()
    value = f"{block.value}\n{line}" if block.value.strip() else line
    return _write_block(ctx, label, value, block.version)


@tool
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
    block = ctx.store.core.get(label, user_id=ctx.user_id)
    if not old_content or old_content not in block.value:
        raise ToolError(
            f"'{old_content}' is not in block '{label}'; copy the exact text from "
            "the block shown in your context"
        )
    args = guarded_write(
        ctx,
        "core_memory_replace",
        {"label": label, "old_content": old_content, "new_content": new_content},
    )
    value = block.value.replace(old_content, args["new_content"], 1).strip()
    return _write_block(ctx, label, value, block.version)
