"""What the CLI prints for people: progress on a terminal only, one line per record."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli_helpers import run_cli

DEMO = str(Path(__file__).resolve().parent.parent / "evals" / "data" / "multiday_task.jsonl")


@pytest.fixture
def terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make rich treat the captured stderr as a terminal."""
    monkeypatch.setenv("FORCE_COLOR", "1")


def test_replay_shows_progress_on_a_terminal_only(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    piped = run_cli(capsys, "replay", DEMO, "--into", str(tmp_path / "a"))
    assert piped.code == 0 and piped.err == ""
    monkeypatch.setenv("FORCE_COLOR", "1")
    shown = run_cli(capsys, "replay", DEMO, "--into", str(tmp_path / "b"))
    assert "replaying multiday_task.jsonl" in shown.err and "14/14" in shown.err
    assert "replaying" not in shown.out  # stdout holds the report only


@pytest.mark.usefixtures("terminal")
def test_import_and_prune_show_that_they_work(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    data = ["--data-dir", str(tmp_path / "d"), "--user", "maya"]
    assert run_cli(capsys, "memory", "add", "--text", "Order ORD-7: a lamp", *data).code == 0
    exported = tmp_path / "maya.json"
    exported.write_text(run_cli(capsys, "memory", "export", *data).out)
    other = ["--data-dir", str(tmp_path / "e"), "--user", "maya"]
    imported = run_cli(capsys, "memory", "import", str(exported), *other)
    assert imported.code == 0 and "importing maya.json" in imported.err
    pruned = run_cli(capsys, "memory", "prune", "--older-than", "1y", *data)
    assert pruned.code == 0 and "pruning" in pruned.err and "nothing to prune" in pruned.out
