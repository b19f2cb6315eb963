"""Screen an export through the firewall before ``storage.export.import_user`` writes it.

An export is the user's own data, so provenance and the confidence floor do not apply, but
injection, secrets, contact details and cross-user checks do. Every record an import would
write gets a verdict: facts, passages, episode and rolling summaries (as passages), core block
lines, recipes, tasks and session state slots. Allowed records are imported as they are,
redacted ones with secrets masked, held and refused ones go to the quarantine (nothing is
dropped silently) except a record that is nothing but a secret, which is dropped and counted.
Quarantine items of the export keep their status, with secrets masked. Dialogue turns are the
user's own history: imported with secrets masked, never quarantined.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Container
from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field

from memvisor.paging.tokens import counter_for_model
from memvisor.storage.export import (
    ExportDocument,
    check_importable,
    import_user,
    parse_export,
    pending_writes,
)
from memvisor.storage.import_report import MergeReport
from memvisor.storage.records import CoreBlock, Event, QuarantineItem

from .firewall import Firewall
from .proposal import FirewallVerdict, WriteProposal
from .secrets import redact_in

_DROP = ("secret:nothing_left", "secret:predicate")
_TURNS = ("user_message", "assistant_message")


class ImportReport(MergeReport):
    """Per kind what the import wrote or skipped (``MergeReport``), and the firewall's part."""

    # screened, allowed, redacted, quarantined, dropped
    firewall: dict[str, int] = Field(default_factory=dict)
    held: list[str] = Field(default_factory=list)  # quarantine ids of the records held back


def import_through_firewall(
    store: Any,
    data: Any,
    *,
    user_id: str,
    trace_id: str,
    firewall: Firewall | None = None,
    replace: bool = False,
    count_tokens: Callable[[str], int] | None = None,
) -> ImportReport:
    """Screen an export, import what passes and log every verdict, in one transaction.

    ``replace`` restores the export exactly into a store without the user's records;
    otherwise it is merged into what the store holds.
    """
    doc = parse_export(data)
    count_tokens = count_tokens or counter_for_model(None).count
    check_importable(store, doc, user_id=user_id, replace=replace)
    # Only what the import would write is screened: a record the store keeps or has
    # forgotten is not written, so it needs no verdict (and is not held again).
    pending = pending_writes(
        store, doc, user_id=user_id, replace=replace, count_tokens=count_tokens
    )
    screen = screen_import(
        doc,
        user_id=user_id,
        firewall=firewall or Firewall(store=store),
        now=store.clock.now(),
        trace_id=trace_id,
        pending=pending,
        quarantined={q.id for q in store.quarantine.list(user_id=user_id, status=None)},
    )
    with store.db.transaction():
        report = import_user(
            store,
            screen.document,
            user_id=user_id,
            trace_id=trace_id,
            replace=replace,
            count_tokens=count_tokens,
        )
        for tool, record_id, verdict in screen.verdicts:
            store.events.append(
                user_id=user_id,
                kind="firewall_verdict",
                trace_id=trace_id,
                payload={
                    "tool": tool,
                    "record": record_id,
                    "source": "import",
                    "verdict": verdict.verdict,
                    "reasons": verdict.reasons,
                },
            )
    return ImportReport(**report.model_dump(), firewall=screen.counts, held=screen.held)


class ImportScreen(BaseModel):
    document: dict[str, Any]
    counts: dict[str, int] = Field(default_factory=dict)
    # (tool, record id, verdict) for the event log.
    verdicts: list[tuple[str, str, FirewallVerdict]] = Field(default_factory=list)
    held: list[str] = Field(default_factory=list)


