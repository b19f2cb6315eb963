"""A wallet's recovery phrase written without its name: 12 words or more of one BIP-39 list in
a row.

The named forms ("seed phrase: ...", "助记词 ...") are ``SECRET_PATTERNS["recovery_phrase"]``;
this finds the words alone ("wrote it on paper, for now it's orbit velvet canyon ..."). Each
BIP-39 list (Trezor's ``mnemonic`` package, MIT) holds 2,048 words and none of the short
words prose cannot go twelve words without ("the", "and", "to", "of", "is"), so a sentence
never makes such a run; things listed are written with commas, which end a run. The words
may be numbered ("1. orbit 2. velvet") or joined by hyphens; a run whose words repeat is
filler ("more detail more detail ..."), not a phrase drawn at random. Lists whose words are written
with spaces between them only: Chinese's list is 2,048 common characters, which ordinary
Chinese strings together, and Japanese's is written with ideographic spaces.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from importlib import resources

from .regex_cache import compile_cached

MIN_WORDS = 12  # the shortest phrase BIP-39 defines
MAX_WORDS = 24  # the longest
MAX_REPEATS = 2  # words of a phrase that may repeat one before (24 of 2,048 words: 13% repeat one)
LISTS = (
    "english", "spanish", "french", "italian", "portuguese", "czech", "turkish", "korean",
    "russian",
)  # fmt: skip
MAX_STRAYS = 2  # words in no list a phrase typed with slips may hold, in a text about one
_WORD = compile_cached(r"[^\W\d_]+")
# A text about a wallet's recovery phrase, in the languages of the lists and a few more.
_ABOUT_A_PHRASE = compile_cached(
    r"\b(?:wallet|seed|mnemonic|recovery phrase|secret phrase|backup phrase|bip-?39|metamask|"
    r"ledger|trezor|phantom|crypto\w*|bitcoin|ethereum|monedero|cartera|billetera|semilla|"
    r"portefeuille|phrase de r[ée]cup[ée]ration|portafoglio|carteira|frase de recupera[çc][ãa]o|"
    r"peněženk\w*|cüzdan\w*|кошел[её]к\w*|сид-фраз\w*|мнемони\w*|wallet-?phrase|"
    r"kryptowährung\w*|krypto\w*)|지갑|니모닉|ニーモニック|ウォレット|钱包|錢包|助记词",
    re.IGNORECASE,
)
# A slip of one word of a phrase: letters only, lower case, the length of the lists' words.
_STRAY = compile_cached(r"[a-zà-ÿ]{3,8}")
# What may stand between two words of a phrase: spaces, a hyphen, or the next word's number.
_GAP = compile_cached(r"(?:\s+|\s*-\s*)(?:\d{1,2}\s*[.):]?\s+)?|\s*\d{1,2}\s*[.):]?\s+")


def _fold(word: str) -> str:
    return unicodedata.normalize("NFC", word).lower()


@lru_cache(maxsize=1)
def _word_lists() -> dict[str, frozenset[str]]:
    folder = resources.files("mnemonic") / "wordlist"
    return {
        name: frozenset(
            _fold(w) for w in (folder / f"{name}.txt").read_text(encoding="utf-8").split()
        )
        for name in LISTS
    }


@lru_cache(maxsize=1)
def _lists_of() -> dict[str, int]:
    """Each listed word and the lists that hold it, one bit a list."""
    out: dict[str, int] = {}
    for bit, words in enumerate(_word_lists().values()):
        for word in words:
            out[word] = out.get(word, 0) | 1 << bit
    return out


def phrase_spans(text: str) -> list[tuple[int, int]]:
    """Where ``text`` holds a run of ``MIN_WORDS`` or more words of one list, as (start, end).

    In a text about a wallet's phrase, up to ``MAX_STRAYS`` words of the run may be in no list:
    a phrase typed with a slip ("ember" for "embark") is the phrase still."""
    lists_of = _lists_of()
    strays_allowed = MAX_STRAYS if _ABOUT_A_PHRASE.search(text) else 0
    spans: list[tuple[int, int]] = []
    start = end = 0
    run: list[str] = []
    strays = 0
    common = 0  # the lists holding every word of the run so far
    for match in _WORD.finditer(text):
        word = _fold(match.group(0))
        lists = lists_of.get(word, 0)
        joined = bool(run) and _GAP.fullmatch(text[end : match.start()]) is not None
        if joined and common & lists:
            common &= lists
            run.append(word)
        elif joined and not lists and strays < strays_allowed and _STRAY.fullmatch(word):
            strays += 1
            run.append(word)
        else:
            if _phrase(run, strays):
                spans.append((start, end))
            start, common, run, strays = match.start(), lists, [word] if lists else [], 0
        end = match.end()
    if _phrase(run, strays):
        spans.append((start, end))
    return spans


def _phrase(run: list[str], strays: int = 0) -> bool:
    """Long enough, and of words drawn apart: a phrase's words are chosen at random, so few
    repeat (filler such as "more detail more detail ..." repeats two)."""
    return (
        len(run) >= MIN_WORDS
        and len(run) - strays >= MIN_WORDS - MAX_STRAYS
        and len(set(run)) >= min(len(run), MAX_WORDS) - MAX_REPEATS
    )
