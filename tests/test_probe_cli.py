"""Outside probes of the CLI's servers: an address they cannot listen on is one line and
exit 1, never uvicorn's own log line and exit 3 (the code of a data directory in use)."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.cli_helpers import run_cli


@pytest.fixture
def taken_port() -> Iterator[int]:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        yield held.getsockname()[1]


@pytest.mark.parametrize("command", ["serve", "mcp"])
def test_a_port_in_use_is_one_line_and_exit_1(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, taken_port: int, command: str
) -> None:
    data = ["--data-dir", str(tmp_path / "data")]
    address = (
        ["--port", str(taken_port)]
        if command == "serve"
        else ["--user", "maya", "--http", f"127.0.0.1:{taken_port}"]
    )
    result = run_cli(capsys, command, *data, *address)
    assert result.code == 1, (result.code, result.err)
    assert result.err.count("\n") == 1 and result.err.startswith("error: cannot listen on")
    assert str(taken_port) in result.err and "in use" in result.err
    # Nothing was held: the directory is free for the next command at once.
    listed = run_cli(capsys, "memory", "list", *data, "--user", "maya")
    assert listed.code == 0, listed.err


def test_an_address_not_this_machines_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # 192.0.2.1 is TEST-NET-1 (RFC 5737): never an address of this machine.
    data = ["--data-dir", str(tmp_path / "data")]
    for args in (["serve", "--host", "192.0.2.1"], ["serve", "--host", "no-such-host.invalid"]):
        result = run_cli(capsys, *args, *data)
        assert result.code == 1, (args, result.code, result.err)
        assert result.err.startswith("error: cannot listen on") and result.err.count("\n") == 1


def test_an_unknown_flag_on_every_command_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str],
) -> None:
    commands = [
        *(["memory", c] for c in ("add", "confirm", "edit", "export", "forget", "history")),
        *(["memory", c] for c in ("import", "list", "prune", "reindex", "restore", "reveal")),
        *(["memory", c] for c in ("search", "show")),
        *(["keys", c] for c in ("create", "list", "revoke")),
        ["health"], ["trace"], ["serve"], ["mcp"], ["chat"], ["replay"], ["migrate"],
        ["firewall", "scan"], ["tools", "list"], ["eval", "locomo"], ["bench", "storage"],
    ]  # fmt: skip
    for command in commands:
        helped = run_cli(capsys, *command, "--help")
        assert helped.code == 0 and helped.out.startswith("Usage:"), command
        wrong = run_cli(capsys, *command, "--no-such-flag")
        assert wrong.code == 2, command
        assert wrong.err == "error: No such option '--no-such-flag'.\n", (command, wrong.err)
