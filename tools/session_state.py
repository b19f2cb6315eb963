"""Session state tool: task-scoped slots of this session (the order being discussed, a choice).

Slots are cleared when the user clearly switches topic; lasting facts belong in fact_remember.
Like task progress they are the agent's working state, not claims about the user, but they
enter every prompt of the session: the firewall screens them like every write (a value that
reads like instructions is held, secrets are masked).
"""

from __future__ import annotations

import json
from typing import Annotated, Any

from pydantic import Field

from memvisor.tools.context import ToolContext
from memvisor.tools.registry import tool


@tool(shed=6)
def state_set(
    ctx: ToolContext,
    key: Annotated[str, Field(description="Slot name, e.g. 'order_id' or 'refund_step'.")],
    value: Annotated[Any, Field(description="Any JSON value; null deletes the slot.")],
) -> str:
    """Save a slot of task state for this session (shown to you as "state"); null deletes it.
    Slots are cleared when the user switches topic.

    Good: state_set(key="order_id", value="A-1234") while helping with that order.
    Bad: state_set(key="home_city", value="Oslo") (lasting facts go to fact_remember).
    """
    outcome = ctx.write("state_set", {"key": key, "value": value})
    if outcome.action == "absent":
        return f"no state {key!r} to delete"
    if outcome.action == "deleted":
        return f"deleted state {key!r}"
    return f"saved state {key} = {json.dumps(outcome.record, ensure_ascii=False)}"
