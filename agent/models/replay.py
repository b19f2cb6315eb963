"""ReplayModel: a chat model that answers with recorded responses, in order.

The responses come in as plain data: anything with ``content`` and ``tool_calls``
(``name``, ``arguments``), such as the ``assistant`` events of a transcript. ``from_file``
reads only what a model needs of a transcript file (its window and its ``assistant``
lines). The whole format, its probes and their validation belong to the replays in
``memvisor.evals`` (which the runtime does not import); they read the file's lines and
the recorded calls with the helpers here, so both read a transcript the same way.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from memvisor.agent.models.base import AssistantTurn, ToolCall
from memvisor.errors import ModelError, UserError


class RecordedCall(BaseModel):
    """A tool call as recorded: the name and the arguments the model gave."""

    name: str
    arguments: dict[str, Any] = Field(default_factory=dict)


class RecordedResponse(BaseModel):
    """One recorded model response (a transcript's ``assistant`` line without its type)."""

    model_config = ConfigDict(extra="forbid")
    content: str = ""
    tool_calls: list[RecordedCall] = Field(default_factory=list)


class Recording(Protocol):
    """What a replay needs of a recorded response; a transcript's events fit as they are."""

    @property
    def content(self) -> str: ...

    @property
    def tool_calls(self) -> Sequence[RecordedCall]: ...


class _Header(BaseModel):
    """The header fields a replaying model needs (``evals.transcripts.Header`` has them all)."""

    model_config = ConfigDict(extra="allow")
    # Transcripts recorded before the rename say "engram.transcript"; both read the same.
    format: Literal["memvisor.transcript", "engram.transcript"]
    version: Literal[1]
    user_id: str
    num_ctx: int = Field(default=8192, ge=256)


def turn_from_recording(recording: Recording, index: int) -> AssistantTurn:
    calls = [
        ToolCall(id=f"call_{index}_{i}", name=c.name, arguments=c.arguments)
        for i, c in enumerate(recording.tool_calls, 1)
    ]
    return AssistantTurn(content=recording.content, tool_calls=calls)


class ReplayModel:
    """Deterministic: each ``chat`` pops the next recorded response."""

    name = "replay"

    def __init__(self, recordings: Iterable[Recording] = (), *, context_length: int = 8192) -> None:
        self.context_length = context_length
        self._queue: deque[Recording] = deque(recordings)
        self._served = 0

    @classmethod
    def from_file(cls, path: str | Path) -> ReplayModel:
        """Every ``assistant`` response of a transcript, in the window its header names."""
        num_ctx, responses = read_responses(path)
        return cls(responses, context_length=num_ctx)

    def load(self, recordings: Iterable[Recording]) -> None:
        """Queue the recorded responses of the next step (dropping any left over)."""
        self._queue = deque(recordings)

    @property
    def remaining(self) -> int:
        return len(self._queue)

    def chat(
        self,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]],
        options: dict[str, Any] | None = None,
    ) -> AssistantTurn:
        if not self._queue:
            raise ModelError(
                f"the recording has no model response left (after "
                f"{self._served}); the transcript's assistant events do not "
                "cover this step"
            )
        self._served += 1
        return turn_from_recording(self._queue.popleft(), self._served)


def read_responses(path: str | Path) -> tuple[int, list[RecordedResponse]]:
    """A transcript's window (``num_ctx``) and its ``assistant`` lines; other lines are skipped.

    Only what a replaying model needs is checked here: every line is JSON, the first is a
    transcript header and the ``assistant`` lines are well formed. ``memvisor replay``
    validates the rest of the format.
    """
    path = Path(path)
    records = read_records(path)
    try:
        header = _Header.model_validate(records[0][1])
    except ValidationError as exc:
        raise header_error(path, records[0][0], exc) from None
    responses = []
    for n, data in records[1:]:
        if not isinstance(data, dict) or data.get("type") != "assistant":
            continue
        try:
            responses.append(
                RecordedResponse.model_validate({k: v for k, v in data.items() if k != "type"})
            )
        except ValidationError as exc:
            raise UserError(f"{path}:{n}: {first_error(exc)}") from None
    return header.num_ctx, responses


def read_records(path: Path) -> list[tuple[int, Any]]:
    """A transcript's JSON lines with their line numbers; blank and ``//`` lines skipped.

    At least one (the header) is returned; errors name the file, the line and the fix.
    """
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        raise UserError(f"no such transcript: {path}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(f"cannot read transcript {path}: {exc}") from None
    records = [
        (n, line)
        for n, line in enumerate(lines, 1)
        if line.strip() and not line.lstrip().startswith("//")
    ]
    if not records:
        raise UserError(f"{path} is empty: a transcript starts with a header line")
    return [(n, _json(path, n, line)) for n, line in records]


def header_error(path: Path, line: int, exc: ValidationError) -> UserError:
    return UserError(
        f"{path}:{line}: not a transcript header ({first_error(exc)}); the "
        'first line must be {"format": "memvisor.transcript", "version": 1, '
        '"user_id": ...}'
    )


def first_error(exc: ValidationError) -> str:
    """The first problem pydantic found, as ``field.path: message``."""
    err = exc.errors()[0]
    where = ".".join(str(p) for p in err["loc"])
    return f"{where}: {err['msg']}" if where else err["msg"]


def _json(path: Path, n: int, line: str) -> Any:
    try:
        return json.loads(line)
    except json.JSONDecodeError as exc:
        raise UserError(f"{path}:{n}: not valid JSON ({exc.msg} at column {exc.colno})") from None
