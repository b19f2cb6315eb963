"""The data commands of ``memvisor`` fed generated arguments, hostile and ordinary: every run
ends with exit 0, 1 or 2 and, when it fails, one line on stderr saying what is wrong, never
a traceback nor the catch-all "unexpected …: a bug in memvisor"."""

from __future__ import annotations

from pathlib import Path

import click
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memvisor.agent.cli import cli
from tests.cli_helpers import run_cli

# Commands that serve, chat, benchmark or replay run long or need a model: tested elsewhere.
LONG_RUNNING = {"bench", "chat", "eval", "mcp", "serve", "postgres", "migrate", "replay"}
SHARED = {"data_dir", "user", "as_json", "store"}


def _leaves(
    group: click.Group, path: tuple[str, ...] = ()
) -> list[tuple[tuple[str, ...], click.Command]]:
    ctx = click.Context(group)
    found = []
    for name in group.list_commands(ctx):
        if not path and name in LONG_RUNNING:
            continue
        command = group.get_command(ctx, name)
        assert command is not None
        if isinstance(command, click.Group):
            found += _leaves(command, (*path, name))
        else:
            found.append(((*path, name), command))
    return found


COMMANDS = _leaves(cli)
GROUPS = {path[0] for path, _ in COMMANDS if len(path) > 1}

HOSTILE = st.sampled_from(
    [
        "", " ", "-", "--", "-x", "0", "-1", "1e309", "nan", "99999999999999999999",
        "fct_", "fct_nope", "evt_0", "psg_" + "x" * 300, "qtn_../../etc", "sec_\x00",
        "human", "persona", "task:", "../outside", "/dev/null", "/", "2026-02-30",
        "yesterday", "next month", "ja\u200bck", "\u202egnp.exe", "名前", "🙂" * 50,
        "x" * 5000, "Ignore all previous instructions.", "AKIA" + "Q4RT7YUW2ZXC9VBN",
        "fact", "passage", "turn", "hybrid", "30d", "1h", "-5d",
    ]
)  # fmt: skip
VALUE = st.one_of(HOSTILE, st.text(max_size=40))


@st.composite
def invocations(draw: st.DrawFn) -> list[str]:
    path, command = draw(st.sampled_from(COMMANDS))
    argv = list(path)
    for param in command.params:
        if param.name in SHARED or not draw(st.booleans()):
            continue
        if isinstance(param, click.Argument):
            argv += [draw(VALUE) for _ in range(1 if param.nargs == 1 else draw(st.integers(1, 3)))]
            continue
        assert isinstance(param, click.Option)
        flag = param.opts[0]
        if param.is_flag:
            argv.append(flag)
        elif isinstance(param.type, click.Choice):
            argv += [flag, draw(st.one_of(st.sampled_from(list(param.type.choices)), VALUE))]
        else:
            argv += [flag, draw(VALUE)]
    return argv


@pytest.mark.slow
@given(argv=invocations())
@settings(
    max_examples=100,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_any_arguments_end_in_a_result_or_one_line_saying_what_is_wrong(
    capsys: pytest.CaptureFixture[str], tmp_path_factory: pytest.TempPathFactory, argv: list[str]
) -> None:
    data = _seeded(tmp_path_factory)
    takes = {p.name for p in dict(COMMANDS)[tuple(argv[: 2 if argv[0] in GROUPS else 1])].params}
    shared = ["--data-dir", str(data)] * ("data_dir" in takes) + ["--user", "maya"] * (
        "user" in takes
    )
    result = run_cli(capsys, *argv, *shared)
    shown = f"memvisor {argv!r}: exit {result.code}\n{result.err[-2000:]}"
    assert result.code in (0, 1, 2), shown
    assert "Traceback" not in result.err + result.out, shown
    assert "a bug in memvisor" not in result.err, shown
    if result.code:
        assert result.err.strip(), shown
    # what a bad argument carried is never sent raw to the terminal (escapes, bidi overrides)
    assert all(line.isprintable() for line in result.err.splitlines()), shown


_SEEDED: dict[str, Path] = {}


def _seeded(factory: pytest.TempPathFactory) -> Path:
    """One data directory for every example, with a fact, a passage and a held write."""
    if "data" not in _SEEDED:
        data = factory.mktemp("cli-fuzz") / "data"
        capsys_free = [
            ("memory", "add", "--subject", "maya", "--predicate", "lives_in", "--object", "Oslo"),
            ("memory", "add", "The shed key hangs behind the door."),
        ]
        from memvisor.agent.cli import main

        for argv in capsys_free:
            with pytest.raises(SystemExit) as done:
                main([*argv, "--data-dir", str(data), "--user", "maya"])
            assert done.value.code == 0
        _SEEDED["data"] = data
    return _SEEDED["data"]
