"""`memvisor bench serve` runs a bounded load on 127.0.0.1 and checks every acknowledged write."""

from __future__ import annotations

from pathlib import Path

import psycopg
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
        assert run["server_cpu_ms_per_request"] > 0  # read from /proc: the tests run on Linux
        assert 0 < run["client_cpu_ms_per_request"] < run["server_cpu_ms_per_request"]
    assert list(tmp_path.iterdir()) == []  # the scratch store is removed


def test_the_cli_prints_a_table_and_refuses_bad_counts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    common = ["--seconds", "0.5", "--users", "2", "--embedder", "hash", "--data-dir", str(tmp_path)]
    shown = run_cli(capsys, "bench", "serve", "--clients", "2", *common)
    assert shown.code == 0, shown.err
    assert "req/s" in shown.out and "lost" in shown.out and "CPU ms/req" in shown.out
    assert "client CPU" in shown.out
    bad = run_cli(capsys, "bench", "serve", "--clients", "0", *common)
    assert bad.code != 0 and "--clients" in bad.err


@pytest.mark.slow  # three server processes start, about 25 s on two cores
def test_server_processes_on_postgresql_beside_the_embedded_one(
    postgres_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = postgres_url.replace("postgresql://postgres@", "postgresql://postgres:s3cret@")
    result = run_serve_bench(
        data_dir=tmp_path, clients=[2], seconds=1.0, users=3, embedder="hash",
        store=url, workers=[2],
    )  # fmt: skip
    assert [(r["store"], r["servers"]) for r in result["runs"]] == [
        ("embedded", 1),
        ("postgresql", 2),
    ]
    for run in result["runs"]:
        assert run["requests"] > 0 and run["errors"] == 0, run["error_samples"]
        assert run["writes_acknowledged"] > 0 and run["lost_writes"] == 0
    assert "s3cret" not in str(result) and result["store"].startswith("postgresql://postgres:***@")
    assert list(tmp_path.iterdir()) == []
    with psycopg.connect(postgres_url) as raw:  # the scratch schema is gone, nothing was left
        schemas = raw.execute(
            "SELECT count(*) FROM pg_namespace WHERE nspname LIKE 'memvisor_bench_%'"
        ).fetchall()
        assert schemas == [(0,)]
        assert raw.execute("SELECT count(*) FROM api_keys").fetchall() == [(0,)]
    common = ["--seconds", "0.5", "--users", "2", "--embedder", "hash", "--data-dir", str(tmp_path)]
    bad = run_cli(capsys, "bench", "serve", "--workers", "2", *common)
    assert bad.code == 1 and "--workers needs --store" in bad.err
    bad = run_cli(capsys, "bench", "serve", "--store", "mysql://u:pw@h/db", *common)
    assert bad.code == 1 and bad.err.startswith("error: --store: unknown store")
    assert ":pw@" not in bad.err
    bad = run_cli(capsys, "bench", "serve", "--store", url, "--workers", "0", *common)
    assert bad.code == 1 and "--workers takes" in bad.err
