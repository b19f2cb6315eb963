"""``memvisor trace ID``: why the agent answered what it did."""

from __future__ import annotations

import json
from typing import Any

import click

from memvisor.agent.trace import trace_chain
from memvisor.storage.text import snippet

from .common import common_options, emit_json, invocation, open_store

# A payload is cut to this many characters on its one line (marked with "…").
DETAIL_CHARS = 200


@click.command("trace")
@click.argument("ref")
@common_options
def trace(ref: str, data_dir: str | None, user: str | None, as_json: bool) -> None:
    """Show a turn's chain: user message, model requests, tool calls, memory used, answer."""
    inv = invocation(data_dir, user, as_json)
    with open_store(inv, read_only=True) as store:
        chain = trace_chain(store, ref, user_id=inv.user_id)
    if as_json:
        emit_json(chain)
        return
    for line in trace_lines(chain):
        click.echo(line)


def trace_lines(chain: dict[str, Any]) -> list[str]:
    """The chain one line an event, then the memory in context with where it came from."""
    lines = [f"trace {chain['trace_id']}", "events:"]
    lines += [f"  {e['ts']}  {e['kind']:<18} {_detail(e)}" for e in chain["events"]]
    if not chain["events"]:
        lines.append("  (none)")
    lines.append("memory in context:")
    for item in chain["memory"]:
        text = snippet(str(item.get("text") or ""), DETAIL_CHARS)
        lines.append(f"  {item['id']} ({item['kind']}){f' {text}' if text else ''}")
        for src in item.get("from", []) if isinstance(item.get("from"), list) else []:
            if isinstance(src, dict):
                said = snippet(str(src.get("content") or ""), DETAIL_CHARS)
                lines.append(f"      <- {src['id']} {src['kind']}: {said or '(no text)'}")
            else:
                lines.append(f"      <- {src}")
    if not chain["memory"]:
        lines.append("  (none)")
    return lines


def _detail(event: dict[str, Any]) -> str:
    payload = event["payload"]
    if event["kind"] == "model_request":
        sections = json.dumps(payload.get("sections"), ensure_ascii=False)
        return snippet(
            f"{payload.get('total')} tokens of {payload.get('window')} {sections}", DETAIL_CHARS
        )
    if "content" in payload:
        return snippet(str(payload["content"]), DETAIL_CHARS) or "(empty)"
    return snippet(json.dumps(payload, ensure_ascii=False), DETAIL_CHARS)
