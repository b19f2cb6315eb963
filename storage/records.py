"""Records that cross the storage boundary (CLI, export/import, tools, evals)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_serializer

from .clock import iso

FactStatus = Literal["active", "superseded", "retracted", "expired", "quarantined"]


class Record(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)

    @field_serializer("*", when_used="json")
    def _times(self, value: Any) -> Any:
        return iso(value) if isinstance(value, datetime) else value


class Event(Record):
    id: str
    trace_id: str
    user_id: str
    session_id: str | None
    ts: datetime
    kind: str
    payload: dict[str, Any]


class CoreBlock(Record):
    user_id: str
    label: str
    value: str
    token_limit: int
    read_only: bool = False
    version: int
    updated_at: datetime | None = None  # None: a default block nobody has written yet
    trace_id: str | None = None


class Fact(Record):
    id: str
    user_id: str
    lineage_id: str
    subject: str
    predicate: str
    object: str
    confidence: float = Field(ge=0.0, le=1.0)
    importance: float = Field(ge=0.0, le=1.0)
    status: FactStatus
    valid_from: datetime
    valid_until: datetime | None = None
    invalidated_at: datetime | None = None
    created_at: datetime
    last_confirmed_at: datetime | None = None
    confirmations: int = 0
    version: int = 1
    supersedes: str | None = None
    source_event_ids: list[str] = Field(default_factory=list)
    trace_id: str

    def text(self) -> str:
        return f"{self.subject} {self.predicate.replace('_', ' ')} {self.object}"


class FactWrite(Record):
    """What a fact write did: created, confirmed an existing fact, superseded one, or nothing."""

    action: Literal["created", "confirmed", "superseded", "suppressed"]
    fact: Fact | None
    previous: Fact | None = None


class QuarantineItem(Record):
    id: str
    user_id: str
    tool: str
    arguments: dict[str, Any]
    reasons: list[str]
    confidence: float | None = None
    status: Literal["held", "released", "rejected"]
    created_at: datetime
    resolved_at: datetime | None = None
    source_event_ids: list[str] = Field(default_factory=list)
    trace_id: str


class Passage(Record):
    id: str
    user_id: str
    text: str
    session_id: str | None = None
    created_at: datetime
    source_event_ids: list[str] = Field(default_factory=list)
    trace_id: str
    meta: dict[str, Any] = Field(default_factory=dict)
