"""`memvisor bench serve` runs a bounded load on 127.0.0.1 and checks every acknowledged write."""

from __future__ import annotations

from pathlib import Path

import pytest

from memvisor.evals.bench_serve import run_serve_bench
from tests.cli_helpers import run_cli


def test_a_short_run_reports_figures_and_loses_nothing(tmp_path: Path) -> None:
    result = run_serve_bench(
        data_dir=tmp_path, clients=[1, 3], seconds=1.0, users=4, embedder="hash"
    )
    assert [run["clients"] for run in result["runs"]] == [1, 3]
    for run in result["runs"]:
        assert run["requests"] > 0 and run["errors"] == 0, run["error_samples"]
        assert run["writes_acknowledged"] > 0 and run["lost_writes"] == 0
        assert set(run["latency_ms"]) == {"write", "search"}
        assert run["latency_ms"]["search"]["p99"] >= run["latency_ms"]["search"]["p50"]
    assert list(tmp_path.iterdir()) == []  # the scratch store is removed


def test_the_cli_prints_a_table_and_refuses_bad_counts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    common = ["--seconds", "0.5", "--users", "2", "--embedder", "hash", "--data-dir", str(tmp_path)]
    shown = run_cli(capsys, "bench", "serve", "--clients", "2", *common)
    assert shown.code == 0, shown.err
    assert "req/s" in shown.out and "lost" in shown.out
    bad = run_cli(capsys, "bench", "serve", "--clients", "0", *common)
    assert bad.code != 0 and "--clients" in bad.err
