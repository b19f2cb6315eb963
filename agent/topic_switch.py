"""Topic switches in a session: detect a clear one, reset task-scoped state, log it.

The running topic is rebuilt from the session's user messages since its last
``topic_switch`` event, so it survives restarts. A switch clears the session's
state slots and logs the event in one transaction; profile facts and core memory
are never touched.
"""

from __future__ import annotations

from typing import Any

from memvisor.agent.config import AgentConfig
from memvisor.agent.working_memory import WorkingMemory, redact
from memvisor.paging.topics import TopicDecision, TopicTracker
from memvisor.storage import Store
from memvisor.tools.context import ToolContext


def restore_tracker(
    store: Store, config: AgentConfig, *, user_id: str, session_id: str, log: Any
) -> TopicTracker | None:
    """The session's running topic, rebuilt from its user messages since the last switch."""
    if not config.topic_switches:
        return None
    since: list[str] = []
    for event in store.events.list(
        user_id=user_id, session_id=session_id, kinds=["user_message", "topic_switch"]
    ):
        if event.kind == "topic_switch":
            since = since[-1:]  # the message that switched opens the new topic
        else:
            since.append(str(event.payload.get("content", "")))
    tracker = TopicTracker(embedder=store.embedder, threshold=config.topic_threshold)
    try:
        tracker.restore(since)
    except Exception as exc:  # an embedder failing now fails page-in too; say so there
        log.warning("topic not restored, starting afresh: {}", exc)
    return tracker


def switch_topic(
    decision: TopicDecision, message: str, ctx: ToolContext, working: WorkingMemory
) -> str:
    """Clear the session's task state and log the switch; the note for the model."""
    store = ctx.store
    with store.db.transaction() as conn:  # the reset and its event commit together
        cleared = store.session_state.clear(
            user_id=ctx.user_id, session_id=ctx.session_id, trace_id=ctx.trace_id
        )
        store.events.append_in(
            conn,
            user_id=ctx.user_id,
            kind="topic_switch",
            trace_id=ctx.trace_id,
            session_id=ctx.session_id,
            payload={
                "previous_topic": redact(decision.previous_topic),
                "message": redact(" ".join(message.split())[:160]),
                "signal": decision.signal,
                "cue": decision.cue,
                "similarity": decision.similarity,
                "intents": [decision.intent_before, decision.intent_after],
                "cleared_keys": cleared,
            },
        )
    working.reset_task()
    previous = decision.previous_topic[:80]
    return (
        f'Topic switch: the user moved on from "{previous}"; the task state of that topic '
        f"was reset ({', '.join(cleared) or 'no saved keys'} cleared). Profile facts and "
        "core memory are unchanged."
    )
