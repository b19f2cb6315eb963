"""``memvisor chat``: a REPL on a terminal, one message per line from a pipe."""

from __future__ import annotations

import os
import sys
from datetime import UTC, datetime

import click

from memvisor.agent.loop import Agent
from memvisor.agent.models.names import model_from_name
from memvisor.evals.transcripts import TranscriptWriter

from .common import common_options, invocation, open_store, output_path
from .repl import Conversation, history_file, run_lines, run_terminal


def stdin_is_terminal() -> bool:
    """Whether a person types the messages (the REPL) or a pipe sends them (line mode)."""
    return sys.stdin.isatty()


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
    "--show-context",
    is_flag=True,
    help="Print each model request's token budget as a table on stderr.",
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
    """Talk to the agent: a REPL on a terminal (/help lists its commands), one message per
    line from a pipe. Answers go to stdout (JSON lines with --json), errors to stderr."""
    inv = invocation(data_dir, user, as_json)
    if record:
        output_path(record, option="--record", overwrite=force)
    name = model_name or os.environ.get("MEMVISOR_MODEL") or "ollama:qwen2.5:7b"
    model = model_from_name(name, num_ctx=num_ctx, base_url=base_url)
    session_id = session or datetime.now(UTC).strftime("s-%Y%m%d-%H%M%S")
    terminal = stdin_is_terminal() and not as_json
    with open_store(inv) as store:
        agent = Agent(
            user_id=inv.user_id, session_id=session_id, model=model, store=store, num_ctx=num_ctx
        )
        start = store.clock.now().isoformat()
        header = {"user_id": inv.user_id, "num_ctx": agent.window, "start": start}
        writer = TranscriptWriter(record, header) if record else None
        if writer:
            writer.write({"type": "session", "id": session_id})
        conversation = Conversation(agent, writer, show_context=show_context, as_json=as_json)
        try:
            if terminal:
                click.echo(
                    f"memvisor chat · user {inv.user_id} · session {session_id} · {name} · "
                    f"window {agent.window} · /help for commands, Ctrl-D to leave",
                    err=True,
                )
                run_terminal(conversation, history=history_file(inv.data_dir, inv.user_id))
            else:
                run_lines(conversation, sys.stdin)
        finally:
            if writer:
                writer.close()
            agent.end_session()  # what is still in the window becomes an episode
    failed, answered = conversation.failed, conversation.answered
    if failed and not terminal:  # a script must see that its messages went unanswered
        raise click.ClickException(f"{failed} of {answered} turns failed (each said above)")
