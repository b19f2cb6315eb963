"""Steering text recognised by meaning: a nearest-prototype check on sentence embeddings.

The regex catalogue (``signals``, ``rules``) only knows phrasings it was written for. This layer
embeds each sentence of a write with the offline MiniLM embedder and compares it with two banks
shipped in ``data/prototypes.jsonl``: attacks (overrides, personas, promotion, exfiltration,
fake system or tool messages) and ordinary writes that look alike (the user's own preferences,
reminders, titles, "system"/"ignore"/"always" in their everyday sense). A sentence is steering
when it is much closer to an attack than to any ordinary write:
``max cos(attack) - max cos(benign) >= threshold``. Sentences are scored one by one so an
instruction hidden in a long harmless passage is not averaged away.

The banks are embedded once per process per embedder (the shipped ones once per model
version, kept in a ``DiskMemo``: 195 embeddings, ~0.3 s of a one-shot command's write); a
write costs one batched embedding.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from memvisor.storage.disk_memo import DiskMemo
from memvisor.storage.embedders import Embedder, embedder_from_name

from .regex_cache import FROM_RUN_START, compile_cached

PROTOTYPES = Path(__file__).parent / "data" / "prototypes.jsonl"
# Bounds the cost of one write (~1 ms a sentence); a write longer than this is scored on its
# first sentences plus overlapping windows over the rest, so nothing goes unread.
MAX_SENTENCES = 48

# A short clause with a pronoun for its subject after a semicolon ("...; they reported it.")
# stays with its sentence: alone it has lost whom it is about, and an embedding of it matches
# anything. An order has no subject ("...; forward everything out.") and is still read alone.
_SENTENCE_END = compile_cached(
    r"(?<=[.!?])\s+(?=\S)|(?<=[。！？；])|"
    r"(?<=;)(?!\s*(?:they|she|he|it|we|i)\s+(?:[A-Za-z'’]+\s+){0,1}[A-Za-z'’]+\s*(?:$|[.!?\n]))|"
    r"\n+|"
    rf"{FROM_RUN_START}\s*<[^>]{{1,40}}>\s*"
)
_LATIN_WORD = compile_cached(r"[A-Za-z\u00c0-\u024f]{2,}")


@dataclass(frozen=True)
class SemanticMatch:
    """The most steering-like sentence of a text and how close it came to each bank."""

    sentence: str
    score: float  # attack similarity minus benign similarity
    attack: str  # nearest attack prototype
    attack_similarity: float
    benign: str  # nearest ordinary prototype
    benign_similarity: float


@dataclass(frozen=True)
class _Bank:
    texts: tuple[str, ...]
    kinds: np.ndarray  # True for attack rows
    vectors: np.ndarray


def load_prototypes(path: Path = PROTOTYPES) -> list[tuple[str, str]]:
    """``(kind, text)`` rows of the prototype file; kind is ``attack`` or ``benign``."""
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            if row["kind"] not in ("attack", "benign"):
                raise ValueError(f"prototype kind must be attack or benign, not {row['kind']!r}")
            rows.append((row["kind"], row["text"]))
    return rows


def sentences(text: str) -> list[str]:
    """Sentences worth scoring: split on sentence ends, lines and markup tags; tiny ones dropped."""
    parts = [p.strip(" \t-*•>\"'") for p in _SENTENCE_END.split(text)]
    parts = [p for p in parts if _substantial(p) and _english(p)]
    if len(parts) > MAX_SENTENCES:
        head = parts[: MAX_SENTENCES // 2]
        rest = parts[MAX_SENTENCES // 2 :]
        size = -(-len(rest) // (MAX_SENTENCES // 2))
        parts = head + [" ".join(rest[i : i + size]) for i in range(0, len(rest), size)]
    return parts


def unread(text: str) -> bool:
    """Whether ``text`` holds a sentence this layer leaves out for not being English (another
    language, another script, an encoded run): the learned multilingual layer reads those
    writes, and only those, since its embedding costs several times this one."""
    for part in _SENTENCE_END.split(text):
        part = part.strip(" \t-*•>\"'")
        if sum(c.isalpha() for c in part) >= _UNREAD_LETTERS and not _plainly_english(part):
            return True
    return False


_UNREAD_LETTERS = 8  # fewer letters ("Oslo", "OK", a date) say nothing in any language
# Common English words that other Latin-script languages do not also use ("as", "do", "we",
# "me", "so", "over", "was", "die", "in", "also", "will" are Portuguese, Dutch, German ...).
_PLAIN_ENGLISH_TEXT = """\
the and are to of for you your my with this that be it it's from any now always never must
should can not at by or they she he her his their our user users about what when which
would have has had been were there here just than then them these those into only other
some such very after before more most please every each who how why where because while if
until since again once mine its i'm i've i'll you're you'll you've that's there's here's
let's don't doesn't didn't won't can't isn't aren't wasn't it'll we're they're he's she's
what's thanks thank great good nice awesome cool yeah yes sure really love like know think
feel hope glad sounds looks keep make made going get got did does well much many way
things thing time day life work help new old big little lot lots out up too back even"""
_PLAIN_ENGLISH_WORDS = frozenset(_PLAIN_ENGLISH_TEXT.split())
_UNREAD_MIN_WORDS = 5  # a shorter all-ASCII sentence ("Count me in, John!") is let be


def _plainly_english(sentence: str) -> bool:
    """Not plainly English: letters of another alphabet or accents (three at least, a tenth
    of its letters: a "café" near "José's" is still English), a run of letters longer than
    any English word (an encoding), or five words or more none of them common English
    ones. Doubt counts as not English: the price of a wrong "no" is one more embedding."""
    letters = [c for c in sentence if c.isalpha()]
    foreign = sum(not c.isascii() for c in letters)
    if foreign >= 3 and foreign >= 0.1 * len(letters):
        return False
    words = [w.lower() for w in re.findall(r"[A-Za-z']+", sentence)]
    if any(len(w) > 24 for w in words):
        return False
    return len(words) < _UNREAD_MIN_WORDS or any(w in _PLAIN_ENGLISH_WORDS for w in words)


def _english(sentence: str) -> bool:
    """MiniLM was trained on English: elsewhere its similarities are noise (other languages are
    the regex lexicons' job, ``lexicon.py``)."""
    letters = [c for c in sentence if c.isalpha()]
    if not letters:
        return False
    ascii_share = sum(c.isascii() for c in letters) / len(letters)
    words = {w.lower() for w in _LATIN_WORD.findall(sentence)}
    return ascii_share >= 0.9 and bool(words & _ENGLISH_WORDS)


_ENGLISH_WORDS_WORDS = """\
the and is are to of in for you your my on with this that be was it from all any now
always never will must should can not no do as at by an or me we they she he her his their
our user users"""
_ENGLISH_WORDS = frozenset(_ENGLISH_WORDS_WORDS.split())


def _substantial(sentence: str) -> bool:
    # Names, places and dates ("Elsa", "Oslo") cannot steer anyone and are cheap to skip.
    return len(_LATIN_WORD.findall(sentence)) >= 3


class SemanticDetector:
    """``SemanticDetector(threshold=...).match(text)``: the steering sentence, or None."""

    def __init__(
        self,
        *,
        threshold: float,
        embedder: Embedder | None = None,
        prototypes: list[tuple[str, str]] | None = None,
    ) -> None:
        self.threshold = threshold
        self.embedder = embedder or _default_embedder()
        self._prototypes = prototypes
        self._own_bank: _Bank | None = None

    def best(self, text: str) -> SemanticMatch | None:
        """The most steering-like English sentence of ``text`` (None: nothing worth scoring)."""
        parts = sentences(text)
        if not parts:
            return None
        whole = " ".join(parts)
        if len(parts) > 1 and len(parts) <= 4:
            parts.append(whole)  # a short instruction split over two sentences reads as one
        bank = self._bank()
        sims = self.embedder.embed(parts) @ bank.vectors.T
        attack = np.where(bank.kinds, sims, -1.0)
        benign = np.where(bank.kinds, -1.0, sims)
        a_idx, b_idx = attack.argmax(axis=1), benign.argmax(axis=1)
        rows = np.arange(len(parts))
        scores = attack[rows, a_idx] - benign[rows, b_idx]
        i = int(scores.argmax())
        return SemanticMatch(
            sentence=parts[i],
            score=float(scores[i]),
            attack=bank.texts[a_idx[i]],
            attack_similarity=float(attack[i, a_idx[i]]),
            benign=bank.texts[b_idx[i]],
            benign_similarity=float(benign[i, b_idx[i]]),
        )

    def match(self, text: str) -> SemanticMatch | None:
        """The steering sentence of ``text`` if one scores at or above the threshold."""
        best = self.best(text)
        if best is None or best.score < self.threshold:
            return None
        return best

    def _bank(self) -> _Bank:
        if self._prototypes is not None:
            if self._own_bank is None:
                self._own_bank = _embed_bank(self.embedder, self._prototypes)
            return self._own_bank
        key = (self.embedder.model_id, str(PROTOTYPES))
        bank = _SHIPPED_BANKS.get(key)
        if bank is None:
            bank = _SHIPPED_BANKS[key] = _shipped_bank(self.embedder)
        return bank


# Process-wide, like the embedder's own session: the banks are embedded once per model.
_SHIPPED_BANKS: dict[tuple[str, str], _Bank] = {}
# ... and across processes, for an embedder that says what its vectors depend on.
_BANK_MEMO = DiskMemo("prototype-vectors-1")


def _shipped_bank(embedder: Embedder) -> _Bank:
    rows = load_prototypes()
    fingerprint = getattr(embedder, "fingerprint", None)
    if fingerprint is None:
        return _embed_bank(embedder, rows)
    texts = "\0".join(f"{kind} {text}" for kind, text in rows)
    key = (fingerprint(), hashlib.sha256(texts.encode()).hexdigest())

    def embedded() -> tuple[bytes, int]:
        vectors = _vectors(embedder, rows)
        return vectors.tobytes(), vectors.shape[1]

    data, dim = _BANK_MEMO.get(key, embedded)
    return _bank(rows, np.frombuffer(data, dtype=np.float32).reshape(len(rows), dim))


@lru_cache(maxsize=1)
def _default_embedder() -> Embedder:
    return embedder_from_name("minilm")


def _embed_bank(embedder: Embedder, rows: list[tuple[str, str]]) -> _Bank:
    return _bank(rows, _vectors(embedder, rows))


def _vectors(embedder: Embedder, rows: list[tuple[str, str]]) -> np.ndarray:
    return np.asarray(embedder.embed([text for _, text in rows]), dtype=np.float32)


def _bank(rows: list[tuple[str, str]], vectors: np.ndarray) -> _Bank:
    return _Bank(
        texts=tuple(text for _, text in rows),
        kinds=np.array([kind == "attack" for kind, _ in rows]),
        vectors=vectors,
    )
