"""Export every record of one user to a document, and import it back: exactly or merged.

Every table with a ``user_id`` column (``migrations.py``) is exported: facts (every version),
core blocks, passages, quarantine (every status), archive rows, episodes, rolling summaries,
recipes, tasks, session state, tombstones, memory usage, the event log and sealed secrets
(their ciphertext in base64 and their metadata, never the value: only the data directory's
``sealed.key``, which no export holds, opens them). ``NOT_EXPORTED`` names the tables with a
``user_id`` that are left out, and why; ``schema_migrations`` belongs to the store.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from memvisor.errors import UserError

from . import import_merge
from .archive import ArchivedRecord
from .core_blocks import is_default_text
from .episodes import Episode, RollingSummary
from .import_report import ImportMode, KindCounts, MergeReport, Outcome
from .recipes import Recipe
from .records import CoreBlock, Event, Fact, Passage, QuarantineItem
from .sealed import SealedRow
from .session_state import StateSlot
from .store import Store
from .tasks import TaskState
from .tombstones import Tombstone, list_tombstones
from .usage import UsageRow
from .users import require_user

FORMAT: Literal["memvisor.export"] = "memvisor.export"
VERSION: Literal[2] = 2
# What version 1 lacked; a version 1 document reads them as empty.
ADDED_IN_V2 = (
    "episodes",
    "summaries",
    "recipes",
    "tasks",
    "session_state",
    "tombstones",
    "usage",
    "events",
)
# Tables whose ids are unique across users: an id of the document held by another user of
# the store cannot be written (and says the document is not this user's).
_GLOBAL_IDS = (
    "facts",
    "passages",
    "episodes",
    "recipes",
    "quarantine",
    "events",
    "sealed_secrets",
)
_ROW_TABLES = (
    "events",
    "facts",
    "passages",
    "quarantine",
    "episodes",
    "summaries",
    "recipes",
    "tasks",
    "session_state",
    "tombstones",
    "archived",
    "memory_usage",
    "sealed_secrets",
)
SEALED = "sealed_secrets"
# Tables with a user_id that an export leaves out, and why.
NOT_EXPORTED = {
    "api_keys": "credentials of one server: make new keys with `memvisor keys create`",
    "search_outbox": "index work a writer still owes: the importing store indexes anew",
    "sealed_keys": "sealed-secret keys, wrapped: no export holds a key (`memvisor migrate` "
    "moves them)",
}


class ExportDocument(BaseModel):
    model_config = ConfigDict(extra="forbid")

    # Exports written before the rename say "engram.export"; both read the same.
    format: Literal["memvisor.export", "engram.export"]
    version: Literal[1, 2]
    user_id: str
    facts: list[Fact]
    core_blocks: list[CoreBlock]
    passages: list[Passage]
    quarantine: list[QuarantineItem]
    # Which records are archived (exports made before archiving have none).
    archived: list[ArchivedRecord] = Field(default_factory=list)
    episodes: list[Episode] = Field(default_factory=list)
    summaries: list[RollingSummary] = Field(default_factory=list)
    recipes: list[Recipe] = Field(default_factory=list)
    tasks: list[TaskState] = Field(default_factory=list)
    session_state: list[StateSlot] = Field(default_factory=list)
    tombstones: list[Tombstone] = Field(default_factory=list)
    usage: list[UsageRow] = Field(default_factory=list)
    events: list[Event] = Field(default_factory=list)
    # Added after version 2 shipped, so optional: a document without it has none.
    sealed_secrets: list[SealedRow] = Field(default_factory=list)

    @model_validator(mode="before")
    @classmethod
    def _every_kind(cls, data: Any) -> Any:
        # A version 2 document names every kind: one that lacks some was cut short.
        if isinstance(data, dict) and data.get("version") == 2:
            missing = [k for k in ("archived", *ADDED_IN_V2) if k not in data]
            if missing:
                raise ValueError(f"a version 2 export lists every kind; missing {missing}")
        return data


def export_user(store: Store, *, user_id: str) -> dict[str, Any]:
    """Every record of one user, and the event log they came from."""
    require_user(user_id)
    with store.db.snapshot():
        doc = ExportDocument(
            format=FORMAT,
            version=VERSION,
            user_id=user_id,
            facts=store.facts.list(user_id=user_id, include_inactive=True, include_archived=True),
            core_blocks=store.core.list(user_id=user_id),
            passages=store.passages.list(user_id=user_id, include_archived=True),
            quarantine=store.quarantine.list(user_id=user_id, status=None),
            archived=store.archive.list(user_id=user_id),
            episodes=store.episodes.list(user_id=user_id, include_archived=True),
            summaries=store.summaries.list(user_id=user_id),
            recipes=store.recipes.list(user_id=user_id, include_retired=True),
            tasks=store.tasks.list(user_id=user_id),
            session_state=store.session_state.slots(user_id=user_id),
            tombstones=list_tombstones(store.db, user_id=user_id),
            usage=store.usage.rows(user_id=user_id),
            events=[e for e in store.events.list(user_id=user_id) if not _transfer_event(e)],
            sealed_secrets=store.sealed.rows(user_id=user_id),
        )
    return doc.model_dump(mode="json")


def _transfer_event(event: Event) -> bool:
    """The events an import logs about itself (its counts, its firewall verdicts).

    They describe how records came into this store, not the user's history, and no record
    names them as its source; leaving them out is what makes an export of a store an import
    was restored into the same document as the one imported.
    """
    if event.kind == "import":
        return True
    return event.kind == "firewall_verdict" and "import" in (
        event.payload.get("source"),
        event.payload.get("origin"),
    )


def parse_export(data: Any) -> ExportDocument:
    try:
        return ExportDocument.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise UserError(
            f"not a memvisor export: {where + ': ' if where else ''}{first['msg']} "
            f"({exc.error_count()} problem(s)); pass a file written by "
            "`memvisor memory export --json`"
        ) from None


def check_importable(store: Store, doc: ExportDocument, *, user_id: str, replace: bool) -> None:
    """Refuse, with one line saying what to do, a document this store cannot take."""
    require_user(user_id)
    if doc.user_id != user_id:
        raise UserError(
            f"export belongs to user {doc.user_id!r}, not {user_id!r}: "
            f"import it with --user {doc.user_id}"
        )
    owners = {r.user_id for kind in (*import_merge.KINDS, SEALED) for r in getattr(doc, kind)}
    if owners - {user_id}:
        raise UserError(
            f"export of user {user_id!r} holds records of {sorted(owners - {user_id})}; "
            "it must hold one user only: export each user on their own"
        )
    for kind in (*import_merge.KINDS, SEALED):
        keys = Counter(import_merge.record_key(kind, r) for r in getattr(doc, kind))
        twice = sorted(k for k, n in keys.items() if n > 1)
        if twice:
            raise UserError(
                f"export lists {kind} {twice[0]} {keys[twice[0]]} times "
                f"({len(twice)} duplicate(s)); pass an unedited `memvisor memory export` file"
            )
    _check_collisions(store, doc, user_id)
    if replace:
        _check_empty(store, user_id)


def _check_collisions(store: Store, doc: ExportDocument, user_id: str) -> None:
    clashes: list[str] = []
    for table in _GLOBAL_IDS:
        ids = [r.id for r in getattr(doc, table)]
        if not ids:
            continue
        rows = store.db.query(
            f"SELECT id FROM {table} WHERE id IN (SELECT unnest(?)) AND user_id <> ? ORDER BY id",
            [ids, user_id],
        )
        if rows:
            clashes.append(f"{len(rows)} {table} (e.g. {rows[0][0]})")
    if clashes:
        raise UserError(
            f"export ids collide with another user's records in this store: "
            f"{', '.join(clashes)}; ids are unique across users, so this is a copy of another "
            "user's memory: import it under that user, or into a fresh --data-dir"
        )


def _check_empty(store: Store, user_id: str) -> None:
    """``--replace`` restores into a store that holds nothing of the user: a merge decides
    record by record, a restore would silently mix two histories."""
    counts = {
        table: int(
            store.db.query(f"SELECT count(*) FROM {table} WHERE user_id = ?", [user_id])[0][0]
        )
        for table in _ROW_TABLES
    }
    # The default core blocks, created on first read and never edited, are nobody's data.
    counts["core_blocks"] = sum(
        1
        for label, value, version in store.db.query(
            "SELECT label, value, version FROM core_blocks WHERE user_id = ?", [user_id]
        )
        if not (version == 1 and is_default_text(label, value))
    )
    events = counts.pop("events")
    records = sum(counts.values())
    if records or events:
        raise UserError(
            f"user {user_id!r} already has {records} record(s) and {events} event(s) in this "
            "store; --replace restores into an empty store only: pass a fresh --data-dir, or "
            "leave out --replace to merge"
        )


def import_user(
    store: Store,
    data: Any,
    *,
    user_id: str,
    trace_id: str,
    count_tokens: Callable[[str], int],
    replace: bool = False,
) -> MergeReport:
    """Validate the whole document first, then write it in one transaction (all or nothing).

    ``replace``: restore it exactly into a store without the user's records; otherwise merge
    it into what the store holds (``import_merge``).
    """
    doc = parse_export(data)
    mode: ImportMode = "replace" if replace else "merge"
    # Every process finds what it wrote: a shared store reconciles the user once it commits.
    with store.indexed_write(user_id, reconcile=True) as work, work.transaction() as conn:
        check_importable(store, doc, user_id=user_id, replace=replace)
        decisions = import_merge.plan(
            store, doc, user_id=user_id, replace=replace, count_tokens=count_tokens
        )
        report = MergeReport(user_id=user_id, mode=mode, format_version=doc.version)
        import_merge.apply(
            store, decisions, user_id=user_id, conn=conn, report=report, merge=not replace
        )
        _import_sealed(store, doc.sealed_secrets, user_id=user_id, conn=conn, report=report)
        store.events.append_in(
            conn,
            user_id=user_id,
            kind="import",
            trace_id=trace_id,
            payload={
                "mode": mode,
                "format_version": doc.version,
                "counts": report.counts(),
                "skipped": report.skipped_total,
                "superseded": [s.model_dump() for s in report.superseded],
            },
        )
    store.redactions_changed(user_id)  # imported messages may carry a forget's redaction
    return report


def _import_sealed(
    store: Store, rows: list[SealedRow], *, user_id: str, conn: Any, report: MergeReport
) -> None:
    """Sealed secrets by id, ciphertext as it was (it opens only under the key it was sealed
    with): a new id is created, an identical row unchanged, a row forgotten on either side
    stays forgotten (the document's forget is applied), any other difference keeps the
    store's copy. ``--replace`` writes into a store without the user's rows, so all are new.
    Nothing here is screened: the firewall cannot read a ciphertext."""
    report.kinds.setdefault(SEALED, KindCounts())
    have = {r.id: r for r in store.sealed.rows(user_id=user_id)}
    for row in rows:
        held = have.get(row.id)
        outcome: Outcome
        reason = ""
        if held is None:
            outcome = "created"
        elif held == row:
            outcome = "unchanged"
        elif row.forgotten_at is not None and held.forgotten_at is None:
            outcome = "updated"  # forgotten wins: the store's ciphertext is shredded
        else:
            outcome, reason = "skipped", import_merge.KEPT
        if outcome in ("created", "updated"):
            store.sealed.restore(row, user_id=user_id, conn=conn)
        report.note(SEALED, outcome, row.id, reason)


def pending_writes(
    store: Store,
    doc: ExportDocument,
    *,
    user_id: str,
    count_tokens: Callable[[str], int],
    replace: bool = False,
) -> set[tuple[str, str]]:
    """(kind, key) of the records an import of ``doc`` would write now (the firewall screens
    those; a record the store keeps or has forgotten is never written)."""
    decisions = import_merge.plan(
        store, doc, user_id=user_id, replace=replace, count_tokens=count_tokens
    )
    return {(d.kind, d.key) for d in decisions if d.writes}
