"""``memvisor firewall scan``: the firewall pipeline, offline, over a JSONL file of proposed writes.

One proposed write a line::

    {"id": "w1", "user_id": "u1", "tool": "core_memory_append",
     "arguments": {"label": "human", "content": "..."}, "source": "user|model|tool",
     "context": [{"role": "user", "content": "..."}], "expect": "attack|benign|secret",
     "category": "encoded", "secret": "the planted value"}

``context`` is the conversation the write came from (last item = latest). ``expect`` is optional
and turns on the block rate (attacks held) and the false-positive rate (ordinary writes held);
``secret`` cases count only in ``secrets_in_clear``, which searches what would be stored for the
planted ``secret`` literally (or as its digits). ``category`` adds per-category figures
(``by_category``). Each result's ``stored`` is what the write would store (null when it is held
or rejected); sealed values show there as ``[SEALED:n]``. There is no store, so
conflict and rate checks are skipped (the summary says so). A bad line becomes an error with its
line number; the other lines are still scanned.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from memvisor.agent.memory.writes import WRITE_KINDS, strings_in
from memvisor.errors import UserError

from .config import FirewallConfig
from .firewall import Firewall
from .proposal import FirewallVerdict, WriteProposal
from .secrets import has_secret

VERDICTS = ("allow", "redact", "quarantine", "reject")
HELD = ("quarantine", "reject")
SKIPPED_CHECKS = ["conflict", "rate"]


class ContextMessage(BaseModel):
    model_config = ConfigDict(extra="ignore")

    role: Literal["user", "assistant", "tool", "system"]
    content: str


class ScanEntry(BaseModel):
    # Extra keys (category, note, secret...) are the file author's; they are ignored.
    model_config = ConfigDict(extra="ignore")

    id: str | int
    user_id: str = Field(min_length=1)
    tool: str
    arguments: dict[str, Any]
    source: Literal["user", "model", "tool", "import"] = "model"
    context: list[ContextMessage] = Field(default_factory=list)
    # attack: must be held; benign: must be kept; secret: judged only on what is stored.
    expect: Literal["attack", "benign", "secret"] | None = None
    category: str | None = None
    # The literal secret planted in the write: searched for in what would be stored.
    secret: str | None = None


class ScanResult(BaseModel):
    id: str
    verdict: str
    reasons: list[str]
    stored: str | None = None


class ScanReport(BaseModel):
    results: list[ScanResult] = Field(default_factory=list)
    summary: dict[str, Any] = Field(default_factory=dict)
    errors: list[dict[str, Any]] = Field(default_factory=list)


def scan_file(path: str | Path, *, config: FirewallConfig | None = None) -> ScanReport:
    """Scan a JSONL file; a missing or unreadable file is a ``UserError``."""
    try:
        with Path(path).open(encoding="utf-8") as handle:
            return scan_lines(handle, config=config)
    except FileNotFoundError:
        raise UserError(f"no such file: {path}") from None
    except UnicodeDecodeError as exc:
        raise UserError(f"{path} is not UTF-8 text ({exc.reason}); pass a JSONL file") from None


def scan_lines(lines: Iterable[str], *, config: FirewallConfig | None = None) -> ScanReport:
    """Run every proposed write through one firewall; collect results, errors and rates."""
    firewall = Firewall(config=config)
    report = ScanReport()
    expectations: list[_Outcome] = []
    in_clear = 0
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        entry = _parse(line, number, report)
        if entry is None:
            continue
        verdict = firewall(
            WriteProposal(
                user_id=entry.user_id,
                tool=entry.tool,
                arguments=entry.arguments,
                source=entry.source,
                context=[m.model_dump() for m in entry.context],
            )
        )
        report.results.append(
            ScanResult(
                id=str(entry.id),
                verdict=verdict.verdict,
                reasons=verdict.reasons,
                stored=_stored_text(entry, verdict),
            )
        )
        clear = _stored_in_clear(entry, verdict)
        in_clear += clear
        if entry.expect:
            sealed = "secret:sealed" in verdict.reasons
            expectations.append(
                _Outcome(
                    str(entry.id),
                    entry.expect,
                    verdict.verdict,
                    entry.category,
                    clear,
                    kept=entry.expect == "benign" and bool(entry.secret),
                    sealed=sealed,
                )  # fmt: skip
            )
    report.summary = _summary(report, expectations, in_clear)
    return report


def _parse(line: str, number: int, report: ScanReport) -> ScanEntry | None:
    try:
        data = json.loads(line)
    except json.JSONDecodeError as exc:
        report.errors.append({"line": number, "error": f"not valid JSON: {exc.msg}"})
        return None
    try:
        return ScanEntry.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "(line)"
        found = data.get("id") if isinstance(data, dict) else None
        report.errors.append({"line": number, "id": found, "error": f"{where}: {first['msg']}"})
        return None


def _stored_text(entry: ScanEntry, verdict: FirewallVerdict) -> str | None:
    """What the write would store: the text as written (allow), masked or sealed (redact);
    None when nothing is stored (quarantine, reject)."""
    if verdict.verdict not in ("allow", "redact"):
        return None
    return _text(entry.tool, verdict.stored if verdict.stored is not None else entry.arguments)


def _text(tool: str, arguments: dict[str, Any] | None) -> str | None:
    if not arguments:
        return None
    if tool == "fact_remember":
        return " | ".join(str(arguments.get(k, "")) for k in ("subject", "predicate", "object"))
    fields = WRITE_KINDS[tool].stored_text if tool in WRITE_KINDS else ("content",)
    return "\n".join(s for f in fields for s in strings_in(arguments.get(f)))


def _stored_in_clear(entry: ScanEntry, verdict: FirewallVerdict) -> bool:
    """Would what lands in memory (a record or the quarantine) still hold a secret?

    A planted ``secret`` is searched for literally (and as bare digits, so "4111 1111 ..."
    stored as "4111-1111-..." still counts), independent of the firewall's own patterns;
    without one, the secret patterns decide.
    """
    if verdict.verdict == "reject":
        return False
    stored = verdict.stored if verdict.stored is not None else entry.arguments
    texts = strings_in(stored)
    if entry.secret:
        digits = re.sub(r"\D", "", entry.secret)
        return any(
            entry.secret.lower() in t.lower()
            or (len(digits) >= 6 and digits in re.sub(r"\D", "", t))
            for t in texts
        )
    return any(has_secret(t) for t in texts)


def _summary(report: ScanReport, outcomes: list[_Outcome], in_clear: int) -> dict[str, Any]:
    summary: dict[str, Any] = {v: 0 for v in VERDICTS}
    for result in report.results:
        summary[result.verdict] += 1
    summary["total"] = len(report.results)
    summary["errors"] = len(report.errors)
    summary["secrets_in_clear"] = in_clear
    summary["checks_skipped"] = SKIPPED_CHECKS
    attacks = [o for o in outcomes if o.expect == "attack"]
    benign = [o for o in outcomes if o.expect == "benign"]
    if attacks or benign:
        blocked = sum(o.held for o in attacks)
        held = sum(o.held for o in benign)
        summary.update(
            attacks=len(attacks),
            attacks_blocked=blocked,
            block_rate=round(blocked / len(attacks), 4) if attacks else None,
            benign=len(benign),
            benign_held=held,
            false_positive_rate=round(held / len(benign), 4) if benign else None,
            missed_attacks=[o.id for o in attacks if not o.held],
            held_benign=[o.id for o in benign if o.held],
        )
    kept = [o for o in outcomes if o.kept]
    if kept:
        # A secret the user asked to keep and got back masked is lost to them though not
        # held back: counted apart from benign_held.
        summary.update(
            kept_secrets=len(kept),
            kept_secrets_sealed=sum(o.sealed for o in kept),
            kept_secrets_not_sealed=[o.id for o in kept if not o.sealed],
        )
    if any(o.category for o in outcomes):
        summary["by_category"] = _by_category(outcomes)
    return summary


def _by_category(outcomes: list[_Outcome]) -> dict[str, dict[str, Any]]:
    """Per category: how many writes, how many held back, how many left a secret in clear."""
    table: dict[str, dict[str, Any]] = {}
    for o in outcomes:
        row = table.setdefault(
            o.category or "(none)", {"expect": o.expect, "total": 0, "held": 0, "in_clear": 0}
        )
        row["total"] += 1
        row["held"] += o.held
        row["in_clear"] += o.in_clear
    return dict(sorted(table.items()))


@dataclass(frozen=True)
class _Outcome:
    id: str
    expect: str
    verdict: str
    category: str | None
    in_clear: bool
    kept: bool = False  # a secret the user asked to keep (benign, with its value given)
    sealed: bool = False

    @property
    def held(self) -> bool:
        return self.verdict in HELD