def screen_import(
    data: Any,
    *,
    user_id: str,
    firewall: Firewall,
    now: datetime,
    trace_id: str,
    pending: Container[tuple[str, str]] | None = None,
    quarantined: Container[str] = (),
) -> ImportScreen:
    """Return the document to import; raises ``UserError`` for a malformed export.

    ``pending``: the (kind, key) of the records the import would write (``pending_writes``);
    the others pass unscreened, as they will not be written. None screens every record.
    ``quarantined``: ids the store's quarantine holds (a record held again is held once).
    """
    doc = data if isinstance(data, ExportDocument) else parse_export(data)
    if doc.user_id != user_id:  # import_user refuses it with the clear message
        return ImportScreen(document=doc.model_dump(mode="json"))
    known = {q.id for q in doc.quarantine}
    judge = _Judge(
        firewall,
        user_id=user_id,
        now=now,
        trace_id=trace_id,
        quarantined=lambda i: i in known or i in quarantined,
    )

    def screened(kind: str, key: str) -> bool:
        return pending is None or (kind, key) in pending

    facts = []
    for fact in doc.facts:
        if not screened("facts", fact.id):
            facts.append(fact)
            continue
        args = {
            "subject": fact.subject,
            "predicate": fact.predicate,
            "object": fact.object,
            "confidence": fact.confidence,
            "importance": fact.importance,
        }
        kept = judge("fact_remember", fact.id, args, fact.source_event_ids)
        if kept is not None:
            update = {"subject": kept["subject"], "object": kept["object"]}
            facts.append(fact.model_copy(update=update))
    passages = _texts(judge, doc.passages, "text", screened, kind="passages", key="id")
    episodes = _texts(judge, doc.episodes, "summary", screened, kind="episodes", key="id")
    summaries = _texts(judge, doc.summaries, "text", screened, kind="summaries", key="session_id")
    blocks = [
        block.model_copy(update={"value": judge.block(block)})
        if screened("core_blocks", block.label)
        else block
        for block in doc.core_blocks
    ]
    recipes = []
    for recipe in doc.recipes:
        if not screened("recipes", recipe.id):
            recipes.append(recipe)
            continue
        args = {"name": recipe.name, "trigger": recipe.trigger, "steps": list(recipe.steps)}
        kept = judge("recipe_save", recipe.id, args, recipe.source_event_ids)
        if kept is not None:
            # Old steps and notes are not offered as steps; they are only masked.
            history = [v.model_copy(update={"steps": redact_in(v.steps)}) for v in recipe.history]
            update = {
                "name": kept["name"],
                "trigger": kept["trigger"],
                "steps": list(kept["steps"]),
                "history": history,
                "notes": redact_in(recipe.notes),
            }
            recipes.append(recipe.model_copy(update=update))
    tasks = []
    for task in doc.tasks:
        if not screened("tasks", task.task_id):
            tasks.append(task)
            continue
        args = {
            "task_id": task.task_id,
            "title": task.title,
            "total": task.total,
            "completed": task.completed,
            "last_success": task.last_success,
            "error": task.errors[-1] if task.errors else None,
            "status": task.status,
        }
        kept = judge("task_update", task.task_id, args, [])
        if kept is not None:
            errors = redact_in(task.errors[:-1]) + ([kept["error"]] if task.errors else [])
            update = {"title": kept["title"], "last_success": kept["last_success"]}
            tasks.append(task.model_copy(update={**update, "errors": errors}))
    slots = []
    for slot in doc.session_state:
        key = f"{slot.session_id}/{slot.key}"
        if not screened("session_state", key):
            slots.append(slot)
            continue
        kept = judge("state_set", key, {"key": slot.key, "value": slot.value}, [])
        if kept is not None:
            slots.append(slot.model_copy(update={"value": kept["value"]}))
    quarantine = [
        q.model_copy(update={"arguments": redact_in(q.arguments)}) for q in doc.quarantine
    ]
    screened_doc = doc.model_copy(
        update={
            "facts": facts,
            "passages": passages,
            "episodes": episodes,
            "summaries": summaries,
            "core_blocks": blocks,
            "recipes": recipes,
            "tasks": tasks,
            "session_state": slots,
            "quarantine": [*quarantine, *judge.held],
            "events": [_masked_turn(e) for e in doc.events],
        }
    )
    return ImportScreen(
        document=screened_doc.model_dump(mode="json"),
        counts=judge.counts,
        verdicts=judge.verdicts,
        held=judge.held_ids,
    )


