"""``memvisor memory export`` and ``memory import``: a user's whole memory to a file and back."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import click

from memvisor.errors import UserError

if TYPE_CHECKING:  # the firewall loads with `memory import`, not with every memory command
    from memvisor.agent.guards import ImportReport

from .common import common_options, emit_json, invocation, open_memory, open_store
from .progress import working

# Skipped records listed one a line; the rest are counted (``--json`` lists up to 50).
SHOWN_SKIPPED = 10


@click.command("export", short_help="Print every record of the user as JSON.")
@common_options
def export_cmd(data_dir: str | None, user: str | None, as_json: bool) -> None:
    """Print every record of the user as JSON: facts (every version), core blocks, passages,
    episodes and rolling summaries, recipes, tasks, session state, the quarantine, archive rows,
    tombstones of forgotten records, memory usage, and the whole event log (turns included)."""
    from memvisor.storage.export import export_user

    inv = invocation(data_dir, user, as_json)
    with open_store(inv, read_only=True) as store:
        emit_json(export_user(store, user_id=inv.user_id))


@click.command("import")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option(
    "--replace",
    is_flag=True,
    help="Restore the export exactly; only into a store that holds nothing of the user.",
)
@common_options
def import_cmd(
    file: str, replace: bool, data_dir: str | None, user: str | None, as_json: bool
) -> None:
    """Import a file written by `memvisor memory export` (all or nothing), through the firewall.

    By default the export is merged into the store: what the store holds is never rolled back
    (a record it has is kept, a newer block, task or recipe wins, a forgotten record stays
    forgotten) and every record kept back is listed with its reason. With --replace the export
    is restored exactly, into a store without the user's records.

    Injections and other suspicious records are held in the quarantine instead of imported;
    secrets are masked; a record that is nothing but a secret is dropped.
    """
    inv = invocation(data_dir, user, as_json)
    path = Path(file)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UserError(f"no such file: {file}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise UserError(
            f"{file} is not valid JSON ({exc}); pass a file written by "
            "`memvisor memory export --json`"
        ) from None
    with open_memory(inv) as memory, working(f"importing {path.name}…"):
        report = memory.import_export(
            data, user_id=inv.user_id, trace_id=inv.trace_id, replace=replace
        )
    if as_json:
        emit_json(report.model_dump(mode="json"))
        return
    for line in report_lines(report):
        click.echo(line)


def report_lines(report: ImportReport) -> list[str]:
    """Counts per kind, the firewall's, then why records were skipped."""
    kinds = []
    for kind, counts in report.kinds.items():
        done = [f"{n} {outcome}" for outcome, n in counts.model_dump().items() if n]
        if done:
            kinds.append(f"{kind} {', '.join(done)}")
    lines = [f"imported ({report.mode}): {'; '.join(kinds) or 'nothing'}"]
    fw = report.firewall
    lines.append(
        f"firewall: {fw.get('screened', 0)} screened, {fw.get('redacted', 0)} redacted, "
        f"{fw.get('quarantined', 0)} held in quarantine (memvisor memory list --quarantine), "
        f"{fw.get('dropped', 0)} secret-only records dropped"
    )
    for fact in report.superseded:
        lines.append(f"superseded {fact.id} ({fact.subject} {fact.predicate}) by {fact.by}")
    for skipped in report.skipped[:SHOWN_SKIPPED]:
        lines.append(f"skipped {skipped.kind} {skipped.id}: {skipped.reason}")
    more = report.skipped_total - min(len(report.skipped), SHOWN_SKIPPED)
    if more > 0:
        lines.append(f"… and {more} more skipped (--json lists up to {len(report.skipped)})")
    return lines
