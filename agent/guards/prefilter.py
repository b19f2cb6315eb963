"""A cheap test that a firewall pattern cannot match, run before the pattern itself.

The firewall reads every write with a few hundred patterns, each over several readings of
the text (``normalize.views``), and Python's regex engine tries each pattern's alternatives
at every position: about 9 ms of a short write's check and 0.6 s of an 8,000-character one
went to patterns that found nothing. Most patterns cannot match without one of a few words
somewhere in the text ("ignore", "instructions", "anweisungen" ...). Those words are read
off the compiled pattern itself (``required_words``), so a table edited tomorrow gets its
gate without anyone writing one; a pattern with no such words is simply always run.

The gate compares case-folded text with case-folded words, the way the regex engine's
IGNORECASE compares characters: a pattern that matches always passes its gate (the tests
check this on strings generated to match each pattern and on the red-team suites' texts).
The words are read from the parse tree of Python's own ``re`` parser (``re._parser``);
anything it holds that is not understood here requires nothing, so the pattern runs.
"""

from __future__ import annotations

import hashlib
import re
import sys
import threading
from collections.abc import Iterator, Mapping, Sequence
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from memvisor.storage.disk_memo import DiskMemo

try:  # Python 3.11+
    from re import _constants as _sre  # type: ignore[attr-defined]
    from re import _parser as _sre_parse  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - older layouts
    import sre_constants as _sre  # type: ignore[no-redef]
    import sre_parse as _sre_parse  # type: ignore[no-redef]

# A gate of weaker words passes nearly every text and costs more than it saves: a word's
# strength is its letters, a CJK or Hangul one counting three times (one ideograph, such as
# 癌, is a word, and no text in another script holds it).
MIN_STRENGTH = 3
_WIDE = 0x2E80  # CJK radicals, kana, ideographs, Hangul and beyond
_MAX_SPELLED = 512  # strings a stretch of a pattern may spell before it is let go
_SPACES = re.compile(r"\s+")
_EMPTY = frozenset({""})
_SPACE = frozenset({" "})
_ATOMIC = getattr(_sre, "ATOMIC_GROUP", None)
_REPEATS = (_sre.MAX_REPEAT, _sre.MIN_REPEAT, getattr(_sre, "POSSESSIVE_REPEAT", None))

# Characters the regex engine's IGNORECASE takes as equal although ``str.lower`` keeps them
# apart (CPython's ``re._compiler._equivalences``), or lowers to two characters (U+0130):
# each is folded to one representative, in the text and in the words alike.
_FOLD = str.maketrans(
    {
        "\u0130": "i",  # İ (str.lower gives i + combining dot)
        "\u0131": "i",  # ı
        "\u017f": "s",  # ſ
        "\u00b5": "\u03bc",  # µ -> μ
        "\u0345": "\u03b9",
        "\u1fbe": "\u03b9",
        "\u1fd3": "\u0390",
        "\u1fe3": "\u03b0",
        "\u03d0": "\u03b2",
        "\u03f5": "\u03b5",
        "\u03d1": "\u03b8",
        "\u03f0": "\u03ba",
        "\u03d6": "\u03c0",
        "\u03f1": "\u03c1",
        "\u03c2": "\u03c3",
        "\u03d5": "\u03c6",
        "\u1e9b": "\u1e61",
        "\ufb05": "\ufb06",
        "\u212a": "k",  # Kelvin sign
        "\u212b": "\u00e5",  # Ångström sign
        "\u2126": "\u03c9",  # Ohm sign
    }
)


class _Words:
    """Every gate word of every pattern asked about so far, by its first three characters.

    A text is checked for all of them once, the first time a gate reads it: only the words
    whose head is one of the text's own three-character stretches are looked for, so the
    cost follows the text's length, not the tens of thousands of words. Each gate is then one
    set intersection. Thread-safe."""

    HEAD = 3

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._by_head: dict[str, list[str]] = {}
        self._short: list[str] = []  # words shorter than a head (one or two ideographs)
        self._known: set[str] = set()
        self._present: dict[str, tuple[int, frozenset[str]]] = {}  # text -> (known, found)

    def add(self, words: frozenset[str]) -> None:
        with self._lock:
            for word in words - self._known:
                self._known.add(word)
                if len(word) < self.HEAD:
                    self._short.append(word)
                else:
                    self._by_head.setdefault(word[: self.HEAD], []).append(word)

    def present(self, text: str) -> frozenset[str]:
        with self._lock:
            known = len(self._known)
            seen = self._present.get(text)
            if seen is not None and seen[0] == known:
                return seen[1]
            folded = fold(text)
            heads = {folded[n : n + self.HEAD] for n in range(len(folded) - self.HEAD + 1)}
            found = {word for word in self._short if word in folded}
            for head in heads & self._by_head.keys():
                found.update(word for word in self._by_head[head] if word in folded)
            if len(self._present) >= _TEXTS_KEPT:
                self._present.clear()
            self._present[text] = (known, frozenset(found))
            return self._present[text][1]


