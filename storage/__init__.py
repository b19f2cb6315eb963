"""Memvisor's storage: DuckDB records and event log, LanceDB vectors, embedders, migrations.

Imports nothing from the other packages; everything above it goes through ``Store``. Names
load lazily, so that importing one module of the package (its ``logger``, its ``clock``)
does not import the whole store.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from memvisor.lazy import lazy_exports

from .lance_import import defer_namespace_packages, quicken_lancedb_import

if TYPE_CHECKING:
    from .archive import ArchivedRecord, PruneItem, PruneReport
    from .clock import Clock, ManualClock, SystemClock
    from .events import LoggedMessage
    from .paths import resolve_data_dir
    from .records import CoreBlock, Event, Fact, FactWrite, Passage, QuarantineItem
    from .store import Store
    from .users import require_user

# Before anything imports lancedb (no module of this package does at import: the index
# opens on first use), the set-up of its REST namespace packages is deferred to their first
# use: about 1.15 s of every process's first search; and lancedb's own import is spared
# work for classes it never uses here, about 0.35 s more (see lance_import).
defer_namespace_packages()
quicken_lancedb_import()

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

_LAZY = {
    "ArchivedRecord": ".archive",
    "PruneItem": ".archive",
    "PruneReport": ".archive",
    "Clock": ".clock",
    "ManualClock": ".clock",
    "SystemClock": ".clock",
    "LoggedMessage": ".events",
    "resolve_data_dir": ".paths",
    "CoreBlock": ".records",
    "Event": ".records",
    "Fact": ".records",
    "FactWrite": ".records",
    "Passage": ".records",
    "QuarantineItem": ".records",
    "Store": ".store",
    "require_user": ".users",
}

__getattr__ = lazy_exports(__name__, _LAZY)
