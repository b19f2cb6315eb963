"""The CLI imports what a command needs when it runs: ``--version`` and ``--help`` load no
store, model or embedder, and ``memory list`` no search index or embedder."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import click
import pytest

from memvisor.agent.cli import COMMANDS, cli

HEAVY = (
    "duckdb",
    "lancedb",
    "onnxruntime",
    "pyarrow",
    "numpy",
    "plotly",
    "tiktoken",
    "jsonschema",
    "memvisor.storage",
    "memvisor.agent.loop",
)
PROBE = """
import json, sys
from memvisor.agent.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
print(json.dumps(sorted(m for m in sys.modules if m.split(".")[0] in {heavy} or m in {heavy})),
      file=sys.stderr)
"""


def _loaded(*args: str) -> set[str]:
    roots = {name.split(".")[0] for name in HEAVY} - {"memvisor"}
    probe = PROBE.format(heavy=repr(roots | set(HEAVY)))
    done = subprocess.run(
        [sys.executable, "-c", probe, *args], capture_output=True, text=True, timeout=120
    )
    return set(json.loads(done.stderr.strip().splitlines()[-1]))


@pytest.mark.parametrize("args", [["--version"], ["--help"], []])
def test_version_and_help_load_nothing_heavy(args: list[str]) -> None:
    heavy = {name for name in _loaded(*args) if name in HEAVY}
    assert not heavy, f"{args} imported {sorted(heavy)}"


def test_memory_list_loads_no_search_index_or_embedder(tmp_path: Path) -> None:
    loaded = _loaded("memory", "list", "--data-dir", str(tmp_path / "d"))
    assert "duckdb" in loaded  # it did read the store
    assert not {"lancedb", "onnxruntime", "plotly", "memvisor.agent.loop"} & loaded


def test_the_listed_summaries_are_the_commands_own() -> None:
    ctx = click.Context(cli)
    for name in COMMANDS:
        command = cli.get_command(ctx, name)
        assert command is not None
        assert COMMANDS[name][2] == command.get_short_help_str(limit=10_000), name
