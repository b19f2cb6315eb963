"""Reading a data directory another process holds: ask the holder for a snapshot.

One process writes a data directory (the lock), and DuckDB lets no other process open its
file meanwhile, not even to read. So every writer listens on a Unix socket beside its store;
a reader that finds the directory held asks there, and the holder copies its record store,
as one consistent state, into a file the reader names (``COPY FROM DATABASE``, under the
store's connection lock, so between whole transactions). The reader then reads its private
copy: ``memory list``, ``export``, ``health`` or ``trace`` work while ``chat`` or ``serve``
runs.

Only the same OS user may ask (the socket is mode 0600 in a 0700 directory, and the holder
checks the peer's uid), and the copy goes only to a new file in a directory of that user.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import socket
import struct
import tempfile
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memvisor.errors import StorageError

from .logger import logger

if TYPE_CHECKING:
    from .database import DuckDBDatabase

_SOCKET = "memvisor.sock"
# A Unix socket path must fit sun_path (108 bytes on Linux, 104 on macOS).
_MAX_PATH = 100
_REQUEST_BYTES = 4096
_COPY_TIMEOUT_S = 120.0


def socket_path(data_dir: Path) -> Path:
    """Where the holder of ``data_dir`` listens: beside the store when the path is short
    enough, else in a private per-user directory under the system's temporary directory."""
    beside = Path(data_dir).resolve() / _SOCKET
    if len(str(beside).encode()) <= _MAX_PATH:
        return beside
    digest = hashlib.sha256(str(beside).encode()).hexdigest()[:24]
    return Path(tempfile.gettempdir()) / f"memvisor-{os.getuid()}" / f"{digest}.sock"


class SnapshotServer:
    """The holder's side: a thread answering snapshot requests for one open store."""

    def __init__(self, db: DuckDBDatabase, data_dir: Path) -> None:
        self._db = db
        self.path = socket_path(data_dir)
        self._sock: socket.socket | None = None
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Listen; best effort: a directory where no socket can be made only means readers
        get "in use" as before."""
        try:
            if self.path.parent.name.startswith("memvisor-"):
                self.path.parent.mkdir(mode=0o700, exist_ok=True)
            self.path.unlink(missing_ok=True)  # a socket left by a killed holder
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            old = os.umask(0o177)
            try:
                sock.bind(str(self.path))
            finally:
                os.umask(old)
            sock.listen(4)
        except OSError as exc:
            logger.debug("no snapshot socket at {}: {}", self.path, exc)
            return
        self._sock = sock
        self._thread = threading.Thread(target=self._serve, name="memvisor-snapshots", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        sock, self._sock = self._sock, None
        if sock is None:
            return
        with contextlib.suppress(OSError):
            sock.shutdown(socket.SHUT_RDWR)
        sock.close()
        with contextlib.suppress(OSError):
            self.path.unlink()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def _serve(self) -> None:
        while (sock := self._sock) is not None:
            try:
                conn, _ = sock.accept()
            except OSError:
                return  # closed by stop()
            with conn:
                try:
                    conn.settimeout(5)
                    reply = self._answer(conn)
                except Exception as exc:  # a bad request never ends the holder
                    reply = {"ok": False, "error": f"{type(exc).__name__}: {exc}"}
                with contextlib.suppress(OSError):
                    conn.sendall(json.dumps(reply).encode() + b"\n")

    def _answer(self, conn: socket.socket) -> dict[str, Any]:
        if _peer_uid(conn) != os.getuid():
            return {"ok": False, "error": "only the store's own OS user may read it"}
        request = json.loads(_read_line(conn))
        target = Path(str(request.get("into", "")))
        if request.get("op") != "snapshot" or not target.is_absolute() or target.exists():
            return {"ok": False, "error": "expected {op: snapshot, into: a new absolute path}"}
        parent = target.parent.stat()
        if parent.st_uid != os.getuid() or parent.st_mode & 0o077:
            return {"ok": False, "error": "the snapshot's directory must be the user's own, 0700"}
        self._db.copy_to(target)
        return {"ok": True}


def request_snapshot(data_dir: Path, into: Path) -> bool:
    """Ask the holder of ``data_dir`` to copy its record store to ``into``; False when no
    holder listens (an older memvisor, or a directory where no socket could be made)."""
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.settimeout(_COPY_TIMEOUT_S)
            sock.connect(str(socket_path(data_dir)))
            sock.sendall(json.dumps({"op": "snapshot", "into": str(into)}).encode() + b"\n")
            reply = json.loads(_read_line(sock))
    except (OSError, ValueError):
        return False
    if not reply.get("ok"):
        raise StorageError(
            f"the process holding {data_dir} refused a snapshot: {reply.get('error')}"
        )
    return True


def _read_line(sock: socket.socket) -> bytes:
    data = b""
    while not data.endswith(b"\n"):
        chunk = sock.recv(_REQUEST_BYTES)
        if not chunk:
            break
        data += chunk
        if len(data) > _REQUEST_BYTES:
            raise ValueError("request too long")
    return data


def _peer_uid(conn: socket.socket) -> int:
    """The connecting process's uid (Linux SO_PEERCRED; elsewhere the socket's mode guards)."""
    option = getattr(socket, "SO_PEERCRED", None)
    if option is None:
        return os.getuid()
    creds = conn.getsockopt(socket.SOL_SOCKET, option, struct.calcsize("3i"))
    return int(struct.unpack("3i", creds)[1])
