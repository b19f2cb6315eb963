"""Steering text recognised by its nearest neighbours among the red-team suites' writes.

The regex catalogue knows the phrasings it was written for and ``semantic.py`` reads English
only. This layer embeds a write with USE multilingual v3 (``storage/multilingual.py``, 16
languages) and reads the vector two ways, built offline from the red-team suites
(``python -m memvisor.evals.train_firewall_classifier``): how much closer its nearest attacks
are than its nearest ordinary texts (the mean cosine of the ``k`` nearest of each, the
difference times ``SCALE``), and a logistic regression; its score is the higher, each
against a threshold set out of fold for it. The suites' vectors ship in ``data/learned.npz``,
centred, projected onto their leading principal directions and stored as int8, with the
regression's weights, the threshold, the embedder's id and the digest of the suite files they
came from. A write is scored whole (its first ``WHOLE_CHARS``) and, when longer than one
window, in windows of a few sentences (at most ``MAX_WINDOWS``), so an order hidden in a long
page is not averaged away; its score is the highest.

Measured blind (README, "Secrets and the firewall"): on round 25, the firewall with this layer
stopped 120 of 140 attacks where it stopped 113 with the regression alone, holding the same
ordinary writes. The regression alone scores near the suites' attacks' own wordings (a
canonical "ignore all previous instructions" in German is close to the suites' ordinary notes
quoting such orders, so its neighbours alone score it low), the neighbours generalise further.
The neighbours leave the suites' encoded attacks out: what a reversed attack shares with a
reversed note about tea is its form (the decoders read the meaning).
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from .regex_cache import compile_cached

WEIGHTS = Path(__file__).parent / "data" / "learned.npz"
WHOLE_CHARS = 2_000
WINDOW_CHARS = 240
MAX_WINDOWS = 16
_WINDOW_CAP_CHARS = 600
SCALE = 20.0  # a score is a difference of mean cosines times this (a margin of 1 is 0.05)
_BYTE = 127.0  # stored vectors are unit vectors times this, rounded to int8

# Format characters (soft hyphens, zero widths, bidi controls, tag letters) that hide words
# from a tokenizer; NFKC folds full-width, mathematical and circled letters.
_FORMAT = compile_cached(
    r"[\u00ad\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufeff\U000e0000-\U000e007f]"
)
_SENTENCE_END = compile_cached(r"(?<=[.!?])\s+|(?<=[。！？；])|\n+")


@dataclass(frozen=True)
class LearnedMatch:
    """The most steering-like part of a text and its score (higher is worse)."""

    text: str
    score: float


@dataclass(frozen=True)
class LearnedModel:
    """The suites' vectors and how a text's vector is compared with them, and a logistic
    regression over the same vectors (its bias shifted so that both read one threshold)."""

    mean: np.ndarray  # (dim,) subtracted before projecting
    projection: np.ndarray  # (dim, d)
    attacks: np.ndarray  # (n, d) unit vectors
    ordinary: np.ndarray  # (m, d) unit vectors
    k: int
    weights: np.ndarray  # (dim,) the logistic regression's
    bias: float
    threshold: float
    margin_user_words: float
    embedder: str
    trained_on: dict[str, str]

    def project(self, vectors: np.ndarray) -> np.ndarray:
        """Embedder vectors as unit vectors in the suites' space."""
        p = (np.asarray(vectors, dtype=np.float32) - self.mean) @ self.projection
        return p / np.maximum(np.linalg.norm(p, axis=1, keepdims=True), 1e-12)

    def neighbour_scores(self, vectors: np.ndarray) -> np.ndarray:
        """The mean cosine of each vector's ``k`` nearest attacks less that of its ``k``
        nearest ordinary texts, times ``SCALE``."""
        p = self.project(vectors)
        return SCALE * (
            _nearest(p @ self.attacks.T, self.k) - _nearest(p @ self.ordinary.T, self.k)
        )

    def logistic_scores(self, vectors: np.ndarray) -> np.ndarray:
        return np.asarray(vectors, dtype=np.float32) @ self.weights + self.bias

    def scores(self, vectors: np.ndarray) -> np.ndarray:
        """One score per embedder vector: the higher of the two readings."""
        return np.maximum(self.neighbour_scores(vectors), self.logistic_scores(vectors))


