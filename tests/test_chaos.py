"""Chaos as one suite (issue 19): the faults of `memvisor bench chaos` at a small size.

One run of every fault (seeded, so a failure reruns with ``memvisor bench chaos --seed``);
each fault must have been injected, and each counter must be 0.
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
    [(fault, counter) for fault in FAULTS for counter in FaultResult.COUNTERS],
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
