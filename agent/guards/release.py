"""Resolve a quarantined write: the user confirms it (it is performed, with confidence raised)
or rejects it. Both are logged; the release and the write commit together or not at all."""

from __future__ import annotations

from typing import Any

from memvisor.paging.tokens import counter_for_model
from memvisor.storage.clock import parse_time
from memvisor.storage.records import QuarantineItem
from pydantic import BaseModel

from memvisor.errors import UserError

from .secrets import redact_secrets

# The user confirmed it in person: as sure as a fact they stated themselves, short of certain.
CONFIRMED_CONFIDENCE = 0.95


class ReleaseResult(BaseModel):
    id: str
    status: str  # released | rejected
    tool: str
    record_id: str | None = None
    detail: str = ""


def release_quarantined(
    store: Any,
    item_id: str,
    *,
    user_id: str,
    trace_id: str,
    reject: bool = False,
    force: bool = False,
    source_event_ids: list[str] | None = None,
) -> ReleaseResult:
    """Confirm (perform) or reject one held write of ``user_id``."""
    item = store.quarantine.get(item_id, user_id=user_id)
    if item.status != "held":
        raise UserError(f"quarantined write {item_id} is already {item.status}")
    injected = [r for r in item.reasons if r.startswith("injection:")]
    if not reject and injected and not force:
        raise UserError(
            f"{item_id} was held as a likely injection ({', '.join(injected)}); if you wrote it "
            "yourself and want it stored anyway, pass --force (or --reject to discard it)"
        )
    sources = [*item.source_event_ids, *(source_event_ids or [])]
    status = "rejected" if reject else "released"
    with store.db.transaction() as conn:
        store.quarantine.resolve(item_id, user_id=user_id, status=status, conn=conn)
        record_id, detail = (
            (None, "discarded") if reject else _perform(store, item, trace_id, sources)
        )
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


def _perform(
    store: Any, item: QuarantineItem, trace_id: str, sources: list[str]
) -> tuple[str, str]:
    # Held arguments were masked when held; mask again for items held by older versions.
    args = {k: redact_secrets(v)[0] if isinstance(v, str) else v for k, v in item.arguments.items()}
    user_id = item.user_id
    if item.tool == "fact_remember":
        write = store.remember_fact(
            user_id=user_id,
            subject=args["subject"],
            predicate=args["predicate"],
            object=args["object"],
            trace_id=trace_id,
            source_event_ids=sources,
            confidence=max(CONFIRMED_CONFIDENCE, float(args.get("confidence") or 0.0)),
            importance=float(args.get("importance") or 0.5),
            valid_until=parse_time(args["valid_until"]) if args.get("valid_until") else None,
            origin="user_confirmed",
        )
        if write.fact is None:
            raise UserError(f"{item.id} was forgotten by the user before; it is not stored")
        return write.fact.id, f"fact {write.action}"
    if item.tool == "archival_memory_insert":
        passage = store.insert_passage(
            user_id=user_id,
            text=args["content"],
            trace_id=trace_id,
            source_event_ids=sources,
            meta={"origin": "user_confirmed", "quarantine_id": item.id},
            origin="user_confirmed",
        )
        return passage.id, "passage saved"
    if item.tool in ("core_memory_append", "core_memory_replace"):
        return _write_block(store, item, args, trace_id, sources)
    raise UserError(f"{item.id} holds a '{item.tool}' write, which cannot be replayed")


def _write_block(
    store: Any, item: QuarantineItem, args: dict[str, Any], trace_id: str, sources: list[str]
) -> tuple[str, str]:
    label = args["label"]
    block = store.core.get(label, user_id=item.user_id)
    if item.tool == "core_memory_append":
        line = args["content"].strip()
        value = f"{block.value}\n{line}" if block.value.strip() else line
    else:
        if args["old_content"] not in block.value:
            raise UserError(
                f"the text {item.id} replaces is no longer in block '{label}'; edit the block "
                f"with `memvisor memory edit {label} --value TEXT`"
            )
        value = block.value.replace(args["old_content"], args["new_content"], 1).strip()
    size = counter_for_model(None).count(value)
    if size > block.token_limit:
        raise UserError(
            f"block '{label}' would be {size} tokens (limit {block.token_limit}); shorten it "
            f"with `memvisor memory edit {label} --value TEXT` first"
        )
    updated = store.core.update(
        label, value, user_id=item.user_id, expected_version=block.version, trace_id=trace_id
    )
    store.events.append(
        user_id=item.user_id,
        kind="memory_write",
        trace_id=trace_id,
        payload={
            "record": "core_block",
            "label": label,
            "version": updated.version,
            "origin": "user_confirmed",
            "source_event_ids": sources,
        },
    )
    return f"core:{label}@v{updated.version}", "core block updated"
