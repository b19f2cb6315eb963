"""A failing disk or store file reaches the user as one line naming the file and what to do;
commands that only read open the store read-only and work where nothing may be written."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import duckdb
import pytest

from memvisor.errors import StorageError
from memvisor.storage import Store
from memvisor.storage.migrations import MIGRATIONS, migrate
from tests.cli_helpers import Result, run_cli

ROOT = os.geteuid() == 0


def _one_line(result: Result, *said: str) -> None:
    assert result.code == 1, result
    assert "Traceback" not in result.err + result.out
    lines = result.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.err
    for words in said:
        assert words in lines[0], lines[0]


def _store_with_a_fact(capsys: pytest.CaptureFixture[str], data_dir: Path) -> None:
    added = run_cli(
        capsys,
        *("memory", "add", "--data-dir", str(data_dir), "--user", "alice"),
        *("--subject", "user", "--predicate", "drinks", "--object", "rooibos"),
    )
    assert added.code == 0, added


def _mount(where: Path, *options: str) -> bool:
    done = subprocess.run(
        ["mount", *options, str(where)], capture_output=True, text=True, check=False
    )
    return done.returncode == 0


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 4 MB tmpfs (root only); the test is skipped, saying why, where mounting is refused."""
    where = tmp_path / "disk"
    where.mkdir()
    if not ROOT or not _mount(where, "-t", "tmpfs", "-o", "size=4m", "tmpfs"):
        pytest.skip("mounting a small tmpfs needs root and a kernel that allows it")
    yield where
    subprocess.run(["umount", "-l", str(where)], check=False)


def test_a_lock_path_that_is_a_directory_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    (tmp_path / "memvisor.lock").mkdir()
    result = run_cli(capsys, "memory", "add", "--data-dir", str(tmp_path), "--text", "hello")
    _one_line(result, str(tmp_path / "memvisor.lock"), "is a directory", "remove it")


