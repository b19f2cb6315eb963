"""Summaries of evicted dialogue that keep what matters later.

Names, numbers, identifiers, dates, negations and conditions survive: a
"never do X" must outlive the turn it was said in. Offline (and whenever a
model fails) the summary is extractive; identifiers missing from any summary
are appended.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from memvisor.paging.tokens import TokenCounter
from memvisor.storage.logger import logger

# Linear in the input: the email and code alternatives start only where their character
# run starts (the lookbehinds), not at every position of it, which made a long run without
# '@' or a digit quadratic (16k characters took seconds).
IDENTIFIER = re.compile(
    r"(?<![\w.+-])[\w.+-]+@[\w-]+\.[\w.]+"  # emails
    r"|\+?\d[\d ()-]{7,}\d"  # phone numbers
    r"|(?<![A-Za-z0-9_/-])(?=[A-Za-z0-9_/-]*\d)[A-Za-z0-9]+(?:[-_/][A-Za-z0-9]+)+\b"  # ORD-58213
    r"|\b[A-Z]{2,}\d{2,}\b|\b\d{4,}\b"
)
NEGATION = re.compile(
    r"\b(not|never|no|don't|doesn't|didn't|won't|can't|cannot|avoid|"
    r"without|stop|allergic)\b|不要|别|从不|不能",
    re.IGNORECASE,
)
CONDITION = re.compile(
    r"\b(if|unless|only|except|until|before|after|whenever)\b|如果|除非|只", re.IGNORECASE
)
DATE = re.compile(
    r"\b(\d{4}-\d{2}-\d{2}|\d{1,2}(st|nd|rd|th)?\s+(of\s+)?(jan|feb|mar|apr|may|"
    r"jun|jul|aug|sep|oct|nov|dec)\w*|(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|"
    r"nov|dec)\w*\s+\d{1,2}|monday|tuesday|wednesday|thursday|friday|saturday|"
    r"sunday|tomorrow|yesterday|next week|last week)\b",
    re.IGNORECASE,
)
NAME = re.compile(r"(?<![.!?]\s)(?<!^)\b[A-Z][a-z]{2,}\b")
_SENTENCE = re.compile(r"(?<=[.!?。！？])\s+|\n+")


@dataclass
class DialogueTurn:
    """One user message and the answer to it, as the window holds them."""

    user: str
    assistant: str
    user_event_id: str
    assistant_event_id: str
    ts: datetime

    def messages(self) -> list[dict[str, Any]]:
        return [
            {"role": "user", "content": self.user},
            {"role": "assistant", "content": self.assistant},
        ]


def identifiers(text: str) -> list[str]:
    return list(dict.fromkeys(m.group(0).strip() for m in IDENTIFIER.finditer(text)))


def salience(sentence: str) -> int:
    score = 3 * bool(IDENTIFIER.search(sentence)) + 3 * bool(NEGATION.search(sentence))
    score += 2 * bool(CONDITION.search(sentence)) + 2 * bool(DATE.search(sentence))
    score += min(2, len(NAME.findall(sentence))) + bool(re.search(r"\d", sentence))
    return score


def _key_sentences(text: str, keep: int, max_chars: int) -> str:
    sentences = [s.strip() for s in _SENTENCE.split(text) if s and s.strip()]
    if not sentences:
        return ""
    ranked = sorted(range(len(sentences)), key=lambda i: (-salience(sentences[i]), i))[:keep]
    chosen = " ".join(sentences[i] for i in sorted(ranked))
    return chosen if len(chosen) <= max_chars else chosen[: max_chars - 1] + "…"


class Summarizer(Protocol):
    def summarize(self, turns: Sequence[DialogueTurn]) -> str: ...


class ExtractiveSummarizer:
    """No model: the most salient sentences of each turn, identifiers pinned."""

    def __init__(self, *, sentences_per_message: int = 2, max_chars: int = 240) -> None:
        self.keep = sentences_per_message
        self.max_chars = max_chars

    def summarize(self, turns: Sequence[DialogueTurn]) -> str:
        lines = []
        for turn in turns:
            said = _key_sentences(turn.user, self.keep, self.max_chars)
            answered = _key_sentences(turn.assistant, 1, self.max_chars // 2)
            lines.append(
                f"- {turn.ts:%Y-%m-%d %H:%M} user: {said}"
                + (f" / assistant: {answered}" if answered else "")
            )
        return pin_identifiers("\n".join(lines), turns)


class ModelSummarizer:
    """A live model writes the summary with a bounded prompt; extractive on any failure."""

    def __init__(self, model: Any, *, max_input_chars: int = 6000) -> None:
        self.model = model
        self.max_input_chars = max_input_chars
        self.fallback = ExtractiveSummarizer()

    def summarize(self, turns: Sequence[DialogueTurn]) -> str:
        dialogue = "\n".join(
            f"[{t.ts:%Y-%m-%d %H:%M}] User: {t.user}\nAssistant: {t.assistant}" for t in turns
        )[-self.max_input_chars :]
        prompt = (
            "Summarize this conversation segment in at most 8 short bullet points. Keep "
            "every name, number, identifier, date, negation ('never', 'not') and condition "
            "exactly. No preamble.\n\n" + dialogue
        )
        try:
            reply = self.model.chat([{"role": "user", "content": prompt}], [], None)
            text = reply.content.strip()
        except Exception as exc:  # any model failure falls back; never lose the segment
            logger.warning("model summary failed, using extractive: {}", exc)
            return self.fallback.summarize(turns)
        return pin_identifiers(text, turns) if text else self.fallback.summarize(turns)


def pin_identifiers(summary: str, turns: Sequence[DialogueTurn]) -> str:
    """Append identifiers from the turns that the summary lost."""
    source = " ".join(f"{t.user} {t.assistant}" for t in turns)
    missing = [i for i in identifiers(source) if i not in summary]
    return summary + (f"\n- identifiers: {', '.join(missing)}" if missing else "")


def fold(previous: str, segment: str, *, cap: int, counter: TokenCounter) -> str:
    """The rolling recursive summary: previous + new segment, compacted to ``cap`` tokens.

    Older lines go before the new segment's, low-salience ones first; identifiers of
    dropped lines stay pinned on one line.
    """
    old = [ln for ln in previous.splitlines() if ln.strip() and not ln.startswith(_PINNED)]
    pinned = [
        p.strip()
        for ln in previous.splitlines()
        if ln.startswith(_PINNED)
        for p in ln[len(_PINNED) :].split(",")
        if p.strip()
    ]
    new = [ln for ln in segment.splitlines() if ln.strip()]
    while counter.count("\n".join(old + new + _pin_line(pinned))) > cap and (old or new):
        pool = old if old else new
        victim = min(range(len(pool)), key=lambda i: (salience(pool[i]), i))
        dropped = _LINE_STAMP.sub("", pool.pop(victim))  # a line's time is no identifier
        pinned += [i for i in identifiers(dropped) if i not in pinned]
        while pinned and counter.count("\n".join(_pin_line(pinned))) > cap // 2:
            pinned.pop(0)
    return "\n".join(old + new + _pin_line(pinned))


_PINNED = "- earlier identifiers: "
# The time an extractive line starts with ("- 2026-05-01 09:03 "): the phone pattern took
# "2026-05-01 09" for a number and pinned it.
_LINE_STAMP = re.compile(r"^- \d{4}-\d{2}-\d{2} \d{2}:\d{2} ")


def _pin_line(pinned: list[str]) -> list[str]:
    return [_PINNED + ", ".join(pinned)] if pinned else []
