"""Steering text recognised by a learned classifier over multilingual sentence embeddings.

The regex catalogue knows the phrasings it was written for and ``semantic.py`` reads English
only. This layer embeds a write with USE multilingual v3 (``storage/multilingual.py``, 16
languages) and scores it with a logistic regression trained offline on the red-team suites
(``python -m memvisor.evals.train_firewall_classifier``), shipped as ``data/learned.json``:
weights, bias, threshold, the embedder's id and the digest of the suite files it was trained
on. A write is scored whole (its first ``WHOLE_CHARS``) and, when longer than one window, in
windows of a few sentences (at most ``MAX_WINDOWS``), so an order hidden in a long page is not
averaged away; its score is the highest.

Measured blind by rounds (README, "Secrets and the firewall"): it adds one to six stopped
attacks in a round of 140 that the firewall of the day missed, holds no ordinary write more,
and holds 0.2% or fewer of everyday conversation turns.
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

WEIGHTS = Path(__file__).parent / "data" / "learned.json"
WHOLE_CHARS = 2_000
WINDOW_CHARS = 240
MAX_WINDOWS = 16
_WINDOW_CAP_CHARS = 600

# Format characters (soft hyphens, zero widths, bidi controls, tag letters) that hide words
# from a tokenizer; NFKC folds full-width, mathematical and circled letters.
_FORMAT = re.compile(r"[\u00ad\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufeff\U000e0000-\U000e007f]")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|(?<=[。！？；])|\n+")


@dataclass(frozen=True)
class LearnedMatch:
    """The most steering-like part of a text and its score (a logit; higher is worse)."""

    text: str
    score: float


@dataclass(frozen=True)
class LearnedModel:
    weights: np.ndarray
    bias: float
    threshold: float
    margin_user_words: float
    embedder: str
    trained_on: dict[str, str]


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
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return LearnedModel(
        weights=np.asarray(data["weights"], dtype=np.float32),
        bias=float(data["bias"]),
        threshold=float(data["threshold"]),
        margin_user_words=float(data["margin_user_words"]),
        embedder=str(data["embedder"]),
        trained_on=dict(data["trained_on"]),
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
        logits = self.embedder.embed(parts) @ self.model.weights + self.model.bias
        i = int(np.argmax(logits))
        return LearnedMatch(text=parts[i], score=float(logits[i]))


@lru_cache(maxsize=1)
def _shipped_model() -> LearnedModel:
    return load_model()
