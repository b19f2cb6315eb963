"""Page-in: retrieve, score and pack memory for the current user message.

Routes: exact identifiers (codes, emails, phones) over records and turns,
full-text (BM25) and vector similarity over facts, episodes, passages and
turns, and time expressions resolved against the session clock. Then the
validity filter at ``as_of`` (superseded, expired and quarantined facts never
page in), scoring per DESIGN.md section 3 plus what use taught, and a
relevance floor below which nothing is paged in.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from paging.summarize import identifiers
from paging.timeparse import TimeWindow, resolve_time
from paging.tokens import TokenCounter, counter_for_model
from storage import Store
from storage.users import require_user

TABLES = {"fact": "facts", "episode": "episodes", "passage": "passages", "turn": "turns"}
ALL_KINDS = ("fact", "episode", "passage", "turn")
BASE_IMPORTANCE = {"fact": 0.5, "episode": 0.5, "passage": 0.5, "turn": 0.3}
_POOL = ThreadPoolExecutor(max_workers=4, thread_name_prefix="engram-pagein")


@dataclass(frozen=True)
class ScoreWeights:
    similarity: float = 0.40
    importance: float = 0.25
    recency: float = 0.20
    confirmation: float = 0.15


SIMILARITY_ONLY = ScoreWeights(similarity=1.0, importance=0.0, recency=0.0, confirmation=0.0)


@dataclass
class MemoryItem:
    id: str
    kind: str
    text: str
    ts: datetime
    score: float
    similarity: float = 0.0
    routes: tuple[str, ...] = ()
    confidence: float | None = None
    tokens: int = 0
    meta: dict[str, Any] = field(default_factory=dict)
    # The raw turns (event ids) this item came from; a turn is its own source.
    source_turn_ids: list[str] = field(default_factory=list)


@dataclass
class _Candidate:
    id: str
    kind: str
    text: str
    ts: datetime
    meta: dict[str, Any]
    vector: float = 0.0
    fts: float = 0.0
    exact: float = 0.0
    time: float = 0.0
    routes: set[str] = field(default_factory=set)


class PageIn:
    def __init__(self, store: Store, *, counter: TokenCounter | None = None,
                 weights: ScoreWeights | None = None, floor: float = 0.30,
                 per_route: int = 20) -> None:
        self.store = store
        self.counter = counter or counter_for_model(None)
        self.weights = weights or ScoreWeights()
        self.floor = floor
        self.per_route = per_route

    def retrieve(self, query: str, *, user_id: str, as_of: datetime | None = None,
                 kinds: Sequence[str] = ALL_KINDS, limit: int = 20,
                 exclude_ids: Collection[str] = (), session_id: str | None = None,
                 weights: ScoreWeights | None = None) -> list[MemoryItem]:
        """Ranked memory for ``query`` above the relevance floor, best first."""
        require_user(user_id)
        if not query.strip():
            return []
        now = as_of or self.store.clock.now()
        found: dict[str, _Candidate] = {}
        self._search_routes(query, user_id, kinds, found)
        self._exact_route(query, user_id, kinds, found)
        window = resolve_time(query, now)
        if window is not None:
            self._time_route(window, user_id, kinds, session_id, found)
        return self._score(found, user_id=user_id, now=now, exclude=set(exclude_ids),
                           weights=weights or self.weights, limit=limit)

    def rank_turns(self, query: str, *, user_id: str, as_of: datetime | None = None,
                   limit: int = 50) -> list[MemoryItem]:
        """Raw turns ranked for ``query``: turns found directly, then via episodes/facts."""
        items = self.retrieve(query, user_id=user_id, as_of=as_of, limit=limit * 2,
                              kinds=("turn", "episode"), weights=SIMILARITY_ONLY)
        ranked: dict[str, MemoryItem] = {}
        for item in items:
            if item.kind == "turn":
                ranked.setdefault(item.id, item)
        return list(ranked.values())[:limit]

    def pack(self, items: Sequence[MemoryItem], *, budget_tokens: int) -> list[MemoryItem]:
        """Greedy by score per token into the budget; rank order kept in the output."""
        for item in items:
            item.tokens = item.tokens or self.counter.count(item.text) + 12
        chosen: set[int] = set()
        used = 0
        for n in sorted(range(len(items)),
                        key=lambda i: items[i].score / max(items[i].tokens, 1), reverse=True):
            if used + items[n].tokens <= budget_tokens:
                chosen.add(n)
                used += items[n].tokens
        return [item for n, item in enumerate(items) if n in chosen]

    # -- routes --

    def _search_routes(self, query: str, user_id: str, kinds: Sequence[str],
                       found: dict[str, _Candidate]) -> None:
        index = self.store.index
        tables = [TABLES[k] for k in kinds]
        for table in tables:
            index.sync(table, user_id=user_id)
        vector = self.store.embedder.embed([query])[0]
        jobs = [(table, mode) for table in tables for mode in ("vector", "fts")]
        results = _POOL.map(lambda job: index.index.search(
            job[0], query, user_id=user_id, mode=job[1], limit=self.per_route,
            query_vector=vector if job[1] == "vector" else None), jobs)
        for (_, mode), hits in zip(jobs, results, strict=True):
            for hit in hits:
                cand = found.setdefault(hit.id, _Candidate(hit.id, hit.kind, hit.text, hit.ts,
                                                           hit.meta))
                if mode == "vector":
                    cand.vector = max(cand.vector, hit.score)
                else:
                    cand.fts = max(cand.fts, hit.score / (hit.score + 4.0))
                cand.routes.add(mode)

    def _exact_route(self, query: str, user_id: str, kinds: Sequence[str],
                     found: dict[str, _Candidate]) -> None:
        for ident in identifiers(query)[:5]:
            hits: list[tuple[str, str, str, datetime, dict[str, Any]]] = []
            if "fact" in kinds:
                hits += [(f.id, "fact", f.text(), f.created_at, {}) for f in
                         self.store.facts.list(user_id=user_id)
                         if ident.lower() in f.text().lower()]
            if "passage" in kinds:
                hits += [(p.id, "passage", p.text, p.created_at, {}) for p in
                         self.store.passages.containing(ident, user_id=user_id)]
            if "turn" in kinds:
                hits += [(e.id, "turn", str(e.payload.get("content", "")), e.ts,
                          {"role": e.kind.split("_")[0]}) for e in
                         self.store.events.containing(
                             ident, user_id=user_id, kinds=["user_message", "assistant_message"])]
            for rid, kind, text, ts, meta in hits:
                cand = found.setdefault(rid, _Candidate(rid, kind, text, ts, meta))
                cand.exact = 1.0
                cand.routes.add("exact")

    def _time_route(self, window: TimeWindow, user_id: str, kinds: Sequence[str],
                    session_id: str | None, found: dict[str, _Candidate]) -> None:
        episodes = self.store.episodes.list(user_id=user_id, start=window.start, end=window.end)
        if window.last_time:
            earlier = [e for e in episodes if e.session_id != session_id]
            last_session = earlier[-1].session_id if earlier else None
            episodes = [e for e in earlier if e.session_id == last_session]
        if "episode" in kinds:
            for ep in episodes[-5:]:
                cand = found.setdefault(ep.id, _Candidate(ep.id, "episode", ep.summary,
                                                          ep.end_ts, {}))
                cand.time = 1.0
                cand.routes.add("time")
        for cand in found.values():
            if not window.last_time and window.start <= cand.ts < window.end:
                cand.time = 1.0
                cand.routes.add("time")

    # -- scoring --

    def _score(self, found: dict[str, _Candidate], *, user_id: str, now: datetime,
               exclude: set[str], weights: ScoreWeights, limit: int) -> list[MemoryItem]:
        facts = {f.id: f for f in self.store.facts.list(user_id=user_id, as_of=now)}
        usage = self.store.usage.stats([c for c in found], user_id=user_id)
        items: list[MemoryItem] = []
        for cand in found.values():
            if cand.id in exclude:
                continue
            fact = facts.get(cand.id)
            if cand.kind == "fact" and fact is None:
                continue  # superseded, expired, forgotten or quarantined: never paged in
            similarity = max(cand.vector, 0.9 * cand.fts, cand.exact)
            if len(cand.routes - {"time"}) > 1:
                similarity += 0.1
            similarity = min(1.0, similarity + 0.25 * cand.time)
            if similarity < self.floor:
                continue
            importance = fact.importance if fact else BASE_IMPORTANCE[cand.kind]
            hours = max(0.0, (now - cand.ts).total_seconds() / 3600)
            recency = 1.0 / (1.0 + hours / 168)
            confirmation = min(1.0, fact.confirmations / 3) if fact else 0.0
            paged, cited, corrected = usage.get(cand.id, (0, 0, 0))
            learned = 0.05 * math.log1p(cited) - 0.1 * corrected
            score = (weights.similarity * similarity + weights.importance * importance
                     + weights.recency * recency + weights.confirmation * confirmation
                     + (learned if weights.similarity < 1.0 else 0.0))
            items.append(MemoryItem(
                id=cand.id, kind=cand.kind, text=cand.text, ts=cand.ts, score=score,
                similarity=similarity, routes=tuple(sorted(cand.routes)),
                confidence=fact.confidence if fact else None,
                meta={**cand.meta, "object": fact.object} if fact else cand.meta,
                source_turn_ids=[cand.id] if cand.kind == "turn" else []))
        items.sort(key=lambda i: (-i.score, i.id))
        return items[:limit]
