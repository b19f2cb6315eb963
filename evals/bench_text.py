"""``memvisor bench text``: every regex-based text step on long adversarial inputs.

Each step (identifiers, secrets, contact details, injection signals, time expressions, the
firewall as a whole) runs on strings made to defeat backtracking (no spaces, repeated
punctuation, digit runs, mixed scripts) at two sizes. Time that grows much faster than the
input (a ratio well above the size ratio) marks a step that is not linear.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from memvisor.agent.guards import Firewall, WriteProposal
from memvisor.agent.guards.injection import inspect_text
from memvisor.agent.guards.secrets import mask_pii, redact_secrets
from memvisor.paging.summarize import identifiers
from memvisor.paging.timeparse import resolve_time

# Pieces repeated into inputs that broke the old patterns, and plain ones.
PIECES = ("a", "a-", "A.", "1", "1 ", "@a", "ab ", "ignore ", "我", "x://", "ー", "9天")
_NOW = datetime(2026, 5, 1, tzinfo=UTC)
_FIREWALL = Firewall()


def _firewall(text: str) -> Any:
    return _FIREWALL(
        WriteProposal(user_id="bench", tool="archival_memory_insert", arguments={"content": text})
    )


STEPS: dict[str, Callable[[str], Any]] = {
    "identifiers": identifiers,
    "redact_secrets": redact_secrets,
    "mask_pii": mask_pii,
    "injection_signals": lambda text: inspect_text(text, {}),
    "time_expressions": lambda text: resolve_time(text, _NOW),
    "firewall": _firewall,
}


# The firewall refuses a passage over 8,000 characters before reading it: measure below that.
LONGEST = {"firewall": 8_000}


def run_text_bench(*, sizes: tuple[int, int] = (8_000, 32_000)) -> dict[str, Any]:
    """The slowest input of each step at both sizes, and how its time grew."""
    steps = {}
    for name, step in STEPS.items():
        cap = LONGEST.get(name)
        lengths = [n * cap // sizes[1] for n in sizes] if cap and sizes[1] > cap else list(sizes)
        step("warm up: models load on first use")
        worst: dict[str, Any] = {"piece": "", "ms": [0.0, 0.0]}
        for piece in PIECES:
            timings = [_time(step, (piece * (n // len(piece) + 1))[:n]) for n in lengths]
            if sum(timings) > sum(worst["ms"]):
                worst = {"piece": piece, "ms": [round(t, 2) for t in timings]}
        growth = worst["ms"][1] / max(worst["ms"][0], 0.01)
        steps[name] = {**worst, "lengths": lengths, "growth": round(growth, 1)}
    return {"sizes": list(sizes), "size_ratio": sizes[1] / sizes[0], "steps": steps}


def _time(step: Callable[[str], Any], text: str) -> float:
    started = time.perf_counter()
    step(text)
    return (time.perf_counter() - started) * 1000
