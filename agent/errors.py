"""Memvisor's exceptions, in one tree::

    MemvisorError
    ├── UserError            bad input or configuration: says what and how to fix
    │   └── NotFound         an id that does not exist for this user
    ├── StorageError         a store could not be opened, read or written
    │   ├── StoreLocked      another process holds the data directory (exit code 2)
    │   └── VersionConflict  an update based on a stale version (lost update prevented)
    ├── ToolError            a tool failure, shown to the model as ``Error: ...``
    ├── ModelError           the model failed or is unreachable (one actionable line)
    │   └── ModelUnavailable
    └── BudgetExceeded       the untouchable prompt parts do not fit the window

``ToolControl`` (not an ``MemvisorError``) is the base of named control-flow
exceptions that escape a tool, such as ``EndTurn`` from ``send_message``.
"""

from memvisor.agent.models.base import ModelError, ModelUnavailable
from memvisor.paging.assembler import BudgetExceeded
from memvisor.storage.errors import (
    MemvisorError,
    NotFound,
    StorageError,
    StoreLocked,
    UserError,
    VersionConflict,
)
from memvisor.tools.registry import ToolControl, ToolError

__all__ = [
    "BudgetExceeded",
    "MemvisorError",
    "ModelError",
    "ModelUnavailable",
    "NotFound",
    "StorageError",
    "StoreLocked",
    "ToolControl",
    "ToolError",
    "UserError",
    "VersionConflict",
]
