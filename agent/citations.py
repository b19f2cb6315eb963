"""Learning from use: which paged-in items an answer cited, and user corrections."""

from __future__ import annotations

import re

from memvisor.paging.pagein import MemoryItem
from memvisor.paging.summarize import identifiers

CORRECTION = re.compile(
    r"^\s*(no[,.!]|nope|wrong|that'?s (not|wrong)|that is (not|wrong)|actually\b|incorrect|"
    r"not quite|you('re| are) wrong|不对|错了|不是)",
    re.IGNORECASE,
)
_WORD = re.compile(r"[A-Za-z0-9\u4e00-\u9fff][\w\u4e00-\u9fff-]{3,}")
_COMMON_WORDS = """\
that this with from have your about what when where which there their they them then than
user assistant would could should"""
_COMMON = frozenset(_COMMON_WORDS.split())


def cited_ids(answer: str, items: list[MemoryItem]) -> list[str]:
    """Items whose identifiers, or most of whose distinctive words, the answer repeats."""
    text = answer.lower()
    cited = []
    for item in items:
        value = str(item.meta.get("object", "")).lower()
        if value and value in text:  # a fact's value repeated in the answer
            cited.append(item.id)
            continue
        idents = [i.lower() for i in identifiers(item.text)]
        if idents and any(i in text for i in idents):
            cited.append(item.id)
            continue
        words = {w.lower() for w in _WORD.findall(item.text)} - _COMMON
        if words and sum(w in text for w in words) / len(words) >= 0.5:
            cited.append(item.id)
    return cited


def is_correction(message: str) -> bool:
    """The user says the previous answer was wrong (a plain "yes" never counts)."""
    return bool(CORRECTION.search(message))
