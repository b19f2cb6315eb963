import json
import math
from pathlib import Path

import pytest
from click.testing import CliRunner

from memvisor.agent.cli.bench import bench, parse_sizes
from memvisor.errors import UserError
from memvisor.evals.bench_storage import run_storage_bench
from memvisor.storage.postgres import PostgresDatabase
from tests.postgres_server import PostgresCluster

TINY = ["--sizes", "200", "--queries", "5", "--writes", "10", "--turns", "20", "--embedder", "hash"]


def _positive(value: object) -> bool:
    return isinstance(value, float | int) and math.isfinite(value) and value > 0


def _check_shape(doc: dict, sizes: list[int]) -> None:
    assert list(doc) == [
        "write_ms",
        "guarded_write_ms",
        "commit_ms",
        "write_p95_over_commit_p95",
        "ingest_turns_per_s",
        "ingest_floor_turns_per_s",
        "ingest_over_floor",
        "results",
        "embedder",
        "machine",
    ]
    for figures in ("write_ms", "guarded_write_ms", "commit_ms"):
        assert set(doc[figures]) == {"p50", "p95"}
        assert all(_positive(v) for v in doc[figures].values())
    assert doc["write_p95_over_commit_p95"] > 0
    assert doc["write_ms"]["p50"] <= doc["write_ms"]["p95"]
    assert _positive(doc["ingest_turns_per_s"])
    assert _positive(doc["ingest_floor_turns_per_s"])
    ratio = doc["ingest_turns_per_s"] / doc["ingest_floor_turns_per_s"]
    assert doc["ingest_over_floor"] == pytest.approx(ratio, abs=0.01)
    assert [r["passages"] for r in doc["results"]] == sizes
    for entry in doc["results"]:
        assert set(entry) == {"passages", "search_ms"}
        assert set(entry["search_ms"]) == {"vector", "fts", "hybrid"}
        for figures in entry["search_ms"].values():
            assert set(figures) == {"p50", "p95"} and all(map(_positive, figures.values()))
    assert doc["embedder"] == "hash"
    assert doc["machine"]["cpus"] >= 1


def test_library_returns_positive_figures_and_cleans_up(tmp_path: Path) -> None:
    stages: set[str] = set()
    base = tmp_path / "bench"
    doc = run_storage_bench(
        data_dir=base,
        sizes=[300, 100],
        queries=20,
        writes=20,
        turns=30,
        embedder="hash",
        progress=lambda stage, _d, _t: stages.add(stage),
    )
    _check_shape(doc, [100, 300])
    assert "load 300 passages" in stages and "fact writes" in stages
    assert not base.exists()  # made by the run, so removed by it


def test_cli_json_is_json_only_and_scratch_is_removed(tmp_path: Path) -> None:
    given = tmp_path / "given"
    given.mkdir()
    result = CliRunner().invoke(bench, ["storage", "--json", *TINY, "--data-dir", str(given)])
    assert result.exit_code == 0, result.output
    _check_shape(json.loads(result.stdout), [200])
    assert given.is_dir() and not any(given.iterdir())  # kept, but emptied


def test_cli_table_shows_targets(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(bench, ["storage", *TINY])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "p95 ≤ 5" in out and "≥ 1000 turns/s" in out and "not run" in out
    assert "floor: embedding alone" in out and "ingest is " in out
    assert "met" in out or "missed" in out
    assert not (tmp_path / ".bench-data").exists()


def test_bad_sizes_are_user_errors() -> None:
    assert parse_sizes("10k, 100_000") == [10_000, 100_000]
    result = CliRunner().invoke(bench, ["storage", "--sizes", "ten"])
    assert isinstance(result.exception, UserError) and "--sizes" in str(result.exception)
    # Each bench's error names the option it was given, not another one's.
    result = CliRunner().invoke(bench, ["paging", "--memories", "ten"])
    assert isinstance(result.exception, UserError)
    assert "--memories 'ten'" in str(result.exception) and "--sizes" not in str(result.exception)
    with pytest.raises(UserError, match="at least 2"):
        run_storage_bench(data_dir=".", sizes=[1], embedder="hash")
    with pytest.raises(UserError, match="queries"):
        run_storage_bench(data_dir=".", sizes=[10], queries=0, embedder="hash")


def test_group_help_says_figures_are_not_asserted() -> None:
    result = CliRunner().invoke(bench, ["--help"])
    assert result.exit_code == 0 and "never asserted" in result.output
    assert CliRunner().invoke(bench, ["storage", "--help"]).exit_code == 0


def test_memvisor_bench_storage_through_main(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from tests.cli_helpers import run_cli

    bad = run_cli(capsys, "bench", "storage", "--sizes", "ten")
    assert bad.code == 1 and bad.err.startswith("error: invalid --sizes") and not bad.out
    ok = run_cli(capsys, "bench", "storage", "--json", *TINY, "--data-dir", str(tmp_path))
    assert ok.code == 0, ok.err
    _check_shape(ok.json(), [200])


def _scratch_databases(cluster: PostgresCluster) -> list[str]:
    with cluster.admin() as conn:
        rows = conn.execute(
            "SELECT datname FROM pg_database WHERE datname LIKE 'memvisor_bench_%'"
        ).fetchall()
    return [r[0] for r in rows]


def test_with_a_postgres_store_both_backends_are_measured(
    tmp_path: Path, postgres_url: str, postgres_cluster: PostgresCluster
) -> None:
    args = ["storage", *TINY, "--data-dir", str(tmp_path), "--store", postgres_url]
    result = CliRunner().invoke(bench, [*args, "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    on_postgres = doc.pop("postgres")
    _check_shape(doc, [200])  # the embedded figures, under the keys they always had
    _check_shape({**on_postgres, "embedder": "hash", "machine": doc["machine"]}, [200])
    assert _scratch_databases(postgres_cluster) == []  # each scratch database dropped
    own = PostgresDatabase(postgres_url)
    try:  # the store's own database is never written
        assert own.query("SELECT count(*) FROM facts") == [(0,)]
        assert own.query("SELECT count(*) FROM events") == [(0,)]
    finally:
        own.close()
    table = CliRunner().invoke(bench, args, env={"COLUMNS": "200"})  # headers unwrapped
    assert table.exit_code == 0, table.output
    assert "embedded p50 / p95" in table.stdout and "PostgreSQL p50 / p95" in table.stdout
    assert "hybrid @ 200" in table.stdout and "turns/s" in table.stdout


def test_a_store_that_is_not_postgres_is_one_line() -> None:
    result = CliRunner().invoke(bench, ["storage", *TINY, "--store", "mysql://x"])
    assert isinstance(result.exception, UserError)
    assert "postgresql://" in str(result.exception)
