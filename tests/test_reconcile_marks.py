"""An embedded store closed cleanly skips the next process's first-search reconcile; any
doubt (records changed, a crash, another table version, a bad marks file) reconciles."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from memvisor.storage import ManualClock, Store, vectors
from memvisor.storage.reconcile_marks import (
    MARKS_FILE,
    Mark,
    ReconcileMarks,
    revisions_digest,
    rows_digest,
)
from memvisor.storage.store import MEMORY_TABLE
from memvisor.storage.vectors import VectorIndex

pytestmark = pytest.mark.duckdb_only  # the marks are the embedded index's; PostgreSQL has none


def turn_ids(store: Store, query: str, user: str = "u") -> set[str]:
    return {h.id for h in store.search(query, user_id=user, kinds=("turn",), mode="fts")}


@pytest.fixture
def reconciles(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The tables whose index side a full reconcile read, in order."""
    read: list[str] = []
    real = VectorIndex.all_revisions

    def noted(self: VectorIndex, table: str) -> dict[str, dict[str, str]]:
        read.append(table)
        return real(self, table)

    monkeypatch.setattr(VectorIndex, "all_revisions", noted)
    return read


def seeded(tmp_path: Path, clock: ManualClock) -> tuple[Path, str]:
    data = tmp_path / "data"
    with Store.open(data, embedder="hash", clock=clock) as store:
        first = store.log_turn(user_id="u", role="user", content="walnut desk order")
        assert turn_ids(store, "walnut desk") == {first.id}
        store.log_turn(user_id="u", role="user", content="oolong tea for bob")  # queued only
        assert turn_ids(store, "oolong") != set()  # written: the close is clean
    return data, first.id


def test_an_unchanged_store_skips_the_reconcile(
    tmp_path: Path, clock: ManualClock, reconciles: list[str]
) -> None:
    data, first = seeded(tmp_path, clock)
    assert reconciles == [MEMORY_TABLE]  # the seeding process reconciled once
    with Store.open(data, embedder="hash", clock=clock) as store:
        assert turn_ids(store, "walnut desk") == {first}
        later = store.log_turn(user_id="u", role="user", content="zeppelin ride booked")
        assert turn_ids(store, "zeppelin") == {later.id}  # writes after the skip still index
    assert reconciles == [MEMORY_TABLE]
    with Store.open(data, embedder="hash", clock=clock) as store:  # that close marked again
        assert turn_ids(store, "zeppelin") == {later.id}
    assert reconciles == [MEMORY_TABLE]