_TEXTS_KEPT = 32  # texts whose words are remembered: the readings of a write or two
_WORDS = _Words()


def _memo_name() -> str:
    """Gate words depend on this module and on Python's regex parser: the memo's name
    records both, so an edit of either reads the patterns again."""
    try:
        source = Path(__file__).read_bytes()
    except OSError:
        source = b""  # not on disk: a name no edit can reuse stale
    return "gates-" + hashlib.sha256(sys.version.encode() + source).hexdigest()[:16]


# A pattern's gate words, kept across processes: reading them off the steering table and
# the lexicons' alternatives is ~1.2 s of the first write's check in a new process.
_MEMO = DiskMemo(_memo_name())


@lru_cache(maxsize=4096)
def required_words(pattern: re.Pattern[str]) -> frozenset[str] | None:
    """Words of which any text the pattern matches holds at least one, folded; None when
    no such words of ``MIN_STRENGTH`` or more can be read off it."""
    words = _MEMO.get(("pattern", pattern.pattern, pattern.flags), lambda: _read_words(pattern))
    return _known(words)


def _read_words(pattern: re.Pattern[str]) -> tuple[str, ...] | None:
    try:
        tree = _sre_parse.parse(pattern.pattern, pattern.flags)
    except (re.error, TypeError, ValueError, RecursionError):
        return None  # unread: the pattern always runs
    return _gate_words(tree)


def _gate_words(tree: Any) -> tuple[str, ...] | None:
    """``required_words`` of a pattern's parse tree, sorted (as the memo keeps them)."""
    try:
        words = _Reading().sequence(tree)
    except (TypeError, ValueError, RecursionError):
        return None
    if not words or _weakest(words) < MIN_STRENGTH:
        return None
    return tuple(sorted(words))


def _known(words: tuple[str, ...] | None) -> frozenset[str] | None:
    """Gate words as the gates use them, filed with ``present_words``."""
    if words is None:
        return None
    found = frozenset(words)
    _WORDS.add(found)
    return found


def may_match(pattern: re.Pattern[str], text: str) -> bool:
    """False only when ``pattern`` cannot match ``text``."""
    words = required_words(pattern)
    return words is None or not words.isdisjoint(present_words(text))


def present_words(text: str) -> frozenset[str]:
    """The known gate words that ``text``, folded, holds."""
    return _WORDS.present(text)


def fold(text: str) -> str:
    """``text`` as the gates compare it: case-folded, each run of whitespace one space.
    Folded again after lowering: ``str.lower`` writes a word's last Σ as ς."""
    return _SPACES.sub(" ", text.translate(_FOLD).lower().translate(_FOLD))


class _Filing:
    """Items (by number) filed under their gate words: the ones a text may need are those
    without words, and those filed under a word the text holds."""

    def __init__(self) -> None:
        self.always: list[int] = []  # no gate words: always run
        self._by_word: dict[str, list[int]] = {}

    def add(self, n: int, words: frozenset[str] | None) -> None:
        if words is None:
            self.always.append(n)
        else:
            for word in words:
                self._by_word.setdefault(word, []).append(n)

    def chosen(self, text: str) -> list[int]:
        """The numbers of the items ``text`` may need, in order."""
        found = set(self.always)
        for word in present_words(text):
            found.update(self._by_word.get(word, ()))
        return sorted(found)


class GatedTable:
    """Named lists of patterns, each pattern filed under its gate words: the patterns that
    may match a text come from the words the text holds (a few), not from asking every
    pattern's gate (hundreds, the firewall's steering table, over each reading of a write).
    ``candidates(text)`` is exactly the patterns whose ``may_match(pattern, text)`` holds."""

    def __init__(self, table: Mapping[str, Sequence[re.Pattern[str]]]) -> None:
        self._entries = [(name, pattern) for name, listed in table.items() for pattern in listed]
        self._filing = _Filing()
        for n, (_, pattern) in enumerate(self._entries):
            # (``required_words`` files the words with ``present_words`` too)
            self._filing.add(n, required_words(pattern))

    def candidates(self, text: str) -> dict[str, list[re.Pattern[str]]]:
        """Name -> its patterns that may match ``text``, in the table's order."""
        found: dict[str, list[re.Pattern[str]]] = {}
        for n in self._filing.chosen(text):
            name, pattern = self._entries[n]
            found.setdefault(name, []).append(pattern)
        return found


