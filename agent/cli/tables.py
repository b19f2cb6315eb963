"""Rich tables as the CLI prints them."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.table import Table

UNBOUNDED = 100_000  # columns: wide enough to measure any table's natural width


def print_table(table: Table) -> None:
    """Print ``table`` whole: piped to a file or another program, rich would otherwise crop
    its cells to 80 columns."""
    from rich.console import Console
    from rich.measure import Measurement

    console = Console()
    unbounded = console.options.update_width(UNBOUNDED)
    needed = Measurement.get(console, unbounded, table).maximum
    if not console.is_terminal and needed > console.width:
        console = Console(width=needed)
    console.print(table)
