"""Time expressions in a message, resolved against the session clock."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

MONTHS = {
    m: i
    for i, m in enumerate(
        ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"], 1
    )
}
_MONTH = r"(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*"


@dataclass(frozen=True)
class TimeWindow:
    start: datetime
    end: datetime
    expression: str
    last_time: bool = False  # "last time": the most recent earlier session


def _day(d: datetime) -> datetime:
    return d.replace(hour=0, minute=0, second=0, microsecond=0)


def _month_window(year: int, month: int) -> tuple[datetime, datetime]:
    start = datetime(year, month, 1, tzinfo=UTC)
    end = datetime(year + (month == 12), month % 12 + 1, 1, tzinfo=UTC)
    return start, end


def resolve_time(text: str, now: datetime) -> TimeWindow | None:
    """The first time expression in ``text`` as a UTC window, or None."""
    t = text.lower()
    today = _day(now)
    rules: list[tuple[str, tuple[datetime, datetime]]] = [
        (r"\bday before yesterday\b|前天", (today - timedelta(days=2), today - timedelta(days=1))),
        (r"\byesterday\b|昨天", (today - timedelta(days=1), today)),
        (r"\btoday\b|今天", (today, today + timedelta(days=1))),
        (r"\btomorrow\b|明天", (today + timedelta(days=1), today + timedelta(days=2))),
        (
            r"\blast week\b|上周|上个星期",
            (today - timedelta(days=today.weekday() + 7), today - timedelta(days=today.weekday())),
        ),
        (
            r"\bthis week\b|这周|本周",
            (today - timedelta(days=today.weekday()), today + timedelta(days=7 - today.weekday())),
        ),
        (
            r"\bnext week\b|下周",
            (
                today + timedelta(days=7 - today.weekday()),
                today + timedelta(days=14 - today.weekday()),
            ),
        ),
        (r"\blast month\b|上个月|上月", _month_window(*(_shift_month(now, -1)))),
        (r"\bthis month\b|这个月|本月", _month_window(now.year, now.month)),
        (r"\bnext month\b|下个月", _month_window(*(_shift_month(now, 1)))),
        (
            r"\blast year\b|去年",
            (datetime(now.year - 1, 1, 1, tzinfo=UTC), datetime(now.year, 1, 1, tzinfo=UTC)),
        ),
    ]
    for pattern, (start, end) in rules:
        match = re.search(pattern, t)
        if match:
            return TimeWindow(start, end, match.group(0))
    ago = r"\b(\d+|a|an|one|two|three|four|five|six|seven)\s+(day|week|month)s?\s+ago\b"
    if m := re.search(ago, t):
        n = _number(m.group(1))
        days = {"day": 1, "week": 7, "month": 30}[m.group(2)] * n
        center = today - timedelta(days=days)
        pad = timedelta(days=max(1, days // 7))
        return TimeWindow(center - pad, center + pad + timedelta(days=1), m.group(0))
    if m := re.search(r"\blast time\b|\bprevious(ly)? (session|time|chat)\b|上次|上一次", t):
        return TimeWindow(datetime(1970, 1, 1, tzinfo=UTC), now, m.group(0), last_time=True)
    if m := re.search(r"\b(\d{4})-(\d{2})-(\d{2})\b", t):
        start = datetime(int(m.group(1)), int(m.group(2)), int(m.group(3)), tzinfo=UTC)
        return TimeWindow(start, start + timedelta(days=1), m.group(0))
    day_month = (
        rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH}\b"
        rf"|\b{_MONTH}\s+(\d{{1,2}})(?:st|nd|rd|th)?\b"
    )
    if m := re.search(day_month, t):
        day = int(m.group(1) or m.group(4))
        month = MONTHS[(m.group(2) or m.group(3))[:3]]
        year = now.year if (month, day) <= (now.month, now.day) else now.year - 1
        try:
            start = datetime(year, month, day, tzinfo=UTC)
        except ValueError:
            return None
        return TimeWindow(start, start + timedelta(days=1), m.group(0))
    if m := re.search(rf"\b(?:in|during|since|back in)\s+{_MONTH}(?:\s+(\d{{4}}))?\b", t):
        month = MONTHS[m.group(1)[:3]]
        year = int(m.group(2)) if m.group(2) else (now.year if month <= now.month else now.year - 1)
        return TimeWindow(*_month_window(year, month), m.group(0))
    if m := re.search(r"(\d{1,2})月(\d{1,2})[日号]", t):
        month, day = int(m.group(1)), int(m.group(2))
        year = now.year if (month, day) <= (now.month, now.day) else now.year - 1
        try:
            start = datetime(year, month, day, tzinfo=UTC)
        except ValueError:
            return None
        return TimeWindow(start, start + timedelta(days=1), m.group(0))
    return None


def _shift_month(now: datetime, delta: int) -> tuple[int, int]:
    index = now.year * 12 + now.month - 1 + delta
    return index // 12, index % 12 + 1


def _number(word: str) -> int:
    words = {
        "a": 1,
        "an": 1,
        "one": 1,
        "two": 2,
        "three": 3,
        "four": 4,
        "five": 5,
        "six": 6,
        "seven": 7,
    }
    return words.get(word, int(word) if word.isdigit() else 1)
