"""What PostgreSQL's full-text search indexes of a text, and how a query asks for it.

PostgreSQL's parser finds words between spaces and punctuation, which Chinese and Japanese do
not use: a run of CJK characters would be one "word" that no query holds. So a text is said in
two parts, each through its own text search configuration:

- outside CJK runs, its words through the index's language configuration (``english`` by
  default: stemmed, its stop words dropped). Every character but letters, digits and ``@ . _``
  is a space first, so ``ORD-58213`` is ``ord`` and ``58213`` (PostgreSQL's parser would read
  ``-58213`` as a signed number) and an address stays one word;
- each CJK run (Han, kana, Hangul) as its characters and their bigrams, through ``simple``
  (no stemming, no stop words): ``喝咖啡`` is ``喝 咖 啡 喝咖 咖啡``.

A query is split the same way, except that a CJK run of two or more characters asks for its
bigrams only (``咖啡`` does not find every text with a ``咖``; ``茶`` alone finds ``喝茶``). Its
terms are OR-ed, as BM25's are, and ranked by ``ts_rank``; an identifier (a needle) needs every
term. Query syntax never reaches PostgreSQL:
``plainto_tsquery`` reads words only.
"""

from __future__ import annotations

import re
import unicodedata

MAX_QUERY_CHARS = 2_000
# A tsvector holds at most 1 MB; a longer text is indexed by its first words.
MAX_TEXT_CHARS = 200_000
_CJK = re.compile(
    "[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\U00020000-\U0002fa1f]+"
)
_NOT_WORD = re.compile(r"[^\w@.]+")
_CONFIG = re.compile(r"^[a-z][a-z0-9_]{0,62}$")


def split_text(text: str, *, limit: int = MAX_TEXT_CHARS, unigrams: bool = True) -> tuple[str, str]:
    """``(words, grams)``: the text outside CJK runs, cleaned, and the CJK runs' characters
    (``unigrams``; a lone one always) and bigrams."""
    text = unicodedata.normalize("NFKC", text or "")[:limit]
    grams: list[str] = []
    for run in _CJK.findall(text):
        if unigrams or len(run) == 1:
            grams.extend(run)
        grams.extend(run[i : i + 2] for i in range(len(run) - 1))
    words = _NOT_WORD.sub(" ", _CJK.sub(" ", text)).replace("_", " ")
    return " ".join(words.split()), " ".join(grams)


def split_query(query: str) -> tuple[str, str]:
    return split_text(query, limit=MAX_QUERY_CHARS, unigrams=False)


def check_config(name: str) -> str:
    """A text search configuration's name, safe to write into SQL (it is checked to exist
    when the index first writes)."""
    if not isinstance(name, str) or not _CONFIG.match(name):
        raise ValueError(f"invalid text search configuration {name!r}")
    return name


def document_sql(config: str) -> str:
    """The tsvector of ``split_text``'s two parameters."""
    return f"(to_tsvector('{config}', ?) || to_tsvector('simple', ?))"


def any_terms_sql(config: str) -> str:
    """A tsquery matching a row holding any term of ``split_query``'s two parameters."""
    return (
        f"(replace(plainto_tsquery('{config}', ?)::text, ' & ', ' | ')::tsquery"
        " || replace(plainto_tsquery('simple', ?)::text, ' & ', ' | ')::tsquery)"
    )


def all_terms_sql(config: str) -> str:
    """A tsquery matching a row holding every term of ``split_query``'s two parameters."""
    return f"(plainto_tsquery('{config}', ?) && plainto_tsquery('simple', ?))"
