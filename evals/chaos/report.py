"""The chaos report as a table: one row per fault, the counters that must be 0 last."""

from __future__ import annotations

from typing import Any

COLUMNS = (
    ("trials", "trials"),
    ("injected", "injected"),
    ("acknowledged", "acked"),
    ("lost_writes", "lost"),
    ("reopen_failures", "no reopen"),
    ("missing_searches", "not found"),
    ("uncaught_exceptions", "uncaught"),
    ("tracebacks_shown", "traceback"),
    ("broken_invariants", "broken"),
)
MUST_BE_ZERO = frozenset(
    ("lost_writes", "reopen_failures", "missing_searches", "uncaught_exceptions",
     "tracebacks_shown", "broken_invariants")
)  # fmt: skip


def chaos_lines(report: dict[str, Any]) -> list[str]:
    """A plain table (it fits 80 columns and a CI log), then the seed and the verdict."""
    lines = [
        f"memvisor bench chaos: seed {report['seed']}, {report['trials']} trials a fault, "
        f"{report['fuzz']:,} fuzzed calls, {report['embedder']} embedder, "
        f"{report['seconds']:.0f} s",
        f"{'fault':<18}" + "".join(f"{header:>10}" for _, header in COLUMNS),
    ]
    for fault in report["faults"]:
        cells = []
        for key, _ in COLUMNS:
            flag = "!" if key in MUST_BE_ZERO and fault[key] else ""
            cells.append(f"{str(fault[key]) + flag:>10}")
        lines.append(f"{fault['fault']:<18}" + "".join(cells))
    lines.append(
        "lost, no reopen, not found, uncaught, traceback and broken must be 0 (! marks a miss)"
    )
    return lines


def failure_notes(report: dict[str, Any], *, per_fault: int = 3) -> list[str]:
    """What went wrong, a few lines per failing fault."""
    lines = []
    for fault in report["faults"]:
        if any(fault[key] for key in MUST_BE_ZERO):
            lines += [f"{fault['fault']}: {note}" for note in fault["notes"][:per_fault]]
    return lines
