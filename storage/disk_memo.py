"""Values derived from their keys, kept on disk so that the next process need not derive
them again: the firewall's compiled patterns (``agent/guards/regex_cache.py``), their gate
words (``agent/guards/prefilter.py``) and the semantic step's prototype vectors
(``agent/guards/semantic.py``). A one-shot command such as ``memvisor memory add`` otherwise
spent 2.6 of its 4.3 s compiling and reading the same thousand patterns that every earlier
command had, and 0.3 s more embedding the same 195 prototypes.

The directory is the user's own cache (``MEMVISOR_CACHE_DIR``): a process trusts what it
reads there as it trusts the cached embedding model beside it.

Best effort: a memo that cannot be read is derived again, and one that cannot be written
costs the next process the same work, never an error. The file is written whole to a
temporary name and renamed over the old, so a reader sees one complete version or the
other, and it carries the SHA-256 of its body, so a damaged file is never read.

A write keeps what the file held and adds what this process derived: processes that ask for
different values (one command needs a few patterns' gates, another all of them) do not drop
each other's. Entries go stale only when a pattern is edited (a new Python, or a new way of
deriving, is a new file name); once the file passes ``MAX_BYTES``, a write keeps only the
values its process used.
"""

from __future__ import annotations

import atexit
import contextlib
import hashlib
import marshal
import os
import threading
from collections.abc import Callable, Hashable
from pathlib import Path
from typing import Any

from .paths import cache_dir

_DIGEST = 32  # bytes of the SHA-256 in front of the body
# A file past this size keeps only what its last writer used. The largest memo, the guards'
# compiled patterns, is ~10 MB: the cap is reached only after many edits of the patterns.
MAX_BYTES = 48 << 20
_MISSING = object()


class DiskMemo:
    """A dict of ``marshal``-able keys and values, in one file under ``cache_dir()/memo``,
    read on first use and written back at exit (or on ``flush``) when something new was
    derived. A value read from the file is handed out, not kept (the compiled patterns'
    programs would otherwise stay in memory twice, ~9 MB): the file is read again when it
    is written. Thread-safe. ``name`` must change when the way values are derived does."""

    def __init__(self, name: str) -> None:
        self._name = name
        self._lock = threading.Lock()
        self._file: Path | None = None  # where it is read from, and written back to
        self._unread: dict[Hashable, Any] | None = None  # read, not yet asked for
        self._read_keys: set[Hashable] = set()  # asked for, and in the file
        self._derived: dict[Hashable, Any] = {}  # not in the file yet
        self._exit_hooked = False

    def get(self, key: Hashable, derive: Callable[[], Any]) -> Any:
        """The value kept for ``key``, or ``derive()``'s, kept from now on."""
        with self._lock:
            if self._unread is None:
                self._file = cache_dir() / "memo" / f"{self._name}.marshal"
                self._unread = _read(self._file)
            value = self._unread.pop(key, _MISSING)
            if value is not _MISSING:
                self._read_keys.add(key)
                return value
            value = self._derived.get(key, _MISSING)
            if value is not _MISSING:
                return value
        value = derive()  # outside the lock: two threads may both derive; the value is one
        with self._lock:
            if key not in self._read_keys:  # (asked for twice: the file has it)
                self._derived[key] = value
                if not self._exit_hooked:
                    atexit.register(self.flush)
                    self._exit_hooked = True
        return value

    def counts(self) -> tuple[int, int]:
        """(values asked for that the file holds, values derived and not written yet)."""
        with self._lock:
            return len(self._read_keys), len(self._derived)

    def flush(self) -> None:
        """Adds what this process derived to the file, if it derived anything (keeping only
        what it used once the file is past ``MAX_BYTES``); never raises."""
        with self._lock:
            path = self._file
            if not self._derived or path is None:
                return
            kept = _read(path)
            kept.update(self._derived)
            used = self._read_keys | set(self._derived)
            self._read_keys = used
            self._derived = {}
        partial = path.with_name(f"{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
        try:
            body = marshal.dumps(kept)
            if len(body) > MAX_BYTES:
                body = marshal.dumps({key: kept[key] for key in used if key in kept})
            path.parent.mkdir(parents=True, exist_ok=True)
            partial.write_bytes(hashlib.sha256(body).digest() + body)
            os.replace(partial, path)
        except (OSError, ValueError):  # unwritable, full, or a value marshal cannot hold
            with contextlib.suppress(OSError):
                partial.unlink(missing_ok=True)  # derived again next time


def _read(path: Path) -> dict[Hashable, Any]:
    try:
        data = path.read_bytes()
    except OSError:
        return {}
    body = data[_DIGEST:]
    if len(data) <= _DIGEST or hashlib.sha256(body).digest() != data[:_DIGEST]:
        return {}  # damaged, or not ours: derive again
    try:
        entries = marshal.loads(body)
    except (EOFError, ValueError, TypeError):
        return {}
    return entries if isinstance(entries, dict) else {}