def search(pattern: re.Pattern[str], text: str) -> re.Match[str] | None:
    return pattern.search(text) if may_match(pattern, text) else None


def finditer(pattern: re.Pattern[str], text: str) -> Iterator[re.Match[str]]:
    return pattern.finditer(text) if may_match(pattern, text) else iter(())


class _Reading:
    """One pattern's parse tree read for the words its matches must hold. Sub-trees are
    read once each (a branch is asked both what it spells and what it requires)."""

    def __init__(self) -> None:
        self._spelled: dict[int, frozenset[str] | None] = {}
        self._required: dict[int, frozenset[str] | None] = {}

    def sequence(self, items: Any) -> frozenset[str] | None:
        r"""The most selective word set that a match of these items, in order, must
        contain: a stretch of items that match finitely many strings ("ab" then ``\s+``
        then "jetzt|sofort") gives each string they spell, else an item's own words."""
        key = id(items)
        if key not in self._required:
            self._required[key] = self._sequence(items)
        return self._required[key]

    def _sequence(self, items: Any) -> frozenset[str] | None:
        best: frozenset[str] | None = None
        run: frozenset[str] = _EMPTY

        def offer(words: frozenset[str] | None) -> None:
            nonlocal best
            if words and all(w.strip() for w in words) and (best is None or _better(words, best)):
                best = words

        for op, av in items:
            if op is _sre.ASSERT:  # a look-ahead or -behind that must match holds its words
                offer(self.sequence(av[1]))
            spelled = self.spelled(op, av)
            if spelled == _EMPTY and op in (_sre.SUBPATTERN, _sre.BRANCH, _ATOMIC):
                # zero width, as a group of look-aheads is ("the clause holds X and Y"):
                # what it requires is in them
                offer(self._item(op, av))
            if spelled is not None:
                joined = _joined(run, spelled)
                if joined is not None:
                    run = joined
                    continue
                offer(run)
                run = spelled
                continue
            offer(run)
            run = _EMPTY
            offer(self._item(op, av))
        offer(run)
        return best

    def _item(self, op: object, av: Any) -> frozenset[str] | None:
        """The words a match of one item must hold (what it requires, not what it spells)."""
        if op is _sre.SUBPATTERN:
            return self.sequence(av[-1])
        if op is _ATOMIC:
            return self.sequence(av)
        if op is _sre.BRANCH:
            words: set[str] = set()
            for alternative in av[1]:
                found = self.sequence(alternative)
                if not found:
                    return None  # this alternative matches without any word we know
                words |= found
            return frozenset(words)
        if op in _REPEATS:
            low, _high, inner = av
            return self.sequence(inner) if low >= 1 else None
        return None  # classes, anchors, negative look-arounds, back-references: nothing

    def spelled(self, op: object, av: Any) -> frozenset[str] | None:
        """Every string one item matches, folded (whitespace as one space), when they are
        few; None when they are not. Zero-width items (anchors, look-arounds) spell ""."""
        if op is _sre.LITERAL:
            return _char(av)
        if op in (_sre.AT, _sre.ASSERT, _sre.ASSERT_NOT):
            return _EMPTY
        key = id(av)
        if key not in self._spelled:
            self._spelled[key] = self._spell(op, av)
        return self._spelled[key]

    def _spell(self, op: object, av: Any) -> frozenset[str] | None:
        if op is _sre.IN:
            if av == [(_sre.CATEGORY, _sre.CATEGORY_SPACE)]:
                return _SPACE
            if av and all(kind is _sre.LITERAL for kind, _ in av):
                return frozenset().union(*(_char(code) for _, code in av))
            return None
        if op is _sre.SUBPATTERN:
            return self._spelled_all(av[-1])
        if op is _ATOMIC:
            return self._spelled_all(av)
        if op is _sre.BRANCH:
            spelled: set[str] = set()
            for alternative in av[1]:
                one = self._spelled_all(alternative)
                if one is None or len(spelled) + len(one) > _MAX_SPELLED:
                    return None
                spelled |= one
            return frozenset(spelled)
        if op in _REPEATS:
            low, high, inner = av
            once = self._spelled_all(inner)
            if once is None:
                return None
            if once == _SPACE:  # \s+, \s*: a run of whitespace is one space once folded
                return _SPACE if low >= 1 else _SPACE | _EMPTY
            if (low, high) == (1, 1):
                return once
            if (low, high) == (0, 1):
                return once | _EMPTY
        return None

    def _spelled_all(self, items: Any) -> frozenset[str] | None:
        run = _EMPTY
        for op, av in items:
            spelled = self.spelled(op, av)
            joined = None if spelled is None else _joined(run, spelled)
            if joined is None:
                return None
            run = joined
        return run


