"""How common each query word is among one user's texts, for PostgreSQL's full-text route.

PostgreSQL ranks full-text matches with ``ts_rank``: how often the query's words occur in a
text, with no weight for how rare a word is. A word that most of a user's texts hold ("like",
"went") then ranks a text as high as the rare word the question is about, and every text
holding it is ranked: the route's cost grows with the user's memory (~100 ms p95 at 100k).
BM25, the embedded index's ranking, weighs a word by its rarity instead. Here a query keeps
only the words that at most ``MAX_SHARE`` of the user's texts hold (or no more texts than the
hits it wants), and its rarest word when every one is common: common words then neither rank
nor widen the set of rows ranked.

The counts are the user's own, never the table's statistics (``pg_stats`` would tell one user
how common a word is in the other users' memories). The words not known yet are counted in
one statement and kept for ``KEEP_SECONDS``: a share moves slowly as memories are added.
"""

from __future__ import annotations

import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

MAX_SHARE = 0.05  # a word in more than one text of twenty says little about which one
KEEP_SECONDS = 300.0
MAX_USERS = 1_024  # users whose counts are kept (least recently asked go first)
MAX_WORDS = 4_096  # words kept per user before they are counted afresh
_LEXEME = re.compile(r"'((?:[^']|'')*)'")


def lexemes(tsquery: str) -> list[str]:
    """The lexemes of a tsquery's text (``'a' | 'b'``), in order, once each."""
    found = (m.group(1).replace("''", "'") for m in _LEXEME.finditer(tsquery))
    return list(dict.fromkeys(found))


def any_of(words: Sequence[str]) -> str:
    """A tsquery's text matching a text that holds any of ``words`` (lexemes, taken as they
    are: no stemming again)."""
    return " | ".join(_quoted(w) for w in words)


def _quoted(lexeme: str) -> str:
    return "'" + lexeme.replace("\\", "\\\\").replace("'", "''") + "'"


@dataclass
class _Counts:
    texts: int
    read_at: float
    holding: dict[str, int] = field(default_factory=dict)


class TermCounts:
    """Per user and index table: how many texts hold each word asked about (thread-safe)."""

    def __init__(
        self,
        *,
        keep_seconds: float = KEEP_SECONDS,
        max_share: float = MAX_SHARE,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._keep = keep_seconds
        self._max_share = max_share
        self._clock = clock
        self._lock = threading.Lock()
        self._users: OrderedDict[tuple[str, str], _Counts] = OrderedDict()

    def selective(self, conn: Any, name: str, user_id: str, tsquery: str, *, wanted: int) -> str:
        """``tsquery`` (any of its words) less the words common among the user's texts of
        table ``name``; its rarest word alone when all are common."""
        words = lexemes(tsquery)
        if len(words) < 2:
            return tsquery
        holding, texts = self._holding(conn, name, user_id, words)
        bar = max(self._max_share * texts, wanted)
        kept = [w for w in words if holding[w] <= bar]
        return any_of(kept or [min(words, key=lambda w: holding[w])])

    def _holding(
        self, conn: Any, name: str, user_id: str, words: list[str]
    ) -> tuple[dict[str, int], int]:
        key, now = (name, user_id), self._clock()
        with self._lock:
            counts = self._users.get(key)
            if counts is not None and now - counts.read_at <= self._keep:
                self._users.move_to_end(key)
                known = dict(counts.holding)
            else:
                counts, known = None, {}
        if counts is None:
            row = conn.execute(f'SELECT count(*) FROM "{name}" WHERE user_id = ?', [user_id])
            counts = _Counts(int(row.fetchone()[0]), now)
        missing = [w for w in words if w not in known]
        if missing:
            known.update(zip(missing, _count(conn, name, user_id, missing), strict=True))
        with self._lock:
            if len(counts.holding) + len(missing) > MAX_WORDS:
                counts.holding.clear()
            counts.holding.update({w: known[w] for w in missing})
            self._users[key] = counts
            self._users.move_to_end(key)
            while len(self._users) > MAX_USERS:
                self._users.popitem(last=False)
        return known, counts.texts


def _count(conn: Any, name: str, user_id: str, words: list[str]) -> list[int]:
    """How many of the user's texts hold each word: one pass over the texts holding any."""
    each = ", ".join("count(*) FILTER (WHERE words @@ ?::tsquery)" for _ in words)
    row = conn.execute(
        f'SELECT {each} FROM "{name}" WHERE user_id = ? AND words @@ ?::tsquery',
        [*(_quoted(w) for w in words), user_id, any_of(words)],
    ).fetchone()
    return [int(n) for n in row]
