"""--help for people: every option described, numbers with their range, summaries whole;
click's shell completion."""

from __future__ import annotations

from collections.abc import Iterator

import click
import pytest

from memvisor.agent.cli import cli
from tests.cli_helpers import run_cli


def commands(
    group: click.Command = cli, path: tuple[str, ...] = ()
) -> Iterator[tuple[tuple[str, ...], click.Command]]:
    yield path, group
    if isinstance(group, click.Group):
        ctx = click.Context(group)
        for name in group.list_commands(ctx):
            sub = group.get_command(ctx, name)
            assert sub is not None, name
            yield from commands(sub, (*path, name))


def test_every_option_has_a_description() -> None:
    missing = [
        (" ".join(path), opt.opts[0])
        for path, command in commands()
        for opt in command.params
        if isinstance(opt, click.Option) and not opt.help
    ]
    assert missing == []


def test_numeric_options_state_their_range() -> None:
    unranged = [
        (" ".join(path), opt.opts[0])
        for path, command in commands()
        for opt in command.params
        if isinstance(opt, click.Option) and opt.type in (click.INT, click.FLOAT)
    ]
    assert unranged == []
    help_text = run_cli_help("memory", "add")
    assert "How sure the fact is, 0-1." in help_text and "0<=x<=1" in help_text


def run_cli_help(*path: str) -> str:
    command: click.Command = cli
    ctx = click.Context(cli, info_name="memvisor", max_content_width=200, terminal_width=200)
    for name in path:
        assert isinstance(command, click.Group)
        found = command.get_command(ctx, name)
        assert found is not None, name
        command = found
        ctx = click.Context(command, info_name=name, parent=ctx)
    return command.get_help(ctx)


@pytest.mark.parametrize("group", [(), ("memory",), ("eval",), ("bench",), ("keys",)])
def test_command_summaries_are_whole_at_200_columns(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, group: tuple[str, ...]
) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    out = run_cli(capsys, *group, "--help").out
    listed = out.split("Commands:\n")[1].splitlines()
    assert listed and not [line for line in listed if line.rstrip().endswith("...")]


def test_shell_completion_prints_a_script(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("_MEMVISOR_COMPLETE", "bash_source")
    script = run_cli(capsys)
    assert script.code == 0 and "_memvisor_completion()" in script.out
    assert "complete -o nosort -F _memvisor_completion memvisor" in script.out
    monkeypatch.setenv("_MEMVISOR_COMPLETE", "bash_complete")
    monkeypatch.setenv("COMP_WORDS", "memvisor memory sea")
    monkeypatch.setenv("COMP_CWORD", "2")
    assert run_cli(capsys).out.split() == ["plain,search"]
