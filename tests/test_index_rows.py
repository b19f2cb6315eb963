"""IndexRows and RowsById: the in-memory rows search hits are made of stay true to the index."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import lancedb
import pyarrow as pa
import pytest

from memvisor.storage import arrow_rows
from memvisor.storage.arrow_rows import RowsById
from memvisor.storage.embedders import HashEmbedder
from memvisor.storage.index_rows import IndexRows
from memvisor.storage.vectors import IndexedText, VectorIndex

T0 = datetime(2026, 5, 1, 9, 0, tzinfo=UTC)


def rows(*pairs: tuple[str, str], user: str = "u") -> pa.Table:
    return pa.table(
        {
            "id": [p[0] for p in pairs],
            "user_id": [user] * len(pairs),
            "text": [p[1] for p in pairs],
        }
    )


def test_copy_loads_once_and_follows_reported_writes() -> None:
    loads: list[str] = []

    def load(table: str) -> pa.Table:
        loads.append(table)
        return rows(("a", "apple"), ("b", "bread"))

    copy = IndexRows(load)
    assert copy.may_hold("t", "u", ["z"])  # not loaded: only LanceDB knows
    copy.added("t", rows(("z", "never loaded")))  # no copy yet: nothing to follow
    assert copy.get("t", "u", ["a", "b", "z", "a"]) == {
        "a": {"id": "a", "user_id": "u", "text": "apple"},
        "b": {"id": "b", "user_id": "u", "text": "bread"},
    }
    assert not copy.may_hold("t", "u", ["z", "y"]) and copy.may_hold("t", "u", ["z", "b"])
    copy.added("t", rows(("a", "apricot"), ("c", "cake")))
    copy.deleted("t", "u", ["b"])
    got = copy.get("t", "u", ["a", "b", "c"])
    assert {k: v["text"] for k, v in got.items()} == {"a": "apricot", "c": "cake"}
    assert copy.texts("t", "u") == {"a": "apricot", "c": "cake"}
    assert loads == ["t"]
    copy.forget("t")
    copy.get("t", "u", ["a"])
    assert loads == ["t", "t"]


def test_one_copy_serves_every_user_and_never_hands_out_another_users_row() -> None:
    loads: list[str] = []

    def load(table: str) -> pa.Table:
        loads.append(table)
        return pa.concat_tables(
            [rows((f"{user}-1", f"note of {user}"), user=user) for user in ("u1", "u2", "u3")]
        )

    copy = IndexRows(load)
    for user in ("u1", "u2", "u1", "u3", "u1", "u2"):
        asked = ["u1-1", "u2-1", "u3-1"]
        assert copy.get("t", user, asked) == {
            f"{user}-1": {"id": f"{user}-1", "user_id": user, "text": f"note of {user}"}
        }
    assert loads == ["t"]  # one read, however many users come and go
    copy.deleted("t", "u2", ["u1-1"])  # not u2's row: nothing happens to it
    assert copy.ids("t", "u1") == {"u1-1"}
    copy.added("t", rows(("u1-1", "u3's own row of that id"), user="u3"))
    assert copy.get("t", "u1", ["u1-1"])["u1-1"]["text"] == "note of u1"
    copy.added("t", rows(("u2-2", "second"), user="u2"))
    assert sorted(copy.iter_texts("t")) == [
        ("u1", "u1-1", "note of u1"),
        ("u2", "u2-1", "note of u2"),
        ("u2", "u2-2", "second"),
        ("u3", "u1-1", "u3's own row of that id"),
        ("u3", "u3-1", "note of u3"),
    ]
    assert copy.users("t") == {"u1", "u2", "u3"}
    assert not copy.may_hold("t", "u3", ["u2-2"])


def test_many_writes_merge_into_one_chunk_without_losing_rows(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(arrow_rows, "MAX_CHUNKS", 4)
    copy = RowsById(rows(("base", "base v0")))
    expected = {"base": "base v0"}
    for n in range(23):
        copy.append(rows((f"r{n}", f"row {n}"), (f"r{n // 2}", f"row {n // 2} v{n}")))
        expected.update({f"r{n}": f"row {n}", f"r{n // 2}": f"row {n // 2} v{n}"})
        if n % 5 == 4:
            copy.remove([f"r{n - 1}"])
            expected.pop(f"r{n - 1}")
    got = copy.get([*reversed(expected), "r3"])
    assert list(got) == list(reversed(expected))  # in the order asked; r3 was removed
    assert {k: v["text"] for k, v in got.items()} == expected
    assert len(copy) == len(expected) and copy.chunk_count <= 5
    # read a few rows at a time, a replaced or removed row is never read
    assert sorted(copy.iter_column("text", batch=3)) == sorted(expected.items())
    assert copy.column("text") == expected


def test_search_hits_reflect_writes_and_a_copy_missing_a_write_is_reread(
    tmp_path: Path,
) -> None:
    index = VectorIndex(tmp_path / "v", HashEmbedder())

    def add(row_id: str, text: str) -> None:
        index.add("t", [IndexedText(row_id, "alice", text, "passage", T0)], user_id="alice")

    add("p1", "black coffee in the morning")
    add("p2", "green tea at night")
    assert index.search("t", "coffee", user_id="alice", mode="fts")[0].text.startswith("black")
    add("p1", "cold coffee by the river")  # a re-added id: the new text is the hit
    assert index.search("t", "coffee", user_id="alice", mode="fts")[0].text.startswith("cold")
    index.delete("t", ["p1"], user_id="alice")
    assert [h.id for h in index.search("t", "coffee tea", user_id="alice", mode="fts")] == ["p2"]
    # A row written behind the index's back (not possible with the store's lock held):
    # the hit is still served, from a fresh read.
    vector = HashEmbedder().embed(["espresso shot"])[0]
    behind = lancedb.connect(tmp_path / "v").open_table("t")
    template = behind.search().limit(1).to_arrow().to_pylist()[0]
    behind.add([{**template, "id": "p9", "text": "espresso shot", "vector": vector.tolist()}])
    index._tables["t"].table.checkout_latest()
    reads: list[str] = []
    read = index._rows._load

    def counted(table: str) -> pa.Table:
        reads.append(table)
        return read(table)

    index._rows._load = counted
    hits = index.search("t", "espresso", user_id="alice", mode="fts")
    assert [(h.id, h.text) for h in hits] == [("p9", "espresso shot")]
    assert reads == ["t"]


@pytest.mark.parametrize("tz", [None, "UTC", "Europe/Stockholm"])
@pytest.mark.parametrize("unit", ["s", "ms", "us", "ns"])
def test_rows_by_id_give_the_datetimes_arrow_gives(unit: str, tz: str | None) -> None:
    """Timestamps are read through numpy (faster); the values are Arrow's own, nulls too."""
    when = [datetime(2025, 3, 30, 1, 59, 59, 0 if unit in ("s", "ms") else 123456), None]
    aware = [w.replace(tzinfo=UTC) if w and tz else w for w in when]
    table = pa.table(
        {"id": ["a", "b"], "ts": pa.array(aware, pa.timestamp(unit, tz=tz)), "n": [1, None]}
    )
    rows = RowsById(table).get(["b", "a", "gone"])
    assert list(rows) == ["b", "a"]
    assert rows == {r["id"]: r for r in table.to_pylist()}  # as Arrow converts each row
    assert rows["a"]["ts"] == aware[0]
    assert (rows["a"]["ts"].tzinfo is None) == (tz is None) and rows["b"]["ts"] is None
