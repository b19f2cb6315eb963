"""The firewall step of the write pipeline: ask the guard (failing closed), hold what it
holds, and log every verdict."""

from __future__ import annotations

from typing import Any

from memvisor.agent.guards.proposal import FirewallVerdict, WriteGuard, WriteProposal
from memvisor.storage import Store
from memvisor.storage.logger import logger


def judge(guard: WriteGuard | None, proposal: WriteProposal) -> FirewallVerdict:
    if guard is None:
        return FirewallVerdict(
            verdict="reject",
            reasons=["firewall:missing"],
            message="Memory writes are disabled: no write firewall is configured.",
        )
    try:
        return guard(proposal)
    except Exception as exc:  # a broken guard must not let the write through
        logger.bind(trace_id=proposal.trace_id, user_id=proposal.user_id).opt(
            exception=exc
        ).warning("write guard raised; refusing the write")
        return FirewallVerdict(
            verdict="reject",
            reasons=["firewall:error"],
            message="The memory firewall failed on this write; it was not saved.",
        )


def hold(
    store: Store,
    proposal: WriteProposal,
    arguments: dict[str, Any],
    verdict: FirewallVerdict,
    sources: list[str],
) -> str:
    # What is held is what the firewall would store: secrets already masked.
    item = store.quarantine.hold(
        user_id=proposal.user_id,
        tool=proposal.tool,
        arguments=arguments,
        reasons=verdict.reasons or ["firewall:held"],
        trace_id=str(proposal.trace_id),
        confidence=verdict.confidence,
        source_event_ids=sources,
    )
    return str(item.id)


def log_verdict(
    store: Store,
    proposal: WriteProposal,
    verdict: FirewallVerdict,
    held: str | None,
    sources: list[str],
) -> None:
    store.events.append(**verdict_event(proposal, verdict, held, sources))


def verdict_event(
    proposal: WriteProposal, verdict: FirewallVerdict, held: str | None, sources: list[str]
) -> dict[str, Any]:
    """The ``firewall_verdict`` event of a write, as ``EventLog.append`` takes it."""
    # Reasons and metadata only: the arguments may hold the very secret that was masked.
    return dict(
        user_id=proposal.user_id,
        kind="firewall_verdict",
        trace_id=proposal.trace_id,
        session_id=proposal.session_id,
        payload={
            "tool": proposal.tool,
            "source": proposal.source,
            "verdict": verdict.verdict,
            "reasons": verdict.reasons,
            "provenance": verdict.provenance,
            "confidence": verdict.confidence,
            "quarantine_id": held,
            "source_event_ids": sources,
        },
    )
