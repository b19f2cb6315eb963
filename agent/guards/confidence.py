"""How sure memory may be of a write: the model proposes, provenance and agreement decide.

Caps by provenance (user explicitly stated 1.0 > implied 0.8 > model inferred 0.6 > tool derived
0.4, configurable); agreeing with an active fact raises the cap, contradicting one lowers it.
A contradicted fact at or above ``conflict_confidence`` holds the new value in quarantine unless
the user's latest message corrects it; anything below ``confidence_floor`` is quarantined.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from memvisor.storage.facts import MULTI_VALUED_PREDICATES

from .config import FirewallConfig
from .provenance import is_correction


@dataclass
class ConfidenceDecision:
    confidence: float
    reasons: list[str] = field(default_factory=list)
    # "quarantine" when the write must wait for the user, else None.
    hold: str | None = None
    message: str = ""


def decide_confidence(
    *,
    proposed: float | None,
    provenance: str,
    config: FirewallConfig,
    existing: Sequence[Any] = (),
    new_value: str | None = None,
    predicate: str | None = None,
    context: Sequence[dict[str, Any]] = (),
    floor_applies: bool = True,
) -> ConfidenceDecision:
    """Cap ``proposed`` and decide whether the write must wait for the user."""
    decision = ConfidenceDecision(confidence=config.provenance_caps.get(provenance, 1.0))
    if new_value is not None and existing:
        _weigh_against(decision, existing, new_value, predicate, context, config)
    cap = decision.confidence
    confidence = cap if proposed is None else min(float(proposed), cap)
    if proposed is not None and confidence < proposed:
        decision.reasons.append(f"confidence:capped:{provenance}:{confidence:.2f}")
    decision.confidence = round(confidence, 3)
    if floor_applies and decision.hold is None and decision.confidence < config.confidence_floor:
        decision.hold = "quarantine"
        decision.reasons.append(f"confidence:below_floor:{decision.confidence:.2f}")
        decision.message = (
            f"Confidence {decision.confidence:.2f} is below the floor "
            f"{config.confidence_floor:.2f}; ask the user to confirm it."
        )
    return decision


def _weigh_against(
    decision: ConfidenceDecision,
    existing: Sequence[Any],
    new_value: str,
    predicate: str | None,
    context: Sequence[dict[str, Any]],
    config: FirewallConfig,
) -> None:
    """Agreement raises the cap; contradiction lowers it, or holds the write if the old fact is
    sure, unless the user's latest message is a correction."""
    same = [f for f in existing if f.object.strip().lower() == new_value.strip().lower()]
    if same:
        decision.confidence = min(1.0, decision.confidence + config.agreement_bonus)
        decision.reasons.append(f"confidence:agrees_with:{same[0].id}")
        return
    if predicate in MULTI_VALUED_PREDICATES:  # a second hobby contradicts nothing
        return
    old = max(existing, key=lambda f: f.confidence)
    why = is_correction(new_value, context, config.support_threshold)
    if why:
        decision.reasons.append(f"conflict:{why}:{old.id}")
        return
    decision.confidence = max(0.0, decision.confidence - config.contradiction_penalty)
    decision.reasons.append(f"confidence:contradicts:{old.id}")
    if old.confidence >= config.conflict_confidence:
        decision.hold = "quarantine"
        decision.reasons.append(f"conflict:high_confidence_fact:{old.id}")
        decision.message = (
            f"This contradicts {old.id} ('{old.object}', confidence {old.confidence:.2f}). "
            "Ask the user whether it changed; if they say so, save it again."
        )
