"""``memvisor memory export`` and ``memory import``: a user's whole memory to a file and back."""

from __future__ import annotations

import json
from pathlib import Path

import click
from memvisor.agent.guards import import_through_firewall
from memvisor.storage.export import export_user

from memvisor.errors import UserError

from .common import common_options, emit_json, invocation, open_store


@click.command("export")
@common_options
def export_cmd(data_dir: str | None, user: str | None, as_json: bool) -> None:
    """Print every record of the user as JSON (facts with all versions, blocks, passages)."""
    inv = invocation(data_dir, user, as_json)
    with open_store(inv) as store:
        emit_json(export_user(store, user_id=inv.user_id))


@click.command("import")
@click.argument("file", type=click.Path(dir_okay=False))
@common_options
def import_cmd(file: str, data_dir: str | None, user: str | None, as_json: bool) -> None:
    """Import a file written by `memvisor memory export` (all or nothing), through the firewall.

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
    with open_store(inv) as store:
        report = import_through_firewall(store, data, user_id=inv.user_id, trace_id=inv.trace_id)
    if as_json:
        emit_json(report.model_dump(mode="json"))
        return
    click.echo("imported " + ", ".join(f"{v} {k}" for k, v in report.imported.items()))
    held = report.firewall
    if held["redacted"] or held["quarantined"] or held["dropped"]:
        click.echo(
            f"firewall: {held['redacted']} redacted, {held['quarantined']} held in quarantine "
            f"(memvisor memory list --quarantine), {held['dropped']} secret-only records dropped"
        )
