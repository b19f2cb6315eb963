"""Session state tool: task-scoped slots of this session (the order being discussed, a choice).

Slots are cleared when the user clearly switches topic; lasting facts belong in fact_remember.
Like task progress they are the agent's working state, not claims about the user, so they skip
the firewall's fact checks (it knows only memory writes). But they enter every prompt of the
session, so a value that reads like instructions is refused (the runtime hands over its
injection check in ``ctx.extras["steering"]``), and secrets are masked before they are stored
(``ctx.extras["redact"]``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Annotated, Any

from memvisor.storage.session_state import SessionState
from memvisor.tools.context import ToolContext
from memvisor.tools.guard import log_write
from memvisor.tools.registry import tool
from pydantic import Field

from memvisor.errors import ToolError, UserError


def state_of(store: Any) -> SessionState:
    """The store's SessionState if attached, else one over the same database."""
    attached = getattr(store, "session_state", None)
    return attached if isinstance(attached, SessionState) else SessionState(store.db, store.clock)


@tool
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
    ctx.count_write()
    steering: Callable[[str], list[str]] | None = ctx.extras.get("steering")
    reasons = steering(" ".join(_strings(value))) if steering is not None else []
    if reasons:
        raise ToolError(
            f"not saved ({', '.join(reasons)}): session state holds data such as ids and "
            "choices, never instructions"
        )
    redact: Callable[[str], str] | None = ctx.extras.get("redact")
    if redact is not None:
        value = _masked(value, redact)
    try:
        with ctx.store.db.transaction() as conn:
            action = state_of(ctx.store).set(
                key,
                value,
                user_id=ctx.user_id,
                session_id=ctx.session_id,
                trace_id=ctx.trace_id,
                topic=ctx.extras.get("topic"),
            )
            if action != "absent":
                log_write(ctx, conn, "session_state", key=key, action=action)
    except UserError as exc:
        raise ToolError(str(exc)) from None
    if action == "absent":
        return f"no state {key!r} to delete"
    if action == "deleted":
        return f"deleted state {key!r}"
    return f"saved state {key} = {json.dumps(value, ensure_ascii=False)}"


def _masked(value: Any, redact: Callable[[str], str]) -> Any:
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, list):
        return [_masked(v, redact) for v in value]
    if isinstance(value, dict):
        return {k: _masked(v, redact) for k, v in value.items()}
    return value


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in (str(k), *_strings(v))]
    return []
