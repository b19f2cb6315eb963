"""Time expressions in a message, resolved against the session clock.

English and Chinese: days (yesterday, 明天), weeks, months, years, weekdays (last
Friday, next Tuesday, 下周三), "N days ago" / "in N days" (三天前, 3天后), dates
(2026-05-19, May 19, 5月19日), months (in May) and "last time" (上次). An expression
that names no year or week (May 19, Friday, in May) is read towards ``prefer``:
the past when reading memory ("what did we say on Friday?"), the future when writing
("valid until Friday").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Literal

Direction = Literal["past", "future"]

MONTHS = {
    m: i
    for i, m in enumerate(
        ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"], 1
    )
}
_MONTH = r"(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*"
WEEKDAYS = {d: i for i, d in enumerate(["mon", "tue", "wed", "thu", "fri", "sat", "sun"])}
_WEEKDAY = r"(mon|tues?|wed(?:nes)?|thu(?:rs)?|fri|sat(?:ur)?|sun)day"
_ZH_WEEKDAY = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6}
_ZH_NUMBER = {"一": 1, "两": 2, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "十": 10}


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


def resolve_time(text: str, now: datetime, *, prefer: Direction = "past") -> TimeWindow | None:
    """The first time expression in ``text`` as a UTC window, or None; None too when the
    window would fall outside the calendar (``now`` in the year 1 or 9999: an ``as_of`` of
    0001-01-01 answered 500 with "date value out of range")."""
    try:
        return _resolve(text, now, prefer)
    except (OverflowError, ValueError):  # a day before the year 1 or after 9999
        return None


def _resolve(text: str, now: datetime, prefer: Direction) -> TimeWindow | None:
    t = text.lower()
    today = _day(now)
    if found := _weekday(t, today, prefer) or _offset(t, today):
        return found
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
        return _date(_year(now, month, day, prefer), month, day, m.group(0))
    if m := re.search(
        rf"\b(?:in|during|since|back in|until|till|by)\s+{_MONTH}(?:\s+(\d{{4}}))?\b", t
    ):
        month = MONTHS[m.group(1)[:3]]
        same = (month, 1) if prefer == "past" else (month, 31)
        year = int(m.group(2)) if m.group(2) else _year(now, *same, prefer)
        return TimeWindow(*_month_window(year, month), m.group(0))
    if m := re.search(r"(\d{1,2})月(\d{1,2})[日号]", t):
        month, day = int(m.group(1)), int(m.group(2))
        return _date(_year(now, month, day, prefer), month, day, m.group(0))
    return None


def _year(now: datetime, month: int, day: int, prefer: Direction) -> int:
    """The year of an undated month and day: the nearest one in the preferred direction."""
    if prefer == "past":
        return now.year if (month, day) <= (now.month, now.day) else now.year - 1
    return now.year if (month, day) >= (now.month, now.day) else now.year + 1


def _date(year: int, month: int, day: int, expression: str) -> TimeWindow | None:
    try:
        start = datetime(year, month, day, tzinfo=UTC)
    except ValueError:  # February 30th
        return None
    return TimeWindow(start, start + timedelta(days=1), expression)


def _weekday(t: str, today: datetime, prefer: Direction) -> TimeWindow | None:
    """Last Friday, this Wednesday, next Tuesday, on Monday, 上周三, 下周五, 星期二."""
    day: int | None = None
    which = ""
    if m := re.search(rf"\b(?:(last|this|next|coming|on|until|till|by)\s+)?{_WEEKDAY}\b", t):
        day = WEEKDAYS[m.group(2)[:3]]
        which = {"coming": "next", "on": "", "until": "", "till": "", "by": ""}.get(
            m.group(1) or "", m.group(1) or ""
        )
    elif m := re.search(r"(上|下|这|本)?(?:个)?(?:周|星期|礼拜)([一二三四五六日天])", t):
        day = _ZH_WEEKDAY[m.group(2)]
        which = {"上": "last week", "下": "next week", "这": "this", "本": "this"}.get(
            m.group(1) or "", ""
        )
    if day is None or m is None:
        return None
    monday = today - timedelta(days=today.weekday())
    if which == "this":
        start = monday + timedelta(days=day)
    elif which == "last week":
        start = monday - timedelta(days=7 - day)
    elif which == "next week":
        start = monday + timedelta(days=7 + day)
    else:  # last / next / bare: the nearest such day before or after today
        back = which == "last" or (not which and prefer == "past")
        delta = (today.weekday() - day) % 7 if back else (day - today.weekday()) % 7
        delta = delta or (7 if which else 0)  # "next Monday" on a Monday is a week away
        start = today - timedelta(days=delta) if back else today + timedelta(days=delta)
    return TimeWindow(start, start + timedelta(days=1), m.group(0))


# Offsets further than a century from now are not time expressions anybody means.
MAX_OFFSET_DAYS = 36_600


def _offset(t: str, today: datetime) -> TimeWindow | None:
    """3 days ago, in two weeks, 10 days from now, 三天前, 2周后."""
    unit_days = {"day": 1, "week": 7, "month": 30, "天": 1, "日": 1, "周": 7, "星期": 7, "个月": 30}
    # Counts start where a number starts (not inside a digit run: that made a long one
    # quadratic) and are at most 6 digits (int() of thousands of digits raises).
    count = r"(\d{1,6}|a|an|one|two|three|four|five|six|seven|eight|nine|ten)"
    zh_count = r"(?<![\d一两二三四五六七八九十])(\d{1,6}|[一两二三四五六七八九十]{1,6})"
    if m := re.search(rf"\b{count}\s+(day|week|month)s?\s+ago\b", t):
        days = -unit_days[m.group(2)] * _number(m.group(1))
    elif (m := re.search(rf"\b(?:in|within|after)\s+{count}\s+(day|week|month)s?\b", t)) or (
        m := re.search(rf"\b{count}\s+(day|week|month)s?\s+from\s+now\b", t)
    ):
        days = unit_days[m.group(2)] * _number(m.group(1))
    elif m := re.search(rf"{zh_count}\s*(天|日|周|星期|个月)(前|以前|后|以后|之后)", t):
        sign = -1 if m.group(3) in ("前", "以前") else 1
        days = sign * unit_days[m.group(2)] * _zh_number(m.group(1))
    else:
        return None
    if abs(days) > MAX_OFFSET_DAYS:  # "999999 days ago" is no date a datetime can hold
        return None
    center = today + timedelta(days=days)
    pad = timedelta(days=abs(days) // 7 // 2)  # "three weeks ago" is roughly then
    return TimeWindow(center - pad, center + pad + timedelta(days=1), m.group(0))


def _zh_number(text: str) -> int:
    if text.isdigit():
        return int(text)
    if text.startswith("十"):  # 十二 = 12
        return 10 + _ZH_NUMBER.get(text[1:], 0)
    if "十" in text:  # 二十 = 20, 二十三 = 23
        tens, _, ones = text.partition("十")
        return _ZH_NUMBER.get(tens, 1) * 10 + _ZH_NUMBER.get(ones, 0)
    return _ZH_NUMBER.get(text, 1)


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
        "eight": 8,
        "nine": 9,
        "ten": 10,
    }
    return words.get(word, int(word) if word.isdigit() else 1)
