"""How much of a query a turn covers together with the turns right around it.

A question's words are often split between a turn and its neighbours: "What did Nate
recommend to Joanna?" matches Joanna's "Any book you'd recommend?" and the reply naming
the book, neither of which holds every word. ``window_coverage`` gives each candidate turn
the share of the query's words (weighted by their rarity among the candidates) that it and
its neighbours hold between them, so the turn whose exchange answers most of the question
gains. Deterministic, no model, no second search: the candidates and their neighbours are
already in memory.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from memvisor.paging.query_terms import words_held


def window_coverage(
    query_words: Sequence[str],
    texts: Mapping[str, str],
    windows: Mapping[str, Sequence[str]],
) -> dict[str, float]:
    """For each id of ``windows``, the rarity-weighted share (0 to 1) of ``query_words``
    (lowercase) held by its own text or by the texts of the ids it lists.

    ``texts`` holds every id named (a window's own id and its neighbours'); a word's rarity
    is ``log(1 + n / (1 + df))`` over those ``n`` texts, so a word every candidate holds
    counts for little.
    """
    words = sorted(set(query_words))
    if not words or not texts:
        return {}
    ids = list(texts)
    held = dict(zip(ids, words_held(words, [texts[i] for i in ids]), strict=True))
    n = len(ids)
    weight = {w: math.log(1 + n / (1 + sum(w in h for h in held.values()))) for w in words}
    total = sum(weight.values())
    shares: dict[str, float] = {}
    for turn_id, around in windows.items():
        covered = set(held.get(turn_id, ()))
        for other in around:
            covered |= held.get(other, set())
        shares[turn_id] = sum(weight[w] for w in covered) / total
    return shares
