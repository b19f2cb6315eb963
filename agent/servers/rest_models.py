"""The request bodies of ``memvisor serve``: typed, so a bad request is a 422 naming the field."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, model_validator

from memvisor.storage.clock import UtcTime

Kind = Literal["fact", "passage", "turn", "episode", "recipe"]


def _not_blank(value: str) -> str:
    if not value.strip():
        raise ValueError("is blank: give some text")
    return value


Query = Annotated[str, Field(min_length=1, max_length=20_000), AfterValidator(_not_blank)]


def _written_time(value: object) -> object:
    # pydantic would read a bare number as seconds since 1970: 0 is then a real date.
    if not isinstance(value, str | datetime):
        raise ValueError("give a date or time as text, ISO 8601: e.g. 2026-05-01T12:00:00Z")
    return value


AsOf = Annotated[UtcTime, BeforeValidator(_written_time)]


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Message(_Body):
    role: Literal["user", "assistant"]
    content: Annotated[str, Field(min_length=1, max_length=100_000)]


class FactBody(_Body):
    subject: Annotated[str, Field(min_length=1)]
    predicate: Annotated[str, Field(min_length=1)]
    object: Annotated[str, Field(min_length=1)]
    confidence: Annotated[float, Field(ge=0, le=1)] = 0.9
    importance: Annotated[float, Field(ge=0, le=1)] = 0.5
    valid_until: str | None = None


class AddBody(_Body):
    """Exactly one of: ``text`` (the user's message), ``messages`` (a conversation), ``fact``,
    ``passage``."""

    text: Annotated[str, Field(min_length=1, max_length=100_000)] | None = None
    messages: Annotated[list[Message], Field(min_length=1, max_length=200)] | None = None
    fact: FactBody | None = None
    passage: Annotated[str, Field(min_length=1, max_length=100_000)] | None = None
    session: Annotated[str, Field(min_length=1, max_length=200)] | None = None
    # Whose decision the write is: the user's own ("user", weighed against ``context``) or a
    # model's ("model").
    origin: Literal["user", "model"] = "user"
    # The conversation the write came from: the firewall checks whose words it is.
    context: Annotated[list[Message], Field(max_length=50)] = []
    # With a served model (``memvisor serve --model``), a logged conversation's facts are
    # then saved by that model through the firewall; False logs the turns only.
    extract: bool = True

    @model_validator(mode="after")
    def _one(self) -> AddBody:
        given = [n for n in ("text", "messages", "fact", "passage") if getattr(self, n)]
        if len(given) != 1:
            raise ValueError("give exactly one of text, messages, fact or passage")
        return self


class PatchBody(_Body):
    """A fact's new ``object``/``confidence``/``valid_until``, or a core block's ``value``."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"minProperties": 1})

    object: Annotated[str, Field(min_length=1)] | None = None
    confidence: Annotated[float, Field(ge=0, le=1)] | None = None
    valid_until: str | None = None
    value: str | None = None

    @model_validator(mode="after")
    def _some(self) -> PatchBody:
        if not self.model_dump(exclude_none=True):
            raise ValueError(
                "give what changes: object, confidence or valid_until for a fact, "
                "value for a core block"
            )
        return self


class SearchBody(_Body):
    query: Query
    k: Annotated[int, Field(ge=1, le=100)] = 10
    kinds: Annotated[list[Kind], Field(min_length=1)] | None = None
    as_of: AsOf | None = None


class ContextBody(_Body):
    query: Query
    budget: Annotated[int, Field(ge=1, le=32_000)] = 800
    as_of: AsOf | None = None


class ConfirmBody(_Body):
    force: bool = False


class ChatBody(_Body):
    message: Annotated[str, Field(min_length=1, max_length=100_000), AfterValidator(_not_blank)]
    session: Annotated[str, Field(min_length=1, max_length=200, pattern=r"^[\w.:-]+$")] = "api"
    # Server-sent events: ``delta`` pieces of the answer as they come, then ``answer`` (or
    # ``error``); see ``rest_stream``.
    stream: bool = False


class ErrorBody(BaseModel):
    """Every failure's body: ``error`` says what is wrong and how to fix it; ``field`` names
    the bad one where there is one. A held write (202) also gives ``quarantine_id``, the
    firewall's ``reasons`` and how to ``confirm`` it; a refused one (422) its ``reasons``."""

    error: str
    field: str | None = None
    status: Literal["held", "rejected"] | None = None
    reasons: list[str] | None = None
    quarantine_id: str | None = None
    confirm: dict[str, Any] | None = None


def documented(*codes: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI ``responses`` for these failure codes, each with ``ErrorBody``."""
    said = {
        202: "Held in quarantine for the user to confirm (the firewall's reasons given)",
        400: "A request the route cannot act on; the error says why",
        401: "No API key, or an unknown or revoked one",
        404: "No such record for this key's user (another user's id answers the same)",
        409: "The record changed meanwhile; read it again and retry",
        422: "A field is missing or invalid (named in field), or the firewall refused the write",
        503: "The server cannot serve this now (no model, or storage unavailable)",
    }
    return {code: {"model": ErrorBody, "description": said[code]} for code in codes}
