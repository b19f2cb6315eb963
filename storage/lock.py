"""One writer per data directory, enforced with an OS file lock.

The lock dies with its process (SIGKILL included), so a crash never leaves a
stale lock behind; the holder's pid is written for the error message.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

from memvisor.errors import StoreLocked


class DataDirLock:
    def __init__(self, data_dir: Path) -> None:
        self.path = data_dir / "memvisor.lock"
        self._fd: int | None = None

    def acquire(self) -> None:
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _read_pid(fd)
            os.close(fd)
            who = f" (pid {holder})" if holder else ""
            raise StoreLocked(
                f"data directory {self.path.parent} is in use by another memvisor process{who}; "
                "stop it or pass a different --data-dir"
            ) from None
        os.ftruncate(fd, 0)
        os.write(fd, str(os.getpid()).encode())
        self._fd = fd

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