def _texts(
    judge: _Judge,
    records: list[Any],
    field: str,
    screened: Callable[[str, str], bool],
    *,
    kind: str,
    key: str,
) -> list[Any]:
    """Records whose one stored text is screened as a passage (``archival_memory_insert``)."""
    kept_records = []
    for record in records:
        record_key = getattr(record, key)
        if not screened(kind, record_key):
            kept_records.append(record)
            continue
        args = {"content": getattr(record, field)}
        sources = getattr(record, "source_event_ids", [])
        kept = judge("archival_memory_insert", record_key, args, sources)
        if kept is not None:
            kept_records.append(record.model_copy(update={field: kept["content"]}))
    return kept_records


class _Judge:
    """One verdict per record: the arguments to keep, or None (held or dropped)."""

    def __init__(
        self,
        firewall: Firewall,
        *,
        user_id: str,
        now: datetime,
        trace_id: str,
        quarantined: Callable[[str], bool],
    ) -> None:
        self.firewall = firewall
        self.user_id = user_id
        self.now = now
        self.trace_id = trace_id
        self.quarantined = quarantined
        self.counts = dict.fromkeys(
            ("screened", "allowed", "redacted", "quarantined", "dropped"), 0
        )
        self.verdicts: list[tuple[str, str, FirewallVerdict]] = []
        self.held: list[QuarantineItem] = []  # new quarantine items
        self.held_ids: list[str] = []  # every record held back, new or held before

    def __call__(
        self, tool: str, record_id: str, arguments: dict[str, Any], sources: list[str]
    ) -> dict[str, Any] | None:
        self.counts["screened"] += 1
        verdict = self.firewall(
            WriteProposal(user_id=self.user_id, tool=tool, arguments=arguments, source="import")
        )
        self.verdicts.append((tool, record_id, verdict))
        stored = verdict.stored if verdict.stored is not None else arguments
        if verdict.verdict in ("allow", "redact"):
            self.counts["allowed" if verdict.verdict == "allow" else "redacted"] += 1
            return stored
        if any(r.startswith(_DROP) for r in verdict.reasons):
            self.counts["dropped"] += 1
            return None
        self.counts["quarantined"] += 1
        held = redact_in(stored)
        item_id = _held_id(self.user_id, tool, record_id, held)
        if item_id in self.held_ids:
            return None
        self.held_ids.append(item_id)
        if self.quarantined(item_id):
            return None
        self.held.append(
            QuarantineItem(
                id=item_id,
                user_id=self.user_id,
                tool=tool,
                arguments=held,
                reasons=[*verdict.reasons, "import:held"],
                confidence=verdict.confidence,
                status="held",
                created_at=self.now,
                source_event_ids=sources,
                trace_id=self.trace_id,
            )
        )
        return None

    def block(self, block: CoreBlock) -> str:
        """A core block screened line by line; unchanged blocks come back byte for byte."""
        lines = []
        for n, line in enumerate(block.value.split("\n")):
            args = {"label": block.label, "content": line}
            kept = (
                self("core_memory_append", f"{block.label}:{n + 1}", args, [])
                if line.strip()
                else args
            )
            if kept is not None:
                lines.append(kept["content"])
        value = "\n".join(lines)
        return value if value == block.value else value.strip("\n")


def _held_id(user_id: str, tool: str, record_id: str, arguments: dict[str, Any]) -> str:
    """The same record held again (the same export imported twice) gets the same id, so it
    is held once; a record changed since is held anew."""
    key = json.dumps([user_id, tool, record_id, arguments], sort_keys=True, default=str)
    return "qtn_" + hashlib.sha256(key.encode()).hexdigest()[:26]


def _masked_turn(event: Event) -> Event:
    if event.kind not in _TURNS:
        return event
    return event.model_copy(update={"payload": redact_in(event.payload)})
