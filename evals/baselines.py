"""Baseline retrievers over a conversation's raw turns: BM25, dense (cosine) and recency.

Each one, like the Memvisor system itself, ranks turns for a question through the same
small protocol, so one scoring function serves all of them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import numpy as np

from memvisor.evals.metrics import RankedTurn
from memvisor.storage.embedders import Embedder


class TurnRanker(Protocol):
    """Ranks a conversation's turns for a question, best first, at most ``limit`` of them."""

    name: str

    def rank(self, question: str) -> list[RankedTurn]: ...


class Bm25Ranker:
    """Okapi BM25 (k1=1.5, b=0.75, lowercase words, English stopwords) via ``bm25s``."""

    name = "bm25"

    def __init__(self, turns: Sequence[RankedTurn], *, limit: int) -> None:
        import bm25s

        self._bm25s = bm25s
        self.turns = list(turns)
        self.limit = limit
        self._retriever = bm25s.BM25(k1=1.5, b=0.75)
        corpus = bm25s.tokenize([t.text for t in self.turns], stopwords="en", show_progress=False)
        self._retriever.index(corpus, show_progress=False)
        self._vocab = self._retriever.vocab_dict

    def rank(self, question: str) -> list[RankedTurn]:
        words = self._bm25s.tokenize(
            [question], stopwords="en", return_ids=False, show_progress=False
        )[0]
        known = [w for w in words if w in self._vocab]
        if not known or not self.turns:
            return []
        scores = np.asarray(self._retriever.get_scores(known))
        # A turn sharing no word with the question is not ranked at all.
        return _top(self.turns, scores, self.limit, positive_only=True)


class DenseRanker:
    """Cosine similarity of the question and each turn under the store's embedder.

    Turns are embedded once, in one batch; each question costs one query embedding.
    ``query_embedder`` may differ from ``embedder`` only in caching (same model).
    """

    name = "dense"

    def __init__(
        self,
        turns: Sequence[RankedTurn],
        *,
        embedder: Embedder,
        limit: int,
        query_embedder: Embedder | None = None,
    ) -> None:
        self.turns = list(turns)
        self.limit = limit
        self._query_embedder = query_embedder or embedder
        self._vectors = embedder.embed([t.text for t in self.turns]) if self.turns else None

    def rank(self, question: str) -> list[RankedTurn]:
        if self._vectors is None or not question.strip():
            return []
        query = self._query_embedder.embed([question])[0]
        return _top(self.turns, self._vectors @ query, self.limit)


class RecencyRanker:
    """The newest turns first, whatever the question: a recent-window baseline."""

    name = "recency"

    def __init__(self, turns: Sequence[RankedTurn], *, limit: int) -> None:
        self._newest_first = list(reversed(turns))[:limit]

    def rank(self, question: str) -> list[RankedTurn]:
        return list(self._newest_first)


def _top(
    turns: Sequence[RankedTurn], scores: np.ndarray, limit: int, *, positive_only: bool = False
) -> list[RankedTurn]:
    """The ``limit`` best-scoring turns; ties keep the older turn first (stable order)."""
    order = np.argsort(-scores, kind="stable")[:limit]
    return [turns[i] for i in order if not positive_only or scores[i] > 0]
