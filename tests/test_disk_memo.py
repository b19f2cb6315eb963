"""DiskMemo: what one process derived, the next reads; a damaged or unwritable cache costs
only the work again, never an error or a wrong value."""

from __future__ import annotations

from pathlib import Path

import pytest

from memvisor.storage import disk_memo
from memvisor.storage.disk_memo import DiskMemo


def _never() -> object:
    raise AssertionError("derived again, although the memo file holds it")


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("MEMVISOR_CACHE_DIR", str(folder))
    return folder


def test_a_value_derived_in_one_process_is_read_in_the_next(cache: Path) -> None:
    first = DiskMemo("t")
    value = {"code": b"\x01\x02", "groups": (None, "name"), "n": 3}
    assert first.get(("k", 1), lambda: value) == value
    assert first.counts() == (0, 1)
    first.flush()
    assert (cache / "memo" / "t.marshal").is_file()

    second = DiskMemo("t")
    assert second.get(("k", 1), _never) == value
    assert second.counts() == (1, 0)


def test_a_value_asked_for_twice_is_the_same(cache: Path) -> None:
    first = DiskMemo("t")
    first.get("k", lambda: [1, 2])
    first.flush()
    second = DiskMemo("t")
    assert second.get("k", _never) == [1, 2]
    # handed out, not kept: asked again, it is derived, and the file is not written again
    assert second.get("k", lambda: [1, 2]) == [1, 2]
    assert second.counts() == (1, 0)


@pytest.mark.parametrize("damage", ["flip", "truncate", "empty", "not ours"])
def test_a_damaged_file_is_derived_again(cache: Path, damage: str) -> None:
    first = DiskMemo("t")
    first.get("k", lambda: "value")
    first.flush()
    path = cache / "memo" / "t.marshal"
    data = bytearray(path.read_bytes())
    if damage == "flip":
        data[-1] ^= 0xFF
    elif damage == "truncate":
        data = data[: len(data) // 2]
    elif damage == "empty":
        data = bytearray()
    else:
        data = bytearray(b"\x00" * 32 + b"not marshal at all")
    path.write_bytes(bytes(data))

    second = DiskMemo("t")
    assert second.get("k", lambda: "derived") == "derived"
    assert second.counts() == (0, 1)
    second.flush()  # and the file is whole again
    assert DiskMemo("t").get("k", _never) == "derived"


def test_an_unwritable_cache_costs_only_the_work(tmp_path: Path, monkeypatch) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    monkeypatch.setenv("MEMVISOR_CACHE_DIR", str(blocker))
    memo = DiskMemo("t")
    assert memo.get("k", lambda: 42) == 42
    memo.flush()  # no error
    assert not list(tmp_path.glob("**/*.tmp"))
    assert DiskMemo("t").get("k", lambda: 43) == 43


def test_a_value_marshal_cannot_keep_is_not_written(cache: Path) -> None:
    memo = DiskMemo("t")
    assert memo.get("k", lambda: object) is object
    memo.flush()
    assert not (cache / "memo" / "t.marshal").exists()
    assert not list(cache.glob("**/*.tmp"))


def test_a_write_keeps_what_other_processes_used(cache: Path) -> None:
    first = DiskMemo("t")
    first.get("theirs", lambda: 1)
    first.get("both", lambda: 2)
    first.flush()
    second = DiskMemo("t")  # a process that needs other values
    assert second.get("both", _never) == 2
    second.get("new", lambda: 3)
    second.flush()

    third = DiskMemo("t")
    assert third.get("theirs", _never) == 1  # not dropped by a writer that did not use it
    assert third.get("both", _never) == 2
    assert third.get("new", _never) == 3


def test_past_the_cap_a_write_keeps_only_what_it_used(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = DiskMemo("t")
    first.get("old", lambda: b"x" * 400)  # an edited pattern's entry
    first.get("kept", lambda: 2)
    first.flush()
    monkeypatch.setattr(disk_memo, "MAX_BYTES", 300)
    second = DiskMemo("t")
    assert second.get("kept", _never) == 2
    second.get("new", lambda: 3)
    second.flush()

    third = DiskMemo("t")
    assert third.get("kept", _never) == 2
    assert third.get("new", _never) == 3
    assert third.get("old", lambda: "derived") == "derived"


def test_flushing_twice_keeps_what_the_first_flush_wrote(cache: Path) -> None:
    memo = DiskMemo("t")
    memo.get("a", lambda: 1)
    memo.flush()
    memo.get("b", lambda: 2)
    memo.flush()
    after = DiskMemo("t")
    assert (after.get("a", _never), after.get("b", _never)) == (1, 2)


def test_memos_of_other_names_do_not_meet(cache: Path) -> None:
    first = DiskMemo("one")
    first.get("k", lambda: "one")
    first.flush()
    assert DiskMemo("two").get("k", lambda: "two") == "two"
