"""The ``memvisor`` command: a thin layer over the library.

Every command takes ``--data-dir``, ``--user`` and ``--json`` after its own
name. Errors print one line on stderr and exit 1 (2 for bad usage, 3 when the data
directory is in use by another process). With ``--json`` stdout holds JSON only.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

import click

from .group import CliState, LazyGroup, emit_error

if TYPE_CHECKING:
    from loguru import Logger

# name -> (module, attribute, the summary help lists without importing the module); a test
# checks each summary against the command's own.
COMMANDS = {
    "memory": ("memory", "memory", "Inspect and edit a user's memory."),
    "chat": (
        "chat",
        "chat",
        "Talk to the agent: a REPL on a terminal (/help lists its commands), one message per "
        "line from a pipe.",
    ),
    "replay": (
        "replay",
        "replay_cmd",
        "Replay FILE; prints PASS/FAIL per probe and the metrics; exit 1 if a probe fails.",
    ),
    "trace": (
        "trace",
        "trace",
        "Show a turn's chain: user message, model requests, tool calls, memory used, answer.",
    ),
    "tools": ("tools_cmd", "tools", "Inspect the tools offered to the model."),
    "bench": ("bench", "bench", "Benchmarks; figures are printed, never asserted."),
    "eval": (
        "eval",
        "eval_group",
        "Evaluations of retrieval and answers on public benchmarks.",
    ),
    "health": (
        "health",
        "health",
        "Show memory health: freshness, page-in hit rate, quarantine, archive, expired facts, "
        "amnesia alerts.",
    ),
    "firewall": (
        "firewall",
        "firewall_group",
        "Check proposed memory writes with the write firewall.",
    ),
    "mcp": (
        "mcp_cmd",
        "mcp_cmd",
        "Serve memory tools (remember, save, search, context, list, edit, forget, core blocks, "
        "confirm) to an MCP client such as Claude Desktop, Cursor or an agent framework.",
    ),
    "serve": (
        "serve",
        "serve_cmd",
        "Serve the memory API over HTTP: /v1/memories, /v1/search, /v1/context, /v1/chat, "
        "/v1/quarantine, /v1/trace, /v1/health and /metrics (OpenAPI docs at /docs).",
    ),
    "keys": (
        "serve",
        "keys_group",
        "API keys of `memvisor serve`: each bound to one user, stored hashed.",
    ),
    "migrate": (
        "migrate",
        "migrate_cmd",
        "Move an embedded store's records into an empty PostgreSQL database, all or nothing.",
    ),
    "postgres": (
        "postgres_cmd",
        "postgres_cmd",
        "Run a local PostgreSQL for trying --store, until Ctrl-C; prints its URL.",
    ),
}


# Help uses the terminal's whole width (up to 200 columns), so command summaries are not cut.
@click.group(
    cls=LazyGroup,
    lazy={name: (f"{__name__}.{m}", a, summary) for name, (m, a, summary) in COMMANDS.items()},
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 200},
)
@click.option(
    "--data-dir",
    type=click.Path(file_okay=False),
    default=None,
    help="Data directory (default: $MEMVISOR_HOME or ~/.local/share/memvisor).",
)
@click.option("--user", default=None, help="User id (default: $MEMVISOR_USER or 'default').")
@click.option(
    "--store",
    default=None,
    help="Records in PostgreSQL: a postgresql:// URL (default: $MEMVISOR_STORE, else embedded).",
)
@click.version_option(package_name="memvisor")
@click.pass_context
def cli(ctx: click.Context, data_dir: str | None, user: str | None, store: str | None) -> None:
    """Memvisor: a local-first memory agent with a guarded runtime."""
    ctx.obj = CliState(data_dir=data_dir, user=user, store=store)


LOG_LEVELS = ("TRACE", "DEBUG", "INFO", "SUCCESS", "WARNING", "ERROR", "CRITICAL")


# `memvisor`, `--help` and `--version` log nothing: they skip even checking the level.
NO_LOGGING = ((), ("--help",), ("-h",), ("--version",))


def _configure_logging() -> None:
    """Check $MEMVISOR_LOG_LEVEL now; set loguru up when something first logs (a command
    that logs nothing, such as `memory list`, never imports loguru: about 75 ms)."""
    from memvisor.storage.logger import on_first_use

    level = os.environ.get("MEMVISOR_LOG_LEVEL", "WARNING").strip().upper() or "WARNING"
    if level not in LOG_LEVELS:
        emit_error(
            f"$MEMVISOR_LOG_LEVEL is {os.environ['MEMVISOR_LOG_LEVEL'][:40]!r}: use one of "
            f"{', '.join(LOG_LEVELS)} (default WARNING)"
        )
        sys.exit(1)

    def to_stderr(logger: Logger) -> None:
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

    on_first_use(to_stderr, shows_from=level)


# numpy's OpenBLAS on one thread, unless the environment says otherwise; set before anything
# loads numpy. Its work here is small (a write's few sentence vectors in the firewall), where
# more threads gain nothing, and its idle threads spin-wait beside the search's onnxruntime
# (one thread by design, ``storage.embedders``) and beside other processes: two firewall
# scans side by side on 2 cores took 36 s each with OpenBLAS's default threads, 16.5 s with one.
BLAS_THREADS = "OPENBLAS_NUM_THREADS"


def main(argv: list[str] | None = None) -> None:
    os.environ.setdefault(BLAS_THREADS, "1")
    if tuple(sys.argv[1:] if argv is None else argv) not in NO_LOGGING:
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
    except BrokenPipeError:  # `memvisor memory export | head`: the reader left, nothing to say
        _quiet_stdout()
        sys.exit(141)
    except OSError as exc:
        from memvisor.storage.failures import os_problem

        emit_error(os_problem(exc.filename or "a file memvisor needs", exc))
        sys.exit(1)
    except Exception as exc:  # a bug: one line for the user, the traceback in the debug log
        from memvisor.storage.logger import logger
        from memvisor.storage.text import snippet

        logger.opt(exception=exc).debug("unexpected error")
        emit_error(
            f"unexpected {type(exc).__name__}: {snippet(str(exc), 200)} (a bug in memvisor: "
            "please report it; MEMVISOR_LOG_LEVEL=DEBUG shows the traceback)"
        )
        sys.exit(1)
    sys.exit(0)


def _quiet_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's last flush cannot fail again."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
