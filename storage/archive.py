"""The archive: records moved out of page-in and search by a prune, restorable.

An archived record stays where it is (facts, passages, episodes are untouched);
its row here hides it from page-in, search and default listings. Pruning picks
records that were neither created, confirmed nor used for a while: rank decay
made visible, never data loss.
"""

from __future__ import annotations

import builtins
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, Literal

from memvisor.errors import NotFound, UserError

from . import text
from .clock import Clock
from .database import Database, db_time, from_db_time
from .records import Fact, Passage, Record
from .users import require_user

if TYPE_CHECKING:  # episodes.py imports this module
    from .episodes import Episode

ArchiveKind = Literal["fact", "passage", "episode"]
ARCHIVE_KINDS: tuple[ArchiveKind, ...] = ("fact", "passage", "episode")
SNIPPET_CHARS = 120

_COLUMNS = "user_id, item_id, kind, archived_at, reason, trace_id"
# Rows whose record was forgotten since hide nothing and are not listed.
_RECORD_EXISTS = (
    "(EXISTS (SELECT 1 FROM facts r WHERE r.user_id = a.user_id AND r.id = a.item_id) "
    "OR EXISTS (SELECT 1 FROM passages r WHERE r.user_id = a.user_id AND r.id = a.item_id) "
    "OR EXISTS (SELECT 1 FROM episodes r WHERE r.user_id = a.user_id AND r.id = a.item_id))"
)


def not_archived(table: str) -> str:
    """SQL condition: the row of ``table`` (columns ``user_id``, ``id``) is not archived."""
    return (
        f"NOT EXISTS (SELECT 1 FROM archived a "
        f"WHERE a.user_id = {table}.user_id AND a.item_id = {table}.id)"
    )


class ArchivedRecord(Record):
    user_id: str
    item_id: str
    kind: ArchiveKind
    archived_at: datetime
    reason: str
    trace_id: str


@dataclass(frozen=True)
class PruneCandidate:
    id: str
    kind: ArchiveKind
    text: str
    created_at: datetime
    touched_at: datetime  # created or last confirmed, whichever is later


class PruneItem(Record):
    id: str
    kind: ArchiveKind
    text: str
    created_at: datetime
    last_used_at: datetime | None = None


class PruneReport(Record):
    user_id: str
    older_than: timedelta
    unused: bool
    dry_run: bool
    trace_id: str
    archived: list[PruneItem]
    counts: dict[str, int]


class Archive:
    def __init__(self, db: Database, clock: Clock) -> None:
        self._db = db
        self._clock = clock

    def add(
        self, items: Mapping[str, ArchiveKind], *, user_id: str, trace_id: str, reason: str
    ) -> builtins.list[ArchivedRecord]:
        """Archive ``id -> kind``; an already archived id keeps its first row."""
        require_user(user_id)
        now = self._clock.now()
        records = [
            ArchivedRecord(
                user_id=user_id,
                item_id=item_id,
                kind=_kind(kind),
                archived_at=now,
                reason=reason,
                trace_id=trace_id,
            )
            for item_id, kind in items.items()
        ]
        with self._db.transaction() as conn:  # joins the caller's transaction if any
            for record in records:
                _insert(conn, record, on_conflict="DO NOTHING")
        return records

    def remove(self, ids: Iterable[str], *, user_id: str) -> builtins.list[ArchivedRecord]:
        """Un-archive these ids (all or none): an id that is not archived raises ``NotFound``."""
        require_user(user_id)
        wanted = list(dict.fromkeys(ids))
        with self._db.transaction() as conn:
            rows = conn.execute(
                f"SELECT {_COLUMNS} FROM archived a WHERE a.user_id = ? "
                f"AND a.item_id IN (SELECT unnest(?)) AND {_RECORD_EXISTS}",
                [user_id, wanted],
            ).fetchall()
            found = {r[1]: _record(r) for r in rows}
            missing = [i for i in wanted if i not in found]
            if missing:
                raise NotFound(
                    f"{', '.join(missing)} not archived for user {user_id!r}; "
                    "list archived records with `memvisor memory list --archived`"
                )
            conn.execute(
                "DELETE FROM archived WHERE user_id = ? AND item_id IN (SELECT unnest(?))",
                [user_id, wanted],
            )
        return [found[i] for i in wanted]

    def ids(self, *, user_id: str) -> set[str]:
        rows = self._db.query(
            "SELECT item_id FROM archived WHERE user_id = ?", [require_user(user_id)]
        )
        return {r[0] for r in rows}

    def get(self, item_id: str, *, user_id: str) -> ArchivedRecord | None:
        rows = self._db.query(
            f"SELECT {_COLUMNS} FROM archived WHERE user_id = ? AND item_id = ?",
            [require_user(user_id), item_id],
        )
        return _record(rows[0]) if rows else None

    def list(self, *, user_id: str) -> builtins.list[ArchivedRecord]:
        """Archived records that still exist, oldest archive first."""
        rows = self._db.query(
            f"SELECT {_COLUMNS} FROM archived a WHERE a.user_id = ? AND {_RECORD_EXISTS} "
            "ORDER BY archived_at, item_id",
            [require_user(user_id)],
        )
        return [_record(r) for r in rows]

    def insert(self, record: ArchivedRecord, *, user_id: str, conn: Any) -> None:
        """Insert a row exactly as exported (import path); runs in the caller's transaction."""
        if record.user_id != user_id:
            raise UserError(f"archive row of {record.item_id} belongs to another user")
        _insert(conn, record, on_conflict="DO UPDATE SET " + _UPDATE_ALL)

    def select(
        self,
        candidates: Sequence[PruneCandidate],
        *,
        user_id: str,
        older_than: timedelta,
        unused: bool,
    ) -> builtins.list[PruneItem]:
        """Candidates untouched for longer than ``older_than`` (and, with ``unused``, not
        paged in or cited within it either), oldest first."""
        if older_than <= timedelta(0):
            raise UserError("older_than must be a positive duration, e.g. 90 days")
        cutoff = self._clock.now() - older_than
        uses = {
            r[0]: (bool(r[1]), from_db_time(r[2]))
            for r in self._db.query(
                "SELECT item_id, paged_in + cited > 0, last_used_at FROM memory_usage "
                "WHERE user_id = ?",
                [require_user(user_id)],
            )
        }
        chosen = []
        for cand in candidates:
            if cand.touched_at >= cutoff:
                continue
            used, last_used_at = uses.get(cand.id, (False, None))
            if unused and used and last_used_at is not None and last_used_at >= cutoff:
                continue
            chosen.append(
                PruneItem(
                    id=cand.id,
                    kind=cand.kind,
                    text=snippet(cand.text),
                    created_at=cand.created_at,
                    last_used_at=last_used_at,
                )
            )
        chosen.sort(key=lambda i: (i.created_at, i.id))
        return chosen