@cache
def _char(code: int) -> frozenset[str]:
    return frozenset({fold(chr(code))})


def _joined(left: frozenset[str], right: frozenset[str]) -> frozenset[str] | None:
    """Each string of ``left`` followed by each of ``right``; None when too many. Folded
    strings hold no two spaces in a row, so only the seam can."""
    if len(left) * len(right) > _MAX_SPELLED:
        return None
    if right == _EMPTY:
        return left
    if left == _EMPTY:
        return right
    return frozenset(
        a + b[1:] if a.endswith(" ") and b.startswith(" ") else a + b for a in left for b in right
    )


def _better(words: frozenset[str], than: frozenset[str]) -> bool:
    """A stronger weakest word first (fewer texts hold it), then fewer words."""
    return (_weakest(words), -len(words)) > (_weakest(than), -len(than))


@lru_cache(maxsize=65536)
def _weakest(words: frozenset[str]) -> int:
    return min(map(_strength, words))


def _strength(word: str) -> int:
    word = word.strip()
    return len(word) if word.isascii() else sum(3 if ord(ch) >= _WIDE else 1 for ch in word)


# -- one pattern of many alternatives --------------------------------------------------------

_GLOBAL_FLAGS = re.compile(r"\(\?[aiLmsux]+\)")


class GatedPattern:
    """A compiled pattern made of many alternatives ("from now on|ab jetzt|以后|...") that
    runs, on each text, only the alternatives whose gate words the text holds.

    Python's engine tries every alternative at every position: a lexicon of a few thousand
    cues in thirty languages cost ~0.7 ms a search of a short note, most of it on languages
    the note is not in. An alternative that cannot match anywhere in a text cannot change what
    the whole pattern finds there, so each alternative left is searched alone and the leftmost
    match wins, the first alternative on a tie: the span the whole pattern's search gives.
    A match's numbered groups are its alternative's own, not the whole pattern's: use it for
    patterns read by their spans. The alternatives are read apart when first used; a pattern
    whose alternatives cannot be read apart, or that may match an empty string, runs whole."""

    def __init__(self, pattern: re.Pattern[str]) -> None:
        self.whole = pattern
        self.pattern = pattern.pattern
        self.flags = pattern.flags
        self._lock = threading.Lock()
        self._sources: list[str] | None = None
        self._compiled: list[re.Pattern[str] | None] = []
        self._filing = _Filing()

    def __repr__(self) -> str:
        return f"GatedPattern({self.pattern[:60]!r}...)"

    def candidates(self, text: str) -> list[re.Pattern[str]] | None:
        """The alternatives that may match ``text``, in order; None: run the whole."""
        sources = self._sources if self._sources is not None else self._read()
        if not sources:
            return None
        return [self._alternative(n) for n in self._filing.chosen(text)]

    def search(self, string: str, pos: int = 0, endpos: int | None = None) -> re.Match[str] | None:
        alternatives = self.candidates(string)
        end = len(string) if endpos is None else endpos
        if alternatives is None:
            return self.whole.search(string, pos, end)
        best: re.Match[str] | None = None
        for alternative in alternatives:
            found = alternative.search(string, pos, end)
            if found is not None and (best is None or found.start() < best.start()):
                best = found
                if best.start() == pos:
                    break  # nothing can start before it
        return best

    def finditer(
        self, string: str, pos: int = 0, endpos: int | None = None
    ) -> Iterator[re.Match[str]]:
        end = len(string) if endpos is None else endpos
        alternatives = self.candidates(string)
        if alternatives is None:
            yield from self.whole.finditer(string, pos, end)
            return
        # Each alternative's next match: the engine's next is the leftmost of them, the first
        # alternative on a tie. After it, only the alternatives whose next match began inside
        # it look again (one that begins later is still their next): each alternative reads
        # the text about once, however many matches it holds. No match is empty (``_gates``).
        upcoming = [alternative.search(string, pos, end) for alternative in alternatives]
        while True:
            first: re.Match[str] | None = None
            for found in upcoming:
                if found is not None and (first is None or found.start() < first.start()):
                    first = found
            if first is None:
                return
            yield first
            after = first.end()
            for n, found in enumerate(upcoming):
                if found is not None and found.start() < after:
                    upcoming[n] = alternatives[n].search(string, after, end)

    def _alternative(self, n: int) -> re.Pattern[str]:
        """Alternative ``n``, compiled the first time a text needs it."""
        compiled = self._compiled[n]
        if compiled is None:
            compiled = self._compiled[n] = re.compile((self._sources or [])[n], self.flags)
        return compiled

    def _read(self) -> list[str]:
        """Reads the alternatives and their gates, once; [] when they cannot be read apart."""
        with self._lock:
            if self._sources is None:
                sources = self._gates()
                self._compiled = [None] * len(sources)
                self._sources = sources  # last: a reader that sees it finds the rest set
            return self._sources

    def _gates(self) -> list[str]:
        sources, filed = _MEMO.get(
            ("alternatives", self.pattern, self.flags),
            lambda: _read_alternatives(self.pattern, self.flags),
        )
        for n, words in filed:
            self._filing.add(n, _known(words))
        return list(sources)


