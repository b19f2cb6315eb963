"""`memvisor bench paging`: figures of the right shape, printed; nothing timed here is asserted."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from click.testing import CliRunner

from memvisor.agent.cli.bench import bench
from memvisor.errors import StorageError, UserError
from memvisor.evals.bench_paging import run_paging_bench
from memvisor.evals.paging_resident import measure_in_child

TINY = ["--memories", "300,150", "--queries", "5", "--embedder", "hash"]


def _figures(value: object) -> bool:
    return (
        isinstance(value, dict)
        and set(value) == {"p50", "p95"}
        and all(isinstance(v, float) and math.isfinite(v) and v > 0 for v in value.values())
        and value["p50"] <= value["p95"]
    )


def test_json_holds_every_figure_per_size(tmp_path: Path) -> None:
    result = CliRunner().invoke(bench, ["paging", "--json", *TINY, "--data-dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert [row["memories"] for row in doc["results"]] == [150, 300]
    for row in doc["results"]:
        assert _figures(row["page_in_ms"]) and _figures(row["assembly_ms"])
        assert _figures(row["page_in_after_write_ms"]) and _figures(row["page_in_next_turn_ms"])
        assert row["next_turn_p50_over_page_in_p50"] > 0
        assert _figures(row["page_in_after_pause_ms"]) and row["next_turn_p50_over_paused_p50"] > 0
        assert row["first_page_in_ms"] > 0
        assert row["resident_mb"] > 0
        alone = row["page_in_process_mb"]  # a fresh process: opens the store, pages in
        assert set(alone) == {"base_mb", "after_mb", "peak_mb"}
        assert 0 < alone["base_mb"] < alone["after_mb"] <= alone["peak_mb"]
        for floor in ("floor_ms", "embed_ms", "raw_vector_ms", "raw_fts_ms"):
            assert _figures(row[floor]), floor
        assert row["page_in_p95_over_floor_p95"] > 0
        assert 0 < row["paged_items_mean"] <= 12
        assert row["vector_engine"] == "lancedb"  # a graph needs 10,000 rows of one user
        assert row["graph_wait_s"] >= 0
    assert doc["targets"] == {  # issue 17's
        "page_in_p95_ms": 12.0,
        "page_in_p95_over_floor_p95": 2.0,
        "page_in_p95_largest_over_smallest": 1.3,
        "after_write_p50_over_page_in_p50": 1.5,
        "assembly_p95_ms": 5.0,
    }
    assert not any(tmp_path.iterdir())  # the scratch stores are gone


def test_table_names_the_targets(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(bench, ["paging", *TINY])
    assert result.exit_code == 0, result.output
    assert "page-in" in result.stdout and "at 300: first page-in" in result.stdout
    assert "right after a turn's writes p50/p95" in result.stdout
    assert "at 300: a fresh process opening the store and paging in holds" in result.stdout
    assert "at 300: floor p50/p95" in result.stdout and "x the floor's" in result.stdout
    assert "raw vector query (lancedb)" in result.stdout
    assert "met" in result.stdout or "MISSED" in result.stdout
    assert "p95 at 300 / p95 at 150" in result.stdout and "(target <= 1.3)" in result.stdout


def test_bad_sizes_and_query_counts_are_user_errors() -> None:
    with pytest.raises(UserError, match="at least 100"):
        run_paging_bench(sizes=[50], embedder="hash")
    with pytest.raises(UserError, match="--queries"):
        run_paging_bench(sizes=[100], queries=0, embedder="hash")


def test_with_a_postgres_store_page_in_is_measured_on_both(
    tmp_path: Path, postgres_url: str
) -> None:
    args = ["paging", "--memories", "150", "--queries", "5", "--embedder", "hash"]
    args += ["--data-dir", str(tmp_path), "--store", postgres_url]
    result = CliRunner().invoke(bench, [*args, "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    [embedded] = doc["results"]
    [on_postgres] = doc["postgres"]["results"]
    for row in (embedded, on_postgres):
        assert row["memories"] == 150 and _figures(row["page_in_ms"])
        assert _figures(row["raw_vector_ms"]) and _figures(row["raw_fts_ms"])
        assert 0 < row["paged_items_mean"] <= 12
    assert on_postgres["vector_engine"] == "pgvector"
    table = CliRunner().invoke(bench, args, env={"COLUMNS": "200"})  # headers unwrapped
    assert table.exit_code == 0, table.output
    assert "PostgreSQL page-in p95 ms" in table.stdout
    assert "PostgreSQL at 150: floor p50/p95" in table.stdout


def test_a_failed_memory_probe_is_one_clear_error(tmp_path: Path) -> None:
    with pytest.raises(StorageError, match=r"page-in memory probe failed \(exit 1\)"):
        measure_in_child(tmp_path / "no-store-here", 1, "no-such-embedder")
