"""Retrieval and answer metrics for the LoCoMo eval: recall@k, recall at a budget, F1.

Every system is scored by the same functions over the same ranked turn ids, so the
numbers of Memvisor and the baselines are comparable.
"""

from __future__ import annotations

import math
import re
import string
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

# Categories 1-4 make the overall figure; 5 (adversarial) is reported on its own, as in LoCoMo.
OVERALL_CATEGORIES = ("1", "2", "3", "4")


class RankedTurn(NamedTuple):
    """One retrieved raw turn: its event id, its text and its size in tokens."""

    turn_id: str
    text: str
    tokens: int


def recall_at_k(ranked_ids: Sequence[str], evidence_ids: Iterable[str], k: int) -> float:
    """Share of the evidence turns found among the first ``k`` ranked turns."""
    evidence = set(evidence_ids)
    if not evidence:
        raise ValueError("recall needs at least one evidence turn")
    return len(evidence & set(ranked_ids[:k])) / len(evidence)


def pack_in_rank_order(ranked: Sequence[RankedTurn], budget_tokens: int) -> list[RankedTurn]:
    """Take turns in rank order while they fit; a turn too big for what is left is skipped."""
    chosen: list[RankedTurn] = []
    used = 0
    for turn in ranked:
        if used + turn.tokens <= budget_tokens:
            chosen.append(turn)
            used += turn.tokens
    return chosen


def turns_fitting(token_counts: Iterable[int], budget_tokens: int) -> int:
    """The most turns any packing can fit in the budget (the smallest turns first)."""
    fitted = used = 0
    for tokens in sorted(token_counts):
        if used + tokens > budget_tokens:
            break
        fitted += 1
        used += tokens
    return fitted


def percentiles(values: Sequence[float], points: Sequence[int] = (50, 95)) -> dict[str, float]:
    """Linear-interpolated percentiles (numpy's default), ``{"p50": ..., "p95": ...}``."""
    if not values:
        return {f"p{p}": 0.0 for p in points}
    ordered = sorted(values)
    out = {}
    for p in points:
        position = (len(ordered) - 1) * p / 100
        low, high = math.floor(position), math.ceil(position)
        value = ordered[low] + (ordered[high] - ordered[low]) * (position - low)
        out[f"p{p}"] = round(value, 2)
    return out


def mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def _rounded(value: float | None, digits: int = 4) -> float | None:
    return None if value is None else round(value, digits)


# --- answers ------------------------------------------------------------------------------

_ARTICLES = re.compile(r"\b(a|an|the)\b")
_PUNCTUATION = str.maketrans("", "", string.punctuation)


def normalize_answer(text: str) -> str:
    """SQuAD's normalisation: lowercase, no punctuation, no articles, single spaces."""
    text = str(text).lower().translate(_PUNCTUATION)
    return " ".join(_ARTICLES.sub(" ", text).split())


def token_f1(prediction: str, gold: str) -> float:
    """Token-overlap F1 of the normalised answers (SQuAD / LoCoMo)."""
    predicted = normalize_answer(prediction).split()
    expected = normalize_answer(gold).split()
    if not predicted or not expected:
        return float(predicted == expected)
    common = sum((Counter(predicted) & Counter(expected)).values())
    if common == 0:
        return 0.0
    precision, recall = common / len(predicted), common / len(expected)
    return 2 * precision * recall / (precision + recall)


# --- per-system aggregation -----------------------------------------------------------------


@dataclass
class QuestionScore:
    category: str
    recall_at_k: dict[int, float]
    recall_at_budget: float
    budget_tokens: int
    latency_ms: float


def score_question(
    ranked: Sequence[RankedTurn],
    evidence_ids: Sequence[str],
    *,
    category: str,
    ks: Sequence[int],
    budget_tokens: int,
    latency_ms: float,
) -> QuestionScore:
    """Strict evidence recall of one ranking at each k and within the token budget."""
    ids = [t.turn_id for t in ranked]
    packed = pack_in_rank_order(ranked, budget_tokens)
    return QuestionScore(
        category=category,
        recall_at_k={k: recall_at_k(ids, evidence_ids, k) for k in ks},
        recall_at_budget=recall_at_k([t.turn_id for t in packed], evidence_ids, len(packed)),
        budget_tokens=sum(t.tokens for t in packed),
        latency_ms=latency_ms,
    )


@dataclass
class SystemScores:
    """Question scores of one system, summarised into the report's ``M`` document."""

    ks: Sequence[int]
    scores: list[QuestionScore] = field(default_factory=list)

    def add(self, score: QuestionScore) -> None:
        self.scores.append(score)

    def summary(self) -> dict[str, Any]:
        """Recall over categories 1-4 (question-averaged); cost figures over every question."""
        by_category: dict[str, list[QuestionScore]] = defaultdict(list)
        for score in self.scores:
            by_category[score.category].append(score)
        overall = [s for s in self.scores if s.category in OVERALL_CATEGORIES]
        return {
            **self._recalls(overall),
            "by_category": {
                cat: {**self._recalls(found), "questions": len(found)}
                for cat, found in sorted(by_category.items(), key=lambda kv: _category_key(kv[0]))
            },
            "tokens_per_query": _rounded(mean([s.budget_tokens for s in self.scores]), 1),
            "latency_ms": percentiles([s.latency_ms for s in self.scores]),
        }

    def _recalls(self, scores: Sequence[QuestionScore]) -> dict[str, Any]:
        return {
            "recall_at_k": {
                str(k): _rounded(mean([s.recall_at_k[k] for s in scores])) for k in self.ks
            },
            "recall_at_budget": _rounded(mean([s.recall_at_budget for s in scores])),
        }


def _category_key(category: str) -> tuple[int, str]:
    return (int(category), "") if category.isdigit() else (1 << 30, category)