@pytest.mark.parametrize("damage", ["garbled block", "truncated"])
def test_a_damaged_record_store_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, damage: str
) -> None:
    _store_with_a_fact(capsys, tmp_path)
    path = tmp_path / "memvisor.duckdb"
    size = path.stat().st_size
    with path.open("r+b") as file:
        if damage == "truncated":
            file.truncate(size // 2)
        else:  # every block past the file's three header blocks
            file.seek(3 * 4096)
            file.write(bytes(range(256)) * ((size - 3 * 4096) // 256))
    for command in (["memory", "list"], ["memory", "add", "--text", "more"]):
        result = run_cli(capsys, *command, "--data-dir", str(tmp_path), "--user", "alice")
        _one_line(result, str(path), "damaged", "restore a backup")


def test_a_full_disk_is_one_line_and_loses_nothing_acknowledged(
    capsys: pytest.CaptureFixture[str], small_disk: Path
) -> None:
    data_dir = small_disk / "store"
    _store_with_a_fact(capsys, data_dir)
    with (small_disk / "filler").open("wb") as filler:
        try:
            while True:
                filler.write(b"\0" * 65536)
                filler.flush()
        except OSError:
            pass  # the disk is full now
    for _ in range(3):
        result = run_cli(
            capsys,
            *("memory", "add", "--data-dir", str(data_dir), "--user", "alice"),
            *("--text", "a long note " * 4000),
        )
        if result.code:
            break
    _one_line(result, "is full", "free some space")
    listed = run_cli(capsys, "memory", "list", "--data-dir", str(data_dir), "--user", "alice")
    assert listed.code == 0 and "rooibos" in listed.out  # reading still works, nothing lost
    fresh = run_cli(capsys, "memory", "list", "--data-dir", str(small_disk / "new"))
    assert fresh.code == 0  # a read of a store not there yet creates nothing
    assert not (small_disk / "new").exists()


@pytest.fixture
def read_only_store(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> Iterator[Path]:
    """A store with one fact in a directory nobody may write: a tmpfs remounted read-only as
    root, mode 555 otherwise (root ignores modes)."""
    where = tmp_path / "ro"
    where.mkdir()
    if ROOT:
        if not _mount(where, "-t", "tmpfs", "-o", "size=16m", "tmpfs"):
            pytest.skip("mounting a tmpfs needs a kernel that allows it")
        _store_with_a_fact(capsys, where / "store")
        assert _mount(where, "-o", "remount,ro")
        yield where / "store"
        subprocess.run(["umount", "-l", str(where)], check=False)
        return
    _store_with_a_fact(capsys, where / "store")
    (where / "store").chmod(0o555)
    yield where / "store"
    (where / "store").chmod(0o755)


@pytest.mark.parametrize(
    "command",
    [
        ["memory", "list"],
        ["memory", "list", "--quarantine"],
        ["memory", "list", "--archived"],
        ["memory", "show", "human"],
        ["memory", "export"],
        ["health"],
        ["keys", "list"],
    ],
)
def test_reading_commands_work_on_a_read_only_directory(
    capsys: pytest.CaptureFixture[str], read_only_store: Path, command: list[str]
) -> None:
    result = run_cli(capsys, *command, "--data-dir", str(read_only_store), "--user", "alice")
    assert result.code == 0, result
    assert "Traceback" not in result.err
    if command == ["memory", "list"]:
        assert "rooibos" in result.out


def test_search_on_a_read_only_directory_reads_the_index_as_it_stands(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MEMVISOR_EMBEDDER", "hash")
    where = tmp_path / "ro"
    where.mkdir()
    if not ROOT or not _mount(where, "-t", "tmpfs", "-o", "size=32m", "tmpfs"):
        pytest.skip("a read-only mount needs root and a kernel that allows tmpfs")
    try:
        store = ("--data-dir", str(where / "store"), "--user", "alice")
        note = ("memory", "add", "--text", "The blue kayak is stored at the boathouse")
        assert run_cli(capsys, *note, *store).code == 0
        assert "kayak" in run_cli(capsys, "memory", "search", "kayak", *store).out  # indexed
        assert _mount(where, "-o", "remount,ro")
        found = run_cli(capsys, "memory", "search", "kayak boathouse", *store)
        assert found.code == 0 and "blue kayak" in found.out, found
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def test_a_write_to_a_read_only_directory_is_one_line(
    capsys: pytest.CaptureFixture[str], read_only_store: Path
) -> None:
    result = run_cli(capsys, "memory", "add", "--data-dir", str(read_only_store), "--text", "hello")
    _one_line(result, str(read_only_store), "permission denied or a read-only file system")


def test_a_read_only_store_refuses_writes_and_sees_one_state(tmp_path: Path) -> None:
    with Store.open(tmp_path) as store:
        store.core.ensure_defaults(user_id="alice")
    with (
        Store.open(tmp_path, read_only=True) as reader,
        Store.open(tmp_path, read_only=True) as second,
    ):  # readers share the directory
        assert [b.label for b in reader.core.list(user_id="alice")] == ["persona", "human"]
        assert second.core.list(user_id="alice")
        with pytest.raises(StorageError, match="open for reading only"):
            reader.core.ensure_defaults(user_id="bob")


def test_a_read_only_open_of_nothing_creates_nothing(tmp_path: Path) -> None:
    missing = tmp_path / "not-there"
    with Store.open(missing, read_only=True) as store:
        assert store.facts.list(user_id="alice") == []
    assert not missing.exists()


def test_a_reader_never_migrates(tmp_path: Path) -> None:
    conn = duckdb.connect(str(tmp_path / "memvisor.duckdb"))
    migrate(conn, upto=MIGRATIONS[0].name)
    conn.close()
    with pytest.raises(StorageError, match="needs .* migration"):
        Store.open(tmp_path, read_only=True)
    with Store.open(tmp_path) as store:  # a writer migrates it, then readers can read it
        store.core.ensure_defaults(user_id="alice")
    with Store.open(tmp_path, read_only=True) as store:
        assert store.core.list(user_id="alice")


def test_an_unexpected_error_is_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("something inside broke")

    monkeypatch.setattr("memvisor.storage.core_blocks.CoreBlocks.list", broken)
    result = run_cli(capsys, "memory", "list", "--data-dir", str(tmp_path))
    _one_line(result, "unexpected RuntimeError: something inside broke", "a bug in memvisor")
