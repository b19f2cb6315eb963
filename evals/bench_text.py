"""``memvisor bench text``: every regex-based text step on long adversarial inputs.

Each step (identifiers, secrets, contact details, injection signals, time expressions, the
extractive summary, topic cues, tool calls recovered from a model's text, the firewall as a
whole) runs on strings made to defeat backtracking (no spaces, repeated punctuation, digit
runs, mixed scripts) at two sizes. Time that grows much faster than the input (a ratio well
above the size ratio) marks a step that is not linear. The worst input is then timed once at
the step's documented maximum size: the per-call bound (README, "Bounded inputs").
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from memvisor.agent.guards import Firewall, WriteProposal
from memvisor.agent.guards.injection import inspect_text
from memvisor.agent.guards.secrets import mask_pii, redact_secrets
from memvisor.agent.toolcalls import turn_from_text
from memvisor.paging import topic_text
from memvisor.paging.summarize import DialogueTurn, ExtractiveSummarizer, identifiers
from memvisor.paging.text_limits import MAX_MESSAGE_CHARS
from memvisor.paging.timeparse import resolve_time

# Pieces repeated into inputs that broke the old patterns, and plain ones.
PIECES = (
    "a",
    "a-",
    "A.",
    "1",
    "1 ",
    "@a",
    "ab ",
    "ignore ",
    "我",
    "x://",
    "ー",
    "9天",
    ". ",
    '{"a":',
    "<tool_call>{",
    "a :",
    "no: ",
    "a、",
    "(a",
    "a'",
    "a,",
    "\n",
    "\n#",  # markup lines: ADDRESSED_TO_AGENT backtracked over all of them from each
    # id-like tokens, and a list of them: an id read as "[\w.]*[_\d][\w.]*" was cubic
    "a1",
    "x1, ",
)
# A label, then a piece repeated: the patterns that read what follows a label ("security
# question: ...", "door code ...", "Note from the bank: ...") read a run of spaces or blank
# lines after it once, not once from each of its places (7.2 s at 8,000 characters before).
HEADED = tuple(
    (head, body)
    for head in (
        "Security question: mother's maiden name",
        "my door code",
        "password",
        "Note from the bank:",
        "For the AI assistant:",
        "| name | value |",
        "系统：",
    )
    for body in (" ", "\n")
)
_NOW = datetime(2026, 5, 1, tzinfo=UTC)
_FIREWALL = Firewall()
_SUMMARIZER = ExtractiveSummarizer()
# Runs of the slowest input whose best time is reported. Set by hand.
REPEATS = 3


def _firewall(text: str) -> Any:
    return _FIREWALL(
        WriteProposal(user_id="bench", tool="archival_memory_insert", arguments={"content": text})
    )


def _summary(text: str) -> Any:
    return _SUMMARIZER.summarize([DialogueTurn(text, text, "evt_u", "evt_a", _NOW)])


def _topic_cues(text: str) -> Any:
    return (
        topic_text.find_cue(text),
        topic_text.refers_back(text, anywhere=True),
        topic_text.keyword_scores(text),
        topic_text.shared_identifiers(text, ["ORD-58213 maya@example.com"]),
    )


STEPS: dict[str, Callable[[str], Any]] = {
    "identifiers": identifiers,
    "redact_secrets": redact_secrets,
    "mask_pii": mask_pii,
    "injection_signals": lambda text: inspect_text(text, {}),
    "time_expressions": lambda text: resolve_time(text, _NOW),
    "summary": _summary,
    "topic_cues": _topic_cues,
    "tool_calls": lambda text: turn_from_text(text, {"fact_search"}),
    "firewall": _firewall,
}


# The firewall refuses a passage over 8,000 characters before reading it (and is the only
# caller of the injection signals): measure below that.
LONGEST = {"firewall": 8_000, "injection_signals": 8_000}


def run_text_bench(
    *, sizes: tuple[int, int] = (8_000, 32_000), limit: int = MAX_MESSAGE_CHARS
) -> dict[str, Any]:
    """The slowest input of each step at both sizes, how its time grew, and its time at the
    documented maximum (``limit``, or the step's own when smaller)."""
    steps = {}
    for name, step in STEPS.items():
        cap = LONGEST.get(name)
        lengths = [n * cap // sizes[1] for n in sizes] if cap and sizes[1] > cap else list(sizes)
        step("warm up: models load on first use")
        # One pass finds the slowest piece; its times are then the best of a few runs, so a
        # busy machine's pauses do not pass for growth.
        inputs = [("", piece) for piece in PIECES] + list(HEADED)
        head, piece = max(
            inputs, key=lambda hp: sum(_time(step, _repeat(hp[1], n, hp[0])) for n in lengths)
        )
        ms = [round(_time(step, _repeat(piece, n, head), runs=REPEATS), 2) for n in lengths]
        longest = min(limit, cap or limit)
        at_limit = _time(step, _repeat(piece, longest, head), runs=REPEATS)
        steps[name] = {
            "piece": piece,
            "head": head,
            "ms": ms,
            "lengths": lengths,
            "growth": round(ms[1] / max(ms[0], 0.01), 1),
            "at_limit": {"chars": longest, "ms": round(at_limit, 2)},
        }
    return {"sizes": list(sizes), "size_ratio": sizes[1] / sizes[0], "steps": steps}


def _repeat(piece: str, n: int, head: str = "") -> str:
    """``n`` characters: ``head``, then ``piece`` again and again."""
    return (head + piece * (n // len(piece) + 1))[:n]


def _time(step: Callable[[str], Any], text: str, *, runs: int = 1) -> float:
    best = float("inf")
    for _ in range(runs):
        fresh = _unseen(text)
        started = time.perf_counter()
        step(fresh)
        best = min(best, time.perf_counter() - started)
    return best * 1000


_CALLS = itertools.count()


def _unseen(text: str) -> str:
    """``text`` with its last four characters a code no call has used: the steps cache what
    they read (the firewall's word gates, the embedder), and a server meets new texts."""
    n, code = next(_CALLS), ""
    for _ in range(4):
        n, letter = divmod(n, 26)
        code += chr(ord("a") + letter)
    return text[:-4] + code if len(text) > 4 else text
