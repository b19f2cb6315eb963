"""``memvisor migrate``: an embedded store's records moved into PostgreSQL."""

from __future__ import annotations

import click

from memvisor.errors import UserError
from memvisor.storage.move import move_to_postgres

from .common import emit_json, invocation, plural, program
from .progress import working


@click.command("migrate")
@click.option(
    "--from",
    "source",
    default=None,
    type=click.Path(file_okay=False),
    help="The data directory whose embedded store (memvisor.duckdb) moves; it is left as it "
    "is (default: the global --data-dir, $MEMVISOR_HOME or ~/.local/share/memvisor).",
)
@click.option("--to", "target", required=True, help="postgresql:// URL of an empty database.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON only on stdout.")
def migrate_cmd(source: str | None, target: str, as_json: bool) -> None:
    """Move an embedded store's records into an empty PostgreSQL database, all or nothing.

    Every table is copied in one transaction on the target, which commits only when every
    table's row count and each user's export read back from PostgreSQL match the embedded
    store's. A database that already holds records is refused. The keys of sealed secrets
    are wrapped into it under the master key file sealed-master.key of the data directory
    (or $MEMVISOR_SEAL_KEY_FILE): every worker needs a copy. Go on with --store URL (or
    $MEMVISOR_STORE).
    """
    if not target.strip():
        raise UserError("--to is empty: give the postgresql:// URL of an empty database")
    directory = source if source is not None else invocation(None, None, as_json).data_dir
    with working("moving the records…"):
        try:
            report = move_to_postgres(directory, target)
        except UserError as exc:
            message = str(exc)
            if message.startswith(("unknown store", "not a PostgreSQL URL", "the target")):
                raise UserError(f"--to: {message}") from None
            if "holds no embedded store" in message:
                raise UserError(f"--from: {message}") from None
            raise
    if as_json:
        emit_json({**report.model_dump(mode="json"), "rows": report.rows})
        return
    counts = ", ".join(f"{table} {n}" for table, n in report.tables.items() if n)
    click.echo(
        f"moved {plural(report.rows, 'row')} in {plural(len(report.tables), 'table')} "
        f"from {report.source} to {report.target}"
    )
    click.echo(f"  {counts or 'no rows: the store was empty'}")
    click.echo(
        f"verified before commit: every table's row count, and the export of "
        f"{plural(len(report.users), 'user')} read back from PostgreSQL"
    )
    if report.master_key:
        click.echo(
            f"sealed secrets: {plural(report.sealed_keys, 'key')} wrapped under "
            f"{report.master_key}; give every worker a copy (or point MEMVISOR_SEAL_KEY_FILE "
            "at it)"
        )
    click.echo(
        f"next: {program()} --store URL --data-dir {report.source} … (or set MEMVISOR_STORE); "
        f"{report.source}/memvisor.duckdb is left unchanged and is no longer read with --store"
    )
