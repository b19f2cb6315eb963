"""``memvisor trace ID``: why the agent answered what it did."""

from __future__ import annotations

import json

import click

from memvisor.agent.trace import trace_chain

from .common import common_options, emit_json, invocation, open_store


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
    click.echo(f"trace {chain['trace_id']}")
    for event in chain["events"]:
        payload = event["payload"]
        if event["kind"] == "model_request":
            detail = (
                f"{payload.get('total')} tokens of {payload.get('window')} "
                f"{json.dumps(payload.get('sections'))}"
            )
        elif "content" in payload:
            detail = str(payload["content"])[:200]
        else:
            detail = json.dumps(payload, ensure_ascii=False)[:200]
        click.echo(f"  {event['ts']}  {event['kind']:<18} {detail}")
    click.echo("memory in context:")
    for item in chain["memory"]:
        click.echo(f"  {item['id']} ({item['kind']}) {item.get('text') or ''}")
        for src in item.get("from", []) if isinstance(item.get("from"), list) else []:
            if isinstance(src, dict):
                click.echo(f"      <- {src['id']} {src['kind']}: {src.get('content')}")
