"""Reading commands work while another process holds the data directory: they read a
snapshot the holder copies for them, never the live file, and writers still get "in use"."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from memvisor.errors import StoreLocked
from memvisor.storage import Store
from memvisor.storage.snapshot import request_snapshot, socket_path
from tests.cli_helpers import run_cli

HOLDER = textwrap.dedent(
    """
    import sys, time
    from memvisor.storage import Store
    store = Store.open(sys.argv[1], embedder="hash")
    store.facts.remember(
        user_id="alice", subject="user", predicate="drinks", object="rooibos",
        trace_id="trc_holder",
    )
    print("holding", flush=True)
    time.sleep(60)
    """
)


@pytest.fixture
def held(tmp_path: Path):
    """A data directory a separate process holds, with one fact in it."""
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(tmp_path / "data")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout is not None
    line = holder.stdout.readline()
    assert line.strip() == "holding", holder.stderr.read() if holder.stderr else line
    yield tmp_path / "data"
    holder.kill()
    holder.communicate(timeout=10)  # reaps it and closes its pipes


@pytest.mark.parametrize(
    "command",
    [["memory", "list"], ["memory", "export"], ["health"], ["keys", "list"]],
)
def test_reading_commands_read_the_holders_snapshot(
    capsys: pytest.CaptureFixture[str], held: Path, command: list[str]
) -> None:
    result = run_cli(capsys, *command, "--data-dir", str(held), "--user", "alice")
    assert result.code == 0, result
    if command[-1] in ("list", "export") and command[0] == "memory":
        assert "rooibos" in result.out


def test_a_writer_still_gets_in_use(capsys: pytest.CaptureFixture[str], held: Path) -> None:
    result = run_cli(capsys, "memory", "add", "--data-dir", str(held), "--text", "hello")
    assert result.code == 3 and "in use" in result.err


def test_the_snapshot_is_private_and_removed_at_close(held: Path) -> None:
    reader = Store.open(held, read_only=True)
    assert reader.reads_a_snapshot
    copy = Path(reader.db.path)
    assert copy.exists() and not copy.is_relative_to(held)
    assert copy.parent.stat().st_mode & 0o077 == 0
    assert [f.object for f in reader.facts.list(user_id="alice")] == ["rooibos"]
    reader.close()
    assert not copy.parent.exists()


def test_a_snapshot_sees_whole_transactions_only(tmp_path: Path) -> None:
    with Store.open(tmp_path / "data", embedder="hash") as holder:
        holder.core.ensure_defaults(user_id="alice")
        with Store.open(tmp_path / "data", read_only=True) as reader:
            assert reader.reads_a_snapshot
            assert [b.label for b in reader.core.list(user_id="alice")] == ["persona", "human"]
        assert socket_path(tmp_path / "data").exists()
    assert not socket_path(tmp_path / "data").exists()  # the holder's socket goes with it


def test_a_snapshot_goes_only_to_a_new_file_in_a_private_directory(tmp_path: Path) -> None:
    with Store.open(tmp_path / "data", embedder="hash"):
        shared = tmp_path / "shared"
        shared.mkdir(mode=0o755)
        shared.chmod(0o755)
        with pytest.raises(Exception, match="must be the user's own"):
            request_snapshot(tmp_path / "data", shared / "copy.duckdb")
        existing = tmp_path / "private"
        existing.mkdir(mode=0o700)
        (existing / "copy.duckdb").write_text("keep me")
        with pytest.raises(Exception, match="a new absolute path"):
            request_snapshot(tmp_path / "data", existing / "copy.duckdb")
        assert (existing / "copy.duckdb").read_text() == "keep me"


def test_no_holder_listening_is_in_use_as_before(tmp_path: Path) -> None:
    with Store.open(tmp_path / "data", embedder="hash") as holder:
        assert holder._snapshots is not None
        holder._snapshots.stop()  # as an older memvisor, with no socket
        started = time.monotonic()
        with pytest.raises(StoreLocked, match="in use"):
            Store.open(tmp_path / "data", read_only=True)
        assert time.monotonic() - started < 30
