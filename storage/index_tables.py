"""Which LanceDB table holds each index table now, and when a table's files are damaged.

A rebuild writes a new table under a fresh name and swaps it in by rewriting one small
JSON file atomically (``tables.json``: logical name -> LanceDB table), so a rebuild cut
short leaves the old table in use. LanceDB OSS cannot rename a table. A table that was
never rebuilt is stored under its logical name.
"""

from __future__ import annotations

import json
import os
import re
import secrets
from pathlib import Path

from memvisor.errors import IndexDamaged

from .logger import logger

POINTER_FILE = "tables.json"
# What LanceDB says when a file of a table is missing or unreadable (a deleted fragment or
# index file, a garbage manifest): the files are damaged, the records can rebuild them.
_DAMAGE = re.compile(r"Not found|No such file|LanceError\(IO\)|file size is too small|corrupt")


class TableNames:
    """Logical table names to the LanceDB tables holding them, in ``tables.json``."""

    def __init__(self, path: Path) -> None:
        self._file = Path(path) / POINTER_FILE
        self._names = self._read()

    def current(self, table: str) -> str:
        return self._names.get(table, table)

    def fresh(self, table: str) -> str:
        """A new LanceDB name for ``table``, for a rebuild to write before the swap."""
        return f"{table}_{secrets.token_hex(4)}"

    def is_build_of(self, name: str, table: str) -> bool:
        return re.fullmatch(rf"{re.escape(table)}_[0-9a-f]{{8}}", name) is not None

    def swap(self, table: str, name: str | None) -> None:
        """Point ``table`` at ``name`` (None: its logical name) in one atomic file write."""
        names = dict(self._names)
        if name is None:
            names.pop(table, None)
        else:
            names[table] = name
        tmp = self._file.with_suffix(".tmp")
        with open(tmp, "w", encoding="utf-8") as out:
            json.dump(names, out)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, self._file)
        self._names = names

    def _read(self) -> dict[str, str]:
        try:
            raw = json.loads(self._file.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as exc:
            # Unreadable: the tables fall back to their logical names; a search then
            # reconciles whatever it finds there with the records.
            logger.warning("search index: ignoring unreadable {}: {}", self._file, exc)
            return {}
        if not isinstance(raw, dict):
            return {}
        return {str(k): str(v) for k, v in raw.items() if isinstance(v, str)}


def looks_damaged(exc: BaseException) -> bool:
    """LanceDB's error says a file of the table is missing or unreadable."""
    return isinstance(exc, RuntimeError | OSError) and bool(_DAMAGE.search(str(exc)))


def damage(table: str, exc: BaseException) -> IndexDamaged | None:
    """``IndexDamaged`` when LanceDB's error says the table's files are damaged, else None."""
    if not looks_damaged(exc):
        return None
    return IndexDamaged(f"search index table {table!r} is damaged ({short(exc)})")


def short(exc: BaseException) -> str:
    """LanceDB's message without the Rust source locations it appends."""
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    text = re.sub(r",\s*/\S+\.rs:\d+:\d+", "", text)
    text = re.sub(r"lance error: |LanceError\(IO\): |Generic N/A error: |Wrapped error: ", "", text)
    return re.sub(r"(Not found: )+", "Not found: ", text)[:300]
