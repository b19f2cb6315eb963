"""Export every record of one user to a document, and import it back exactly."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from .errors import UserError
from .records import CoreBlock, Fact, Passage, QuarantineItem
from .store import Store
from .users import require_user

FORMAT: Literal["engram.export"] = "engram.export"
VERSION: Literal[1] = 1


class ExportDocument(BaseModel):
    model_config = ConfigDict(extra="forbid")

    format: Literal["engram.export"]
    version: Literal[1]
    user_id: str
    facts: list[Fact]
    core_blocks: list[CoreBlock]
    passages: list[Passage]
    quarantine: list[QuarantineItem]


def export_user(store: Store, *, user_id: str) -> dict[str, Any]:
    """Facts with every version, core blocks, passages and quarantine of one user."""
    require_user(user_id)
    doc = ExportDocument(
        format=FORMAT,
        version=VERSION,
        user_id=user_id,
        facts=store.facts.list(user_id=user_id, include_inactive=True),
        core_blocks=store.core.list(user_id=user_id),
        passages=store.passages.list(user_id=user_id),
        quarantine=store.quarantine.list(user_id=user_id, status=None),
    )
    return doc.model_dump(mode="json")


def parse_export(data: Any) -> ExportDocument:
    try:
        return ExportDocument.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise UserError(
            f"not an engram export: {where}: {first['msg']} "
            f"({exc.error_count()} problem(s)); pass a file written by "
            "`engram memory export --json`"
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
        for group in (doc.facts, doc.core_blocks, doc.passages, doc.quarantine)
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
        counts = {
            "facts": len(doc.facts),
            "core_blocks": len(doc.core_blocks),
            "passages": len(doc.passages),
            "quarantine": len(doc.quarantine),
        }
        store.events.append_in(
            conn, user_id=user_id, kind="import", trace_id=trace_id, payload={"counts": counts}
        )
    return counts
