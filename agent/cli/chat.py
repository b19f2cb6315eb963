"""``memvisor chat``: a REPL on a terminal, one message per line from a pipe."""

from __future__ import annotations

import json
import os
import sys
from datetime import UTC, datetime

import click

from memvisor.agent.loop import Agent
from memvisor.agent.models.names import model_from_name
from memvisor.agent.turn import Turn
from memvisor.evals.transcripts import TranscriptWriter

from .common import common_options, emit_error, invocation, open_store, output_path


@click.command("chat")
@common_options
@click.option(
    "--model",
    "model_name",
    default=None,
    help="ollama:NAME, openai:NAME or replay:FILE (default: $MEMVISOR_MODEL or ollama:qwen2.5:7b).",
)
@click.option(
    "--num-ctx",
    type=click.IntRange(256),
    default=None,
    help="Context window (the smaller of this and the served model's wins).",
)
@click.option(
    "--base-url",
    default=None,
    help="An openai: model's server, e.g. http://127.0.0.1:8000/v1 (default: $OPENAI_BASE_URL).",
)
@click.option("--session", default=None, help="Session id; reuse one to resume it.")
@click.option(
    "--record",
    type=click.Path(dir_okay=False),
    default=None,
    help="Write the conversation as a transcript to this file (a new one; see --force).",
)
@click.option("--force", is_flag=True, help="Let --record overwrite an existing file.")
@click.option(
    "--show-context", is_flag=True, help="Print each request's per-section token report on stderr."
)
def chat(
    data_dir: str | None,
    user: str | None,
    as_json: bool,
    model_name: str | None,
    num_ctx: int | None,
    base_url: str | None,
    session: str | None,
    record: str | None,
    force: bool,
    show_context: bool,
) -> None:
    """Talk to the agent. Each answer is printed on stdout (JSON lines with --json)."""
    inv = invocation(data_dir, user, as_json)
    if record:
        output_path(record, option="--record", overwrite=force)
    name = model_name or os.environ.get("MEMVISOR_MODEL") or "ollama:qwen2.5:7b"
    model = model_from_name(name, num_ctx=num_ctx, base_url=base_url)
    session_id = session or datetime.now(UTC).strftime("s-%Y%m%d-%H%M%S")
    interactive = sys.stdin.isatty()
    with open_store(inv) as store:
        agent = Agent(
            user_id=inv.user_id, session_id=session_id, model=model, store=store, num_ctx=num_ctx
        )
        writer = (
            TranscriptWriter(
                record,
                {
                    "user_id": inv.user_id,
                    "num_ctx": agent.window,
                    "start": store.clock.now().isoformat(),
                },
            )
            if record
            else None
        )
        if writer:
            writer.write({"type": "session", "id": session_id})
        if interactive and not as_json:
            click.echo(
                f"memvisor chat · user {inv.user_id} · session {session_id} · "
                f"{name} · window {agent.window} (Ctrl-D to quit)",
                err=True,
            )
        failed = answered = 0
        try:
            for message in _messages(interactive):
                turn = agent.step(message)
                answered += 1
                failed += turn.error is not None
                _show(turn, as_json, show_context)
                if writer:
                    writer.write({"type": "user", "content": message})
                    for response in turn.responses:
                        writer.write({"type": "assistant", **response})
        finally:
            if writer:
                writer.close()
            agent.end_session()  # what is still in the window becomes an episode
    if failed and not interactive:  # a script must see that its messages went unanswered
        raise click.ClickException(f"{failed} of {answered} turns failed (each said above)")


def _messages(interactive: bool):
    while True:
        try:
            line = input("you> ") if interactive else sys.stdin.readline()
        except EOFError:
            return
        if not interactive and line == "":
            return
        line = line.strip()
        if line:
            yield line


def _show(turn: Turn, as_json: bool, show_context: bool) -> None:
    if show_context:
        for report in turn.context_reports:
            click.echo(f"[context] {json.dumps(report)}", err=True)
    if turn.error:  # said once, on stderr; the answer text would only repeat it
        emit_error(turn.error)
    if as_json:
        click.echo(
            json.dumps(
                {
                    "answer": turn.answer,
                    "trace_id": turn.trace_id,
                    "tool_calls": [c.name for c in turn.tool_calls],
                    "memory_ids": turn.memory_ids,
                    "prompt_tokens": turn.prompt_tokens,
                    "error": turn.error,
                },
                ensure_ascii=False,
            )
        )
    elif not turn.error:
        click.echo(turn.answer)
