"""The read side of the memory API: search, context, get, history, as typed results.

Search and context rank with page-in itself (every route, validity at ``as_of``, scored), so
what someone else's agent loop gets is what Memvisor's own agent would have paged in.
Every read is logged as a ``memory_read`` event with its trace id.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field

from memvisor.agent.guards.secrets import redact_secrets
from memvisor.errors import NotFound, UserError
from memvisor.paging.assembler import render_paged
from memvisor.paging.pagein import ALL_KINDS, MemoryItem, PageIn
from memvisor.paging.tokens import TokenCounter
from memvisor.storage import Event, Fact, Store
from memvisor.storage.clock import to_utc
from memvisor.storage.text import snippet

# The kinds a caller may ask for by name (recipes page in through their own route).
SEARCH_KINDS = ("fact", "passage", "turn", "episode", "recipe")


class MemoryHit(BaseModel):
    """One ranked memory: what it says, why it ranked, and where it came from."""

    id: str
    kind: str
    text: str
    score: float
    similarity: float
    routes: list[str]
    ts: datetime
    session_id: str | None = None
    confidence: float | None = None
    # The trace of the read that returned it (its memory_read event).
    trace_id: str


class MemoryContext(BaseModel):
    """The packed, budgeted memory section for a message, ready for a prompt."""

    query: str
    text: str  # "" when nothing cleared the relevance floor
    tokens: int
    budget: int
    hits: list[MemoryHit] = Field(default_factory=list)
    trace_id: str


class FactVersion(BaseModel):
    fact: Fact
    source_events: list[Event]


def check_kinds(kinds: Sequence[str] | None) -> tuple[str, ...]:
    if kinds is None:
        return tuple(ALL_KINDS)
    unknown = sorted(set(kinds) - set(SEARCH_KINDS))
    if unknown or not kinds:
        raise UserError(
            f"unknown memory kind(s) {unknown or '(none given)'}; use {', '.join(SEARCH_KINDS)}"
        )
    return tuple(kinds)


def ranked(
    store: Store,
    query: str,
    *,
    user_id: str,
    limit: int,
    kinds: Sequence[str] | None,
    as_of: datetime | None,
    counter: TokenCounter | None = None,
    floor: float = 0.0,
) -> tuple[PageIn, list[MemoryItem]]:
    if not isinstance(query, str) or not query.strip():
        raise UserError("the query is empty: say what to look for")
    if not 1 <= limit <= 1000:
        raise UserError(f"k must be between 1 and 1000, got {limit}")
    pagein = PageIn(store, floor=floor, **({"counter": counter} if counter else {}))
    items = pagein.retrieve(
        query,
        user_id=user_id,
        as_of=to_utc(as_of) if as_of is not None else None,  # a naive time is UTC
        kinds=check_kinds(kinds),
        limit=limit,
    )
    for item in items:  # a secret never leaves memory in clear, whatever the store holds
        item.text = redact_secrets(item.text)[0]
    return pagein, items


def hit(item: MemoryItem, trace_id: str) -> MemoryHit:
    return MemoryHit(
        id=item.id,
        kind=item.kind,
        text=item.text,
        score=round(item.score, 4),
        similarity=round(item.similarity, 4),
        routes=list(item.routes),
        ts=item.ts,
        session_id=item.session_id,
        confidence=item.confidence,
        trace_id=trace_id,
    )


def context_of(
    pagein: PageIn, packed: list[MemoryItem], *, query: str, budget: int, trace_id: str
) -> MemoryContext:
    """The section for items packed by score per token (``PageIn.pack``); the rendered
    section (heading and each item's id line) is held to ``budget``, lowest scores out first."""
    packed = sorted(packed, key=lambda i: i.score, reverse=True)
    while packed and pagein.counter.count(render_paged(packed)) > budget:
        packed.pop()
    text = render_paged(packed)
    return MemoryContext(
        query=query,
        text=text,
        tokens=pagein.counter.count(text) if text else 0,
        budget=budget,
        hits=[hit(i, trace_id) for i in packed],
        trace_id=trace_id,
    )


def get_record(store: Store, record_id: str, *, user_id: str) -> Any:
    """A fact, passage, episode, quarantined write, event, recipe, sealed secret, task or core
    block."""
    if not isinstance(record_id, str) or not record_id.strip():
        raise UserError("name a record: an id such as fct_… or a core block label")
    prefix = record_id.split("_", 1)[0] + "_"
    by_prefix = {
        "fct_": store.facts.get,
        "psg_": store.passages.get,
        "eps_": store.episodes.get,
        "qtn_": store.quarantine.get,
        "rcp_": store.recipes.get,
        "sec_": store.sealed.get,  # a sealed secret's description, never its value
    }
    if prefix in by_prefix:
        return by_prefix[prefix](record_id, user_id=user_id)
    if prefix == "evt_":
        event = store.events.get(record_id, user_id=user_id)
        if event is None:
            raise NotFound(f"no event {record_id!r} for user {user_id!r}")
        return event
    if record_id.startswith("task:"):
        return store.tasks.get(record_id.removeprefix("task:"), user_id=user_id)
    return store.core.get(record_id, user_id=user_id)


def fact_history(store: Store, fact_id: str, *, user_id: str) -> list[FactVersion]:
    """Every version of a fact's lineage, oldest first, with the events it came from."""
    if not fact_id.startswith("fct_"):
        raise UserError(
            f"{snippet(fact_id, 60)!r} is not a fact id: versions are kept for facts (fct_…) "
            "only; other records are read whole with get"
        )
    return [
        FactVersion(fact=v, source_events=store.events.many(v.source_event_ids, user_id=user_id))
        for v in store.facts.history(fact_id, user_id=user_id)
    ]
