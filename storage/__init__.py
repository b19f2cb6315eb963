"""Memvisor's storage: DuckDB records and event log, LanceDB vectors, embedders, migrations.

Imports nothing from the other packages; everything above it goes through ``Store``.
"""

from .archive import ArchivedRecord, PruneItem, PruneReport
from .clock import Clock, ManualClock, SystemClock
from .events import LoggedMessage
from .lance_import import defer_namespace_client
from .paths import resolve_data_dir
from .records import CoreBlock, Event, Fact, FactWrite, Passage, QuarantineItem
from .store import Store
from .users import require_user

# Before anything imports lancedb (none of the modules above does: the index opens on first
# use), its REST namespace client's set-up is deferred to its first use: about 1 s of every
# process's first search (see lance_import).
defer_namespace_client()

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
