"""The ``memvisor`` command: a thin layer over the library.

Every command takes ``--data-dir``, ``--user`` and ``--json`` after its own
name. Errors print one line on stderr and exit 1 (2 for bad usage, 3 when the data
directory is in use by another process). With ``--json`` stdout holds JSON only.
"""

from __future__ import annotations

import os
import sys

import click
from loguru import logger

from .bench import bench
from .chat import chat
from .common import CliState, MemvisorGroup, emit_error
from .eval import eval_group
from .firewall import firewall_group
from .health import health
from .mcp_cmd import mcp_cmd
from .memory import memory
from .replay import replay_cmd
from .serve import keys_group, serve_cmd
from .tools_cmd import tools
from .trace import trace


# Help uses the terminal's whole width (up to 200 columns), so command summaries are not cut.
@click.group(
    cls=MemvisorGroup,
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 200},
)
@click.option(
    "--data-dir",
    type=click.Path(file_okay=False),
    default=None,
    help="Data directory (default: $MEMVISOR_HOME or ~/.local/share/memvisor).",
)
@click.option("--user", default=None, help="User id (default: $MEMVISOR_USER or 'default').")
@click.version_option(package_name="memvisor")
@click.pass_context
def cli(ctx: click.Context, data_dir: str | None, user: str | None) -> None:
    """Memvisor: a local-first memory agent with a guarded runtime."""
    ctx.obj = CliState(data_dir=data_dir, user=user)


for command in (
    memory,
    chat,
    replay_cmd,
    trace,
    tools,
    bench,
    eval_group,
    health,
    firewall_group,
    mcp_cmd,
    serve_cmd,
    keys_group,
):
    cli.add_command(command)


LOG_LEVELS = ("TRACE", "DEBUG", "INFO", "SUCCESS", "WARNING", "ERROR", "CRITICAL")


def _configure_logging() -> None:
    level = os.environ.get("MEMVISOR_LOG_LEVEL", "WARNING").strip().upper() or "WARNING"
    if level not in LOG_LEVELS:
        emit_error(
            f"$MEMVISOR_LOG_LEVEL is {os.environ['MEMVISOR_LOG_LEVEL'][:40]!r}: use one of "
            f"{', '.join(LOG_LEVELS)} (default WARNING)"
        )
        sys.exit(1)
    logger.remove()
    logger.add(
        sys.stderr,
        level=level,
        format="{time:HH:mm:ss} {level} {message}",
        # A traceback with the values of its variables would print what a write held
        # (a secret, the model's raw arguments): the type and message are enough.
        backtrace=False,
        diagnose=False,
    )


def main(argv: list[str] | None = None) -> None:
    _configure_logging()
    try:
        cli.main(args=argv, prog_name="memvisor", standalone_mode=False)
    except click.exceptions.NoArgsIsHelpError as bare:  # `memvisor`, `memvisor memory`: help
        click.echo(bare.ctx.get_help() if bare.ctx else cli.get_help(click.Context(cli)))
        sys.exit(0)
    except click.exceptions.Abort:
        click.echo("error: aborted", err=True)
        sys.exit(130)
    except click.ClickException as exc:  # Memvisor's own errors arrive as these too
        emit_error(exc.format_message())
        sys.exit(exc.exit_code)
    except KeyboardInterrupt:
        sys.exit(130)
    sys.exit(0)
