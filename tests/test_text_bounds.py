"""Every regex-based text step takes long and adversarial strings without failing.

How long each takes is measured by `memvisor bench text` (a benchmark, not a unit-test timer).
"""

from __future__ import annotations

from datetime import UTC, datetime

from hypothesis import given, settings
from hypothesis import strategies as st

from memvisor.evals.bench_text import STEPS, run_text_bench
from memvisor.paging.summarize import identifiers
from memvisor.paging.timeparse import resolve_time

_PIECES = st.sampled_from(
    ["a", "a-", "A.", "1", "1 ", "@", "://", "我", "ー", "天前", "\u202e", " "]
)
ADVERSARIAL = st.builds(
    lambda parts, times: "".join(parts) * times, st.lists(_PIECES, min_size=1, max_size=4),
    st.integers(1, 3000),
)  # fmt: skip


@settings(max_examples=40, deadline=None)
@given(ADVERSARIAL)
def test_every_step_takes_adversarial_text(text: str) -> None:
    for step in STEPS.values():
        step(text)


def test_identifiers_and_offsets_still_mean_what_they_did() -> None:
    found = identifiers("Order ORD-58213 for maya@example.com, call +47 912 34 567, ref AB1234.")
    assert found == ["ORD-58213", "maya@example.com", "+47 912 34 567", "AB1234"]
    now = datetime(2026, 5, 1, tzinfo=UTC)
    window = resolve_time("三天前", now)
    assert window is not None and window.start == datetime(2026, 4, 28, tzinfo=UTC)
    assert resolve_time("999999 days ago", now) is None  # past what a date can hold
    assert resolve_time("1" * 9000 + "天前", now) is None  # a digit run is no count


def test_the_bench_reports_each_step_at_both_sizes() -> None:
    result = run_text_bench(sizes=(200, 800))
    assert set(result["steps"]) == set(STEPS) and result["size_ratio"] == 4
    for step in result["steps"].values():
        assert len(step["ms"]) == 2 and step["piece"] and step["growth"] >= 0
