"""Eviction: the oldest dialogue leaves the window as a summary and an episode.

Transactional: the summary, the episode and the eviction event commit together
before the caller drops the turns; if summarizing or committing fails, the
window stays as it was (the caller logs the failure).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from memvisor.paging.summarize import NAME, DialogueTurn, Summarizer, fold, identifiers
from memvisor.paging.tokens import TokenCounter, count_messages
from memvisor.storage import Store


@dataclass
class EvictionResult:
    evicted: int
    summary: str
    episode_id: str
    summary_version: int


def turns_to_evict(
    turns: Sequence[DialogueTurn], *, counter: TokenCounter, excess_tokens: int
) -> int:
    """How many of the oldest turns free ``excess_tokens``; the newest turn always stays."""
    freed, count = 0, 0
    for turn in turns[:-1]:
        if freed >= excess_tokens:
            break
        freed += count_messages(counter, turn.messages())
        count += 1
    return count


def entities(turns: Sequence[DialogueTurn]) -> list[str]:
    text = " ".join(f"{t.user} {t.assistant}" for t in turns)
    names = [n for n in NAME.findall(text)]
    counts = {n: names.count(n) for n in set(names)}
    ranked = sorted(counts, key=lambda n: (-counts[n], n))[:12]
    return list(dict.fromkeys([*identifiers(text)[:12], *ranked]))


def evict(
    store: Store,
    *,
    user_id: str,
    session_id: str,
    turns: Sequence[DialogueTurn],
    summarizer: Summarizer,
    counter: TokenCounter,
    summary_cap: int,
    trace_id: str,
    mask: Callable[[str], str] | None = None,
) -> EvictionResult:
    """Summarize ``turns`` into the rolling summary and a new episode, committed.

    ``mask`` (the runtime's PII masker) runs over the segment before it is stored.
    """
    segment = summarizer.summarize(turns)
    if mask is not None:
        segment = mask(segment)
    previous, _ = store.summaries.get(user_id=user_id, session_id=session_id)
    rolling = fold(previous, segment, cap=summary_cap, counter=counter)
    sources = [i for t in turns for i in (t.user_event_id, t.assistant_event_id) if i]
    episode = store.episodes.build(
        user_id=user_id,
        session_id=session_id,
        start_ts=turns[0].ts,
        end_ts=turns[-1].ts,
        summary=segment,
        entities=entities(turns),
        source_event_ids=sources,
        trace_id=trace_id,
    )
    version = store.save_eviction(
        user_id=user_id,
        session_id=session_id,
        summary=rolling,
        episode=episode,
        evicted_event_ids=sources,
        trace_id=trace_id,
    )
    return EvictionResult(
        evicted=len(turns), summary=rolling, episode_id=episode.id, summary_version=version
    )
