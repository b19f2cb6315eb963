"""Page-in: retrieve, score and pack memory for the current user message.

Routes: exact identifiers (codes, emails, phones) over records and turns,
full-text (BM25) and vector similarity over facts, episodes, passages and
turns, and time expressions resolved against the session clock. Then the
validity filter at ``as_of`` (superseded, expired and quarantined facts never
page in; given an ``as_of``, nothing written after it), scoring (similarity,
importance, recency, confirmation) plus what use taught, and a relevance floor
below which nothing is paged in.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, Concatenate, ParamSpec, TypeVar

from memvisor.paging.context_coverage import window_coverage
from memvisor.paging.query_terms import (
    as_said_by,
    content_words,
    expansion_words,
    named_speaker,
    without_speakers,
    words_held,
)
from memvisor.paging.summarize import identifiers
from memvisor.paging.text_limits import check_length
from memvisor.paging.timeparse import TimeWindow, resolve_time
from memvisor.paging.tokens import TokenCounter, counter_for_model
from memvisor.paging.turn_order import turn_order_for
from memvisor.storage import Fact, Store, require_user

if TYPE_CHECKING:
    import numpy as np

ALL_KINDS = ("fact", "episode", "passage", "turn", "recipe")
# Kinds whose time is when they came to be (a message, a note, an episode's end): a search
# ``as_of`` a time leaves out the later ones. Facts are valid from a time (``valid_among``);
# a recipe's time is its last edit, and it existed before.
_DATED = frozenset({"episode", "passage", "turn"})
# Importance of a record that carries none (only facts do); a raw turn is worth less than a
# record written on purpose. Set by hand.
BASE_IMPORTANCE = {"fact": 0.5, "episode": 0.5, "passage": 0.5, "turn": 0.3}
# Relevance below which nothing is paged in (``PageIn(floor=...)``). Set by hand.
RELEVANCE_FLOOR = 0.30
# Hits asked of each search route per indexed kind (``PageIn(per_route=...)``). Set by hand.
PER_ROUTE = 20
# Identifiers of the query (order numbers, emails, codes) looked up exactly. Set by hand.
MAX_NEEDLES = 5
# A recipe pages in when the request matches its trigger at least this well (cosine).
# Set by hand.
RECIPE_MIN_SIMILARITY = 0.45
# Recipes the trigger route offers at most. Set by hand.
RECIPE_LIMIT = 2
# Episodes of a time window ("yesterday") the time route adds, the latest ones. Set by hand.
TIME_EPISODES = 5
# rank_turns asks page-in for this many times its limit before keeping only turns. Set by hand.
TURN_OVERFETCH = 2
# Tokens an item costs in the prompt beyond its text: the "- [id · kind · date]" line head
# (paging.assembler.render_item). Set by hand.
ITEM_FRAME_TOKENS = 12
# Items up to this many tokens pack in rank order; only longer ones pay per token. Plain
# score per token let a 24-token "sounds good" reply (score 0.44) beat the 45-token turn
# that answered the question (0.48, first) in tests/test_long_session_recall.py. Set by hand.
PACK_MIN_TOKENS = 64
# Age in hours at which recency is one half (1 / (1 + hours / this)): a week. Set by hand.
RECENCY_HALF_HOURS = 168
# Confirmations that earn a fact the full confirmation share. Set by hand.
FULL_CONFIRMATIONS = 3
# Raw BM25 that counts as 0.5 absolute relevance (bm25 / (bm25 + this)), for the floor:
# raw BM25 has no upper bound. Set by hand.
FTS_HALF_RELEVANCE = 4.0
# Best-fused turns whose neighbours gain context; set by hand with the neighbour weight,
# measured on the LoCoMo dev conversations (README ranking table).
NEIGHBOUR_SOURCES = 50
# Best-fused turns whose sessions vote for the session prior; set by hand with the session
# weight, measured on the LoCoMo dev conversations (README ranking table).
SESSION_PRIOR_TURNS = 30
# Best hits of each search route whose shared words expand the query (pseudo-relevance
# feedback), the words taken and how many of those hits must hold a word; set by hand with
# the expansion weight, measured on the LoCoMo dev conversations (README ranking table).
EXPANSION_HITS = 5
EXPANSION_WORDS = 5
EXPANSION_MIN_HITS = 2


@dataclass(frozen=True)
class ScoreWeights:
    """The four-share score, plus decay: an item unused for long loses rank, not data.

    Unused means not paged in, cited, corrected or confirmed since ``unused_half_life_days``
    (counted from its creation when it never was): its score is scaled towards
    ``unused_floor`` with that half-life. Learning and decay apply only when the weights
    mix in more than similarity.
    """

    # The four shares of the score. Set by hand.
    similarity: float = 0.40
    importance: float = 0.25
    recency: float = 0.20
    confirmation: float = 0.15
    # Score gained per log1p(times cited) and lost per correction: what use taught.
    # Set by hand.
    cited_gain: float = 0.05
    correction_penalty: float = 0.1
    # Decay of unused items: half-life and the share they keep at most (README). Set by hand.
    unused_half_life_days: float = 90.0
    unused_floor: float = 0.5

    def decay(self, idle_days: float) -> float:
        if self.unused_half_life_days <= 0 or idle_days <= 0:
            return 1.0
        fade = 0.5 ** (idle_days / self.unused_half_life_days)
        return self.unused_floor + (1.0 - self.unused_floor) * fade


SIMILARITY_ONLY = ScoreWeights(similarity=1.0, importance=0.0, recency=0.0, confirmation=0.0)


@dataclass(frozen=True)
class RankingConfig:
    """How routes and context combine into similarity (measured on LoCoMo dev, see README).

    fts_weight: share of BM25 (normalized by the query's best) against vector similarity
    (min-max normalized). neighbour: a turn gains this share of an adjacent turn's
    similarity (answers sit next to questions). session: a prior for turns of sessions
    where many strong matches cluster. speaker: a boost for the turns of a speaker the
    query names. speaker_form: share of the query's vector taken from the query as that
    speaker would say it (``query_terms.as_said_by``). names_out_of_words: the BM25 query
    leaves out the speakers' names when the query names one. expansion: share of the words-side
    similarity given to the expansion words of the best hits (``query_terms``).
    """

    # Share of BM25 in the fused similarity. Tuned on the LoCoMo dev conversations.
    fts_weight: float = 0.6
    # Share of a turn's fused similarity the turn right before it gains (what it replied
    # to), and the turn right after it (its reply, which holds the answer to a question it
    # asks). 0.3 each before the split; tuned on the LoCoMo dev conversations (README).
    neighbour: float = 0.2
    reply: float = 0.4
    # Weight of the session prior. Tuned on the LoCoMo dev conversations.
    session: float = 0.15
    # Boost for the turns of the one speaker a query names. Tuned on the LoCoMo dev
    # conversations.
    speaker: float = 0.3
    # Share of the speaker's form in the query vector. Set by hand (an even mix), measured
    # on the LoCoMo dev conversations.
    speaker_form: float = 0.5
    # Search the words route without the names of the speakers the query names: every turn
    # of a speaker starts with the name, so BM25 rewarded that speaker's shortest turns
    # ("Caroline: Thanks!") for the name alone, which the speaker boost already rewards.
    # Measured on the LoCoMo dev conversations (README ranking table).
    names_out_of_words: bool = True
    # Share of the best similarity a turn gains for the query words it and its neighbours
    # hold between them (``context_coverage``). Tuned on the LoCoMo dev conversations.
    coverage: float = 0.2
    # Share of the expansion words in the words-side similarity. Off by default: 0.3 gives
    # LoCoMo dev R@10 0.782 (0.774 off), but its drift costs the long-session recall test's
    # session, generated from other seeds, up to two facts of 32 (README ranking table).
    expansion: float = 0.0
    # Added to both similarities of an item dated inside the query's time window. Set by hand.
    time_bonus: float = 0.25
    # Absolute relevance added to an item found both by meaning and by words. Set by hand.
    both_routes_bonus: float = 0.1
    # Share of its source turn's relevance a neighbour gets, for the floor; set by hand with
    # the neighbour weight, measured on the LoCoMo dev conversations.
    neighbour_relevance: float = 0.8


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
    session_id: str | None = None
    # The raw turns (event ids) this item came from; a turn is its own source.
    source_turn_ids: list[str] = field(default_factory=list)


@dataclass
class _Candidate:
    id: str
    kind: str
    text: str
    ts: datetime
    meta: dict[str, Any]
    session_id: str | None = None
    vector: float = 0.0
    fts: float = 0.0  # raw BM25
    expansion: float = 0.0
    exact: float = 0.0
    time: float = 0.0
    fused: float = 0.0  # query-relative similarity: both routes normalized, then context
    relevance: float = 0.0  # absolute similarity, for the floor
    routes: set[str] = field(default_factory=set)


P = ParamSpec("P")
R = TypeVar("R")


def _one_read(method: Callable[Concatenate[PageIn, P], R]) -> Callable[Concatenate[PageIn, P], R]:
    """Run ``method`` as one read of the store (``Database.one_read``): a page-in's caches
    ask the store's change counters nine times, PostgreSQL answers them in one round trip."""

    @functools.wraps(method)
    def read(self: PageIn, /, *args: P.args, **kwargs: P.kwargs) -> R:
        with self.store.db.one_read():
            return method(self, *args, **kwargs)

    return read


def _written_after(candidates: Collection[_Candidate], as_of: datetime | None) -> set[str]:
    """Ids of the candidates that did not exist yet at ``as_of`` (none without one)."""
    if as_of is None:
        return set()
    return {c.id for c in candidates if c.kind in _DATED and c.ts > as_of}


class PageIn:
    def __init__(
        self,
        store: Store,
        *,
        counter: TokenCounter | None = None,
        weights: ScoreWeights | None = None,
        floor: float = RELEVANCE_FLOOR,
        per_route: int = PER_ROUTE,
        ranking: RankingConfig | None = None,
    ) -> None:
        self.store = store
        self.ranking = ranking or RankingConfig()
        self.turn_order = turn_order_for(store)
        self._counter = counter  # the default loads on first use: ranking counts no tokens
        self.weights = weights or ScoreWeights()
        self.floor = floor
        self.per_route = per_route

    @property
    def counter(self) -> TokenCounter:
        if self._counter is None:
            self._counter = counter_for_model(None)
        return self._counter

    @_one_read
    def retrieve(
        self,
        query: str,
        *,
        user_id: str,
        as_of: datetime | None = None,
        kinds: Sequence[str] = ALL_KINDS,
        limit: int = 20,
        exclude_ids: Collection[str] = (),
        session_id: str | None = None,
        weights: ScoreWeights | None = None,
    ) -> list[MemoryItem]:
        """Ranked memory for ``query`` above the relevance floor, best first."""
        require_user(user_id)
        check_length(query, what="the search query")
        if not query.strip():
            return []
        now = as_of or self.store.clock.now()
        found: dict[str, _Candidate] = {}
        self._search_routes(
            query, user_id, kinds, found, max(self.per_route, limit), unwanted=exclude_ids
        )
        # Out before scoring, not only after: the message just logged matches itself best, so
        # whether its append had landed (it may, on the embed-ahead thread) moved every other
        # candidate's normalized BM25 and lent its neighbour context.
        for unwanted in exclude_ids:
            found.pop(unwanted, None)
        for later in _written_after(found.values(), as_of):  # before the routes' normalizing
            del found[later]
        window = resolve_time(query, now)
        if window is not None:
            self._time_route(window, user_id, kinds, session_id, found)
        return self._score(
            found,
            query=query,
            user_id=user_id,
            now=now,
            exclude=set(exclude_ids),
            as_of=as_of,
            weights=weights or self.weights,
            limit=limit,
        )

    def from_records(
        self, query: str, *, user_id: str, as_of: datetime | None = None, limit: int = 10
    ) -> list[MemoryItem]:
        """Active facts that share words or identifiers with ``query``, read from the records
        alone: what page-in can still offer when the search index or the embedder fails."""
        require_user(user_id)
        words = {w for w in re.findall(r"[^\W_]{3,}", query.lower())}
        needles = [n.lower() for n in identifiers(query)[:MAX_NEEDLES]]
        if not words and not needles:
            return []
        items = []
        for fact in self.store.facts.list(user_id=user_id, as_of=as_of, include_archived=False):
            text = fact.text()
            lowered = text.lower()
            hits = sum(w in lowered for w in words) + 3 * sum(n in lowered for n in needles)
            if hits:
                items.append(
                    MemoryItem(
                        id=fact.id,
                        kind="fact",
                        text=text,
                        ts=fact.created_at,
                        score=hits / (len(words) + 3 * len(needles)),
                        routes=("records",),
                        confidence=fact.confidence,
                    )
                )
        items.sort(key=lambda i: i.score, reverse=True)
        return items[:limit]

    def rank_turns(
        self, query: str, *, user_id: str, as_of: datetime | None = None, limit: int = 50
    ) -> list[MemoryItem]:
        """Raw turns ranked for ``query``: turns found directly, then via episodes/facts."""
        items = self.retrieve(
            query,
            user_id=user_id,
            as_of=as_of,
            limit=limit * TURN_OVERFETCH,
            kinds=("turn",),
            weights=SIMILARITY_ONLY,
        )
        ranked: dict[str, MemoryItem] = {}
        for item in items:
            if item.kind == "turn":
                ranked.setdefault(item.id, item)
        return list(ranked.values())[:limit]

    def pack(self, items: Sequence[MemoryItem], *, budget_tokens: int) -> list[MemoryItem]:
        """Greedy by score per token into the budget; rank order kept in the output."""
        for item in items:
            item.tokens = item.tokens or self.counter.count(item.text) + ITEM_FRAME_TOKENS
        return pack_by_score_per_token(items, budget_tokens, cost=lambda item: item.tokens)

    # -- routes --

    def _search_routes(
        self,
        query: str,
        user_id: str,
        kinds: Sequence[str],
        found: dict[str, _Candidate],
        per_route: int,
        *,
        unwanted: Collection[str] = (),
    ) -> None:
        indexed = [k for k in kinds if k != "recipe"]  # recipes have their own route
        speakers = self.turn_order.speakers(user_id=user_id) if "turn" in kinds else frozenset()
        query_vector = self._query_vector(query, speakers)
        words = query
        if query_vector is not None and self.ranking.names_out_of_words:
            # the vector is given, so the index embeds nothing: the words alone change
            words = without_speakers(query, speakers) or query
        routes = self.store.memory_routes(
            words,
            user_id=user_id,
            limit=per_route * max(1, len(indexed)),
            kinds=indexed,
            needles=identifiers(query)[:MAX_NEEDLES],  # order numbers, emails, phones, codes
            query_vector=query_vector,
            unwanted=unwanted,
        )
        if "recipe" in kinds:
            self._recipe_route(query, user_id, found)
        for mode, hits in (("vector", routes.vector), ("fts", routes.fts), ("exact", routes.exact)):
            for hit in hits:
                cand = found.setdefault(
                    hit.id, _Candidate(hit.id, hit.kind, hit.text, hit.ts, hit.meta, hit.session_id)
                )
                if mode == "vector":
                    cand.vector = max(cand.vector, hit.score)
                elif mode == "fts":
                    cand.fts = max(cand.fts, hit.score)
                else:
                    cand.exact = 1.0
                cand.routes.add(mode)
        if self.ranking.expansion:
            best = [h.text for h in routes.fts[:EXPANSION_HITS] + routes.vector[:EXPANSION_HITS]]
            self._expand(query, best, speakers, found)

    def _query_vector(self, query: str, speakers: frozenset[str]) -> np.ndarray | None:
        """The query's vector mixed with that of the query as the one speaker it names would
        say it; None (the index embeds the query) when it names none."""
        speaker = named_speaker(query, speakers) if self.ranking.speaker_form else None
        if speaker is None:
            return None
        import numpy as np  # not at import: `memory show` loads page-in, never the embedder

        plain, said = self.store.embedder.embed([query, as_said_by(query, speaker)])
        share = self.ranking.speaker_form
        mixed = (1 - share) * plain + share * said
        norm = float(np.linalg.norm(mixed))
        return mixed / norm if norm else None

    def _expand(
        self, query: str, best: list[str], speakers: frozenset[str], found: dict[str, _Candidate]
    ) -> None:
        """Pseudo-relevance feedback over the candidates found: each gains the share of the
        best hits' shared words (``query_terms.expansion_words``) its text holds."""
        words = expansion_words(
            best,
            query=query,
            exclude=speakers,
            limit=EXPANSION_WORDS,
            min_hits=EXPANSION_MIN_HITS,
        )
        if not words:
            return
        cands = [c for c in found.values() if c.kind != "recipe"]
        for cand, held in zip(cands, words_held(words, [c.text for c in cands]), strict=True):
            cand.expansion = len(held) / len(words)

    def _recipe_route(self, query: str, user_id: str, found: dict[str, _Candidate]) -> None:
        """Recipes whose trigger matches the request, ranked by success rate later."""
        matches = self.store.recipes.search(
            query,
            user_id=user_id,
            embedder=self.store.embedder,
            limit=RECIPE_LIMIT,
            min_similarity=RECIPE_MIN_SIMILARITY,
        )
        for match in matches:
            recipe = match.recipe
            steps = " ".join(f"{n}. {step}" for n, step in enumerate(recipe.steps, 1))
            text = (
                f"Recipe {recipe.name!r} (worked {recipe.successes}, failed {recipe.failures}); "
                f"for: {recipe.trigger}. Steps: {steps}"
            )
            cand = found.setdefault(
                recipe.id, _Candidate(recipe.id, "recipe", text, recipe.updated_at, {})
            )
            cand.vector = cand.relevance = match.similarity
            cand.meta = {"success_rate": round(recipe.success_rate, 3)}
            cand.routes.add("trigger")

    def _time_route(
        self,
        window: TimeWindow,
        user_id: str,
        kinds: Sequence[str],
        session_id: str | None,
        found: dict[str, _Candidate],
    ) -> None:
        episodes = self.store.episodes.list(user_id=user_id, start=window.start, end=window.end)
        if window.last_time:
            earlier = [e for e in episodes if e.session_id != session_id]
            last_session = earlier[-1].session_id if earlier else None
            episodes = [e for e in earlier if e.session_id == last_session]
        if "episode" in kinds:
            for ep in episodes[-TIME_EPISODES:]:
                cand = found.setdefault(
                    ep.id, _Candidate(ep.id, "episode", ep.summary, ep.end_ts, {})
                )
                cand.time = 1.0
                cand.routes.add("time")
        for cand in found.values():
            if not window.last_time and window.start <= cand.ts < window.end:
                cand.time = 1.0
                cand.routes.add("time")

    # -- scoring --

    def _fuse(self, found: dict[str, _Candidate], query: str, user_id: str) -> None:
        """Similarity relative to this query's candidates, then turn context."""
        cfg = self.ranking
        vectors = [c.vector for c in found.values() if "vector" in c.routes]
        vmin, vmax = (min(vectors), max(vectors)) if vectors else (0.0, 1.0)
        fmax = max((c.fts for c in found.values()), default=0.0) or 1.0
        for c in found.values():
            if c.kind == "recipe":  # matched on its trigger alone: absolute similarity
                c.fused = c.relevance = c.vector
                continue
            v = (c.vector - vmin) / ((vmax - vmin) or 1.0) if "vector" in c.routes else 0.0
            words = (1 - cfg.expansion) * c.fts / fmax + cfg.expansion * c.expansion
            c.fused = (1 - cfg.fts_weight) * v + cfg.fts_weight * words
            c.fused = max(c.fused, c.exact) + cfg.time_bonus * c.time
            absolute_fts = c.fts / (c.fts + FTS_HALF_RELEVANCE)
            c.relevance = max(c.vector, absolute_fts, c.exact) + cfg.time_bonus * c.time
            if {"vector", "fts"} <= c.routes:  # found by meaning and by words
                c.relevance += cfg.both_routes_bonus
        # equal similarities by id: which turns lend context must not depend on dict order
        turns = sorted(
            (c for c in found.values() if c.kind == "turn"), key=lambda c: (-c.fused, c.id)
        )
        if (cfg.neighbour or cfg.reply) and turns:
            self._neighbours(turns[:NEIGHBOUR_SOURCES], found, user_id)
        if cfg.session and turns:
            sessions: dict[str | None, float] = {}
            for c in turns[:SESSION_PRIOR_TURNS]:
                sessions[c.session_id] = sessions.get(c.session_id, 0.0) + c.fused
            top_session = max(sessions.values()) or 1.0
            top_score = turns[0].fused
            for c in found.values():
                if c.kind in ("turn", "episode") and c.session_id in sessions:
                    c.fused += cfg.session * sessions[c.session_id] / top_session * top_score
        if cfg.speaker:
            speakers = {str(c.meta.get("speaker")) for c in turns if c.meta.get("speaker")}
            named = named_speaker(query, speakers)
            if named is not None:
                for c in turns:
                    if c.meta.get("speaker") == named:
                        c.fused *= 1 + cfg.speaker
        if cfg.coverage and turns:
            self._coverage(query, found, user_id)

    def _coverage(self, query: str, found: dict[str, _Candidate], user_id: str) -> None:
        """Each candidate gains ``coverage`` of the best similarity times the share of the
        query's words it holds, a turn with the turns around it
        (``context_coverage.window_coverage``)."""
        speakers = self.turn_order.speakers(user_id=user_id)
        words = sorted(content_words(without_speakers(query, speakers)))
        cands = [c for c in found.values() if c.kind != "recipe"]
        if not words or not cands:
            return
        around = self.turn_order.neighbours(
            [c.id for c in cands if c.kind == "turn"], user_id=user_id
        )
        texts = {c.id: c.text for c in cands}
        for adjacent in around.values():
            texts.update((m.id, m.text) for m in adjacent if m.id not in texts)
        windows = {c.id: [m.id for m in around.get(c.id, [])] for c in cands}
        shares = window_coverage(words, texts, windows)
        top = max(c.fused for c in cands)
        for c in cands:
            c.fused += self.ranking.coverage * shares.get(c.id, 0.0) * top

    def _neighbours(
        self, turns: list[_Candidate], found: dict[str, _Candidate], user_id: str
    ) -> None:
        bonus: dict[str, tuple[float, float]] = {}
        adjacent = self.turn_order.around([c.id for c in turns], user_id=user_id)
        for c in turns:
            before, after = adjacent.get(c.id, (None, None))
            for turn, share in ((before, self.ranking.neighbour), (after, self.ranking.reply)):
                if turn is None:
                    continue
                gain = share * c.fused
                if gain > bonus.get(turn.id, (0.0, 0.0))[0]:
                    bonus[turn.id] = (gain, c.relevance)
                if turn.id not in found:
                    meta = {"role": turn.role}
                    meta.update(
                        {k: v for k, v in (("speaker", turn.speaker), ("dia_id", turn.dia_id)) if v}
                    )
                    found[turn.id] = _Candidate(
                        turn.id,
                        "turn",
                        turn.text,
                        turn.ts,
                        meta,
                        turn.session_id,
                        routes={"context"},
                    )
        for n, (gain, parent_relevance) in bonus.items():
            found[n].fused += gain
            found[n].relevance = max(
                found[n].relevance, parent_relevance * self.ranking.neighbour_relevance
            )

    def _score(
        self,
        found: dict[str, _Candidate],
        *,
        query: str,
        user_id: str,
        now: datetime,
        exclude: set[str],
        weights: ScoreWeights,
        limit: int,
        as_of: datetime | None = None,
    ) -> list[MemoryItem]:
        facts = self.store.facts.valid_among(list(found), user_id=user_id, as_of=now)
        self._fuse(found, query, user_id)
        exclude = exclude | _written_after(found.values(), as_of)  # neighbours added by fusing
        usage = self.store.usage.stats([c for c in found], user_id=user_id)
        scored: list[tuple[float, str, float, _Candidate]] = []
        for cand in found.values():
            if cand.id in exclude:
                continue
            fact = facts.get(cand.id)
            if cand.kind == "fact" and fact is None:
                continue  # superseded, expired, forgotten or quarantined: never paged in
            if cand.relevance < self.floor:
                continue
            similarity = min(1.0, cand.fused)
            if cand.kind == "recipe":  # ranked by how often it worked
                importance = float(cand.meta["success_rate"])
            else:
                importance = fact.importance if fact else BASE_IMPORTANCE[cand.kind]
            hours = max(0.0, (now - cand.ts).total_seconds() / 3600)
            recency = 1.0 / (1.0 + hours / RECENCY_HALF_HOURS)
            confirmation = min(1.0, fact.confirmations / FULL_CONFIRMATIONS) if fact else 0.0
            score = (
                weights.similarity * similarity
                + weights.importance * importance
                + weights.recency * recency
                + weights.confirmation * confirmation
            )
            if weights.similarity < 1.0:
                use = usage.get(cand.id)
                last_use = max(
                    cand.ts,
                    use.last_used_at if use else cand.ts,
                    (fact.last_confirmed_at if fact else None) or cand.ts,
                )
                if use:
                    score += (
                        weights.cited_gain * math.log1p(use.cited)
                        - weights.correction_penalty * use.corrected
                    )
                score *= weights.decay((now - last_use).total_seconds() / 86400)
            scored.append((score, cand.id, similarity, cand))
        scored.sort(key=lambda s: (-s[0], -s[3].fused, s[1]))
        return [
            _item(cand, score, similarity, facts) for score, _, similarity, cand in scored[:limit]
        ]


def pack_by_score_per_token(
    items: Sequence[MemoryItem],
    budget_tokens: int,
    *,
    cost: Callable[[MemoryItem], int],
    kept: Sequence[MemoryItem] = (),
) -> list[MemoryItem]:
    """The items that fit ``budget_tokens`` (``kept`` first), taken by score per token so one
    long item cannot starve several short ones; rank order kept in the output.

    An item shorter than ``PACK_MIN_TOKENS`` counts as that long: among sentence-sized items
    the better score wins, not the shorter text.
    """
    chosen = {id(item) for item in kept}
    used = sum(cost(item) for item in kept)
    for item in sorted(items, key=lambda i: i.score / max(cost(i), PACK_MIN_TOKENS), reverse=True):
        if id(item) not in chosen and used + cost(item) <= budget_tokens:
            chosen.add(id(item))
            used += cost(item)
    return [item for item in items if id(item) in chosen]


def _item(cand: _Candidate, score: float, similarity: float, facts: dict[str, Fact]) -> MemoryItem:
    fact = facts.get(cand.id)
    return MemoryItem(
        id=cand.id,
        kind=cand.kind,
        text=cand.text,
        ts=cand.ts,
        score=score,
        similarity=similarity,
        routes=tuple(sorted(cand.routes)),
        confidence=fact.confidence if fact else None,
        meta={**cand.meta, "object": fact.object} if fact else cand.meta,
        source_turn_ids=[cand.id] if cand.kind == "turn" else [],
        session_id=cand.session_id,
    )
