"""Transcript format v1 (see evals/TRANSCRIPTS.md): parse, validate, write."""

from __future__ import annotations

import json
import re
from datetime import datetime, timedelta
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

# The replay model reads transcripts too (``--model replay:FILE``): the lines, the header
# error and the recorded calls are read by its helpers, so both read a file the same way.
from memvisor.agent.models.replay import RecordedCall, first_error, header_error, read_records
from memvisor.errors import UserError


class _Event(BaseModel):
    model_config = ConfigDict(extra="forbid")
    line: int = Field(default=0, exclude=True)


class Header(BaseModel):
    model_config = ConfigDict(extra="allow")
    # Transcripts recorded before the rename say "engram.transcript"; both read the same.
    format: Literal["memvisor.transcript", "engram.transcript"]
    version: Literal[1]
    user_id: str
    title: str = ""
    start: datetime | None = None
    num_ctx: int = Field(default=8192, ge=256)


class SessionEvent(_Event):
    type: Literal["session"]
    id: str
    restart: bool = False


class CrashEvent(_Event):
    """The process dies here: no session end, no clean close; the next step reopens."""

    type: Literal["crash"]


class TimeEvent(_Event):
    type: Literal["time"]
    at: datetime | None = None
    advance: str | None = None

    def delta(self) -> timedelta:
        match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([smhdw])\s*", self.advance or "")
        if not match:
            raise UserError(
                f"line {self.line}: time advance {self.advance!r} must look like "
                "'90m', '2h' or '3d'"
            )
        unit = {"s": "seconds", "m": "minutes", "h": "hours", "d": "days", "w": "weeks"}
        return timedelta(**{unit[match.group(2)]: float(match.group(1))})


class UserEvent(_Event):
    type: Literal["user"]
    content: str = Field(min_length=1)


class AssistantEvent(_Event):
    type: Literal["assistant"]
    content: str = ""
    tool_calls: list[RecordedCall] = Field(default_factory=list)


class ToolEvent(_Event):
    type: Literal["tool"]
    name: str
    content: str


class ExpectEvent(_Event):
    model_config = ConfigDict(extra="allow")
    type: Literal["expect"]
    probe: Literal[
        "memory_contains",
        "memory_excludes",
        "answer_mentions",
        "answer_omits",
        "tool_called",
        "tool_not_called",
        "quarantined",
        "within_budget",
        "answer_format",
        "recall_mentions",
        "event_logged",
        "task_progress",
        "context_mentions",
    ]
    label: str = ""


Event = Annotated[
    SessionEvent | CrashEvent | TimeEvent | UserEvent | AssistantEvent | ToolEvent | ExpectEvent,
    Field(discriminator="type"),
]
_EVENT = TypeAdapter(Event)


class Transcript(BaseModel):
    header: Header
    events: list[Any]

    @property
    def user_turns(self) -> int:
        return sum(isinstance(e, UserEvent) for e in self.events)


def load_transcript(path: str | Path) -> Transcript:
    """Parse and validate a whole transcript; errors name the line and the fix."""
    path = Path(path)
    records = read_records(path)
    try:
        header = Header.model_validate(records[0][1])
    except ValidationError as exc:
        raise header_error(path, records[0][0], exc) from None
    events = []
    for n, data in records[1:]:
        try:
            event = _EVENT.validate_python(data)
        except ValidationError as exc:
            raise UserError(f"{path}:{n}: {first_error(exc)}") from None
        event.line = n
        events.append(event)
    return Transcript(header=header, events=events)


class TranscriptWriter:
    """Append events to a transcript file as they happen (``memvisor chat --record``)."""

    def __init__(self, path: str | Path, header: dict[str, Any]) -> None:
        self.path = Path(path)
        try:
            self._file = self.path.open("w", encoding="utf-8")
        except OSError as exc:
            raise UserError(f"cannot write transcript {self.path}: {exc}") from None
        self.write({"format": "memvisor.transcript", "version": 1, **header})

    def write(self, event: dict[str, Any]) -> None:
        self._file.write(json.dumps(event, ensure_ascii=False, default=str) + "\n")
        self._file.flush()

    def close(self) -> None:
        self._file.close()
