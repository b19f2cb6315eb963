"""What the embedded index held when its process last closed cleanly, so that the next
process can skip the first search's reconcile of an unchanged store.

One small JSON file beside the LanceDB tables (``reconciled.json``): per index table, the
LanceDB table and version it was at, and a digest of the ids and text revisions that
version holds (taken from the index's own rows, under its write lock). The next process
reconciles as ever unless the table is still at that version *and* the records' ids and
revisions digest the same: one process owns an embedded data directory, so a table at the
same version holds the same rows, and the records are compared by content, so a process
that wrote records without indexing them (or crashed before it did) is caught. Anything
else (no file, an unreadable one, another version, another digest) is a full reconcile.
PostgreSQL stores, written by many processes, have no marks and always reconcile.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from .logger import logger

MARKS_FILE = "reconciled.json"
_FORMAT = 1


@dataclass(frozen=True)
class Mark:
    version: str  # "<LanceDB table>@<version>"
    digest: str  # ``revisions_digest`` of every user's rows at that version


def revisions_digest(by_user: Mapping[str, Mapping[str, str]]) -> str:
    """One hash of every (user, id, revision), whatever the order they come in."""
    rows = (
        (user_id, row_id, revision)
        for user_id, revisions in by_user.items()
        for row_id, revision in revisions.items()
    )
    return rows_digest(rows)


def rows_digest(rows: Iterable[tuple[str, str, str]]) -> str:
    """``revisions_digest`` of (user, id, revision) rows that come one at a time: only
    their lines are held at once, to be sorted (the index side's texts never are)."""
    lines = sorted(f"{user_id}\t{row_id}\t{revision}" for user_id, row_id, revision in rows)
    return hashlib.sha256("\n".join(lines).encode("utf-8")).hexdigest()


class ReconcileMarks:
    """The marks file of one index directory. Not thread-safe: ``IndexSync`` calls it
    under its lock."""

    def __init__(self, path: Path) -> None:
        self._file = Path(path) / MARKS_FILE

    def get(self, table: str) -> Mark | None:
        try:
            doc = json.loads(self._file.read_text(encoding="utf-8"))
            entry = doc["tables"].get(table) if doc.get("format") == _FORMAT else None
            return None if entry is None else Mark(str(entry["version"]), str(entry["digest"]))
        except FileNotFoundError:
            return None
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
            logger.debug("search index: ignoring the reconcile marks: {}", exc)
            return None

    def put(self, table: str, mark: Mark) -> None:
        self._write({**self._entries(), table: {"version": mark.version, "digest": mark.digest}})

    def drop(self, table: str) -> None:
        """Forget ``table``'s mark: its next process reconciles (called before the table
        changes, so a crash never leaves a mark describing a table that moved on)."""
        entries = self._entries()
        if table in entries:
            self._write({name: e for name, e in entries.items() if name != table})

    def _entries(self) -> dict[str, dict[str, str]]:
        try:
            doc = json.loads(self._file.read_text(encoding="utf-8"))
            tables = doc.get("tables") if doc.get("format") == _FORMAT else None
            return dict(tables) if isinstance(tables, dict) else {}
        except (OSError, ValueError, AttributeError):
            return {}

    def _write(self, entries: dict[str, dict[str, str]]) -> None:
        tmp = self._file.with_suffix(".tmp")
        try:
            with open(tmp, "w", encoding="utf-8") as out:
                json.dump({"format": _FORMAT, "tables": entries}, out)
                out.flush()
                os.fsync(out.fileno())
            os.replace(tmp, self._file)
        except OSError as exc:  # only the skip is lost: the next process reconciles
            logger.warning("search index: cannot write {}: {}", self._file, exc)
            with contextlib.suppress(OSError):  # a mark it could not drop must not stay
                self._file.unlink(missing_ok=True)
