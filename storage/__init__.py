"""Memvisor's storage: DuckDB records and event log, LanceDB vectors, embedders, migrations.

Imports nothing from the other packages; everything above it goes through ``Store``.
"""

from .archive import ArchivedRecord, PruneItem, PruneReport
from .clock import Clock, ManualClock, SystemClock
from .paths import resolve_data_dir
from .records import CoreBlock, Event, Fact, FactWrite, Passage, QuarantineItem
from .store import Store

__all__ = [
    "ArchivedRecord",
    "Clock",
    "CoreBlock",
    "Event",
    "Fact",
    "FactWrite",
    "ManualClock",
    "Passage",
    "PruneItem",
    "PruneReport",
    "QuarantineItem",
    "Store",
    "SystemClock",
    "resolve_data_dir",
]