def prune_candidates(
    facts: Iterable[Fact], passages: Iterable[Passage], episodes: Iterable[Episode]
) -> builtins.list[PruneCandidate]:
    """What a prune may archive: active facts, passages and episodes (never raw turns: the
    event log is append-only; never core blocks, recipes or tasks)."""
    return [
        *(
            PruneCandidate(
                f.id,
                "fact",
                f.text(),
                f.created_at,
                max(f.created_at, f.last_confirmed_at or f.created_at),
            )
            for f in facts
            if f.status == "active"
        ),
        *(PruneCandidate(p.id, "passage", p.text, p.created_at, p.created_at) for p in passages),
        *(PruneCandidate(e.id, "episode", e.summary, e.created_at, e.created_at) for e in episodes),
    ]


def snippet(record_text: str) -> str:
    """A record's text as the prune report shows it."""
    return text.snippet(record_text, SNIPPET_CHARS)


def counts_by_kind(items: Iterable[PruneItem | ArchivedRecord]) -> dict[str, int]:
    counts: dict[str, int] = dict.fromkeys(ARCHIVE_KINDS, 0)
    for item in items:
        counts[item.kind] += 1
    return counts


def duration_text(delta: timedelta) -> str:
    """``90d``, ``36h`` or ``120s``: the shortest exact form (for the event log)."""
    seconds = int(delta.total_seconds())
    for unit, size in (("d", 86400), ("h", 3600)):
        if seconds % size == 0:
            return f"{seconds // size}{unit}"
    return f"{seconds}s"


def _kind(kind: str) -> ArchiveKind:
    if kind not in ARCHIVE_KINDS:
        raise UserError(f"cannot archive a {kind!r}: only {', '.join(ARCHIVE_KINDS)}")
    return kind  # type: ignore[return-value]


_UPDATE_ALL = (
    "kind = excluded.kind, archived_at = excluded.archived_at, reason = excluded.reason, "
    "trace_id = excluded.trace_id"
)


def _insert(conn: Any, record: ArchivedRecord, *, on_conflict: str) -> None:
    conn.execute(
        f"INSERT INTO archived ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?) "
        f"ON CONFLICT (user_id, item_id) {on_conflict}",
        [
            record.user_id,
            record.item_id,
            record.kind,
            db_time(record.archived_at),
            record.reason,
            record.trace_id,
        ],
    )


def _record(row: tuple[Any, ...]) -> ArchivedRecord:
    return ArchivedRecord(
        user_id=row[0],
        item_id=row[1],
        kind=row[2],
        archived_at=from_db_time(row[3]),
        reason=row[4],
        trace_id=row[5],
    )
