"""`memvisor bench startup`: figures of the right shape from fresh processes; nothing timed here
is asserted."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from click.testing import CliRunner

from memvisor.agent.cli.bench import bench
from memvisor.errors import UserError
from memvisor.evals.bench_startup import TARGETS_S, _export_document, run_startup_bench

TINY = ["--memories", "50", "--runs", "1", "--embedder", "hash"]


def _positive(value: object) -> bool:
    return isinstance(value, float) and math.isfinite(value) and value > 0


def test_json_holds_every_command_with_positive_figures(tmp_path: Path) -> None:
    result = CliRunner().invoke(bench, ["startup", "--json", *TINY, "--data-dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert (doc["memories"], doc["runs"], doc["embedder"]) == (50, 1, "hash")
    assert set(doc["commands"]) == set(TARGETS_S)
    for name, figures in doc["commands"].items():
        for key in ("wall_s_median", "wall_s_max", "cpu_s_median", "peak_rss_mb_max"):
            assert _positive(figures[key]), (name, key, figures[key])
        assert figures["wall_s_median"] <= figures["wall_s_max"]
        assert figures["target_s"] == TARGETS_S[name]
        if figures["target_s"] is None:  # timed for the record: the one-shot write
            assert figures["met"] is None
        else:
            assert figures["met"] is (figures["wall_s_median"] <= figures["target_s"])
    assert doc["build_seconds"] > 0 and doc["first_index_seconds"] > 0
    assert list(tmp_path.iterdir()) == []  # the scratch store is removed


def test_the_table_names_each_command_and_its_target(tmp_path: Path) -> None:
    result = CliRunner().invoke(bench, ["startup", *TINY, "--data-dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    shown_all = ("memvisor --version", "memory list", "first memory search", "memory add", "≤ 1")
    for shown in shown_all:
        assert shown in result.stdout, shown


def test_the_store_holds_the_memories_asked_for() -> None:
    import random

    doc = _export_document(101, random.Random(1))
    counts = {kind: len(doc[kind]) for kind in ("events", "facts", "passages")}
    assert counts == {"events": 51, "facts": 20, "passages": 30}
    assert len({(f["subject"], f["predicate"], f["object"]) for f in doc["facts"]}) == 20


def test_too_few_memories_or_runs_are_user_errors(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="--memories"):
        run_startup_bench(memories=5, data_dir=tmp_path)
    with pytest.raises(UserError, match="--runs"):
        run_startup_bench(memories=50, runs=0, data_dir=tmp_path)
