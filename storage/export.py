"""Export every record of one user to a document, and import it back exactly."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from memvisor.errors import UserError

from .archive import ArchivedRecord
from .records import CoreBlock, Fact, Passage, QuarantineItem
from .store import Store
from .users import require_user

FORMAT: Literal["memvisor.export"] = "memvisor.export"
VERSION: Literal[1] = 1


class ExportDocument(BaseModel):
    model_config = ConfigDict(extra="forbid")

    # Exports written before the rename say "engram.export"; both read the same.
    format: Literal["memvisor.export", "engram.export"]
    version: Literal[1]
    user_id: str
    facts: list[Fact]
    core_blocks: list[CoreBlock]
    passages: list[Passage]
    quarantine: list[QuarantineItem]
    # Which of the exported facts and passages are archived (older exports have none).
    archived: list[ArchivedRecord] = Field(default_factory=list)


def export_user(store: Store, *, user_id: str) -> dict[str, Any]:
    """Facts with every version, core blocks, passages, quarantine and archive of one user.

    Episodes are not exported, so neither are their archive rows.
    """
    require_user(user_id)
    facts = store.facts.list(user_id=user_id, include_inactive=True, include_archived=True)
    passages = store.passages.list(user_id=user_id, include_archived=True)
    exported = {r.id for r in facts} | {r.id for r in passages}
    doc = ExportDocument(
        format=FORMAT,
        version=VERSION,
        user_id=user_id,
        facts=facts,
        core_blocks=store.core.list(user_id=user_id),
        passages=passages,
        quarantine=store.quarantine.list(user_id=user_id, status=None),
        archived=[a for a in store.archive.list(user_id=user_id) if a.item_id in exported],
    )
    return doc.model_dump(mode="json")


def parse_export(data: Any) -> ExportDocument:
    try:
        return ExportDocument.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise UserError(
            f"not an memvisor export: {where}: {first['msg']} "
            f"({exc.error_count()} problem(s)); pass a file written by "
            "`memvisor memory export --json`"
        ) from None


def import_user(store: Store, data: Any, *, user_id: str, trace_id: str) -> dict[str, int]:
    """Validate the whole document first, then write it in one transaction."""
    require_user(user_id)
    doc = parse_export(data)
    if doc.user_id != user_id:
        raise UserError(
            f"export belongs to user {doc.user_id!r}, not {user_id!r}: "
            f"import it with --user {doc.user_id}"
        )
    owners = {
        r.user_id
        for group in (doc.facts, doc.core_blocks, doc.passages, doc.quarantine, doc.archived)
        for r in group
    }
    if owners - {user_id}:
        raise UserError(f"export mixes users {sorted(owners)}; it must hold one user only")
    # One transaction: nothing is half-written if any record fails.
    with store.db.transaction() as conn:
        for block in doc.core_blocks:
            store.core.restore(block, user_id=user_id)
        for fact in doc.facts:
            store.facts.restore(fact, user_id=user_id, conn=conn)
        for passage in doc.passages:
            store.passages.restore(passage, user_id=user_id, conn=conn)
        for item in doc.quarantine:
            store.quarantine.restore(item, user_id=user_id, conn=conn)
        # A record the firewall held back is not imported, so neither is its archive row.
        imported = {r.id for r in doc.facts} | {r.id for r in doc.passages}
        archived = [a for a in doc.archived if a.item_id in imported]
        for row in archived:
            store.archive.insert(row, user_id=user_id, conn=conn)
        counts = {
            "facts": len(doc.facts),
            "core_blocks": len(doc.core_blocks),
            "passages": len(doc.passages),
            "quarantine": len(doc.quarantine),
            "archived": len(archived),
        }
        store.events.append_in(
            conn, user_id=user_id, kind="import", trace_id=trace_id, payload={"counts": counts}
        )
    return counts
