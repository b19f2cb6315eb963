"""Archival memory tools: long passages saved and searched outside the context window."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from memvisor.storage.clock import iso
from memvisor.tools.context import ToolContext
from memvisor.tools.params import SearchLimit, SearchQuery
from memvisor.tools.registry import tool
from memvisor.tools.search import search_memory


@tool(shed=14)
def archival_memory_insert(
    ctx: ToolContext,
    content: Annotated[
        str, Field(description="Self-contained text to keep, with names, numbers and dates.")
    ],
) -> str:
    """Save a passage to archival memory for later search (orders, plans, documents, details).

    Good: archival_memory_insert(content="Order ORD-58213: standing desk, ordered 2026-05-04,
    delivery expected 2026-05-12.")
    Bad: archival_memory_insert(content="the order") (not findable or useful later).
    """
    return ctx.write("archival_memory_insert", {"content": content}).detail


@tool(shed=13)
def archival_memory_search(
    ctx: ToolContext,
    query: SearchQuery,
    limit: SearchLimit = 5,
) -> str:
    """Search archival memory passages by meaning and keywords.

    Good: archival_memory_search(query="standing desk order number")
    Bad: archival_memory_search(query="") (say what you need).
    """
    hits = search_memory(ctx, query, kinds=("passage",), limit=limit)
    ctx.note_read("archival_memory_search", query, [h.id for h in hits])
    if not hits:
        return "no matching passages"
    return "\n".join(f"{h.id} ({iso(h.ts)[:10]}): {h.text}" for h in hits)


@tool(shed=12)
def conversation_search(
    ctx: ToolContext,
    query: SearchQuery,
    limit: SearchLimit = 5,
) -> str:
    """Search past conversation turns (all sessions), including ones no longer in context.

    Good: conversation_search(query="what did I say about my daughter's school")
    Bad: conversation_search(query="stuff") (too vague to match anything).
    """
    hits = search_memory(ctx, query, kinds=("turn",), limit=limit)
    ctx.note_read("conversation_search", query, [h.id for h in hits])
    if not hits:
        return "no matching turns"
    return "\n".join(
        f"{h.id} ({iso(h.ts)[:16]}, {h.meta.get('role', '?')}): {h.text}" for h in hits
    )
