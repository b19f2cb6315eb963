"""Task tools: keep a batch operation's progress so it survives a crash or restart.

Each ``task_update`` commits before it returns, so "how far along are we?" and
"continue" are answered from the store, not from a dialogue that may be gone.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from memvisor.errors import ToolError, UserError
from memvisor.storage.clock import iso
from memvisor.storage.tasks import TaskState
from memvisor.tools.context import ToolContext
from memvisor.tools.params import MAX_COUNT
from memvisor.tools.registry import tool

TaskId = Annotated[
    str, Field(description="A stable id you choose for the batch, e.g. 'rename-photos-2026'.")
]
Count = Annotated[int | None, Field(description="A count of items.", ge=0, le=MAX_COUNT)]
SHOWN_ERRORS = 3


def describe_task(task: TaskState) -> str:
    """One block the model can answer "how far along?" and "continue" from."""
    lines = [f"task {task.task_id} '{task.title}' [{task.status}]: {task.progress()}"]
    if task.last_success:
        lines.append(f"  last done: {task.last_success}")
    if task.status == "open":
        of_total = f" of {task.total}" if task.total else ""
        lines.append(f"  continue at: item {task.next_item}{of_total}")
    if task.errors:
        shown = "; ".join(task.errors[-SHOWN_ERRORS:])
        lines.append(f"  errors ({len(task.errors)}, latest last): {shown}")
    lines.append(f"  updated {(iso(task.updated_at) or '?')[:16]}")
    return "\n".join(lines)


@tool(shed=8)
def task_update(
    ctx: ToolContext,
    task_id: TaskId,
    total: Annotated[Count, Field(description="How many items the batch has.")] = None,
    completed: Annotated[
        Count, Field(description="How many items are finished so far (not the item number).")
    ] = None,
    last_success: Annotated[
        str | None, Field(description="What last succeeded, e.g. 'renamed IMG_0007.jpg'.")
    ] = None,
    error: Annotated[
        str | None, Field(description="An error to add to the task's log, if a step failed.")
    ] = None,
    title: Annotated[str | None, Field(description="What the batch does, when starting.")] = None,
    status: Annotated[
        Literal["open", "done", "failed", "cancelled"] | None,
        Field(description="Set when the batch ends or is abandoned."),
    ] = None,
) -> str:
    """Record progress of a multi-step or batch task after EVERY step, so it can be resumed
    after a crash or a new session. Start it with a title and total; it is marked done when
    completed reaches total.

    Good: task_update(task_id="rename-photos", completed=8, last_success="renamed IMG_0008")
    Bad: task_update(task_id="rename-photos", completed=9) before item 9 actually finished.
    """
    outcome = ctx.write(
        "task_update",
        {
            "task_id": task_id,
            "title": title,
            "total": total,
            "completed": completed,
            "last_success": last_success,
            "error": error,
            "status": status,
        },
    )
    return "recorded " + describe_task(outcome.record)


@tool(shed=7)
def task_status(
    ctx: ToolContext,
    task_id: Annotated[
        str | None, Field(description="The task id; leave out to list all open tasks.")
    ] = None,
) -> str:
    """Show how far a batch task got and where to continue ("how far along are we?",
    "continue"). Without an id, lists the user's open tasks, most recent first.

    Good: task_status() when the user says "continue" and you do not know the task id.
    Bad: guessing progress from the conversation instead of calling task_status.
    """
    tasks = ctx.store.tasks
    try:
        found = (
            [tasks.get(task_id, user_id=ctx.user_id)]
            if task_id
            else tasks.list_open(user_id=ctx.user_id)
        )
    except UserError as exc:
        raise ToolError(str(exc)) from None
    ctx.note_read("task_status", task_id or "", [f"task:{t.task_id}" for t in found])
    if not found:
        return "no open tasks"
    return "\n".join(describe_task(t) for t in found)
