"""Memvisor's storage: DuckDB records and event log, LanceDB vectors, embedders, migrations.

Imports nothing from the other packages; everything above it goes through ``Store``.
"""

from .archive import ArchivedRecord, PruneItem, PruneReport
from .clock import Clock, ManualClock, SystemClock
from .errors import MemvisorError, NotFound, StorageError, StoreLocked, UserError, VersionConflict
from .paths import resolve_data_dir
from .records import CoreBlock, Event, Fact, FactWrite, Passage, QuarantineItem
from .store import Store

__all__ = [
    "ArchivedRecord",
    "Clock",
    "CoreBlock",
    "MemvisorError",
    "Event",
    "Fact",
    "FactWrite",
    "ManualClock",
    "NotFound",
    "Passage",
    "PruneItem",
    "PruneReport",
    "QuarantineItem",
    "StorageError",
    "Store",
    "StoreLocked",
    "SystemClock",
    "UserError",
    "VersionConflict",
    "resolve_data_dir",
]
