"""A wallet's recovery phrase written without its name: 12 words or more of one BIP-39 list in
a row.

The named forms ("seed phrase: ...", "助记词 ...") are ``SECRET_PATTERNS["recovery_phrase"]``;
this finds the words alone ("wrote it on paper, for now it's orbit velvet canyon ..."). Each
BIP-39 list (Trezor's ``mnemonic`` package, MIT) holds 2,048 words and none of the short
words prose cannot go twelve words without ("the", "and", "to", "of", "is"), so a sentence
never makes such a run; things listed are written with commas, which end a run. The words
may be numbered ("1. orbit 2. velvet") or joined by hyphens. Lists whose words are written
with spaces between them only: Chinese's list is 2,048 common characters, which ordinary
Chinese strings together, and Japanese's is written with ideographic spaces.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from importlib import resources

MIN_WORDS = 12  # the shortest phrase BIP-39 defines
LISTS = (
    "english", "spanish", "french", "italian", "portuguese", "czech", "turkish", "korean",
    "russian",
)  # fmt: skip
_WORD = re.compile(r"[^\W\d_]+")
# What may stand between two words of a phrase: spaces, a hyphen, or the next word's number.
_GAP = re.compile(r"(?:\s+|\s*-\s*)(?:\d{1,2}\s*[.):]?\s+)?|\s*\d{1,2}\s*[.):]?\s+")


def _fold(word: str) -> str:
    return unicodedata.normalize("NFC", word).lower()


@lru_cache(maxsize=1)
def word_lists() -> dict[str, frozenset[str]]:
    folder = resources.files("mnemonic") / "wordlist"
    return {
        name: frozenset(
            _fold(w) for w in (folder / f"{name}.txt").read_text(encoding="utf-8").split()
        )
        for name in LISTS
    }


def phrase_spans(text: str) -> list[tuple[int, int]]:
    """Where ``text`` holds a run of ``MIN_WORDS`` or more words of one list, as (start, end)."""
    words = [(m.start(), m.end(), _fold(m.group(0))) for m in _WORD.finditer(text)]
    if len(words) < MIN_WORDS:
        return []
    spans: list[tuple[int, int]] = []
    for listed in word_lists().values():
        run: list[tuple[int, int, str]] = []
        for word in [*words, (len(text), len(text), "")]:
            joined = bool(run) and _GAP.fullmatch(text[run[-1][1] : word[0]]) is not None
            if word[2] in listed and (joined or not run):
                run.append(word)
                continue
            if len(run) >= MIN_WORDS:
                spans.append((run[0][0], run[-1][1]))
            run = [word] if word[2] in listed else []
    return _merged(spans)


def _merged(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if out and start <= out[-1][1]:
            out[-1] = (out[-1][0], max(end, out[-1][1]))
        else:
            out.append((start, end))
    return out
