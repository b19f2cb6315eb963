"""Relative time expressions, English and Chinese, against a session clock."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memvisor.paging.timeparse import resolve_time

WEDNESDAY = datetime(2026, 3, 4, 15, 30, tzinfo=UTC)


def day(text: str, prefer: str = "past") -> str:
    window = resolve_time(text, WEDNESDAY, prefer=prefer)  # type: ignore[arg-type]
    assert window is not None, text
    return f"{window.start:%Y-%m-%d}..{window.end:%Y-%m-%d}"


@pytest.mark.parametrize(
    ("text", "past", "future"),
    [
        ("what did we say yesterday?", "2026-03-03..2026-03-04", "2026-03-03..2026-03-04"),
        ("昨天说了什么", "2026-03-03..2026-03-04", "2026-03-03..2026-03-04"),
        ("on Monday", "2026-03-02..2026-03-03", "2026-03-09..2026-03-10"),
        ("friday", "2026-02-27..2026-02-28", "2026-03-06..2026-03-07"),
        ("last Friday", "2026-02-27..2026-02-28", "2026-02-27..2026-02-28"),
        ("next Wednesday", "2026-03-11..2026-03-12", "2026-03-11..2026-03-12"),
        ("this Friday", "2026-03-06..2026-03-07", "2026-03-06..2026-03-07"),
        ("下周三", "2026-03-11..2026-03-12", "2026-03-11..2026-03-12"),
        ("上周五", "2026-02-27..2026-02-28", "2026-02-27..2026-02-28"),
        ("星期二", "2026-03-03..2026-03-04", "2026-03-10..2026-03-11"),
        ("3 days ago", "2026-03-01..2026-03-02", "2026-03-01..2026-03-02"),
        ("三天前", "2026-03-01..2026-03-02", "2026-03-01..2026-03-02"),
        ("10 days from now", "2026-03-14..2026-03-15", "2026-03-14..2026-03-15"),
        ("in May", "2025-05-01..2025-06-01", "2026-05-01..2026-06-01"),
        ("May 19", "2025-05-19..2025-05-20", "2026-05-19..2026-05-20"),
        ("next week", "2026-03-09..2026-03-16", "2026-03-09..2026-03-16"),
        ("下周", "2026-03-09..2026-03-16", "2026-03-09..2026-03-16"),
        ("下个月", "2026-04-01..2026-05-01", "2026-04-01..2026-05-01"),
    ],
)
def test_expressions_resolve_towards_the_preferred_direction(
    text: str, past: str, future: str
) -> None:
    assert day(text) == past
    assert day(text, "future") == future


def test_offsets_widen_with_distance_and_chinese_numbers_parse() -> None:
    assert day("in two weeks") == "2026-03-17..2026-03-20"  # about then, not one day
    assert day("2周后") == day("in 2 weeks")
    assert day("十天后") == day("10 days from now")


def test_no_expression_and_impossible_dates_give_none() -> None:
    for text in ("what is my order number", "February 30", "2月30日", "the mondayish plan"):
        assert resolve_time(text, WEDNESDAY) is None, text


def test_a_clock_at_the_ends_of_the_calendar_resolves_nothing_and_raises_nothing() -> None:
    """An as_of of 0001-01-01 (the REST fuzz's) made "day before yesterday" overflow: a 500."""
    for now in (datetime(1, 1, 1, tzinfo=UTC), datetime(9999, 12, 31, 23, tzinfo=UTC)):
        for text in ("(cancelled)", "what did I say yesterday", "tomorrow", "next week"):
            window = resolve_time(text, now)
            assert window is None or window.start <= window.end, (now, text)
    assert resolve_time("the day before yesterday", datetime(1, 1, 2, tzinfo=UTC)) is None


def test_last_time_means_the_previous_session() -> None:
    window = resolve_time("what did we talk about last time?", WEDNESDAY)
    assert window is not None and window.last_time and window.end == WEDNESDAY
