"""Chaos as one suite (issue 19): the faults of `memvisor bench chaos` at a small size.

One run of every fault (seeded, so a failure reruns with ``memvisor bench chaos --seed``);
each fault must have been injected, and each counter must be 0. A counter that is not 0
because of a bug being fixed elsewhere is marked xfail with that bug named.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from memvisor.evals.chaos import FAULTS, run_chaos
from memvisor.evals.chaos.common import FaultResult
from memvisor.evals.chaos.disk import tmpfs_available
from tests.cli_helpers import run_cli

pytestmark = pytest.mark.chaos

SEED = 19
TRIALS = 1
FUZZ = 300

PENDING_DROPPED = (
    "a failed index write drops the pending queue, so the records acknowledged meanwhile "
    "stay unsearchable in that process (storage/indexing.py IndexSync.sync pops before add: "
    "index retry, being fixed)"
)
TRACEBACK_ON_STORAGE_FAILURE = (
    "a storage failure (full disk, truncated DuckDB file) reaches the user as a 34-42 line "
    "traceback, not one line naming the file (storage failures as one line, being fixed)"
)
INDEX_NOT_HEALED = (
    "a damaged index (garbled manifest, missing fragment or _indices) crashes every search "
    "instead of being rebuilt from the records (index self-healing, being fixed)"
)
REINDEX_KILLED_IN_DROP = (
    "a reindex killed inside drop_table leaves a table whose missing _indices crash every "
    "search (index self-healing / rebuild into a new table, being fixed); only when the "
    "kill lands in that window, so not strict"
)
FORGET_KILLED_BEFORE_INDEX = (
    "a forget killed after its commit, before the index update, leaves the redacted "
    "episode's old text searchable (sync compares ids, not a content hash, being fixed); "
    "only when the kill lands in that window, so not strict"
)
KNOWN: dict[tuple[str, str], Any] = {
    ("index unwritable", "missing_searches"): pytest.mark.xfail(
        strict=True, reason=PENDING_DROPPED
    ),
    ("embedder fails", "missing_searches"): pytest.mark.xfail(strict=True, reason=PENDING_DROPPED),
    **{
        (fault, counter): pytest.mark.xfail(strict=True, reason=TRACEBACK_ON_STORAGE_FAILURE)
        for fault in ("full disk", "corrupt records")
        for counter in ("uncaught_exceptions", "tracebacks_shown")
    },
    **{
        ("corrupt index", counter): pytest.mark.xfail(strict=True, reason=INDEX_NOT_HEALED)
        for counter in ("missing_searches", "uncaught_exceptions", "tracebacks_shown")
    },
    **{
        ("kill reindex", counter): pytest.mark.xfail(strict=False, reason=REINDEX_KILLED_IN_DROP)
        for counter in ("missing_searches", "uncaught_exceptions", "tracebacks_shown")
    },
    ("kill forget", "broken_invariants"): pytest.mark.xfail(
        strict=False, reason=FORGET_KILLED_BEFORE_INDEX
    ),
}


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    root = tmp_path_factory.mktemp("chaos")
    return run_chaos(data_dir=root, trials=TRIALS, fuzz=FUZZ, seed=SEED, embedder="hash", jobs=2)


def _fault(report: dict[str, Any], name: str) -> dict[str, Any]:
    (found,) = [f for f in report["faults"] if f["fault"] == name]
    return found


def _needs_tmpfs(fault: str, tmp_path: Path) -> None:
    if fault == "full disk" and (why := tmpfs_available(tmp_path)):
        pytest.skip(why)


@pytest.mark.parametrize("fault", FAULTS)
def test_each_fault_was_injected(report: dict[str, Any], fault: str, tmp_path: Path) -> None:
    _needs_tmpfs(fault, tmp_path)
    found = _fault(report, fault)
    assert found["trials"] >= TRIALS and found["injected"] > 0, found
    # A destroyed record file has nothing left to check; every other fault checks the writes
    # it saw acknowledged (the fuzz checks another user's records instead).
    if fault not in ("corrupt records", "fuzzed tool calls"):
        assert found["acknowledged"] > 0, found


@pytest.mark.parametrize(
    ("fault", "counter"),
    [
        pytest.param(fault, counter, marks=KNOWN.get((fault, counter), ()))
        for fault in FAULTS
        for counter in FaultResult.COUNTERS
    ],
)
def test_no_fault_loses_or_shows_anything(
    report: dict[str, Any], fault: str, counter: str, tmp_path: Path
) -> None:
    _needs_tmpfs(fault, tmp_path)
    found = _fault(report, fault)
    assert found[counter] == 0, found["notes"]


def test_the_report_names_its_seed_and_reruns_the_same_calls(tmp_path: Path) -> None:
    first = run_chaos(data_dir=tmp_path, fuzz=40, seed=5, faults=("fuzzed tool calls",))
    again = run_chaos(data_dir=tmp_path, fuzz=40, seed=5, faults=("fuzzed tool calls",))
    assert first["seed"] == again["seed"] == 5
    strip = ("seconds",)
    assert [{k: v for k, v in f.items() if k not in strip} for f in first["faults"]] == [
        {k: v for k, v in f.items() if k not in strip} for f in again["faults"]
    ]
    assert first["faults"][0]["trials"] == 40


def test_bench_chaos_prints_each_fault_its_counters_and_seed(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    args = ["bench", "chaos", "--fault", "fuzzed tool calls", "--fuzz", "30", "--seed", "3"]
    shown = run_cli(capsys, *args, "--data-dir", str(tmp_path))
    assert shown.code == 0
    header, row = shown.out.splitlines()[1:3]
    assert header.split()[:4] == ["fault", "trials", "injected", "acked"]
    assert row.split()[:4] == ["fuzzed", "tool", "calls", "30"]
    assert shown.out.splitlines()[-1] == "seed 3: all zeros"
    as_json = run_cli(capsys, *args, "--json", "--data-dir", str(tmp_path)).json()
    assert as_json["seed"] == 3 and as_json["failures"] == 0
    assert [f["fault"] for f in as_json["faults"]] == ["fuzzed tool calls"]
    assert list(tmp_path.iterdir()) == []  # the scratch stores are removed
