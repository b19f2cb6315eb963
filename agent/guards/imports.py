"""Screen an export through the firewall before ``storage.export.import_user`` writes it.

An export is the user's own data, so provenance and the confidence floor do not apply, but
injection, secrets, contact details and cross-user checks do. Each fact, passage and core block
line gets a verdict: allowed records are imported as they are, redacted ones with secrets masked,
held and refused ones go to the quarantine (nothing is dropped silently) except a record that is
nothing but a secret, which is dropped and counted. Quarantine items of the export keep their
status, with secrets masked.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from memvisor.storage.export import import_user, parse_export
from memvisor.storage.ids import new_id
from memvisor.storage.records import CoreBlock, QuarantineItem
from memvisor.tools.guard import FirewallVerdict, WriteProposal
from pydantic import BaseModel, Field

from .firewall import Firewall
from .secrets import redact_secrets

_DROP = ("secret:nothing_left", "secret:predicate")


class ImportReport(BaseModel):
    imported: dict[str, int]
    firewall: dict[str, int]
    held: list[str] = Field(default_factory=list)


def import_through_firewall(
    store: Any, data: Any, *, user_id: str, trace_id: str, firewall: Firewall | None = None
) -> ImportReport:
    """Screen an export, import what passes and log every verdict, in one transaction."""
    screen = screen_import(
        data,
        user_id=user_id,
        firewall=firewall or Firewall(store=store),
        now=store.clock.now(),
        trace_id=trace_id,
    )
    with store.db.transaction():
        counts = import_user(store, screen.document, user_id=user_id, trace_id=trace_id)
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
    return ImportReport(imported=counts, firewall=screen.counts, held=screen.held)


class ImportScreen(BaseModel):
    document: dict[str, Any]
    counts: dict[str, int] = Field(default_factory=dict)
    # (tool, record id, verdict) for the event log.
    verdicts: list[tuple[str, str, FirewallVerdict]] = Field(default_factory=list)
    held: list[str] = Field(default_factory=list)


def screen_import(
    data: Any, *, user_id: str, firewall: Firewall, now: datetime, trace_id: str
) -> ImportScreen:
    """Return the document to import; raises ``UserError`` for a malformed export."""
    doc = parse_export(data)
    if doc.user_id != user_id:  # import_user refuses it with the clear message
        return ImportScreen(document=doc.model_dump(mode="json"))
    judge = _Judge(firewall, user_id=user_id, now=now, trace_id=trace_id)
    facts = []
    for fact in doc.facts:
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
    passages = []
    for passage in doc.passages:
        args = {"content": passage.text}
        kept = judge("archival_memory_insert", passage.id, args, passage.source_event_ids)
        if kept is not None:
            passages.append(passage.model_copy(update={"text": kept["content"]}))
    blocks = [block.model_copy(update={"value": judge.block(block)}) for block in doc.core_blocks]
    quarantine = [q.model_copy(update={"arguments": _masked(q.arguments)}) for q in doc.quarantine]
    screened = doc.model_copy(
        update={
            "facts": facts,
            "passages": passages,
            "core_blocks": blocks,
            "quarantine": [*quarantine, *judge.held],
        }
    )
    return ImportScreen(
        document=screened.model_dump(mode="json"),
        counts=judge.counts,
        verdicts=judge.verdicts,
        held=[item.id for item in judge.held],
    )


class _Judge:
    """One verdict per record: the arguments to keep, or None (held or dropped)."""

    def __init__(self, firewall: Firewall, *, user_id: str, now: datetime, trace_id: str) -> None:
        self.firewall = firewall
        self.user_id = user_id
        self.now = now
        self.trace_id = trace_id
        self.counts = dict.fromkeys(
            ("screened", "allowed", "redacted", "quarantined", "dropped"), 0
        )
        self.verdicts: list[tuple[str, str, FirewallVerdict]] = []
        self.held: list[QuarantineItem] = []

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
        self.held.append(
            QuarantineItem(
                id=new_id("qtn"),
                user_id=self.user_id,
                tool=tool,
                arguments=_masked(stored),
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


def _masked(arguments: dict[str, Any]) -> dict[str, Any]:
    return {k: redact_secrets(v)[0] if isinstance(v, str) else v for k, v in arguments.items()}
