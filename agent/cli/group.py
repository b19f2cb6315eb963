"""The ``memvisor`` command groups: Memvisor's errors as one line, subcommands loaded lazily.

Only what a command needs is imported, when it runs: ``memvisor --version`` and ``--help``
load click and this module, never DuckDB, LanceDB, the embedder or the agent.
"""

from __future__ import annotations

import importlib
import unicodedata
from dataclasses import dataclass
from typing import Any

import click

from memvisor.errors import MemvisorError, StoreLocked

# Exit codes: 1 an error, 2 bad usage (click's), 3 the data directory is in use.
EXIT_IN_USE = 3


@dataclass
class CliState:
    """The global ``--data-dir``, ``--user`` and ``--store``, for the subcommand to find."""

    data_dir: str | None = None
    user: str | None = None
    store: str | None = None


def emit_error(message: str) -> None:
    """One line on stderr; control and format characters a bad argument carried (a
    terminal escape, a bidi override) shown as escapes, never sent to the terminal."""
    first = " ".join(str(message).split())
    click.echo(f"error: {_visible(first)}", err=True)


def _visible(text: str) -> str:
    if text.isprintable():
        return text
    return "".join(
        ch if ch.isprintable() or unicodedata.category(ch) == "Zs" else ascii(ch)[1:-1]
        for ch in text
    )


class _LockedError(click.ClickException):
    exit_code = EXIT_IN_USE  # the data directory is in use by another memvisor process


class MemvisorGroup(click.Group):
    """A command group whose commands report Memvisor's errors as one line and a non-zero
    exit (3 for a data directory in use by another process), however they are invoked."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except MemvisorError as exc:
            kind = _LockedError if isinstance(exc, StoreLocked) else click.ClickException
            raise kind(" ".join(str(exc).split())) from exc
        except ValueError as exc:
            if "null byte" not in str(exc) and "null character" not in str(exc):
                raise
            # os and sqlite refuse a NUL in a path or name wherever one is used: one rule here
            raise click.ClickException(
                "an argument holds a NUL character (\\x00), which no path or name may: remove it"
            ) from exc


class LazyGroup(MemvisorGroup):
    """A group whose subcommands are ``name -> (module, attribute, summary)``: the module is
    imported when the subcommand runs (or completes); help lists the summaries as given,
    which a test checks against each command's own."""

    def __init__(self, *args: Any, lazy: dict[str, tuple[str, str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy = lazy

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.lazy and cmd_name not in self.commands:
            module, attribute, _ = self.lazy[cmd_name]
            command = getattr(importlib.import_module(module), attribute)
            self.add_command(command, cmd_name)
        return super().get_command(ctx, cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [
            (name, self.lazy[name][2])
            if name in self.lazy and name not in self.commands
            else (name, self.commands[name].get_short_help_str(limit=formatter.width))
            for name in self.list_commands(ctx)
        ]
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)