def test_a_close_after_reads_only_keeps_the_mark_without_digesting_again(
    tmp_path: Path, clock: ManualClock, reconciles: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    data, first = seeded(tmp_path, clock)
    digests: list[str] = []
    real = vectors.rows_digest

    def noted(rows: Any) -> str:
        digests.append(digest := real(rows))
        return digest

    monkeypatch.setattr(vectors, "rows_digest", noted)
    mark = ReconcileMarks(data / "vectors").get(MEMORY_TABLE)
    with Store.open(data, embedder="hash", clock=clock) as store:
        assert turn_ids(store, "walnut desk") == {first}
    assert digests == [] and ReconcileMarks(data / "vectors").get(MEMORY_TABLE) == mark
    with Store.open(data, embedder="hash", clock=clock) as store:
        assert turn_ids(store, "walnut desk") == {first}  # the skip, then a write
        later = store.log_turn(user_id="u", role="user", content="zeppelin ride booked")
        assert turn_ids(store, "zeppelin") == {later.id}
    assert len(digests) == 1  # the table moved on: its rows are digested again
    with Store.open(data, embedder="hash", clock=clock) as store:
        assert turn_ids(store, "zeppelin") == {later.id}
    assert reconciles == [MEMORY_TABLE]


def test_records_written_without_the_index_are_reconciled(
    tmp_path: Path, clock: ManualClock, reconciles: list[str]
) -> None:
    data, _ = seeded(tmp_path, clock)
    with Store.open(data, embedder="hash", clock=clock) as store:  # never opens the index
        unseen = store.log_turn(user_id="u", role="user", content="harpsichord lessons")
    with Store.open(data, embedder="hash", clock=clock) as store:
        assert turn_ids(store, "harpsichord") == {unseen.id}
    assert reconciles == [MEMORY_TABLE, MEMORY_TABLE]


def test_a_process_that_wrote_the_index_and_died_leaves_no_mark(
    tmp_path: Path, clock: ManualClock, reconciles: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    data, _ = seeded(tmp_path, clock)
    with monkeypatch.context() as crash:
        crash.setattr(VectorIndex, "mark_clean", lambda self, table: None)  # died before it
        with Store.open(data, embedder="hash", clock=clock) as store:
            assert turn_ids(store, "walnut desk")  # skipped: the mark held
            turn = store.log_turn(user_id="u", role="user", content="trombone repair")
            assert turn_ids(store, "trombone") == {turn.id}
            doc = (data / "vectors" / MARKS_FILE).read_text()
            assert MEMORY_TABLE not in doc  # dropped before its first write to the table
    with Store.open(data, embedder="hash", clock=clock) as store:
        assert turn_ids(store, "trombone") == {turn.id}
    assert reconciles == [MEMORY_TABLE, MEMORY_TABLE]


def test_a_table_at_another_version_is_reconciled(
    tmp_path: Path, clock: ManualClock, reconciles: list[str]
) -> None:
    data, first = seeded(tmp_path, clock)
    marks = ReconcileMarks(data / "vectors")
    mark = marks.get(MEMORY_TABLE)
    assert mark is not None
    marks.put(MEMORY_TABLE, Mark("memory@1", mark.digest))  # a version the table moved past
    with Store.open(data, embedder="hash", clock=clock) as store:
        assert turn_ids(store, "walnut desk") == {first}
    assert reconciles == [MEMORY_TABLE, MEMORY_TABLE]


@pytest.mark.parametrize("garbage", ["", "{", '{"format": 1, "tables": []}', '["x"]'])
def test_an_unreadable_marks_file_means_a_reconcile(
    tmp_path: Path, clock: ManualClock, reconciles: list[str], garbage: str
) -> None:
    data, first = seeded(tmp_path, clock)
    (data / "vectors" / MARKS_FILE).write_text(garbage)
    with Store.open(data, embedder="hash", clock=clock) as store:
        assert turn_ids(store, "walnut desk") == {first}
    assert reconciles == [MEMORY_TABLE, MEMORY_TABLE]


def test_a_close_with_index_work_still_queued_marks_nothing(
    tmp_path: Path, clock: ManualClock, reconciles: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    data, _ = seeded(tmp_path, clock)
    before = ReconcileMarks(data / "vectors").get(MEMORY_TABLE)
    with Store.open(data, embedder="hash", clock=clock) as store:
        assert turn_ids(store, "walnut desk")  # skipped: the mark held
        with monkeypatch.context() as failing:  # the append ahead of the next read fails
            failing.setattr(VectorIndex, "add_many", lambda *a, **k: _full_disk())
            store.log_turn(user_id="u", role="user", content="queued at close")
            store.index.settle()
    # The table is as the old mark says; the records moved on, which the digest will show.
    assert ReconcileMarks(data / "vectors").get(MEMORY_TABLE) == before
    with Store.open(data, embedder="hash", clock=clock) as store:
        assert turn_ids(store, "queued at close")
    assert reconciles == [MEMORY_TABLE, MEMORY_TABLE]


def _full_disk() -> None:
    raise OSError("No space left on device")


def test_the_digest_is_of_content_not_order() -> None:
    one: dict[str, Any] = {"a": {"x": "1", "y": "2"}, "b": {"x": "3"}}
    two: dict[str, Any] = {"b": {"x": "3"}, "a": {"y": "2", "x": "1"}}
    assert revisions_digest(one) == revisions_digest(two)
    assert revisions_digest(one) != revisions_digest({"a": {"x": "1", "y": "2"}, "b": {}})
    assert revisions_digest(one) != revisions_digest({"a": {"x": "1", "y": "9"}, "b": {"x": "3"}})
    assert revisions_digest(one) != revisions_digest({"a": {"x": "1"}, "b": {"x": "3", "y": "2"}})
    # the index side feeds its rows one at a time: the same rows digest the same
    rows = [("b", "x", "3"), ("a", "y", "2"), ("a", "x", "1")]
    assert rows_digest(iter(rows)) == revisions_digest(one)
