"""Clocks: every stored time is UTC; tests and transcripts set the time."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Annotated, Protocol, overload

from pydantic import AfterValidator


class Clock(Protocol):
    def now(self) -> datetime: ...


class SystemClock:
    """Wall-clock time in UTC."""

    def now(self) -> datetime:
        return datetime.now(UTC)


class ManualClock:
    """A clock you set: transcripts replay with their own dates."""

    def __init__(self, start: datetime | None = None) -> None:
        self._now = to_utc(start) if start else datetime.now(UTC)

    def now(self) -> datetime:
        return self._now

    def set(self, when: datetime) -> None:
        self._now = to_utc(when)

    def advance(self, delta: timedelta) -> None:
        self._now += delta


def to_utc(when: datetime) -> datetime:
    """Naive datetimes are taken as UTC; aware ones are converted."""
    if when.tzinfo is UTC:  # most: read back from the stores as UTC (a search, ~160 a time)
        return when
    if when.tzinfo is None:
        return when.replace(tzinfo=UTC)
    return when.astimezone(UTC)


def in_utc_range(when: datetime) -> datetime:
    """``when``, if it has a time in UTC (a pydantic validator: ``UtcTime``); a time a few
    minutes east of UTC on 1 January of the year 1 has none, and fails there as a ValueError
    naming the range instead of an OverflowError deep in a read."""
    try:
        to_utc(when)
    except OverflowError:
        raise ValueError(
            "is out of range: give a time between the years 1 and 9999 in UTC"
        ) from None
    return when


# A datetime argument of a door (``Memory``'s ``as_of``, the REST bodies'): it converts to UTC.
UtcTime = Annotated[datetime, AfterValidator(in_utc_range)]


def parse_time(text: str) -> datetime:
    """ISO-8601 (``2026-05-01``, ``2026-05-01T10:00:00Z``) to an aware UTC datetime."""
    from memvisor.errors import UserError

    try:
        return to_utc(datetime.fromisoformat(text.strip().replace("Z", "+00:00")))
    except ValueError as exc:
        raise UserError(
            f"invalid time {text!r}: use ISO-8601, e.g. 2026-05-01 or 2026-05-01T10:00:00Z"
        ) from exc


@overload
def iso(when: datetime) -> str: ...
@overload
def iso(when: None) -> None: ...
def iso(when: datetime | None) -> str | None:
    return to_utc(when).isoformat().replace("+00:00", "Z") if when else None
