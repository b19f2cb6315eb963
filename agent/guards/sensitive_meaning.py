"""Sensitive claims found by meaning, in any language the multilingual embedder reads.

``sensitive.categories`` reads words, and each round's invented claims bring words no list
holds ("votes Reform UK", "개신교 신자", "مطلّق", "celiaki"). This step compares a model's claim
about the user with a bank of sensitive claims (politics, health, religion, family status,
sexuality, employer, money; ``data/sensitive_prototypes.json``) and a bank of ordinary facts
about a user (plans, tastes, hobbies, devices, errands), over USE multilingual v3 vectors
(``storage/multilingual.py``, the ``restated`` step's embedder). A sentence is sensitive when it
is close to a sensitive claim and clearly closer to it than to any ordinary fact.

The firewall asks it only for a model's claim that no sensitive word matched and whose terms
the user's words do not carry (``model_inferred``): one batched embedding, on few writes.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from .regex_cache import FROM_RUN_START, compile_cached
from .restated import SENTENCE_BREAK
from .sensitive import KOREAN_AND

PROTOTYPES = Path(__file__).parent / "data" / "sensitive_prototypes.json"
# Calibrated on the red-team suites' model notes (invented claims against ordinary ones) and on
# LoCoMo's turns (whose held-back count it must not raise): see ``tests/test_redteam_round17``.
SIMILARITY = 0.45
MARGIN = 0.2

# A claim's clauses, read apart too: "votes X and is unhappy with Y" holds its claim in the
# first clause, which the second would dilute.
_CLAUSE = compile_cached(
    rf"{FROM_RUN_START}(?:\s*[,，、—–]\s*|\s+(?:and|och|und|et|y|e|en|og|ve|и|і|а также|và|dan|i|"
    rf"oraz)\s+|\s+و(?=\S))|{KOREAN_AND}\s+",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class SensitiveMeaning:
    sentence: str
    category: str
    similarity: float  # to the nearest sensitive claim
    margin: float  # over the nearest ordinary fact


def sensitive_by_meaning(text: str, *, embedder: Any = None) -> SensitiveMeaning | None:
    """The sentence or clause of ``text`` that reads most as a sensitive claim, if one does."""
    whole = [s.strip() for s in SENTENCE_BREAK.split(text) if len(s.strip()) > 3]
    parts = [c.strip() for s in whole for c in _CLAUSE.split(s) if len(c.strip()) > 3]
    sentences = list(dict.fromkeys([*whole, *parts]))
    if not sentences:
        return None
    bank = _bank(embedder)
    vectors = bank.embedder.embed(sentences)
    sensitive = vectors @ bank.sensitive.T
    ordinary = (vectors @ bank.ordinary.T).max(axis=1)
    found = [
        SensitiveMeaning(
            sentence,
            bank.categories[int(sensitive[i].argmax())],
            float(sensitive[i].max()),
            float(sensitive[i].max() - ordinary[i]),
        )
        for i, sentence in enumerate(sentences)
    ]
    best = max(found, key=lambda m: min(m.similarity - SIMILARITY, m.margin - MARGIN))
    return best if best.similarity >= SIMILARITY and best.margin >= MARGIN else None


@dataclass(frozen=True)
class _Bank:
    embedder: Any
    categories: tuple[str, ...]
    sensitive: np.ndarray
    ordinary: np.ndarray


@lru_cache(maxsize=2)
def _bank(embedder: Any = None) -> _Bank:
    if embedder is None:
        from memvisor.storage.multilingual import USEMultilingualEmbedder

        embedder = USEMultilingualEmbedder()
    data = json.loads(PROTOTYPES.read_text(encoding="utf-8"))
    rows = [(name, text) for name, texts in data["sensitive"].items() for text in texts]
    return _Bank(
        embedder=embedder,
        categories=tuple(name for name, _ in rows),
        sensitive=np.asarray(embedder.embed([text for _, text in rows])),
        ordinary=np.asarray(embedder.embed(data["ordinary"])),
    )
