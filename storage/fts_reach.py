"""Whether a text can be a hit of a full-text query at all, without the index.

The embedded index's BM25 route (LanceDB, ``lance_upkeep._FTS``: ICU words, lower case,
English stemming, stop words dropped) scores only rows that share a word with the query. A
write not yet appended to the index that shares none can therefore never be one of its
hits, and a read need not append it first: its vector is scored in memory instead
(``IndexSync``), and it is appended after the read.

``may_share_words`` answers for that, and errs one way only: it may say yes where LanceDB
finds nothing (the read then appends first, as always), never no where LanceDB would find
the text. So it compares less than LanceDB does: accents and case folded away, words cut
at every mark but an apostrophe inside one (``_`` too), a word's first three letters only
(a stem keeps them: "studies", "study"), a shorter word as a prefix ("go" of "going"),
every character of a script written without spaces, and only the stop words LanceDB drops
(``tests/test_fresh_reads.py`` checks it against LanceDB itself).
"""

from __future__ import annotations

import re
import unicodedata

# Checked against LanceDB with the index's own settings: each alone finds nothing. Only
# words every supported LanceDB drops: 0.41 keeps "don", "no", "nor" and "not", which 0.40
# dropped, so they count here as words (a read then appends a write holding one first).
_STOP_WORDS_TEXT = """\
a an and are as at be but by for if in into is it of on or such that the their
then there these they this to was will with i me my we our you he she him her its them
what which who whom am were been being have has had having do did doing until while
about against between through after below from up down out off over under again further
here when where how all both each few more most other some own same so than too can
just should now"""
_STOP_WORDS = frozenset(_STOP_WORDS_TEXT.split())
# The English stemmer's words whose stem does not begin as they do.
_STEM_EXCEPTIONS = {"dying": "die", "lying": "lie", "tying": "tie"}
_PREFIX = 3
# ICU keeps an apostrophe between letters in the word ("don't", "Pavel's"), which the
# stemmer then cuts ("pavel"): the word is read whole, so "s" is no word of its own.
_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")
# Scripts written without spaces between words (Han, kana, Hangul, Thai, Lao, Khmer,
# Myanmar): ICU segments them by a dictionary, so each character is compared on its own.
_UNSPACED = re.compile(
    "[\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff\u1100-\u11ff\u3040-\u30ff\u3130-\u318f"
    "\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff66-\uff9f]"
)


def may_share_words(query_words: str, text: str) -> bool:
    """False only when ``text`` holds none of the words of ``query_words`` (the query as
    the BM25 route gets it) as the full-text index reads them."""
    query = _keys(query_words)
    if not query:
        return False
    held = _keys(text)
    # Equal keys, or a short word that begins the other side's ("go" and "going" stem alike).
    return bool(query & _prefixes(held)) or bool(held & _prefixes(query))


def _prefixes(keys: set[str]) -> set[str]:
    return {key[:n] for key in keys for n in range(1, len(key) + 1)}


def _keys(text: str) -> set[str]:
    """Each word's first three letters (or the whole of a shorter one), each character of
    an unspaced script, stop words left out."""
    folded = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", text).casefold())
    folded = "".join(ch for ch in folded if not unicodedata.combining(ch))
    keys: set[str] = set()
    for word in _WORD.findall(folded):
        if _UNSPACED.search(word):
            keys.update(ch for ch in word if not ch.isspace())
            continue
        if word in _STOP_WORDS:
            continue
        word = _STEM_EXCEPTIONS.get(word, word)
        # A short word's ending may reach its third letter: "using" stems to "use".
        short = len(word) <= _PREFIX + 2 and word.endswith(("ing", "ed"))
        key = word[: _PREFIX - 1 if short else _PREFIX]
        # ... or turn its final y into i: "fly" and "flies" both stem to "fli".
        keys.add(key[:-1] + "i" if len(key) == _PREFIX and key.endswith("y") else key)
    return keys