def _read_alternatives(
    pattern: str, flags: int
) -> tuple[list[str], list[tuple[int, tuple[str, ...] | None]]]:
    """A pattern's alternatives, and the gate words of each to file (one repeated is filed
    once: it fails wherever the same one before it did); ([], []) when it is not to be read
    apart, or when no alternative has gate words."""
    if flags & re.VERBOSE or "(?(" in pattern or _GLOBAL_FLAGS.match(pattern):
        return [], []  # comments, conditionals, flags for the whole: not read apart here
    try:
        sources = _alternatives(pattern)
        trees = [_sre_parse.parse(source, flags) for source in sources]
    except (re.error, IndexError, RecursionError):
        return [], []
    if any(tree.getwidth()[0] == 0 for tree in trees):
        return [], []  # an empty match: its search and iteration are the engine's to get right
    first = {source: n for n, source in reversed(list(enumerate(sources)))}
    filed = [(n, _gate_words(tree)) for n, tree in enumerate(trees) if first[sources[n]] == n]
    if all(words is None for _, words in filed):
        return [], []
    return sources, filed


def _tokens(source: str) -> Iterator[tuple[str, str]]:
    """``source`` cut into escapes, character classes and single other characters."""
    i, n = 0, len(source)
    while i < n:
        c = source[i]
        if c == "\\":
            yield "escape", source[i : i + 2]
            i += 2
        elif c == "[":
            j = i + 1
            if source[j] == "^":
                j += 1
            if source[j] == "]":
                j += 1
            while source[j] != "]":
                j += 2 if source[j] == "\\" else 1
            yield "class", source[i : j + 1]
            i = j + 1
        else:
            yield "other", c
            i += 1


def _alternatives(source: str) -> list[str]:
    """The alternatives of ``source`` at its top level, those of a ``(?:...)`` that is a
    whole alternative read apart too ("(?:a|b)|c" is "a", "b", "c")."""
    found: list[str] = []
    for alternative in _top_level(source):
        inner = _wrapped(alternative)
        found += _alternatives(inner) if inner is not None else [alternative]
    return found


def _top_level(source: str) -> list[str]:
    parts: list[str] = []
    current: list[str] = []
    depth = 0
    for kind, text in _tokens(source):
        if kind == "other" and text in "()":
            depth += 1 if text == "(" else -1
        if kind == "other" and text == "|" and depth == 0:
            parts.append("".join(current))
            current = []
            continue
        current.append(text)
    parts.append("".join(current))
    return parts


def _wrapped(alternative: str) -> str | None:
    """The inside of ``alternative`` when it is one ``(?:...)`` group and nothing else."""
    if not alternative.startswith("(?:") or not alternative.endswith(")"):
        return None
    depth = 0
    consumed = 0
    for kind, text in _tokens(alternative):
        consumed += len(text)
        if kind == "other" and text in "()":
            depth += 1 if text == "(" else -1
            if depth == 0 and consumed != len(alternative):
                return None
    return alternative[3:-1]
