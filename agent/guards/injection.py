"""Text aimed at steering the agent rather than describing the user or the world.

Two detectors. ``signals`` finds unambiguous steering (the catalogue in ``signals.py``) in every
reading of the text (``normalize.views``: canonical, de-obfuscated, decoded payloads).
``standing_rules`` (``rules.py``) finds clauses that set a rule for the agent; a hostile rule
(other people, promotion, a link) is an attack, any other rule is legitimate only when the user
said it, which the firewall checks with provenance. So "from now on answer me in bullet points"
passes when the user wrote it, and is refused when it only appears in a web page. A rule that
only becomes readable once decoded is reported as ``encoded_rule``/``encoded_instruction``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .normalize import compact, views
from .rules import StandingRule, standing_rules
from .signals import COMPACT, SIGNALS

__all__ = ["InjectionReport", "StandingRule", "inspect_text", "signals", "standing_rules"]


@dataclass
class InjectionReport:
    # signal name -> the channel it was first seen in ("plain", "base64", "obfuscated"...)
    signals: dict[str, str] = field(default_factory=dict)
    rules: list[StandingRule] = field(default_factory=list)

    def reasons(self) -> list[str]:
        out = [f"injection:{name}" for name in self.signals]
        out += [f"obfuscation:{ch}" for ch in dict.fromkeys(self.signals.values()) if ch != "plain"]
        if any(r.third_party or r.promotion for r in self.rules):
            out.append("injection:standing_promotion")
        if any(r.link for r in self.rules):
            out.append("injection:link_in_rule")
        if any(r.sensitive for r in self.rules):
            out.append("injection:sensitive_rule")
        return list(dict.fromkeys(out))


def signals(text: str, extra: dict[str, re.Pattern[str]] | None = None) -> dict[str, str]:
    """Steering signals in any reading of ``text``: name -> first channel seen."""
    found: dict[str, str] = {}
    table = {**SIGNALS, **{k: [v] for k, v in (extra or {}).items()}}
    baseline: tuple[int, int] | None = None
    for channel, view in views(text):
        for name, patterns in table.items():
            if name not in found and any(p.search(view) for p in patterns):
                found[name] = "plain" if channel == "canonical" else channel
        rules = standing_rules(view)
        counts = (len(rules), sum(r.hostile for r in rules))
        if channel in ("plain", "canonical"):
            baseline = max(baseline or counts, counts)
            continue
        # A rule that only appears once decoded was hidden on purpose.
        seen = baseline or (0, 0)
        if counts[1] > seen[1]:
            found.setdefault("encoded_rule", channel)
        elif counts[0] > seen[0]:
            found.setdefault("encoded_instruction", channel)
    squeezed = compact(text)
    for name, pattern in COMPACT.items():
        if name not in found and pattern.search(squeezed):
            found[name] = "obfuscated"
    return found


def inspect_text(text: str, extra: dict[str, re.Pattern[str]] | None = None) -> InjectionReport:
    """Signals in every reading plus the standing rules of the visible text."""
    return InjectionReport(signals=signals(text, extra), rules=standing_rules(text))
