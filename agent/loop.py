"""The guarded agent loop: one ``step`` per user message.

Log the user message (committed) -> page in memory for it -> assemble each
request inside the budget -> call the model -> validate and run tool calls
(writes through the firewall) -> loop until the model answers or a cap stops
it -> log the answer with the ids of every memory in context -> at the turn
boundary, check memory pressure and evict old dialogue into a summary.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from memvisor.agent.citations import cited_ids, is_correction
from memvisor.agent.config import AgentConfig
from memvisor.agent.guards import Firewall, mask_pii, redact_secrets
from memvisor.agent.guards.proposal import WriteGuard
from memvisor.agent.memory.api import Memory
from memvisor.agent.memory.sealing import seal_text, unseal
from memvisor.agent.memory.writes import map_strings
from memvisor.agent.models.base import AssistantTurn, ChatModel, ToolCall
from memvisor.agent.streaming import AnswerStream, ask
from memvisor.agent.topic_switch import restore_tracker, switch_topic
from memvisor.agent.turn import ToolCallRecord, Turn
from memvisor.agent.working_memory import WorkingMemory
from memvisor.errors import BudgetExceeded, ModelError, TurnCancelled, UserError
from memvisor.paging.assembler import PromptParts, assemble, render_core, tool_message
from memvisor.paging.budget import ContextBudget
from memvisor.paging.eviction import entities, evict, turns_to_evict
from memvisor.paging.pagein import MemoryItem, PageIn
from memvisor.paging.pressure import MemoryPressure
from memvisor.paging.summarize import (
    DialogueTurn,
    ExtractiveSummarizer,
    ModelSummarizer,
    Summarizer,
)
from memvisor.paging.text_limits import check_length
from memvisor.paging.tokens import count_messages, counter_for_model
from memvisor.storage import Store
from memvisor.storage.ids import new_id
from memvisor.storage.logger import logger
from memvisor.storage.text import valid_utf8
from memvisor.storage.users import require_user
from memvisor.tools.builtin import builtin_registry
from memvisor.tools.context import ToolContext
from memvisor.tools.messaging import EndTurn
from memvisor.tools.offer import offer_tools
from memvisor.tools.registry import ToolRegistry, ToolResult
from memvisor.tools.turn_log import TurnLog

ExternalTool = Callable[[str, dict[str, Any]], str | None]
NOTHING_RELEVANT = (
    "No stored memory matched this message. If it depends on something the "
    "user told you before, search your memory or ask them; do not guess."
)

SEARCH_UNAVAILABLE = (
    "Memory search is unavailable this turn (a storage fault; it is logged): only facts read "
    "straight from the records are shown. Answer from them, the conversation and core memory, "
    "and tell the user if the answer needs more of what they told you before."
)


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
        self.external_tool = external_tool
        self.counter = counter_for_model(getattr(model, "name", None))
        # Every write of this agent's tools goes through the one guarded memory API.
        self.memory = Memory(store, guard=guard or Firewall(), tokens=self.counter)
        window = model.context_length or self.config.default_window
        window = min(window, num_ctx) if num_ctx else window
        self.budget = ContextBudget(
            window, reserve=self.config.reply_reserve, caps=self.config.caps
        )
        self.window = window
        self.pagein = PageIn(
            store, counter=self.counter, floor=self.config.page_floor, weights=self.config.weights
        )
        self.pressure = MemoryPressure(self.config.pressure)
        self.summarizer: Summarizer = (
            ModelSummarizer(model) if self.config.summarizer == "model" else ExtractiveSummarizer()
        )
        offer = offer_tools(self.registry, count=self.counter.count, usable=self.budget.usable)
        self.specs = offer.specs
        self.system_prompt = "\n".join(
            p for p in (self.config.system_prompt, offer.prompt_note) if p
        )
        self.turns = self._load_window()
        self.log = logger.bind(user_id=user_id, session_id=session_id)
        self.working = WorkingMemory(store, user_id=self.user_id, session_id=session_id)
        self.topics = restore_tracker(
            store, self.config, user_id=self.user_id, session_id=session_id, log=self.log
        )
        self._pending_notes: list[str] = []
        self._last_cited: list[str] = []

    # -- set-up --

    def _load_window(self) -> list[DialogueTurn]:
        """Resume a session: its dialogue since the last eviction, from the event log."""
        evicted = {
            i
            for e in self.store.events.list(
                user_id=self.user_id, kinds=["eviction"], session_id=self.session_id
            )
            for i in e.payload.get("evicted_event_ids", [])
        }
        events = [
            e
            for e in self.store.events.list(
                user_id=self.user_id,
                session_id=self.session_id,
                kinds=["user_message", "assistant_message"],
            )
            if e.id not in evicted
        ]
        turns: list[DialogueTurn] = []
        for event in events:
            content = str(event.payload.get("content", ""))
            if event.kind == "user_message":
                turns.append(DialogueTurn(content, "", event.id, "", event.ts))
            elif turns and not turns[-1].assistant_event_id:
                turns[-1].assistant, turns[-1].assistant_event_id = content, event.id
        return turns

    # -- one step --

    def step(self, user_message: str, *, stream: AnswerStream | None = None) -> Turn:
        """Answer one user message; every event carries the turn's trace id.

        With a ``stream``, the answer's text also goes to it as the model writes it; what is
        logged is the same either way.
        """
        if not isinstance(user_message, str) or not user_message.strip():
            raise UserError("the message is empty: say something for the agent to answer")
        check_length(user_message, what="the message")
        user_message = valid_utf8(user_message)  # lone surrogates would fail every writer
        trace_id = new_id("trc")
        turn_log = TurnLog(max_writes=self.config.max_writes)
        # The log, the index and later prompts keep the message with its secrets sealed; this
        # turn's prompt has it as the user wrote it.
        logged_message = seal_text(
            self.store, user_message, user_id=self.user_id, trace_id=trace_id, known=turn_log.sealed
        )
        user_event = self.store.log_turn(
            user_id=self.user_id,
            role="user",
            content=logged_message,
            trace_id=trace_id,
            session_id=self.session_id,
            paged_in_next=True,
        )
        if self._last_cited and is_correction(user_message):
            self.store.usage.record(self._last_cited, "corrected", user_id=self.user_id)
        ctx = ToolContext(
            user_id=self.user_id,
            session_id=self.session_id,
            trace_id=trace_id,
            memory=self.memory,
            source_event_ids=[user_event.id],
            turn=turn_log,
            recent_messages=[m for t in self.turns[-3:] for m in t.messages()]
            + [{"role": "user", "content": user_message}],
            save_episode=self.save_episode,
        )
        self._track_topic(user_message, ctx)
        turn = Turn(answer="", trace_id=trace_id, user_event_id=user_event.id, window=self.window)
        paged: list[MemoryItem] = []
        try:
            paged = self._page_in(user_message, user_event.id, ctx)
            turn.answer = valid_utf8(self._run(user_message, paged, ctx, turn, stream))
        except (ModelError, BudgetExceeded, TurnCancelled) as exc:
            turn.error = str(exc)
            turn.cancelled = isinstance(exc, TurnCancelled)
            turn.answer = "(cancelled)" if turn.cancelled else f"I could not answer: {exc}"
            self._event(ctx, "error", {"error": str(exc), "kind": type(exc).__name__})
        in_prompt = [i for i in paged if i.id in set(turn.paged_ids)]
        turn.paged_texts = [i.text for i in in_prompt]
        turn.cited_ids = cited_ids(turn.answer, in_prompt)
        self.store.usage.record(turn.cited_ids, "cited", user_id=self.user_id)
        self._last_cited = turn.cited_ids or turn.paged_ids
        turn.memory_ids = list(dict.fromkeys([*ctx.turn.memory_ids, *turn.paged_ids]))
        turn.writes = ctx.turn.writes
        logged_answer = turn_log.scrub(turn.answer)  # a revealed secret is shown once
        answer_event = self.store.log_turn(
            user_id=self.user_id,
            role="assistant",
            content=logged_answer,
            trace_id=trace_id,
            session_id=self.session_id,
            payload={
                "in_reply_to": user_event.id,
                "memory_ids": turn.memory_ids,
                "cited_ids": turn.cited_ids,
                "tool_calls": [c.name for c in turn.tool_calls],
                "capped": turn.capped,
            },
        )
        turn.answer_event_id = answer_event.id
        self.turns.append(
            DialogueTurn(
                logged_message, logged_answer, user_event.id, answer_event.id, user_event.ts
            )
        )
        turn.evicted_turns = self._relieve_pressure(ctx)
        return turn

    @property
    def execution(self) -> dict[str, Any]:
        """The working memory's current content (before fitting to a prompt)."""
        return self.working.data

    # -- topic switches --

    def _track_topic(self, message: str, ctx: ToolContext) -> None:
        """On a clear topic switch, reset this session's task state (never facts or core)."""
        if self.topics is None:
            return
        try:
            decision = self.topics.step(message)
        except Exception as exc:  # a failing embedder must not cost the user the turn
            self.log.warning("topic check failed: {}", exc)
            self._event(ctx, "error", {"kind": "topic_check_failed", "error": str(exc)})
            return
        ctx.topic = self.topics.label
        if decision.switch:
            self._pending_notes.append(switch_topic(decision, message, ctx, self.working))

    def _page_in(self, message: str, user_event_id: str, ctx: ToolContext) -> list[MemoryItem]:
        in_window = {i for t in self.turns for i in (t.user_event_id, t.assistant_event_id)}
        try:
            items = self.pagein.retrieve(
                message,
                user_id=self.user_id,
                limit=self.config.page_limit,
                exclude_ids=in_window | {user_event_id},
                session_id=self.session_id,
            )
        except Exception as exc:  # a broken index or embedder costs the recall, not the turn
            self.log.warning("page-in failed: {}: {}", type(exc).__name__, exc)
            self._event(
                ctx, "error", {"kind": "page_in_failed", "error": f"{type(exc).__name__}: {exc}"}
            )
            self._pending_notes.append(SEARCH_UNAVAILABLE)
            try:  # the records themselves may still be readable
                items = self.pagein.from_records(
                    message, user_id=self.user_id, as_of=self.store.clock.now()
                )
            except Exception as fallback:
                self._event(
                    ctx, "error", {"kind": "page_in_fallback_failed", "error": str(fallback)}
                )
                return []
        items = self.pagein.pack(items, budget_tokens=self.budget.cap("paged"))
        for item in items:  # secrets never enter a prompt, whatever the store holds
            item.text, _ = redact_secrets(item.text)
        # Sealed secrets show as handles, or as their value when the user asks for one.
        shown = unseal(
            self.store,
            [i.text for i in items],
            user_id=self.user_id,
            asked=message,
            trace_id=ctx.trace_id,
            session_id=self.session_id,
            known=ctx.turn.sealed,
        )
        for item, text in zip(items, shown, strict=True):
            item.text = text
        self._event(
            ctx,
            "page_in",
            {
                "query": message[:500],
                "ids": [i.id for i in items],
                "scores": [round(i.score, 4) for i in items],
                "routes": [list(i.routes) for i in items],
            },
        )
        return items

    def _run(
        self,
        user_message: str,
        paged: list[MemoryItem],
        ctx: ToolContext,
        turn: Turn,
        stream: AnswerStream | None,
    ) -> str:
        scratch: list[dict[str, Any]] = []
        notes, self._pending_notes = self._pending_notes, []
        if not paged and SEARCH_UNAVAILABLE not in notes:
            notes.append(NOTHING_RELEVANT)
        core = self.store.core.list(user_id=self.user_id)
        ctx.turn.saw([f"core:{b.label}@v{b.version}" for b in core])
        for _ in range(self.config.max_steps):
            summary, _ = self.store.summaries.get(user_id=self.user_id, session_id=self.session_id)
            parts = PromptParts(
                system_prompt=self.system_prompt,
                core=core,
                user_message=user_message,
                tools=self.specs,
                summary=summary,
                notes=notes,
                paged=paged,
                execution=self.working.for_prompt(
                    self.store.clock.now(), self.counter, self.budget.cap("execution")
                ),
                history=[t.messages() for t in self.turns],
                scratch=scratch,
            )
            messages, report = assemble(parts, self.budget, self.counter)
            if not turn.prompt_tokens:  # what the step started with (probes, audits)
                turn.working_memory = report.execution_text
            turn.prompt_tokens.append(report.total)
            turn.context_reports.append(report.as_dict())
            turn.paged_ids = list(dict.fromkeys([*turn.paged_ids, *report.paged_ids]))
            self._event(
                ctx,
                "model_request",
                {"step": turn.steps, **report.as_dict(), "model": getattr(self.model, "name", "?")},
            )
            reply = ask(self.model, messages, self.specs, {"num_ctx": self.window}, stream)
            turn.steps += 1
            turn.completion_tokens += reply.usage.completion_tokens
            turn.responses.append(
                {
                    "content": reply.content,
                    "tool_calls": [
                        {"name": c.name, "arguments": c.arguments} for c in reply.tool_calls
                    ],
                }
            )
            self._check_reply(reply, ctx, turn)
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
            core = self.store.core.list(user_id=self.user_id)  # tools may have edited it
        turn.capped = "max_steps"
        self._event(ctx, "error", {"kind": "step_cap", "max_steps": self.config.max_steps})
        return (
            f"I stopped after {self.config.max_steps} model steps without finishing this "
            "request; ask me to continue or narrow it down."
        )

    def _check_reply(self, reply: AssistantTurn, ctx: ToolContext, turn: Turn) -> None:
        if reply.invented_output:
            self._event(
                ctx,
                "error",
                {"kind": "invented_tool_output", "text": (reply.raw_tool_text or "")[:500]},
            )
        if reply.parse_errors:
            turn.invalid_calls += len(reply.parse_errors)
            self._event(ctx, "error", {"kind": "invalid_tool_call", "errors": reply.parse_errors})

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
            content, _ = redact_secrets(result.content)  # secrets never enter a prompt
            notes, ctx.turn.firewall_notes = ctx.turn.firewall_notes, []
            if notes:  # tell the model what the firewall changed (masked, tagged, held)
                content += "\n" + "\n".join(f"note: {n}" for n in notes if n)
            self._event(
                ctx,
                "tool_result",
                {
                    "name": call.name,
                    "ok": result.ok,
                    "error": result.error,
                    "content": content[:4000],
                },
            )
            kept = map_strings(call.arguments, ctx.turn.scrub)  # what outlives the step
            turn.tool_calls.append(
                ToolCallRecord(name=call.name, arguments=kept, ok=result.ok, result=content)
            )
            scratch.append(tool_message(call.name, content))
            self.working.record_tool(call.name, kept, content[:2000])
            ctx.recent_messages.append({"role": "tool", "content": content})
        return None

    def _call(self, call: ToolCall, ctx: ToolContext) -> ToolResult:
        if call.name not in self.registry and self.external_tool is not None:
            recorded = self.external_tool(call.name, call.arguments)
            if recorded is not None:
                return ToolResult(name=call.name, ok=True, content=recorded)
        return self.registry.call(call.name, call.arguments, ctx)

    def end_session(self) -> str | None:
        """Keep the session's last stretch as an episode; the window stays."""
        return self.save_episode()

    def save_episode(self) -> str | None:
        """Summarize the window's turns that no episode of this session covers yet.

        At session end, and on demand (``episode_save``); a resumed session's reloaded
        turns, already in an episode, are not summarized twice.
        """
        covered = {
            i
            for e in self.store.episodes.list(
                user_id=self.user_id, session_id=self.session_id, include_archived=True
            )
            for i in e.source_event_ids
        }
        turns = [t for t in self.turns if t.user_event_id not in covered]
        if not turns:
            return None
        # The summary keeps no secret a turn held, nor contact details.
        summary = mask_pii(redact_secrets(self.summarizer.summarize(turns))[0])[0]
        sources = [i for t in turns for i in (t.user_event_id, t.assistant_event_id) if i]
        episode = self.store.episodes.build(
            user_id=self.user_id,
            session_id=self.session_id,
            start_ts=turns[0].ts,
            end_ts=turns[-1].ts,
            summary=summary,
            entities=entities(turns),
            source_event_ids=sources,
            trace_id=new_id("trc"),
        )
        self.store.save_episode(episode)
        return episode.id

    # -- memory pressure, at the turn boundary --

    def base_tokens(self) -> int:
        """What the next prompt costs before paging: system, tools, core, summary, dialogue."""
        summary, _ = self.store.summaries.get(user_id=self.user_id, session_id=self.session_id)
        core = render_core(self.store.core.list(user_id=self.user_id))
        head = {"role": "system", "content": f"{self.system_prompt}\n\n{core}\n{summary}"}
        dialogue = [m for t in self.turns for m in t.messages()]
        return count_messages(self.counter, [head, *dialogue]) + self.counter.count(
            json.dumps(self.specs, ensure_ascii=False)
        )

    def _relieve_pressure(self, ctx: ToolContext) -> int:
        base = self.base_tokens()
        fill = base / self.budget.usable
        note = self.pressure.note(fill)
        if note:
            self._pending_notes.append(note)
            self._event(ctx, "context_report", {"pressure": round(fill, 3), "level": "warn"})
        if self.pressure.level(fill) != "flush":
            return 0
        excess = base - int(self.config.pressure.target * self.budget.usable)
        count = turns_to_evict(self.turns, counter=self.counter, excess_tokens=excess)
        if not count:
            return 0
        try:
            result = evict(
                self.store,
                user_id=self.user_id,
                session_id=self.session_id,
                turns=self.turns[:count],
                summarizer=self.summarizer,
                counter=self.counter,
                summary_cap=self.budget.cap("summary"),
                trace_id=ctx.trace_id,
                mask=lambda text: mask_pii(redact_secrets(text)[0])[0],
            )
        except Exception as exc:  # the window stays as it was; the failure is an event
            self.log.warning("eviction failed, window kept: {}", exc)
            self._event(ctx, "error", {"kind": "eviction_failed", "error": str(exc)})
            return 0
        del self.turns[:count]
        self._pending_notes.append(
            "Older turns were summarized out of the window; search "
            "with conversation_search if you need their exact words."
        )
        return result.evicted

    def _event(self, ctx: ToolContext, kind: str, payload: dict[str, Any]) -> None:
        """An event of this turn, straight into the event log (never through a tool)."""
        # No secret reaches the log: this turn's sealed values show as their markers, and
        # anything else shaped like a secret is masked.
        payload = map_strings(
            json.loads(json.dumps(payload, default=str)),
            lambda text: redact_secrets(ctx.turn.scrub(text))[0],
        )
        self.store.events.append(
            user_id=self.user_id,
            kind=kind,
            trace_id=ctx.trace_id,
            session_id=self.session_id,
            payload=payload,
        )
