"""Memvisor's storage: DuckDB records and event log, LanceDB vectors, embedders, migrations.

Imports nothing from the other packages; everything above it goes through ``Store``.
"""

from .archive import ArchivedRecord, PruneItem, PruneReport
from .clock import Clock, ManualClock, SystemClock
from .events import LoggedMessage
from .paths import resolve_data_dir
from .records import CoreBlock, Event, Fact, FactWrite, Passage, QuarantineItem
from .store import Store
from .users import require_user

__all__ = [
    "ArchivedRecord",
    "Clock",
    "CoreBlock",
    "Event",
    "Fact",
    "FactWrite",
    "LoggedMessage",
    "ManualClock",
    "Passage",
    "PruneItem",
    "PruneReport",
    "QuarantineItem",
    "Store",
    "SystemClock",
    "require_user",
    "resolve_data_dir",
]