def _nearest(similarity: np.ndarray, k: int) -> np.ndarray:
    k = min(k, similarity.shape[1])
    return np.partition(similarity, -k, axis=1)[:, -k:].mean(axis=1)


def quantized(unit_vectors: np.ndarray) -> np.ndarray:
    """Unit vectors as stored: int8."""
    return np.round(np.asarray(unit_vectors) * _BYTE).astype(np.int8)


def dequantized(stored: np.ndarray) -> np.ndarray:
    return stored.astype(np.float32) / _BYTE


def clean(text: str) -> str:
    """The reading the classifier was trained on: NFKC, format characters dropped."""
    return re.sub(r"[ \t]+", " ", _FORMAT.sub("", unicodedata.normalize("NFKC", text))).strip()


def windows(text: str) -> list[str]:
    """Runs of whole sentences of up to ``WINDOW_CHARS``; past ``MAX_WINDOWS`` the rest is
    joined into wider windows, so a long write costs a bounded number of embeddings."""
    parts = [p.strip() for p in _SENTENCE_END.split(text) if p and p.strip()]
    out: list[str] = []
    current = ""
    for part in parts:
        if current and len(current) + len(part) + 1 > WINDOW_CHARS:
            out.append(current)
            current = part
        else:
            current = f"{current} {part}".strip()
    if current:
        out.append(current)
    out = [w[:_WINDOW_CAP_CHARS] for w in out]
    if len(out) > MAX_WINDOWS:
        half = MAX_WINDOWS // 2
        head, rest = out[:half], out[half:]
        size = -(-len(rest) // half)
        out = head + [
            " ".join(rest[i : i + size])[:_WINDOW_CAP_CHARS] for i in range(0, len(rest), size)
        ]
    return out


def units(text: str) -> list[str]:
    """What is embedded for one write: the whole (clipped) and, if it has several, its windows."""
    text = clean(text)
    if not text:
        return []
    parts = windows(text)
    return [text[:WHOLE_CHARS], *(parts if len(parts) > 1 else [])]


def load_model(path: Path = WEIGHTS) -> LearnedModel:
    with np.load(path, allow_pickle=False) as data:
        meta: dict[str, Any] = json.loads(str(data["meta"]))
        return LearnedModel(
            mean=data["mean"].astype(np.float32),
            projection=data["projection"].astype(np.float32),
            attacks=dequantized(data["attacks"]),
            ordinary=dequantized(data["ordinary"]),
            k=int(meta["k"]),
            weights=data["weights"].astype(np.float32),
            bias=float(meta["bias"]),
            threshold=float(meta["threshold"]),
            margin_user_words=float(meta["margin_user_words"]),
            embedder=str(meta["embedder"]),
            trained_on=dict(meta["trained_on"]),
        )


class LearnedDetector:
    """``LearnedDetector().best(text)``: the highest-scoring part of a text, or None."""

    def __init__(self, *, model: LearnedModel | None = None, embedder: Any = None) -> None:
        self.model = model or _shipped_model()
        if embedder is None:
            from memvisor.storage.multilingual import USEMultilingualEmbedder

            embedder = USEMultilingualEmbedder()
        if embedder.model_id != self.model.embedder:
            raise ValueError(
                f"the learned layer was trained on {self.model.embedder} vectors, "
                f"not {embedder.model_id}'s"
            )
        self.embedder = embedder

    def scores(self, texts: list[str]) -> np.ndarray:
        """One score per text (each scored on its own units), for evaluation."""
        return np.array([m.score if (m := self.best(t)) else -np.inf for t in texts])

    def best(self, text: str) -> LearnedMatch | None:
        parts = units(text)
        if not parts:
            return None
        scores = self.model.scores(self.embedder.embed(parts))
        i = int(np.argmax(scores))
        return LearnedMatch(text=parts[i], score=float(scores[i]))


@lru_cache(maxsize=1)
def _shipped_model() -> LearnedModel:
    return load_model()
