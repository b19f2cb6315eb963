"""Progress for long work, on stderr and only on a terminal (a pipe or a log gets nothing).

``progress_bars`` gives the callback the library's long runs take (``progress(stage, done,
total)``: replay, LoCoMo, the benchmarks); ``working`` is a spinner for work that reports no
steps (import, prune).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from memvisor.evals.progress import ProgressFn


@contextmanager
def progress_bars() -> Iterator[ProgressFn]:
    """One bar per stage, removed when done."""
    # Imported here: rich costs import time that every `memvisor` call would pay.
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    console = Console(stderr=True)
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
    )
    with Progress(
        *columns, console=console, transient=True, disable=not console.is_terminal
    ) as bar:
        tasks: dict[str, Any] = {}

        def progress(stage: str, done: int, total: int) -> None:
            if stage not in tasks:
                tasks[stage] = bar.add_task(stage, total=total)
            bar.update(tasks[stage], completed=done, total=total)

        yield progress


@contextmanager
def working(description: str) -> Iterator[None]:
    """A spinner with ``description`` while the block runs."""
    from rich.console import Console

    console = Console(stderr=True)
    if not console.is_terminal:
        yield
        return
    with console.status(description):
        yield
