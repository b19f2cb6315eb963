"""Explain a turn: the chain from an answer back to the user's words and the memory in context."""

from __future__ import annotations

from typing import Any

from memvisor.errors import NotFound, UserError
from memvisor.storage import Store


def trace_chain(store: Store, ref: str, *, user_id: str) -> dict[str, Any]:
    """``ref`` is a trace id (trc_…) or any event id of the turn (evt_…)."""
    if ref.startswith("evt_"):
        event = store.events.get(ref, user_id=user_id)
        if event is None:
            raise NotFound(f"no event {ref!r} for user {user_id!r}")
        trace_id = event.trace_id
    elif ref.startswith("trc_"):
        trace_id = ref
    else:
        raise UserError(f"{ref!r} is neither a trace id (trc_…) nor an event id (evt_…)")
    events = store.events.list(user_id=user_id, trace_id=trace_id)
    if not events:
        raise NotFound(f"no events with trace id {trace_id!r} for user {user_id!r}")
    answer = next((e for e in reversed(events) if e.kind == "assistant_message"), None)
    memory_ids = list(answer.payload.get("memory_ids", [])) if answer else []
    return {
        "trace_id": trace_id,
        "events": [e.model_dump(mode="json") for e in events],
        "memory": [_describe(store, mid, user_id) for mid in memory_ids],
    }


def _describe(store: Store, memory_id: str, user_id: str) -> dict[str, Any]:
    try:
        if memory_id.startswith("fct_"):
            fact = store.facts.get(memory_id, user_id=user_id)
            sources = store.events.many(fact.source_event_ids, user_id=user_id)
            return {
                "id": memory_id,
                "kind": "fact",
                "text": fact.text(),
                "status": fact.status,
                "from": [
                    {"id": e.id, "kind": e.kind, "content": e.payload.get("content")}
                    for e in sources
                ],
            }
        if memory_id.startswith("psg_"):
            passage = store.passages.get(memory_id, user_id=user_id)
            return {
                "id": memory_id,
                "kind": "passage",
                "text": passage.text,
                "from": passage.source_event_ids,
            }
        if memory_id.startswith("evt_"):
            event = store.events.get(memory_id, user_id=user_id)
            return {
                "id": memory_id,
                "kind": "turn",
                "text": event.payload.get("content") if event else None,
            }
        if memory_id.startswith("core:"):
            return {"id": memory_id, "kind": "core_block"}
    except NotFound:
        pass
    return {"id": memory_id, "kind": "forgotten"}
