"""Every kind of memory write, declared once: its typed arguments and which of them are stored.

The firewall validates a proposal against its kind's model and screens the ``stored_text``
fields; the memory API performs the validated write; quarantine release replays a held one
from the same model. Kind names are the model's tool names where a tool proposes them.
"""

from __future__ import annotations

import math
from typing import Annotated, Any, ClassVar, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field

# Counts from a model can be anything; the database's integers cannot.
MAX_COUNT = 10**9


def _not_blank(value: str) -> str:
    if not value.strip():
        raise ValueError("must be non-empty text")
    return value


def _number_not_bool(value: Any) -> Any:
    if isinstance(value, bool):  # bool is an int to Python; a confidence is not
        raise ValueError("must be a number, not true/false")
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError("must be a finite number")
    return value


Text = Annotated[str, AfterValidator(_not_blank)]
Unit = Annotated[float, BeforeValidator(_number_not_bool), Field(ge=0.0, le=1.0)]
Count = Annotated[int, BeforeValidator(_number_not_bool), Field(ge=0, le=MAX_COUNT)]


class Write(BaseModel):
    """One proposed write; subclasses declare ``kind`` and what they store."""

    model_config = ConfigDict(extra="forbid")

    kind: ClassVar[str]
    # Fields whose text lands in memory (screened for injection, secrets, contact details).
    stored_text: ClassVar[tuple[str, ...]]
    # The field that holds what is claimed (whose words support it; is anything left but a
    # secret?).
    main: ClassVar[str]
    # A claim about the user (facts, core memory, passages): provenance rules and the
    # confidence floor apply. Procedural state (tasks, recipes, session slots) is the agent's
    # working state: screened for injection and secrets, not weighed as a claim.
    claim: ClassVar[bool] = True

    def texts(self) -> list[str]:
        """Every string that would be stored, nested lists and objects included."""
        return [s for name in self.stored_text for s in strings_in(getattr(self, name))]


class FactRemember(Write):
    kind: ClassVar[str] = "fact_remember"
    stored_text: ClassVar[tuple[str, ...]] = ("subject", "predicate", "object")
    main: ClassVar[str] = "object"

    subject: Text
    predicate: Text
    object: Text
    confidence: Unit | None = None
    importance: Unit | None = None
    # ISO-8601, or words ("next month") resolved on the session clock when performed.
    valid_until: str | None = None


class FactEdit(Write):
    kind: ClassVar[str] = "fact_edit"
    stored_text: ClassVar[tuple[str, ...]] = ("object",)
    main: ClassVar[str] = "object"

    fact_id: Text
    object: Text | None = None
    confidence: Unit | None = None
    valid_until: str | None = None


class PassageInsert(Write):
    kind: ClassVar[str] = "archival_memory_insert"
    stored_text: ClassVar[tuple[str, ...]] = ("content",)
    main: ClassVar[str] = "content"

    content: Text


class CoreAppend(Write):
    kind: ClassVar[str] = "core_memory_append"
    stored_text: ClassVar[tuple[str, ...]] = ("content",)
    main: ClassVar[str] = "content"

    label: Text
    content: Text


class CoreReplace(Write):
    kind: ClassVar[str] = "core_memory_replace"
    # old_content only locates text already in the block.
    stored_text: ClassVar[tuple[str, ...]] = ("new_content",)
    main: ClassVar[str] = "new_content"

    label: Text
    old_content: Text
    new_content: str  # "" deletes the old text


class CoreSet(Write):
    kind: ClassVar[str] = "core_memory_set"
    stored_text: ClassVar[tuple[str, ...]] = ("value",)
    main: ClassVar[str] = "value"

    label: Text
    value: str  # "" empties the block


class TaskUpdate(Write):
    kind: ClassVar[str] = "task_update"
    stored_text: ClassVar[tuple[str, ...]] = ("title", "last_success", "error")
    main: ClassVar[str] = "title"
    claim: ClassVar[bool] = False

    task_id: Text
    title: str | None = None
    total: Count | None = None
    completed: Count | None = None
    last_success: str | None = None
    error: str | None = None
    status: Literal["open", "done", "failed", "cancelled"] | None = None


class RecipeSave(Write):
    kind: ClassVar[str] = "recipe_save"
    stored_text: ClassVar[tuple[str, ...]] = ("name", "trigger", "steps")
    main: ClassVar[str] = "steps"
    claim: ClassVar[bool] = False

    name: Text
    trigger: Text
    steps: list[str] = Field(min_length=1, max_length=30)


class RecipeOutcome(Write):
    kind: ClassVar[str] = "recipe_outcome"
    stored_text: ClassVar[tuple[str, ...]] = ("note",)
    main: ClassVar[str] = "note"
    claim: ClassVar[bool] = False

    recipe_id: Text
    success: bool
    note: str | None = None


class StateSet(Write):
    kind: ClassVar[str] = "state_set"
    stored_text: ClassVar[tuple[str, ...]] = ("key", "value")
    main: ClassVar[str] = "value"
    claim: ClassVar[bool] = False

    key: Text
    value: Any = None  # any JSON value; None deletes the slot


class Message(BaseModel):
    model_config = ConfigDict(extra="forbid")

    role: Literal["user", "assistant"]
    content: Text


class ConversationAdd(Write):
    """Messages of someone else's conversation, logged and indexed as turns (``Memory.add``)."""

    kind: ClassVar[str] = "conversation_add"
    stored_text: ClassVar[tuple[str, ...]] = ("messages",)
    main: ClassVar[str] = "messages"
    claim: ClassVar[bool] = False

    messages: list[Message] = Field(min_length=1, max_length=200)
    session_id: str | None = None


class Forget(Write):
    """Forgetting stores nothing; it passes the pipeline so that every write has a verdict."""

    kind: ClassVar[str] = "memory_forget"
    stored_text: ClassVar[tuple[str, ...]] = ()
    main: ClassVar[str] = "record_id"
    claim: ClassVar[bool] = False

    record_id: Text


WRITE_KINDS: dict[str, type[Write]] = {
    cls.kind: cls
    for cls in (
        FactRemember,
        FactEdit,
        PassageInsert,
        CoreAppend,
        CoreReplace,
        CoreSet,
        TaskUpdate,
        RecipeSave,
        RecipeOutcome,
        StateSet,
        ConversationAdd,
        Forget,
    )
}


def strings_in(value: Any) -> list[str]:
    """The strings of a JSON-like value (object keys included), depth first."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, list | tuple):
        return [s for v in value for s in strings_in(v)]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in (str(k), *strings_in(v))]
    return []


def map_strings(value: Any, change: Any) -> Any:
    """``value`` with ``change`` applied to every string in it (object keys left alone)."""
    if isinstance(value, str):
        return change(value)
    if isinstance(value, list | tuple):
        return [map_strings(v, change) for v in value]
    if isinstance(value, dict):
        return {k: map_strings(v, change) for k, v in value.items()}
    return value
