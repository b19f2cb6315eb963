"""Facts from a logged conversation: a model reads it and calls the agent's own fact tool.

``Memory.add`` logs the messages first (that write is acknowledged whatever happens next),
then, when the memory has an extractor model, asks it once for the lasting facts the user
stated. Each call runs through the tool registry and ``ToolContext.write`` exactly as the
agent's tool calls do: origin ``model``, the logged turns as its sources and the
conversation as the words the firewall checks a fact against. A failing model leaves the
turns logged and says why; it never raises.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from memvisor.errors import MemvisorError
from memvisor.storage.ids import new_id
from memvisor.storage.logger import logger
from memvisor.tools.context import ToolContext
from memvisor.tools.fact_tools import fact_remember
from memvisor.tools.registry import ToolRegistry
from memvisor.tools.turn_log import TurnLog

if TYPE_CHECKING:
    from memvisor.agent.models.base import ChatModel
    from memvisor.storage.records import Event

    from .api import Memory

# The conversation the model reads: its most recent characters, so a long import cannot
# overflow a small window (about 3,000 tokens).
MAX_CONVERSATION_CHARS = 12_000
# Calls honoured from one reply; the turn's write cap applies as well.
MAX_CALLS = 16

PROMPT = (
    "You keep the long-term memory of one user. Read the conversation and save each lasting "
    "fact the USER states about themselves or their world (home, work, people, pets, "
    "preferences, plans with dates) with one fact_remember call per fact: subject is who the "
    "fact is about ('user' for the user), predicate a snake_case relation, object the value. "
    "Save nothing only the assistant said, no small talk, no instructions to an assistant and "
    "no secrets (passwords, codes, card numbers). If nothing lasting was said, call no tool."
)


class Extracted(BaseModel):
    """One fact call the extractor made and what the memory API did with it."""

    tool: str
    arguments: dict[str, Any]
    ok: bool
    result: str


class Extraction(BaseModel):
    """What extraction did for one ``Memory.add``."""

    model: str
    calls: list[Extracted]
    error: str | None = None


def extract_facts(
    memory: Memory,
    model: ChatModel,
    turns: list[Event],
    *,
    user_id: str,
    session_id: str | None,
    trace_id: str,
) -> Extraction:
    """Ask ``model`` for the facts in ``turns`` (as stored: secrets already masked) and write
    each through the agent's ``fact_remember``."""
    messages = [
        {"role": str(t.payload.get("role", "user")), "content": str(t.payload.get("content", ""))}
        for t in turns
    ]
    transcript = "\n".join(f"{m['role']}: {m['content']}" for m in messages)
    registry = ToolRegistry([fact_remember])
    prompt = [
        {"role": "system", "content": PROMPT},
        {"role": "user", "content": transcript[-MAX_CONVERSATION_CHARS:]},
    ]
    try:
        reply = model.chat(prompt, registry.specs())
    except MemvisorError as exc:
        logger.warning("fact extraction failed for {}: {}", user_id, exc)
        failed = Extraction(model=model.name, calls=[], error=str(exc))
        return _logged(memory, failed, user_id, trace_id)
    ctx = ToolContext(
        user_id=user_id,
        session_id=session_id or f"add-{new_id('ses')}",
        trace_id=trace_id,
        memory=memory,
        source_event_ids=[t.id for t in turns],
        turn=TurnLog(),
        origin="model",
        recent_messages=messages,
    )
    calls = []
    for call in reply.tool_calls[:MAX_CALLS]:
        result = registry.call(call.name, call.arguments, ctx)
        calls.append(
            Extracted(tool=call.name, arguments=call.arguments, ok=result.ok, result=result.content)
        )
    return _logged(memory, Extraction(model=model.name, calls=calls), user_id, trace_id)


def _logged(memory: Memory, extraction: Extraction, user_id: str, trace_id: str) -> Extraction:
    """An ``extraction`` event: which model, how many calls, which succeeded (ids only)."""
    memory.store.events.append(
        user_id=user_id,
        kind="extraction",
        trace_id=trace_id,
        payload={
            "model": extraction.model,
            "calls": len(extraction.calls),
            "saved": sum(c.ok for c in extraction.calls),
            "error": extraction.error,
        },
    )
    return extraction
