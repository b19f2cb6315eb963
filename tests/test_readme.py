"""README's examples run: its Python blocks, and its memory commands against a scratch store."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from tests.cli_helpers import run_cli

README = Path(__file__).resolve().parent.parent / "README.md"


def blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", README.read_text(), flags=re.S)


@pytest.mark.parametrize("index", range(len(blocks("python"))))
def test_python_examples_run(
    index: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    exec(compile(blocks("python")[index], f"README python block {index + 1}", "exec"), {})
    if "print(" in blocks("python")[index]:
        assert capsys.readouterr().out.strip()


def test_the_memory_api_example_prints_what_it_says(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (example,) = [b for b in blocks("python") if "Memory.open" in b]
    exec(compile(example, "README memory example", "exec"), {})
    found, fits = capsys.readouterr().out.splitlines()
    assert found == "turn True True"
    assert fits.startswith("True ## Long-term memory")


def test_memory_commands_of_the_readme_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each `memvisor memory …` line with its optional parts dropped, in README order."""
    monkeypatch.chdir(tmp_path)
    lines = [
        line.split("#")[0].strip()
        for block in blocks("sh")
        for line in block.splitlines()
        if line.startswith("memvisor memory ")
    ]
    assert len(lines) >= 10
    data = ["--data-dir", str(tmp_path / "data"), "--user", "maya"]
    ids: dict[str, str] = {}
    for line in lines:
        line = re.sub(r"\s*\[[^\]]*\]", "", line).replace("--json > maya.json", "--json")
        if "…" in line or re.search(r"\bID\b", line):
            continue  # needs an id from an earlier step: covered by the CLI tests
        args = re.findall(r'"[^"]*"|\S+', line)[1:]
        args = [a.strip('"') for a in args]
        result = run_cli(capsys, *args, *data)
        assert result.code == 0, f"{line}: {result.err}"
        if args[:2] == ["memory", "export"]:
            (tmp_path / "maya.json").write_text(result.out)
        ids[line] = result.out
    assert any("import" in line for line in ids)
    assert os.path.exists(tmp_path / "maya.json")
