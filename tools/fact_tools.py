"""Fact tools: remember, search and forget (subject, predicate, object) facts."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from memvisor.errors import ToolError
from memvisor.storage.clock import iso
from memvisor.tools.context import ToolContext
from memvisor.tools.params import SearchLimit, SearchQuery
from memvisor.tools.registry import tool
from memvisor.tools.search import search_memory


@tool
def fact_remember(
    ctx: ToolContext,
    subject: Annotated[str, Field(description="Who or what the fact is about, e.g. 'Maya'.")],
    predicate: Annotated[str, Field(description="Relation in snake_case, e.g. 'lives_in'.")],
    object: Annotated[str, Field(description="The value, e.g. 'Stockholm'.")],
    confidence: Annotated[float, Field(description="How sure you are, 0 to 1.")] = 0.9,
    importance: Annotated[float, Field(description="How much it matters later, 0 to 1.")] = 0.5,
    valid_until: Annotated[
        str | None,
        Field(
            description="When the fact stops holding, if temporary: ISO date or e.g. 'next month'."
        ),
    ] = None,
) -> str:
    """Save one fact about the user or their world. A new value for the same subject and
    predicate replaces the old one (the old stays in history); the same value again confirms it.

    Good: fact_remember(subject="Maya", predicate="lives_in", object="Stockholm")
    Bad: fact_remember(subject="user", predicate="info", object="Maya lives in Stockholm and
    has a daughter") (one fact per call, specific predicate).
    """
    arguments = {
        "subject": subject,
        "predicate": predicate,
        "object": object,
        "confidence": confidence,
        "importance": importance,
        "valid_until": valid_until,
    }
    return ctx.write("fact_remember", arguments).detail


@tool
def fact_search(
    ctx: ToolContext,
    query: SearchQuery,
    limit: SearchLimit = 5,
) -> str:
    """Search saved facts about the user (current values only).

    Good: fact_search(query="daughter name age")
    Bad: fact_search(query="*") (describe what you need).
    """
    hits = search_memory(ctx, query, kinds=("fact",), limit=limit)
    facts = {f.id: f for f in ctx.store.facts.list(user_id=ctx.user_id)}
    lines = []
    for hit in hits:
        fact = facts.get(hit.id)
        if fact is not None:
            lines.append(
                f"{fact.id} ({iso(fact.created_at)[:10]}, confidence "
                f"{fact.confidence:.2f}): {fact.text()}"
            )
    ctx.note_read("fact_search", query, [h.id for h in hits if h.id in facts])
    return "\n".join(lines) if lines else "no matching facts"


@tool(shed=10)
def fact_forget(
    ctx: ToolContext,
    fact_id: Annotated[
        str | None, Field(description="The id fact_search shows, e.g. 'fct_01…'.")
    ] = None,
    subject: Annotated[str | None, Field(description="Or: the fact's subject.")] = None,
    predicate: Annotated[str | None, Field(description="And its predicate.")] = None,
) -> str:
    """Forget a fact for good (every version), when the user asks you to forget it.
    Name it by id, or by subject and predicate.

    Good: fact_forget(fact_id="fct_01j9…") or fact_forget(subject="Maya", predicate="lives_in")
    Bad: fact_forget(fact_id="address") (use the id shown by fact_search).
    """
    if fact_id is None:
        fact_id = _fact_named(ctx, subject, predicate)
    return ctx.write("memory_forget", {"record_id": fact_id}).detail


def _fact_named(ctx: ToolContext, subject: str | None, predicate: str | None) -> str:
    """The one current fact with this subject and predicate (any case)."""
    if not subject or not predicate:
        raise ToolError("name the fact: fact_id, or both subject and predicate")
    wanted = (subject.strip().lower(), predicate.strip().lower())
    found = [
        f
        for f in ctx.store.facts.list(user_id=ctx.user_id, subject=subject.strip())
        if (f.subject.lower(), f.predicate.lower()) == wanted
    ]
    if not found:
        raise ToolError(
            f"no current fact {subject!r} {predicate!r}: find it with fact_search, "
            "then forget it by id"
        )
    if len(found) > 1:
        listed = "; ".join(f"{f.id}: {f.text()}" for f in found[:5])
        raise ToolError(f"{len(found)} facts match, forget one by id: {listed}")
    return found[0].id
