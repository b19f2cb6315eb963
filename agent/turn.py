"""What one agent step returns: the answer and everything needed to audit it."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field


class ToolCallRecord(BaseModel):
    name: str
    arguments: dict[str, Any]
    ok: bool
    result: str


class Turn(BaseModel):
    answer: str
    trace_id: str
    user_event_id: str
    answer_event_id: str = ""
    tool_calls: list[ToolCallRecord] = Field(default_factory=list)
    memory_ids: list[str] = Field(default_factory=list)
    paged_ids: list[str] = Field(default_factory=list)
    cited_ids: list[str] = Field(default_factory=list)
    # The text of each paged-in memory the model saw (for probes and audits).
    paged_texts: list[str] = Field(default_factory=list)
    # The execution context (working memory) of the step's first request, as rendered.
    working_memory: str = ""
    prompt_tokens: list[int] = Field(default_factory=list)
    completion_tokens: int = 0
    window: int = 0
    steps: int = 0
    invalid_calls: int = 0
    repaired_calls: int = 0
    writes: int = 0
    evicted_turns: int = 0
    capped: str | None = None
    error: str | None = None
    # The user stopped the turn (Ctrl-C); ``error`` says so and the log has it as cancelled.
    cancelled: bool = False
    context_reports: list[dict[str, Any]] = Field(default_factory=list)
    # Each model response of the step, as a transcript ``assistant`` event records it.
    responses: list[dict[str, Any]] = Field(default_factory=list)
