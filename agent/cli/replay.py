"""``memvisor replay FILE``: run a transcript through the runtime and score its probes."""

from __future__ import annotations

import os
from pathlib import Path

import click

from memvisor.agent.models.names import model_from_name
from memvisor.errors import UserError
from memvisor.evals.replay import ReplayReport, replay
from memvisor.evals.transcripts import (
    ExpectEvent,
    SessionEvent,
    Transcript,
    UserEvent,
    load_transcript,
)
from memvisor.storage.ids import new_id

from .common import (
    common_options,
    emit_json,
    explicit_user,
    invocation,
    output_path,
    plural,
    program,
    write_report,
)
from .progress import progress_bars


@click.command("replay")
@click.argument("file", type=click.Path(dir_okay=False))
@common_options
@click.option(
    "--model",
    "model_name",
    default=None,
    help="Answer with a live model (ollama:NAME or openai:NAME) instead of the recorded turns.",
)
@click.option(
    "--num-ctx",
    type=click.IntRange(256),
    default=None,
    help="Context window override (the smaller of this and the model's wins).",
)
@click.option(
    "--base-url",
    default=None,
    help="An openai: model's server, e.g. http://127.0.0.1:8000/v1 (default: $OPENAI_BASE_URL).",
)
@click.option(
    "--into",
    type=click.Path(file_okay=False),
    default=None,
    help="Fresh directory for the replay's store (default: DATA_DIR/replays/<id>).",
)
@click.option(
    "--reuse-store",
    is_flag=True,
    help="Replay into the existing --into store (e.g. to check that forgotten memory stays "
    "forgotten) instead of requiring a fresh one.",
)
@click.option(
    "--html",
    "html_out",
    type=click.Path(dir_okay=False),
    default=None,
    help="Also write a self-contained HTML report (probes, tokens, evictions, page-ins).",
)
def replay_cmd(
    file: str,
    data_dir: str | None,
    user: str | None,
    as_json: bool,
    model_name: str | None,
    num_ctx: int | None,
    base_url: str | None,
    into: str | None,
    html_out: str | None,
    reuse_store: bool,
) -> None:
    """Replay FILE; prints PASS/FAIL per probe and the metrics; exit 1 if a probe fails.

    The turns are stored as the transcript's user (its header's user_id) unless --user
    names another; $MEMVISOR_USER does not apply.
    """
    inv = invocation(data_dir, user, as_json)
    if inv.store is not None and inv.store_from == "--store":
        raise UserError(
            "--store: replay makes a fresh embedded store of its own (DATA_DIR/replays/ or "
            "--into DIR); leave --store out"
        )
    target = Path(into) if into else Path(inv.data_dir) / "replays" / new_id("run")
    model = model_from_name(model_name, num_ctx=num_ctx, base_url=base_url) if model_name else None
    if reuse_store and not into:
        raise UserError("--reuse-store needs --into DIR: the store to replay into")
    html_path = output_path(html_out, option="--html") if html_out else None
    if not as_json:
        click.echo(outline(load_transcript(file), file, live=model_name))
    with progress_bars() as progress:
        report = replay(
            file,
            data_dir=target,
            model=model,
            num_ctx=num_ctx,
            embedder=os.environ.get("MEMVISOR_EMBEDDER"),
            reuse_store=reuse_store,
            progress=progress,
            user_id=explicit_user(user),
        )
    if as_json:
        emit_json(report.as_dict())
    else:
        print_report(report)
    if html_path is not None:
        from memvisor.evals.report_html import replay_report

        document = report.as_dict()
        write_report(
            lambda: replay_report(document, str(html_path)),
            option="--html",
            path=html_path,
            document=document,
            keep=target / "replay-report.json",
        )
        click.echo(f"report: {html_path}", err=True)
    if not report.passed:
        raise SystemExit(1)


def outline(transcript: Transcript, file: str, *, live: str | None) -> str:
    """What is about to be replayed, and how to read the lines that follow."""
    users = sum(isinstance(e, UserEvent) for e in transcript.events)
    sessions = sum(isinstance(e, SessionEvent) for e in transcript.events)
    probes = sum(isinstance(e, ExpectEvent) for e in transcript.events)
    who = f"the live model {live}" if live else "the recorded model turns (no model, no network)"
    title = f": {transcript.header.title}" if transcript.header.title else ""
    return (
        f"replaying {file}{title}\n"
        f"  {plural(users, 'user turn')} in {plural(sessions, 'session')}, answered by {who}, "
        f"checked by {plural(probes, 'probe')}\n"
        "  each line: PASS or FAIL, the transcript line the probe is written on, what it "
        "checks: what was found\n"
    )


def print_report(report: ReplayReport) -> None:
    for probe in report.probes:
        mark = "PASS" if probe.passed else "FAIL"
        click.echo(f"{mark}  line {probe.line:<4} {probe.label}: {probe.detail}")
    m = report.metrics()
    click.echo(
        f"\nprobes {m['probes']['passed']}/{m['probes']['total']} passed · "
        f"{plural(m['turns'], 'turn')} in {plural(m['sessions'], 'session')} "
        f"({plural(m['restarts'], 'restart')}, {plural(m['crashes'], 'crash')}) · "
        f"{plural(m['tool_calls'], 'tool call')} · {m['invalid_calls']} invalid "
        f"({m['repaired_calls']} repaired) · {plural(m['writes'], 'write')} · prompt tokens "
        f"mean {m['prompt_tokens']['mean']} max {m['prompt_tokens']['max']}"
    )
    click.echo(
        f"store: {report.data_dir}; look inside with "
        f"`{program()} memory list --data-dir {report.data_dir} --user {report.user_id}`"
    )
