"""Resolve a quarantined write: the user confirms it (replayed through the memory API with
origin ``user_confirmed``, confidence raised) or rejects it. The release and the write commit
together or not at all."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import BaseModel

from memvisor.errors import UserError

if TYPE_CHECKING:
    from .api import Memory

# The user confirmed it in person: as sure as a fact they stated themselves, short of certain.
CONFIRMED_CONFIDENCE = 0.95


class ReleaseResult(BaseModel):
    id: str
    status: str  # released | rejected
    tool: str
    record_id: str | None = None
    detail: str = ""


def needs_force(reasons: list[str]) -> bool:
    """A write held as a likely injection is released only with ``--force`` (the user's
    explicit word that they wrote it)."""
    return any(r.startswith("injection:") for r in reasons)


def release_quarantined(
    memory: Memory,
    item_id: str,
    *,
    user_id: str,
    trace_id: str,
    reject: bool = False,
    force: bool = False,
    source_event_ids: list[str] | None = None,
) -> ReleaseResult:
    """Confirm (perform) or reject one held write of ``user_id``."""
    store = memory.store
    item = store.quarantine.get(item_id, user_id=user_id)
    if item.status != "held":
        raise UserError(f"quarantined write {item_id} is already {item.status}")
    injected = [r for r in item.reasons if r.startswith("injection:")]
    if not reject and needs_force(item.reasons) and not force:
        raise UserError(
            f"{item_id} was held as a likely injection ({', '.join(injected)}); if you wrote it "
            "yourself and want it stored anyway, pass --force (or --reject to discard it)"
        )
    sources = [*item.source_event_ids, *(source_event_ids or [])]
    status = "rejected" if reject else "released"
    record_id, detail = None, "discarded"
    with store.db.transaction() as conn:
        store.quarantine.resolve(item_id, user_id=user_id, status=status, conn=conn)
        if not reject:
            arguments = dict(item.arguments)
            if item.tool == "fact_remember":
                arguments["confidence"] = max(
                    CONFIRMED_CONFIDENCE, float(arguments.get("confidence") or 0.0)
                )
            outcome = memory.write(
                item.tool,
                arguments,
                user_id=user_id,
                origin="user_confirmed",
                trace_id=trace_id,
                source_event_ids=sources,
                note={"quarantine_id": item_id},
            )
            if outcome.action == "suppressed":
                raise UserError(f"{item_id} was forgotten by the user before; it is not stored")
            record_id, detail = outcome.record_id, outcome.detail
        store.events.append_in(
            conn,
            user_id=user_id,
            kind="quarantine_resolved",
            trace_id=trace_id,
            payload={
                "id": item_id,
                "status": status,
                "tool": item.tool,
                "record_id": record_id,
                "reasons": item.reasons,
                "source_event_ids": sources,
            },
        )
    return ReleaseResult(
        id=item_id, status=status, tool=item.tool, record_id=record_id, detail=detail
    )
