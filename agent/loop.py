"""The guarded agent loop: one ``step`` per user message.

Log the user message (committed) -> assemble the prompt inside the budget ->
call the model -> validate and run tool calls (writes through the firewall) ->
loop until the model answers or a cap stops it -> log the answer with the ids
of every memory that was in context.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from loguru import logger
from pydantic import BaseModel, Field

from agent.config import AgentConfig
from agent.errors import BudgetExceeded, ModelError
from agent.firewall import Firewall
from agent.models.base import AssistantTurn, ChatModel, ToolCall
from agent.prompt import PromptReport, assemble, tool_message
from paging.tokens import counter_for_model
from storage import Store
from storage.ids import new_id
from storage.users import require_user
from tools.builtin import builtin_registry
from tools.context import ToolContext
from tools.guard import WriteGuard
from tools.messaging import EndTurn
from tools.registry import ToolRegistry, ToolResult

ExternalTool = Callable[[str, dict[str, Any]], str | None]


class ToolCallRecord(BaseModel):
    name: str
    arguments: dict[str, Any]
    ok: bool
    result: str


class Turn(BaseModel):
    """What one step did, for the caller, transcripts and evals."""

    answer: str
    trace_id: str
    user_event_id: str
    answer_event_id: str
    tool_calls: list[ToolCallRecord] = Field(default_factory=list)
    memory_ids: list[str] = Field(default_factory=list)
    prompt_tokens: list[int] = Field(default_factory=list)
    completion_tokens: int = 0
    window: int = 0
    steps: int = 0
    invalid_calls: int = 0
    repaired_calls: int = 0
    writes: int = 0
    capped: str | None = None
    error: str | None = None
    context_reports: list[dict[str, Any]] = Field(default_factory=list)
    # Each model response of the step, as a transcript ``assistant`` event records it.
    responses: list[dict[str, Any]] = Field(default_factory=list)


class Agent:
    def __init__(
        self,
        *,
        user_id: str,
        session_id: str,
        model: ChatModel,
        store: Store,
        config: AgentConfig | None = None,
        registry: ToolRegistry | None = None,
        guard: WriteGuard | None = None,
        external_tool: ExternalTool | None = None,
        num_ctx: int | None = None,
    ) -> None:
        self.user_id = require_user(user_id)
        self.session_id = session_id
        self.model = model
        self.store = store
        self.config = config or AgentConfig()
        self.registry = registry or builtin_registry()
        self.guard = guard or Firewall()
        self.external_tool = external_tool
        self.counter = counter_for_model(getattr(model, "name", None))
        window = model.context_length or self.config.default_window
        self.window = min(window, num_ctx) if num_ctx else window
        self.reserve = self.config.reply_reserve or min(1024, self.window // 4)
        self.history = self._load_history()
        self.log = logger.bind(user_id=user_id, session_id=session_id)

    def _load_history(self) -> list[dict[str, Any]]:
        """Resume a session: its recent dialogue from the event log."""
        events = self.store.events.list(
            user_id=self.user_id,
            session_id=self.session_id,
            kinds=["user_message", "assistant_message"],
            newest_first=True,
            limit=200,
        )
        return [
            {
                "role": "user" if e.kind == "user_message" else "assistant",
                "content": str(e.payload.get("content", "")),
            }
            for e in reversed(events)
        ]

    def step(self, user_message: str) -> Turn:
        """Answer one user message; every event carries the turn's trace id."""
        if not isinstance(user_message, str) or not user_message.strip():
            raise ValueError("user message must be non-empty text")
        trace_id = new_id("trc")
        user_event = self.store.log_turn(
            user_id=self.user_id,
            role="user",
            content=user_message,
            trace_id=trace_id,
            session_id=self.session_id,
        )
        ctx = ToolContext(
            user_id=self.user_id,
            session_id=self.session_id,
            trace_id=trace_id,
            store=self.store,
            clock=self.store.clock,
            source_event_ids=[user_event.id],
            max_writes=self.config.max_writes,
            extras={
                "guard": self.guard,
                "model_name": getattr(self.model, "name", None),
                "write_source": "model",
                "recent_messages": [*self.history[-6:], {"role": "user", "content": user_message}],
            },
        )
        turn = Turn(
            answer="",
            trace_id=trace_id,
            user_event_id=user_event.id,
            answer_event_id="",
            window=self.window,
        )
        try:
            turn.answer = self._run(user_message, ctx, turn)
        except (ModelError, BudgetExceeded) as exc:
            turn.error = str(exc)
            turn.answer = f"I could not answer: {exc}"
            self._event(ctx, "error", {"error": str(exc), "kind": type(exc).__name__})
        turn.memory_ids = list(ctx.extras.get("memory_ids", []))
        turn.writes = ctx.writes
        answer_event = self.store.log_turn(
            user_id=self.user_id,
            role="assistant",
            content=turn.answer,
            trace_id=trace_id,
            session_id=self.session_id,
            payload={
                "in_reply_to": user_event.id,
                "memory_ids": turn.memory_ids,
                "tool_calls": [c.name for c in turn.tool_calls],
                "capped": turn.capped,
            },
        )
        turn.answer_event_id = answer_event.id
        self.history += [
            {"role": "user", "content": user_message},
            {"role": "assistant", "content": turn.answer},
        ]
        return turn

    def _run(self, user_message: str, ctx: ToolContext, turn: Turn) -> str:
        scratch: list[dict[str, Any]] = []
        core = self.store.core.list(user_id=self.user_id)
        ctx.extras.setdefault("memory_ids", []).extend(f"core:{b.label}@v{b.version}" for b in core)
        specs = self.registry.specs()
        for _ in range(self.config.max_steps):
            core = self.store.core.list(user_id=self.user_id)
            messages, report = assemble(
                counter=self.counter,
                window=self.window,
                reserve=self.reserve,
                system_prompt=self.config.system_prompt,
                core=core,
                tools=specs,
                history=self.history,
                user_message=user_message,
                scratch=scratch,
            )
            self._request_event(ctx, turn, report)
            reply = self.model.chat(messages, specs, {"num_ctx": self.window})
            turn.steps += 1
            turn.responses.append(
                {
                    "content": reply.content,
                    "tool_calls": [
                        {"name": c.name, "arguments": c.arguments} for c in reply.tool_calls
                    ],
                }
            )
            turn.completion_tokens += reply.usage.completion_tokens
            if reply.invented_output:
                self._event(
                    ctx,
                    "error",
                    {"kind": "invented_tool_output", "text": (reply.raw_tool_text or "")[:500]},
                )
            if reply.parse_errors:
                turn.invalid_calls += len(reply.parse_errors)
                self._event(
                    ctx, "error", {"kind": "invalid_tool_call", "errors": reply.parse_errors}
                )
            if not reply.tool_calls:
                if reply.parse_errors and turn.repaired_calls < self.config.max_repairs:
                    turn.repaired_calls += 1
                    scratch += [
                        {"role": "assistant", "content": reply.raw_tool_text or reply.content},
                        {
                            "role": "user",
                            "content": "Your tool call could not be "
                            "used: "
                            + "; ".join(reply.parse_errors)
                            + ". Send a corrected call or answer in plain text.",
                        },
                    ]
                    continue
                return reply.content.strip() or "(the model gave an empty answer)"
            ended = self._run_calls(reply, ctx, turn, scratch)
            if ended is not None:
                return ended
        turn.capped = "max_steps"
        self._event(ctx, "error", {"kind": "step_cap", "max_steps": self.config.max_steps})
        return (
            f"I stopped after {self.config.max_steps} model steps without finishing this "
            "request; ask me to continue or narrow it down."
        )

    def _run_calls(
        self, reply: AssistantTurn, ctx: ToolContext, turn: Turn, scratch: list[dict[str, Any]]
    ) -> str | None:
        scratch.append(
            {
                "role": "assistant",
                "content": reply.content,
                "tool_calls": [
                    {"function": {"name": c.name, "arguments": c.arguments}}
                    for c in reply.tool_calls
                ],
            }
        )
        for call in reply.tool_calls:
            self._event(
                ctx, "tool_call", {"name": call.name, "arguments": call.arguments, "id": call.id}
            )
            try:
                result = self._call(call, ctx)
            except EndTurn as end:
                self._event(
                    ctx, "tool_result", {"name": call.name, "ok": True, "content": "(message sent)"}
                )
                turn.tool_calls.append(
                    ToolCallRecord(
                        name=call.name, arguments=call.arguments, ok=True, result="(message sent)"
                    )
                )
                return end.message
            if result.error in ("unknown_tool", "invalid_arguments"):
                turn.invalid_calls += 1
                if turn.repaired_calls < self.config.max_repairs:
                    turn.repaired_calls += 1
            self._event(
                ctx,
                "tool_result",
                {
                    "name": call.name,
                    "ok": result.ok,
                    "error": result.error,
                    "content": result.content[:4000],
                },
            )
            turn.tool_calls.append(
                ToolCallRecord(
                    name=call.name, arguments=call.arguments, ok=result.ok, result=result.content
                )
            )
            scratch.append(tool_message(call.name, result.content))
            ctx.extras["recent_messages"].append({"role": "tool", "content": result.content})
        return None

    def _call(self, call: ToolCall, ctx: ToolContext) -> ToolResult:
        if call.name not in self.registry and self.external_tool is not None:
            recorded = self.external_tool(call.name, call.arguments)
            if recorded is not None:
                return ToolResult(name=call.name, ok=True, content=recorded)
        return self.registry.call(call.name, call.arguments, ctx)

    def _request_event(self, ctx: ToolContext, turn: Turn, report: PromptReport) -> None:
        turn.prompt_tokens.append(report.total)
        turn.context_reports.append(report.as_dict())
        self._event(
            ctx,
            "model_request",
            {"step": turn.steps, **report.as_dict(), "model": getattr(self.model, "name", "?")},
        )

    def _event(self, ctx: ToolContext, kind: str, payload: dict[str, Any]) -> None:
        self.store.events.append(
            user_id=self.user_id,
            kind=kind,
            trace_id=ctx.trace_id,
            session_id=self.session_id,
            payload=json.loads(json.dumps(payload, default=str)),
        )
