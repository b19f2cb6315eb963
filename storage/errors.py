"""Memvisor's exception tree (re-exported and drawn in ``agent/errors.py``).

Defined here, in the lowest layer, because ``storage`` imports nothing of the
other packages while every package raises these.
"""


class MemvisorError(Exception):
    """Base of every error Memvisor raises on purpose."""


class UserError(MemvisorError):
    """Bad input or configuration: the message says what is wrong and how to fix it."""


class StorageError(MemvisorError):
    """A store could not be opened, read or written."""


class StoreLocked(StorageError):
    """Another process holds the data directory for writing."""


class NotFound(UserError):
    """A record id that does not exist for this user."""


class VersionConflict(StorageError):
    """An update was based on a stale version of a record (lost update prevented)."""
