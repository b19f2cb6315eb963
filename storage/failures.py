"""A failure of the disk or of a store file, said as one line: which file, and what to do.

Every DuckDB call of the record store and every file the store opens passes through here, so
a full disk, a read-only mount, a corrupt block or a truncated file reaches the user as a
``StorageError`` naming the path, never as the driver's traceback.
"""

from __future__ import annotations

import errno
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import duckdb

from memvisor.errors import StorageError

_FULL = ("no space left on device", "disk full", "disk quota exceeded")
_DENIED = ("permission denied", "read-only file system", "cannot open database in read-only")
_DAMAGED = (
    "corrupt",
    "checksum",
    "could not read enough bytes",
    "not a valid duckdb database",
    "the file is not a valid",
    "invalid block",
    "unexpected end of file",
)
_UNSAVED = "nothing of this command was saved"
# The OS errors that say the directory may not be written at all.
UNWRITABLE = frozenset({errno.EACCES, errno.EPERM, errno.EROFS})


def disk_problem(path: Path | str, detail: str, *, writing: bool) -> str:
    """What went wrong with ``path`` and what to do, from the driver's or the OS's message;
    an empty string when the message names no disk problem."""
    text = detail.lower()
    where = Path(path)
    if any(cue in text for cue in _FULL):
        return (
            f"the disk holding {where.parent} is full ({where.name} could not be written; "
            f"{_UNSAVED}): free some space and run it again"
        )
    if any(cue in text for cue in _DENIED):
        return (
            f"cannot write {where}: permission denied or a read-only file system; "
            "fix the permissions (chmod u+w), or pass a writable --data-dir"
        )
    if any(cue in text for cue in _DAMAGED):
        return (
            f"the record store {where} is damaged ({_first_line(detail)}); move it aside and "
            "restore a backup, or import an export into a fresh --data-dir"
        )
    if writing and "failed to commit" in text:
        return f"the record store {where} could not commit ({_first_line(detail)}); {_UNSAVED}"
    return ""


def os_problem(path: Path | str, exc: OSError) -> str:
    """One line for an OS error on a store file: a directory where a file belongs, no
    permission, a full disk, anything else with its message."""
    where = Path(path)
    if isinstance(exc, IsADirectoryError):
        return (
            f"{where} is a directory, but memvisor keeps a file there: remove it, "
            "or pass a different --data-dir"
        )
    if exc.errno in UNWRITABLE:
        return (
            f"cannot write {where}: permission denied or a read-only file system; fix the "
            "permissions of its directory (chmod u+w), or pass a writable --data-dir"
        )
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return f"the disk holding {where.parent} is full: free some space and run it again"
    return f"cannot use {where}: {exc.strerror or exc}"


@contextmanager
def record_store_errors(path: Path | str, *, writing: bool = False) -> Iterator[None]:
    """Turn a DuckDB failure that is the disk's or the file's into a one-line
    ``StorageError``; any other DuckDB error (a constraint, a bug in a query) becomes one too,
    naming the store, so that no driver exception escapes the storage layer."""
    try:
        yield
    except duckdb.Error as exc:
        detail = str(exc)
        message = disk_problem(path, detail, writing=writing)
        raise StorageError(
            message or f"the record store {path} failed: {_first_line(detail)}"
        ) from exc
    except OSError as exc:
        raise StorageError(os_problem(getattr(exc, "filename", None) or path, exc)) from exc


def _first_line(text: str) -> str:
    line = text.strip().splitlines()[0] if text.strip() else "no detail"
    return line if len(line) <= 200 else line[:199] + "…"
