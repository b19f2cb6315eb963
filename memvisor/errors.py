"""Memvisor's exceptions, all defined here, in one tree::

    MemvisorError
    ├── UserError              bad input or configuration: says what and how to fix
    │   ├── NotFound           an id that does not exist for this user
    │   └── ToolDefinitionError  a function cannot be a tool as written
    ├── StorageError           a store could not be opened, read or written
    │   ├── StoreLocked        another process holds the data directory (exit code 3)
    │   ├── StoreUnwritable    the data directory may not be written (permissions, read-only)
    │   ├── IndexDamaged       the search index's files are damaged (rebuilt from the records)
    │   └── VersionConflict    an update based on a stale version (lost update prevented)
    ├── WriteRefused           the memory API did not store a write as proposed
    │   ├── FirewallRejected   the write firewall refused it (reasons on ``.verdict``)
    │   └── WriteHeld          the firewall held it in quarantine (id on ``.quarantine_id``)
    ├── ToolError              a tool failure, shown to the model as ``Error: ...``
    ├── ModelError             the model failed or is unreachable (one actionable line)
    │   └── ModelUnavailable
    ├── BudgetExceeded         the untouchable prompt parts do not fit the window
    └── TurnCancelled          the user stopped the turn (Ctrl-C in ``memvisor chat``)

``ToolControl`` (not a ``MemvisorError``) is the base of named control-flow exceptions
that escape a tool, such as ``EndTurn`` from ``send_message``.

This module imports nothing of Memvisor, so every layer (storage included) raises these.
"""

from __future__ import annotations

from typing import Any


class MemvisorError(Exception):
    """Base of every error Memvisor raises on purpose."""


class UserError(MemvisorError):
    """Bad input or configuration: the message says what is wrong and how to fix it."""


class NotFound(UserError):
    """A record id that does not exist for this user."""


class ToolDefinitionError(UserError, TypeError):
    """A function cannot be a tool as written; the message names the tool, parameter and fix."""


class StorageError(MemvisorError):
    """A store could not be opened, read or written."""


class StoreLocked(StorageError):
    """Another process holds the data directory for writing."""


class StoreUnwritable(StorageError):
    """The data directory may not be written: its permissions, or a read-only mount."""


class IndexDamaged(StorageError):
    """The search index's files are missing or unreadable; the records can rebuild it."""


class OutcomeUnknown(StorageError):
    """A transaction's COMMIT was sent and its answer lost: it may or may not be stored."""


class VersionConflict(StorageError):
    """An update was based on a stale version of a record (lost update prevented)."""


class WriteRefused(MemvisorError):
    """A write was not stored as proposed; ``verdict`` is the firewall's verdict."""

    def __init__(self, message: str, *, verdict: Any = None) -> None:
        super().__init__(message)
        self.verdict = verdict


class FirewallRejected(WriteRefused):
    """The write firewall refused the write; nothing was stored."""


class WriteHeld(WriteRefused):
    """The write is held in quarantine until the user confirms it."""

    def __init__(self, message: str, *, verdict: Any = None, quarantine_id: str) -> None:
        super().__init__(message, verdict=verdict)
        self.quarantine_id = quarantine_id


class ToolError(MemvisorError):
    """A failure the model can act on; it reads ``Error: <message>``."""


class ToolControl(Exception):  # noqa: N818 - control flow, not an error
    """Base of named control-flow exceptions that escape ``ToolRegistry.call`` (e.g. EndTurn)."""


class ModelError(MemvisorError):
    """The model failed or answered unusably; the message is one actionable line."""


class ModelUnavailable(ModelError):
    """The model server cannot be reached at all."""


class BudgetExceeded(MemvisorError):
    """The system prompt, core memory and the user's message alone exceed the window."""


class TurnCancelled(MemvisorError):
    """The user stopped the running turn; it is logged as cancelled, the session goes on."""
