"""Memory search for the search tools: page-in's routes (exact ids, full text, vectors, time)."""

from __future__ import annotations

from memvisor.errors import ToolError
from memvisor.paging.pagein import SIMILARITY_ONLY, MemoryItem, PageIn
from memvisor.tools.context import ToolContext


def search_memory(
    ctx: ToolContext, query: str, *, kinds: tuple[str, ...], limit: int
) -> list[MemoryItem]:
    if not query.strip():
        raise ToolError("the query is empty: say what to look for")
    return PageIn(ctx.store, floor=0.0).retrieve(
        query,
        user_id=ctx.user_id,
        as_of=ctx.clock.now(),
        kinds=kinds,
        limit=limit,
        session_id=ctx.session_id,
        weights=SIMILARITY_ONLY,
    )
