"""What page-in adds to a query before and after its first search: the query as the speaker
it names would say it, and expansion words from its best hits (pseudo-relevance feedback).

Both are deterministic and need no model. Turns are stored as ``"Speaker: text"`` in the
first person ("Melanie: I took the kids to the museum"), while a question about them is
in the third ("What has Melanie done with her family?"): ``as_said_by`` writes the
question in the turns' form, for the vector route. ``expansion_words`` are the words that
several of the first search's best hits share and the query lacks ("kids", "camping"),
which the page-in then rewards in the candidates that hold them (RM3's idea, without a
second query: the candidates are re-scored where they are).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import Counter
from collections.abc import Collection, Iterable, Sequence

# Words of four letters or more; shorter ones are mostly function words.
_WORD = re.compile(r"[^\W\d_]{4,}")
# Words too common in dialogue to say what a hit is about (English function words and the
# small talk of chat replies). Set by hand.
_STOPWORD_TEXT = """
    about above after again against also always amazing anything awesome because been before
    being below between both cool could didn doesn doing down during each even ever every
    feel feels felt from further glad going gonna good got great have having hear here hers
    herself himself into just know last lately like little lots love made make many more most
    much myself never nice night only other ought ours ourselves over really right said same
    says should since some something sounds still such sure than thank thanks that their
    theirs them themselves then there these they thing things think this those though through
    time times together totally under until very wanna want wanted well were what when where
    which while will with would wow yeah your yours yourself yourselves
"""
_STOPWORDS = frozenset(_STOPWORD_TEXT.split())


# What between two names makes them one subject: "Jon and Gina", "Jon, Gina", "Jon or Gina".
_JOINED = re.compile(r"(?:'s)?\s*(?:,|and|&|or|,\s*and)\s*")


def content_words(text: str) -> set[str]:
    """The lowercased words of ``text`` that can say what it is about."""
    return {w for w in _WORD.findall(text.lower()) if w not in _STOPWORDS}


def named_speaker(query: str, speakers: Iterable[str]) -> str | None:
    """The known speaker ``query`` is about: the one it names (a whole word, any case), or
    of several the first, its subject ("What did Jon tell Gina?"); None when it names none
    or its first two are joined as one subject ("Jon and Gina", "Jon or Gina")."""
    lowered = query.lower()
    named = sorted(
        (m.start(), m.end(), s)
        for s in speakers
        if s and (m := re.search(rf"(?<!\w){re.escape(s.lower())}(?!\w)", lowered))
    )
    if not named:
        return None
    if len(named) > 1 and _JOINED.fullmatch(lowered[named[0][1] : named[1][0]]):
        return None
    return named[0][2]


def without_speakers(query: str, speakers: Iterable[str]) -> str:
    """``query`` without the names of ``speakers`` (any case, with their "'s"), for the words
    route: "What did Caroline's mom tell Melanie?" -> "What did mom tell ?"."""
    names = "|".join(re.escape(s) for s in sorted(speakers, key=len, reverse=True) if s)
    if not names:
        return query
    text = re.sub(rf"(?<!\w)(?:{names})(?:'s)?(?!\w)", " ", query, flags=re.IGNORECASE)
    return " ".join(text.split())


def as_said_by(query: str, speaker: str) -> str:
    """``query`` in the form of the speaker's own turns: ``"Speaker: "`` first, the name
    and third-person possessives turned into "I" and "my".

    >>> as_said_by("What has Melanie done with her family?", "Melanie")
    'Melanie: What has I done with my family?'
    """
    name = re.escape(speaker)
    text = re.sub(rf"(?<!\w){name}'s(?!\w)", "my", query, flags=re.IGNORECASE)
    text = re.sub(rf"(?<!\w){name}(?!\w)", "I", text, flags=re.IGNORECASE)
    text = re.sub(r"\b(?:her|his)\b", "my", text, flags=re.IGNORECASE)
    return f"{speaker}: {text}"


def expansion_words(
    hits: Iterable[str], *, query: str, exclude: Collection[str] = (), limit: int, min_hits: int
) -> list[str]:
    """Up to ``limit`` words found in at least ``min_hits`` of the texts ``hits`` and not in
    ``query`` or ``exclude`` (lowercased), the most shared first (ties in the order first
    met, so the result is deterministic)."""
    known = content_words(query) | {w.lower() for w in exclude}
    shared: Counter[str] = Counter()
    for text in hits:
        shared.update(sorted(content_words(text) - known))
    return [word for word, n in shared.most_common(limit) if n >= min_hits]


def words_held(words: Sequence[str], texts: Sequence[str]) -> list[set[str]]:
    """For each text, which of ``words`` (lowercase) it holds as whole words, any case.

    One search per word through all the texts joined: splitting each candidate into its
    words, or a regular expression per text, cost ~1-3 ms for a page-in's 200 candidates.
    """
    held: list[set[str]] = [set() for _ in texts]
    lowered = [text.lower() for text in texts]
    joined = "\n".join(lowered)
    starts, at = [], 0
    for text in lowered:
        starts.append(at)
        at += len(text) + 1
    for word in dict.fromkeys(words):
        found = joined.find(word)
        while found >= 0:
            end = found + len(word)
            # a word is a whole run of letters, as ``content_words`` reads them
            if (found == 0 or not joined[found - 1].isalpha()) and (
                end == len(joined) or not joined[end].isalpha()
            ):
                held[bisect_right(starts, found) - 1].add(word)
            found = joined.find(word, end)
    return held
