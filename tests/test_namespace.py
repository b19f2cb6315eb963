"""The product installs as one namespace, ``memvisor``, under its own name."""

from __future__ import annotations

import importlib.metadata
import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli_helpers import run_cli

ROOT = Path(__file__).resolve().parent.parent


def test_public_api_is_reexported_from_memvisor() -> None:
    import memvisor
    from memvisor.agent.loop import Agent
    from memvisor.agent.memory.api import Memory
    from memvisor.tools import ToolContext, tool

    assert memvisor.Agent is Agent
    assert memvisor.Memory is Memory
    assert memvisor.tool is tool
    assert memvisor.ToolContext is ToolContext
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        _ = memvisor.nothing  # type: ignore[attr-defined]


def test_distribution_and_console_script_are_memvisor() -> None:
    dist = importlib.metadata.distribution("memvisor")
    scripts = {e.name: e.value for e in dist.entry_points if e.group == "console_scripts"}
    assert scripts == {"memvisor": "memvisor.agent.cli:main"}


def test_no_generic_top_level_packages_are_importable_from_elsewhere(tmp_path: Path) -> None:
    # Outside the checkout only memvisor.* exists: `import tools` must not find ours.
    code = (
        "import importlib.util, sys\n"
        "specs = [importlib.util.find_spec(n) for n in ('agent', 'tools', 'paging', 'storage')]\n"
        "found = [s.name for s in specs if s and 'memvisor' in str(s.origin)]\n"
        "import memvisor.storage, memvisor.agent.cli\n"
        "print(found)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "[]"


def test_old_engram_transcript_header_still_replays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "old.jsonl"
    lines = [
        {"format": "engram.transcript", "version": 1, "user_id": "u"},
        {"type": "session", "id": "s1"},
        {"type": "user", "content": "hello"},
        {"type": "assistant", "content": "hi"},
        {"type": "expect", "probe": "answer_mentions", "text": "hi"},
    ]
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    result = run_cli(capsys, "replay", str(path), "--into", str(tmp_path / "r"))
    assert result.code == 0, result.err
    assert "PASS" in result.out


def test_every_subpackage_is_listed_for_a_regular_install() -> None:
    # An editable install finds any folder; a wheel holds only the packages pyproject lists.
    import tomllib

    listed = set(
        tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]
    )
    found = {"memvisor"}
    for folder in ("agent", "tools", "paging", "storage", "evals"):
        for init in (ROOT / folder).rglob("__init__.py"):
            parts = init.parent.relative_to(ROOT).parts
            found.add(".".join(("memvisor", *parts)))
    assert found == listed
