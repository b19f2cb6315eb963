"""episode_search: find summaries of past sessions and conversation segments."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from pydantic import Field

from memvisor.errors import ToolError, UserError, WriteRefused
from memvisor.paging.timeparse import resolve_time
from memvisor.storage.clock import iso, parse_time
from memvisor.tools.context import ToolContext
from memvisor.tools.params import SearchLimit, SearchQuery
from memvisor.tools.registry import tool
from memvisor.tools.search import search_memory

When = Annotated[
    str | None, Field(description="ISO date, or words such as 'last week', 'yesterday'.")
]


@tool(shed=9)
def episode_search(
    ctx: ToolContext,
    query: SearchQuery,
    start: When = None,
    end: When = None,
    limit: SearchLimit = 5,
) -> str:
    """Search summaries of past sessions ("what did we discuss last week about the desk?").
    Time words in the query ("last week", "yesterday", "in May") are understood.

    Good: episode_search(query="trip planning Lisbon", start="2026-05-01")
    Bad: episode_search(query="everything") (say what the episode was about).
    """
    since = _when(start, ctx, "start") if start else None
    until = _when(end, ctx, "end") if end else None
    hits = search_memory(ctx, query, kinds=("episode",), limit=limit * 3)
    episodes = {
        e.id: e
        for e in ctx.store.episodes.many([h.id for h in hits], user_id=ctx.user_id)
        if (since is None or e.end_ts >= since) and (until is None or e.start_ts <= until)
    }
    found = [episodes[h.id] for h in hits if h.id in episodes][:limit]
    ctx.note_read("episode_search", query, [e.id for e in found])
    if not found:
        return "no matching episodes"
    return "\n".join(
        f"{e.id} ({iso(e.start_ts)[:16]} to {iso(e.end_ts)[:16]}, session "
        f"{e.session_id}): {e.summary}"
        for e in found
    )


@tool(shed=2)
def episode_save(ctx: ToolContext) -> str:
    """Summarize this session so far into an episode now (before a break, or when asked).

    Good: episode_save() when the user says "let's stop here for today".
    Bad: episode_save() after every message (sessions are summarized when they end).
    """
    if ctx.save_episode is None:
        raise ToolError("episodes are saved from a running session; nothing to summarize here")
    try:
        ctx.turn.count_write()
    except WriteRefused as exc:
        raise ToolError(str(exc)) from None
    episode_id = ctx.save_episode()
    if episode_id is None:
        return "nothing new to summarize: every turn of this session is in an episode already"
    episode = ctx.store.episodes.get(episode_id, user_id=ctx.user_id)
    span = f"{iso(episode.start_ts)[:16]} to {iso(episode.end_ts)[:16]}"
    return f"episode saved: {episode.id} ({span})"


def _when(text: str, ctx: ToolContext, edge: str) -> datetime:
    """ISO-8601, or a period ("last week", "上周") whose start or end bounds the search."""
    try:
        return parse_time(text)
    except UserError:
        window = resolve_time(text, ctx.clock.now())
        if window is None:
            raise ToolError(
                f"{edge} {text!r} is not a time: use ISO-8601 (2026-05-04) or words such as "
                "'last week' or 'yesterday'"
            ) from None
        return window.start if edge == "start" else window.end
