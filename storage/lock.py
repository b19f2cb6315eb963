"""One writer per data directory, enforced with an OS file lock.

The lock dies with its process (SIGKILL included), so a crash never leaves a
stale lock behind; the holder's pid is written for the error message. Readers
(``shared=True``) take the lock shared: many at once, never beside a writer, and
they write nothing, so they work on a read-only directory too.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

from memvisor.errors import StorageError, StoreLocked, StoreUnwritable

from .failures import UNWRITABLE, os_problem


class DataDirLock:
    def __init__(self, data_dir: Path, *, shared: bool = False) -> None:
        self.path = data_dir / "memvisor.lock"
        self.shared = shared
        self._fd: int | None = None

    def acquire(self) -> None:
        fd = self._open()
        if fd is None:  # a reader of a directory no writer ever opened: nothing to share
            return
        try:
            fcntl.flock(fd, (fcntl.LOCK_SH if self.shared else fcntl.LOCK_EX) | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _read_pid(fd)
            os.close(fd)
            who = f" (pid {holder})" if holder else ""
            raise StoreLocked(
                f"data directory {self.path.parent} is in use by another memvisor process{who}; "
                "stop it or pass a different --data-dir"
            ) from None
        if not self.shared:
            try:
                os.ftruncate(fd, 0)
                os.write(fd, str(os.getpid()).encode())
            except OSError as exc:
                os.close(fd)
                raise StorageError(os_problem(self.path, exc)) from exc
        self._fd = fd

    def _open(self) -> int | None:
        try:
            if self.shared:
                return os.open(self.path, os.O_RDONLY)
            return os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        except FileNotFoundError:
            if self.shared:
                return None
            raise StorageError(f"data directory {self.path.parent} does not exist") from None
        except OSError as exc:
            kind = StoreUnwritable if exc.errno in UNWRITABLE else StorageError
            raise kind(os_problem(self.path, exc)) from exc

    def release(self) -> None:
        if self._fd is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None


def _read_pid(fd: int) -> str:
    try:
        return os.pread(fd, 32, 0).decode().strip()
    except OSError:
        return ""
