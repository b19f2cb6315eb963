"""The chat's slash commands and the readable views they print."""

from __future__ import annotations

from typing import Any

from memvisor.agent.loop import Agent
from memvisor.errors import UserError
from memvisor.storage.ids import new_id
from memvisor.storage.text import snippet

HELP = """\
/help        this list
/memory      what your memory holds (core blocks, facts, passages, episodes, held writes)
/context     the token budget of the last model request
/forget ID   forget a record (fct_, psg_, eps_, rcp_ …) for good
Ctrl-C stops a running answer; Ctrl-D (or /quit) leaves."""

RECENT_FACTS = 5


def context_table(report: dict[str, Any], *, title: str = "the last model request") -> str:
    """A request's budget report (``ContextReport.as_dict``) as a table people read."""
    window, reserve, total = report["window"], report["reserve"], report["total"]
    sections: dict[str, int] = report.get("sections") or {}
    width = max([len("section"), len("total"), *(len(name) for name in sections)])
    lines = [
        f"context of {title}: window {window}, {reserve} kept for the reply",
        f"{'section':<{width}}  {'tokens':>7}  {'share':>6}",
    ]
    rows = [*((name, tokens) for name, tokens in sections.items() if tokens), ("total", total)]
    for name, tokens in rows:
        share = f"{100 * tokens / window:.1f}%" if window else "-"
        lines.append(f"{name:<{width}}  {tokens:>7}  {share:>6}")
    lines.append(f"{'free':<{width}}  {max(window - reserve - total, 0):>7}")
    dropped = [
        f"{n} {what}"
        for n, what in (
            (report.get("dropped_turns", 0), "older turn(s) left out"),
            (report.get("dropped_paged", 0), "paged memory item(s) left out"),
        )
        if n
    ]
    if report.get("cut_tool_result"):
        dropped.append("a tool result was cut")
    if dropped:
        lines.append("to fit: " + "; ".join(dropped))
    paged = report.get("paged_ids") or []
    lines.append(f"paged in: {', '.join(paged) if paged else '(none)'}")
    return "\n".join(lines)


def memory_summary(agent: Agent) -> str:
    """What the user's memory holds, short: counts, core blocks, the latest facts."""
    store, user = agent.store, agent.user_id
    core = store.core.list(user_id=user)
    facts = store.facts.list(user_id=user, include_archived=False)
    passages = store.passages.list(user_id=user)
    episodes = store.episodes.list(user_id=user)
    held = store.quarantine.list(user_id=user)
    lines = [
        f"memory of {user}: {len(facts)} fact(s), {len(passages)} passage(s), "
        f"{len(episodes)} episode(s), {len(held)} held write(s)"
    ]
    for block in core:
        value = snippet(block.value, 70) if block.value else "(empty)"
        lines.append(f"core {block.label}: {value}")
    if facts:
        lines.append(f"latest facts ({min(len(facts), RECENT_FACTS)} of {len(facts)}):")
        for fact in facts[-RECENT_FACTS:]:
            text = f"{fact.subject} | {fact.predicate} | {fact.object}"
            lines.append(f"  {fact.id}  {snippet(text, 80)}")
    if held:
        lines.append("held writes wait for `memvisor memory list --quarantine`")
    return "\n".join(lines)


def forget(agent: Agent, record_id: str) -> str:
    """``/forget ID``: the guarded memory API's forget, as ``memvisor memory forget`` calls it."""
    trace_id = new_id("trc")
    memory, user = agent.memory, agent.user_id
    source = memory.record_command(
        "chat /forget", {"id": record_id}, user_id=user, trace_id=trace_id
    )
    outcome = memory.forget(
        record_id,
        user=user,
        origin="cli",
        trace_id=trace_id,
        session_id=agent.session_id,
        source_event_ids=[source],
    )
    return f"forgot {record_id}: removed {len(outcome.record['removed'])} record(s)"


def run_command(line: str, agent: Agent, last_report: dict[str, Any] | None) -> str:
    """The text a slash command answers with; ``UserError`` for an unknown or bad one."""
    name, _, argument = line.strip().partition(" ")
    argument = argument.strip()
    if name == "/help":
        return HELP
    if name == "/memory":
        return memory_summary(agent)
    if name == "/context":
        if last_report is None:
            return "no model request yet in this session"
        return context_table(last_report)
    if name == "/forget":
        if not argument or " " in argument:
            raise UserError("/forget takes one record id, e.g. /forget fct_…")
        return forget(agent, argument)
    raise UserError(f"unknown command {snippet(name, 40)}: /help lists them")
