"""The search index: vector, full-text and hybrid search, strictly per user.

A storage contract: each test runs on LanceDB (``VectorIndex``) and on PostgreSQL
(``PgVectorIndex``); the ones about LanceDB's own files and filters are ``duckdb_only``.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import lancedb
import numpy as np
import pytest
from lancedb.background_loop import LOOP
from lancedb.index import Bitmap

from memvisor.errors import StorageError, UserError
from memvisor.storage import lance_upkeep, vectors
from memvisor.storage.backends import STORE_ENV
from memvisor.storage.embedders import Embedder, HashEmbedder
from memvisor.storage.lance_queries import best_first, search_filter
from memvisor.storage.search_index import SearchIndex
from memvisor.storage.vectors import IndexedText, VectorIndex

pytestmark = pytest.mark.usefixtures("backend")
OpenIndex = Callable[..., SearchIndex]

T0 = datetime(2026, 5, 1, 9, 0, tzinfo=UTC)
TEXTS = {
    "p1": "I drink black coffee every morning before work",
    "p2": "My order number is A-1234 and it shipped on Monday",
    "p3": "The team meeting moved to Tuesday afternoon",
    "p4": "我喜欢在周末喝咖啡",
    "p5": "Never book flights with a layover in Frankfurt",
}
NASTY = [
    '"unbalanced',
    "it's",
    "a:b",
    "text:coffee",
    "(",
    ")",
    "coffee OR",
    "AND NOT",
    "*",
    "\\",
    "中文查询",
    "咖啡",
    "😀🔥",
    "emoji 😀 coffee",
    "' OR 1=1 --",
    "{}[]^~",
    "   ",
    "\x00",
    "-",
]


def item(id: str, user: str = "alice", text: str | None = None, **kw: object) -> IndexedText:
    kw.setdefault("kind", "passage")
    kw.setdefault("ts", T0)
    return IndexedText(id=id, user_id=user, text=text or TEXTS[id], **kw)  # type: ignore[arg-type]


@pytest.fixture
def open_index(backend: str, tmp_path: Path) -> Iterator[OpenIndex]:
    """Opens the backend's index (again: a reopen), with the hash embedder unless told."""
    opened = []

    def open_(embedder: Embedder | None = None) -> SearchIndex:
        embedder = embedder or HashEmbedder()
        if backend == "duckdb":
            return VectorIndex(tmp_path / "vectors", embedder)
        from memvisor.storage.pg_vectors import PgVectorIndex
        from memvisor.storage.postgres import PostgresDatabase

        opened.append(PostgresDatabase(os.environ[STORE_ENV]))
        return PgVectorIndex(opened[-1], embedder)

    yield open_
    for db in opened:
        db.close()


@pytest.fixture
def index(open_index: OpenIndex) -> SearchIndex:
    return open_index()


@pytest.fixture
def filled(index: SearchIndex) -> SearchIndex:
    index.add("passages", [item(i) for i in TEXTS], user_id="alice")
    return index


@pytest.mark.parametrize("mode", ["vector", "fts", "hybrid"])
def test_search_each_mode_finds_the_right_passage(filled: SearchIndex, mode: str) -> None:
    hits = filled.search("passages", "coffee in the morning", user_id="alice", mode=mode)
    assert hits and hits[0].id == "p1"
    assert all(hit.route == mode for hit in hits)
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    assert hits[0].text == TEXTS["p1"] and hits[0].kind == "passage"
    assert hits[0].ts == T0 and hits[0].ts.tzinfo is not None


def test_scores_per_route(filled: SearchIndex) -> None:
    top = filled.search("passages", TEXTS["p3"], user_id="alice", mode="vector")[0]
    assert top.id == "p3" and top.score == pytest.approx(1.0, abs=1e-4)  # 1 - cosine distance
    fused = filled.search("passages", "order A-1234", user_id="alice", mode="hybrid")
    assert fused[0].id == "p2"
    assert fused[0].score == pytest.approx(2 / 61)  # first in both routes: 2 / (60 + 1)


def test_hybrid_and_vector_use_a_given_query_vector(filled: SearchIndex) -> None:
    vector = HashEmbedder().embed([TEXTS["p5"]])[0]
    assert (
        filled.search("passages", "", user_id="alice", mode="vector", query_vector=vector)[0].id
        == "p5"
    )
    assert filled.search("passages", "", user_id="alice", query_vector=vector)[0].id == "p5"
    with pytest.raises(UserError, match="dims"):
        filled.search("passages", "x", user_id="alice", query_vector=np.ones(3))


def test_limit_kinds_and_empty_queries(filled: SearchIndex) -> None:
    filled.add("passages", [item("t1", text="coffee turn", kind="turn")], user_id="alice")
    assert len(filled.search("passages", "coffee", user_id="alice", limit=1)) == 1
    turns = filled.search("passages", "coffee", user_id="alice", kinds=["turn"])
    assert [hit.id for hit in turns] == ["t1"]
    one_kind = filled.search("passages", "coffee", user_id="alice", kinds="turn")  # a str too
    assert [hit.id for hit in one_kind] == ["t1"]
    assert filled.search("passages", "coffee", user_id="alice", kinds=[]) == []
    assert filled.search("passages", "coffee", user_id="alice", kinds=["it's"]) == []
    for mode in ("vector", "fts", "hybrid"):
        assert filled.search("passages", "  ", user_id="alice", mode=mode) == []
    assert filled.search("passages", "coffee", user_id="alice", limit=0) == []


def test_missing_table_and_bad_arguments(index: SearchIndex) -> None:
    index.add("passages", [], user_id="alice")  # nothing to add creates nothing
    assert index.search("nothing", "coffee", user_id="alice") == []
    assert index.items("nothing", user_id="alice") == []
    assert index.ids("nothing", user_id="alice") == set()
    assert index.count("nothing", user_id="alice") == 0
    assert index.delete("nothing", ["x"], user_id="alice") == 0
    index.optimize("nothing")
    with pytest.raises(UserError, match="mode"):
        index.search("passages", "x", user_id="alice", mode="bm25")
    with pytest.raises(UserError, match="table name"):
        index.search("passages; drop", "x", user_id="alice")


def test_chinese_and_nasty_fts_queries_never_raise(filled: SearchIndex) -> None:
    assert filled.search("passages", "咖啡", user_id="alice", mode="fts")[0].id == "p4"
    for query in NASTY:
        for mode in ("vector", "fts", "hybrid"):
            filled.search("passages", query, user_id="alice", mode=mode)
    assert filled.search("passages", 'coffee" OR (morning:', user_id="alice", mode="fts")


def test_every_call_needs_a_valid_user(filled: SearchIndex) -> None:
    calls = [
        lambda u: filled.add("passages", [item("p9", user=u or "x", text="t")], user_id=u),
        lambda u: filled.search("passages", "coffee", user_id=u),
        lambda u: filled.delete("passages", ["p1"], user_id=u),
        lambda u: filled.items("passages", user_id=u),
        lambda u: filled.ids("passages", user_id=u),
        lambda u: filled.count("passages", user_id=u),
    ]
    for call in calls:
        for bad in ("", None, "alice' OR '1'='1"):
            with pytest.raises(UserError):
                call(bad)
    assert filled.count("passages", user_id="alice") == len(TEXTS)


def test_add_rejects_items_of_another_user(filled: SearchIndex) -> None:
    with pytest.raises(UserError, match="belongs to user 'bob'"):
        filled.add("passages", [item("p9", text="ok"), item("b1", "bob", "x")], user_id="alice")
    assert filled.count("passages", user_id="alice") == len(TEXTS)
    assert filled.count("passages", user_id="bob") == 0


def test_users_never_see_or_touch_each_others_rows(filled: SearchIndex) -> None:
    # Bob holds the same texts, better matches, a shared id and ids of his own.
    bob = [item(i, "bob") for i in TEXTS] + [
        item(f"b{n}", "bob", "coffee coffee coffee morning") for n in range(40)
    ]
    filled.add("passages", bob, user_id="bob")
    alice_ids = set(TEXTS)
    for mode in ("vector", "fts", "hybrid"):
        # limit=1 while bob has 40 better rows: only an in-query filter still finds alice's
        hits = filled.search(
            "passages", "coffee coffee morning", user_id="alice", mode=mode, limit=1
        )
        assert [h.id for h in hits] == ["p1"]
        many = filled.search("passages", "coffee", user_id="alice", mode=mode, limit=100)
        assert {h.id for h in many} <= alice_ids
    assert filled.ids("passages", user_id="alice") == alice_ids
    assert {i.user_id for i in filled.items("passages", user_id="alice")} == {"alice"}
    assert filled.count("passages", user_id="bob") == len(TEXTS) + 40
    # alice deletes a shared id and an id only bob has: only her own row goes
    assert filled.delete("passages", ["p1", "b0", "nope"], user_id="alice") == 1
    assert "p1" in filled.ids("passages", user_id="bob")
    assert "b0" in filled.ids("passages", user_id="bob")
    assert filled.count("passages", user_id="bob") == len(TEXTS) + 40
    assert filled.delete("passages", ["b0"], user_id="bob") == 1
    assert filled.ids("passages", user_id="alice") == alice_ids - {"p1"}


@pytest.mark.duckdb_only  # LanceDB's own filters and index files
def test_filters_left_out_only_while_every_row_passes_them(
    filled: SearchIndex, tmp_path: Path
) -> None:
    # alice alone, one kind: her searches run unfiltered; a stranger finds nothing.
    assert filled.search("passages", "coffee", user_id="alice", mode="fts")[0].id == "p1"
    assert filled.search("passages", "coffee", user_id="carol") == []
    state = filled._state("passages")
    assert state is not None
    held = (state.users, state.kinds)  # updated in place by every add
    assert search_filter(*held, "alice", ["passage"]) is None
    filled.add("passages", [item("t1", "alice", "coffee turn", kind="turn")], user_id="alice")
    assert search_filter(*held, "alice", ["turn"]) == "kind IN ('turn')"
    bob = [item(f"b{n}", "bob", "coffee coffee coffee morning") for n in range(30)]
    filled.add("passages", bob, user_id="bob")
    assert search_filter(*held, "alice", ["turn", "passage"]) == "user_id = 'alice'"
    reopened = VectorIndex(tmp_path / "vectors", HashEmbedder())  # reads users and kinds back
    for index in (filled, reopened):
        for mode in ("vector", "fts", "hybrid"):
            hits = index.search("passages", "coffee morning", user_id="alice", mode=mode, limit=50)
            assert hits and {h.id for h in hits} <= set(TEXTS) | {"t1"}
            turns = index.search("passages", "coffee", user_id="alice", mode=mode, kinds=["turn"])
            assert [h.id for h in turns] == ["t1"]
        assert index.search("passages", "coffee", user_id="carol") == []


def test_items_round_trip_fields(index: SearchIndex) -> None:
    first = item(
        "p1",
        ts=T0 + timedelta(hours=1),
        session_id="s1",
        trace_id="trc_1",
        meta={"speaker": "Ann", "n": 3, "ünï": ["ok"]},
    )
    naive = item("p2", ts=datetime(2026, 5, 1, 8, 0))  # naive is taken as UTC
    index.add("passages", [first, naive], user_id="alice")
    got = index.items("passages", user_id="alice")
    assert [i.id for i in got] == ["p2", "p1"]  # oldest first
    assert got[1] == first
    assert got[0].ts == datetime(2026, 5, 1, 8, 0, tzinfo=UTC)
    hit = index.search("passages", "coffee", user_id="alice", mode="fts")[0]
    assert (hit.session_id, hit.trace_id, hit.meta) == ("s1", "trc_1", first.meta)


def test_adding_an_existing_id_replaces_it(filled: SearchIndex) -> None:
    filled.add(
        "passages", [item("p1", text="tea now"), item("p1", text="green tea now")], user_id="alice"
    )
    assert filled.count("passages", user_id="alice") == len(TEXTS)
    assert filled.search("passages", "green tea", user_id="alice", mode="fts")[0].id == "p1"
    assert filled.search("passages", "coffee morning", user_id="alice", mode="fts") == []


@pytest.mark.duckdb_only  # LanceDB's own filters and index files
def test_rows_added_after_the_index_build_are_found(filled: SearchIndex, tmp_path: Path) -> None:
    filled.add("passages", [item("late", text="zeppelin rides over Lisbon")], user_id="alice")
    table = lancedb.connect(tmp_path / "vectors").open_table("passages")
    stats = table.index_stats("text_idx")
    assert stats is not None and stats.num_unindexed_rows == 1
    for mode in ("vector", "fts", "hybrid"):
        assert (
            filled.search("passages", "zeppelin Lisbon", user_id="alice", mode=mode)[0].id == "late"
        )
    before = {
        m: filled.search("passages", "coffee order", user_id="alice", mode=m) for m in vectors.MODES
    }
    filled.optimize("passages")
    stats = lancedb.connect(tmp_path / "vectors").open_table("passages").index_stats("text_idx")
    assert stats is not None and stats.num_unindexed_rows == 0
    after = {
        m: filled.search("passages", "coffee order", user_id="alice", mode=m) for m in vectors.MODES
    }
    for mode in vectors.MODES:
        assert [h.id for h in after[mode]] == [h.id for h in before[mode]]
    assert filled.search("passages", "zeppelin", user_id="alice", mode="fts")[0].id == "late"


@pytest.mark.duckdb_only  # LanceDB's own filters and index files
def test_optimize_runs_by_itself_after_many_appends(
    index: SearchIndex, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lance_upkeep, "REINDEX_AFTER_ADDS", 3)
    folded_on: list[str] = []
    optimize = lance_upkeep.optimize

    def noted(state: lance_upkeep.TableState) -> None:
        folded_on.append(threading.current_thread().name)
        optimize(state)

    monkeypatch.setattr(lance_upkeep, "optimize", noted)
    for n in range(4):  # the first add builds the indices, three more trigger optimize
        index.add("turns", [item(f"t{n}", text=f"turn number {n}", kind="turn")], user_id="alice")
    index.close()  # waits for the fold
    # The first indices are built by the add itself; the fold runs off the caller's thread.
    assert folded_on == [threading.current_thread().name, "memvisor-index-fold"]
    stats = lancedb.connect(tmp_path / "vectors").open_table("turns").index_stats("text_idx")
    assert stats is not None and stats.num_unindexed_rows == 0
    assert index.count("turns", user_id="alice") == 4
    found = index.search("turns", "turn number", user_id="alice", mode="fts", limit=10)
    assert sorted(h.id for h in found) == ["t0", "t1", "t2", "t3"]  # the folded index finds all


@pytest.mark.duckdb_only  # LanceDB's own filters and index files
def test_a_search_waits_for_a_fold_under_way(
    index: SearchIndex, monkeypatch: pytest.MonkeyPatch
) -> None:
    # LanceDB scores BM25 of unfolded rows with other statistics than folded ones, so a
    # search racing the fold ranked the same rows differently from run to run.
    assert isinstance(index, VectorIndex)
    index.reproducible = True  # as replays and evals open it
    monkeypatch.setattr(lance_upkeep, "REINDEX_AFTER_ADDS", 2)
    release, folded = threading.Event(), threading.Event()
    optimize = lance_upkeep.optimize

    def slow(state: lance_upkeep.TableState) -> None:
        if threading.current_thread().name == "memvisor-index-fold":
            release.wait(timeout=10)
            optimize(state)
            folded.set()
        else:
            optimize(state)

    monkeypatch.setattr(lance_upkeep, "optimize", slow)
    for n in range(3):  # the first add builds the indices, two more start a fold
        index.add("turns", [item(f"t{n}", text=f"turn number {n}", kind="turn")], user_id="alice")
    threading.Timer(0.3, release.set).start()
    found = index.search("turns", "turn number", user_id="alice", mode="fts", limit=10)
    assert folded.is_set()  # the search ran only once the fold had committed
    assert sorted(h.id for h in found) == ["t0", "t1", "t2"]


@pytest.mark.duckdb_only  # PostgreSQL has no fold
def test_a_live_search_reads_the_table_as_it_was_before_a_fold_under_way(
    index: SearchIndex, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 17: the fold (0.3-0.5 s at 100k rows) leaves the turn, and no read sees it half
    done: a search meanwhile reads the version the fold began from, every row in it."""
    assert isinstance(index, VectorIndex) and not index.reproducible
    monkeypatch.setattr(lance_upkeep, "REINDEX_AFTER_ADDS", 2)
    started, moved, finish = threading.Event(), threading.Event(), threading.Event()
    optimize = lance_upkeep.optimize
    versions: list[int] = []

    def slow(state: lance_upkeep.TableState) -> None:
        if threading.current_thread().name != "memvisor-index-fold":
            optimize(state)
            return
        versions.append(state.table.version)
        started.set()
        optimize(state)  # compacts and extends the indices: new versions
        versions.append(state.table.version)
        moved.set()
        finish.wait(timeout=10)  # the fold is still under way

    monkeypatch.setattr(lance_upkeep, "optimize", slow)
    read_through: list[int] = []
    enter = VectorIndex._enter_read

    def noted(self: VectorIndex, state: lance_upkeep.TableState) -> lance_upkeep.ReadView:
        view = enter(self, state)
        read_through.append(-1 if view.main else LOOP.run(view.aio.version()))
        return view

    monkeypatch.setattr(VectorIndex, "_enter_read", noted)
    for n in range(3):  # the first add builds the indices, two more start a fold
        index.add("turns", [item(f"t{n}", text=f"turn number {n}", kind="turn")], user_id="alice")
    assert started.wait(timeout=10) and moved.wait(timeout=10)
    assert versions[1] > versions[0]  # the fold has moved the table on, and is not done
    for mode in ("fts", "vector", "hybrid"):
        found = index.search("turns", "turn number", user_id="alice", mode=mode, limit=10)
        assert sorted(h.id for h in found) == ["t0", "t1", "t2"], mode
    assert read_through == [versions[0]] * 3  # each read the version the fold began from
    finish.set()
    index.close()  # waits for the fold to end
    found = index.search("turns", "turn number", user_id="alice", mode="hybrid", limit=10)
    assert sorted(h.id for h in found) == ["t0", "t1", "t2"]
    assert read_through[-1] == -1  # the table's own handle again


def test_tied_scores_come_back_in_id_order() -> None:
    found = [("a", 1.0), ("c", 2.0), ("d", 1.0), ("b", 1.0)]
    assert best_first(found) == [("c", 2.0), ("a", 1.0), ("b", 1.0), ("d", 1.0)]


@pytest.mark.duckdb_only  # LanceDB's own filters and index files
def test_ann_index_is_built_and_retrained_as_the_table_grows(
    index: SearchIndex, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lance_upkeep, "ANN_MIN_ROWS", 300)
    monkeypatch.setattr(lance_upkeep, "ROWS_PER_PARTITION", 25)
    words = ["coffee", "tea", "order", "flight", "meeting", "berlin", "paris", "invoice"]
    for user in ("alice", "bob"):
        rows = [
            item(f"{user}{n}", user, f"{words[n % 8]} {words[n // 8 % 8]} note {n}")
            for n in range(160)
        ]
        index.add("passages", rows, user_id=user)
    index.optimize("passages")
    names = {
        ix.name
        for ix in lancedb.connect(tmp_path / "vectors").open_table("passages").list_indices()
    }
    assert "vector_ivfsq_p12" in names
    query = "tea order note 17"  # the text of alice17
    for mode in vectors.MODES:
        hits = index.search("passages", query, user_id="alice", mode=mode, limit=5)
        assert hits and all(h.id.startswith("alice") for h in hits)
    assert index.search("passages", query, user_id="alice", mode="vector")[0].id == "alice17"
    more = [item(f"alice{n}", "alice", f"{words[n % 8]} extra {n}") for n in range(160, 500)]
    index.add("passages", more, user_id="alice")
    index.optimize("passages")
    names = {
        ix.name
        for ix in lancedb.connect(tmp_path / "vectors").open_table("passages").list_indices()
    }
    assert "vector_ivfsq_p26" in names and "vector_ivfsq_p12" not in names
    assert index.search("passages", query, user_id="alice", mode="vector")[0].id == "alice17"


def test_persists_across_reopen(filled: SearchIndex, open_index: OpenIndex) -> None:
    filled.add("passages", [item("late", text="zeppelin rides")], user_id="alice")
    reopened = open_index()
    assert reopened.ids("passages", user_id="alice") == set(TEXTS) | {"late"}
    assert reopened.items("passages", user_id="alice") == filled.items("passages", user_id="alice")
    for mode in vectors.MODES:
        assert reopened.search("passages", "zeppelin", user_id="alice", mode=mode)[0].id == "late"


def test_another_embedding_model_is_refused(filled: SearchIndex, open_index: OpenIndex) -> None:
    other = open_index(HashEmbedder(dim=128))
    with pytest.raises(StorageError, match=r"built with embedding model 'hash-v1-256'.*reindex"):
        other.add("passages", [item("p9", text="new")], user_id="alice")
    with pytest.raises(StorageError, match="reindex"):
        other.search("passages", "coffee", user_id="alice", mode="hybrid")
    with pytest.raises(StorageError, match="reindex"):
        other.search("passages", "coffee", user_id="alice", mode="vector")
    # words and export still work, so the index can be rebuilt from it
    assert other.search("passages", "coffee", user_id="alice", mode="fts")[0].id == "p1"
    assert len(other.items("passages", user_id="alice")) == len(TEXTS)
    assert filled.count("passages", user_id="alice") == len(TEXTS)


def test_needles_find_rows_holding_the_identifier_itself(index: SearchIndex) -> None:
    rows = {
        "o1": "Order ORD-58213 shipped to Lisbon",
        "o2": "ord and 58213 appear apart here, ord 58213",  # the words, not the code
        "o3": "Write to Ana.Silva@example.com about invoice 77120",
        "o4": "Nothing to see",
    }
    index.add("m", [item(i, text=t) for i, t in rows.items()], user_id="alice")
    index.add("m", [item("t1", text="my order ord-58213 is late", kind="turn")], user_id="alice")
    index.add("m", [item("b1", "bob", "ORD-58213 is bob's too")], user_id="bob")

    def exact(*needles: str, user: str = "alice", **kw: object) -> list[vectors.SearchHit]:
        routes = index.routes("m", "", user_id=user, vector=False, needles=needles, **kw)  # type: ignore[arg-type]
        assert routes.vector == routes.fts == []  # an empty query: no other route ran
        return routes.exact

    def found(*needles: str, **kw: object) -> set[str]:
        return {h.id for h in exact(*needles, **kw)}

    assert found("ord-58213") == {"o1", "t1"}  # any case; never bob's row
    assert found("ORD-58213", kinds=["passage"]) == {"o1"}
    assert found("ana.silva@example.com", "77120") == {"o3"}
    assert found("58213") == {"o1", "o2", "t1"}
    assert found("ZZ-0000") == set() and found("", "  ") == set()
    assert found("ORD-58213", kinds=[]) == set()
    assert exact("ORD-58213", user="carol") == []
    assert index.routes("nothing", "", user_id="alice", needles=["ORD-58213"]).exact == []
    hit = exact("77120")[0]
    assert (hit.route, hit.text, hit.kind) == ("exact", rows["o3"], "passage")


def test_eight_threads_adding_to_one_new_table(index: SearchIndex) -> None:
    start = threading.Barrier(8)
    errors: list[BaseException] = []

    def add(n: int) -> None:
        try:
            start.wait()
            for k in range(5):
                index.add("m", [item(f"p{n}_{k}", text=f"note {n} {k}")], user_id="alice")
                index.search("m", f"note {n}", user_id="alice")
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=add, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert index.ids("m", user_id="alice") == {f"p{n}_{k}" for n in range(8) for k in range(5)}


@pytest.mark.duckdb_only  # LanceDB's own index files
def test_rows_the_vector_index_lacks_are_scored_as_a_flat_scan_would(
    index: SearchIndex, open_index: OpenIndex, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lance_upkeep, "ANN_MIN_ROWS", 300)
    monkeypatch.setattr(lance_upkeep, "ROWS_PER_PARTITION", 25)
    monkeypatch.setattr(lance_upkeep, "REINDEX_AFTER_ADDS", 1_000)
    words = ["coffee", "tea", "order", "flight", "meeting", "berlin", "paris", "invoice"]
    for user in ("alice", "bob"):
        rows = [
            item(f"{user}{n}", user, f"{words[n % 8]} {words[n // 8 % 8]} note {n}")
            for n in range(200)
        ]
        index.add("passages", rows, user_id=user)
    index.optimize("passages")
    assert isinstance(index, VectorIndex)
    late = {"late0": "zeppelin rides over lisbon", "late1": "zeppelin hangar in berlin"}
    for row_id, text in late.items():  # one append each, for each user
        for user in ("alice", "bob"):
            index.add("passages", [item(row_id, user, text)], user_id=user)
    index.add("passages", [item("alice3", "alice", "zeppelin tea")], user_id="alice")  # replaced
    index.delete("passages", ["late0"], user_id="bob")
    state = index._tables["passages"]
    assert state.unfolded is not None and len(state.unfolded) == 4  # alice3's old row is folded
    queries = ("zeppelin", "zeppelin berlin", "tea order note 17")
    ours = {
        (q, user): index.search("passages", q, user_id=user, mode="vector", limit=8)
        for q in queries
        for user in ("alice", "bob")
    }
    kept, state.unfolded = state.unfolded, None  # LanceDB scans the appended fragments itself
    for (q, user), hits in ours.items():
        lance = index.search("passages", q, user_id=user, mode="vector", limit=8)
        assert [h.id for h in hits] == [h.id for h in lance]
        assert [h.score for h in hits] == pytest.approx([h.score for h in lance], abs=1e-5)
    state.unfolded = kept
    found = {h.id for h in index.search("passages", "zeppelin", user_id="bob", mode="vector")}
    assert "late1" in found and "late0" not in found
    best = index.search("passages", "zeppelin tea", user_id="alice", mode="vector")[0]
    assert best.id == "alice3"
    # Another process does not know which rows the index lacks: LanceDB scans them itself.
    reopened = open_index()
    hits = reopened.search("passages", "zeppelin rides", user_id="alice", mode="vector")
    assert isinstance(reopened, VectorIndex) and reopened._tables["passages"].unfolded is None
    assert hits[0].id == "late0"
    reopened.optimize("passages")  # folded: every row is indexed, none left to score here
    assert reopened._tables["passages"].unfolded is not None
    assert not len(reopened._tables["passages"].unfolded)
    assert reopened.search("passages", "zeppelin rides", user_id="alice")[0].id == "late0"


@pytest.mark.duckdb_only  # LanceDB's own index files
def test_the_ann_index_s_hits_carry_the_exact_similarity(
    index: SearchIndex, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The index ranks by its int8 codes; the hits' scores are each row's exact cosine
    similarity, as a flat scan gives (one scale with the rows it has not indexed)."""
    monkeypatch.setattr(lance_upkeep, "ANN_MIN_ROWS", 300)
    monkeypatch.setattr(lance_upkeep, "ROWS_PER_PARTITION", 25)
    words = ["coffee", "tea", "order", "flight", "meeting", "berlin", "paris", "invoice"]
    rows = [
        item(f"p{n}", "alice", f"{words[n % 8]} {words[n // 8 % 8]} note {n}") for n in range(400)
    ]
    index.add("passages", rows, user_id="alice")
    index.optimize("passages")
    assert isinstance(index, VectorIndex) and index._tables["passages"].ann_partitions
    texts = {row.id: row.text for row in rows}
    for query in ("tea order note 17", "berlin flight", "invoice meeting paris"):
        hits = index.search("passages", query, user_id="alice", mode="vector", limit=20)
        assert len(hits) == 20
        vectors_of = index.embedder.embed([query, *(texts[h.id] for h in hits)])
        unit = vectors_of / np.linalg.norm(vectors_of, axis=1, keepdims=True)
        exact = unit[1:] @ unit[0]
        assert [h.score for h in hits] == pytest.approx(exact.tolist(), abs=1e-5)
        assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)


@pytest.mark.duckdb_only  # LanceDB's own index files
def test_an_older_tables_bitmap_on_user_id_is_rebuilt_as_a_btree_by_the_next_add(
    open_index: OpenIndex, tmp_path: Path
) -> None:
    """A bitmap keeps one bitmap per user, and every fold rewrote them all: new tables get a
    btree, and an older table's bitmap is replaced by the next add (never by a reader)."""
    older = open_index()
    older.add("passages", [item("p1")], user_id="alice")
    older.close()
    table = lancedb.connect(tmp_path / "vectors").open_table("passages")
    assert _index_type(table, "user_id_idx") == "BTree"
    table.create_index("user_id", config=Bitmap(), replace=True, name="user_id_idx")

    reopened = open_index()
    assert {h.id for h in reopened.search("passages", "coffee", user_id="alice")} == {"p1"}
    assert _index_type(table, "user_id_idx") == "Bitmap"  # a search changes nothing
    reopened.add("passages", [item("p2", user="bob")], user_id="bob")
    table.checkout_latest()
    assert _index_type(table, "user_id_idx") == "BTree"
    assert {h.id for h in reopened.search("passages", "order", user_id="bob")} == {"p2"}
    assert {h.id for h in reopened.search("passages", "order", user_id="alice")} == {"p1"}


@pytest.mark.duckdb_only  # LanceDB's own index files
def test_the_rebuild_of_an_older_tables_user_index_folds_its_vector_index_too(
    open_index: OpenIndex, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rows appended since the vector index's last fold are searched beside it; rebuilding
    the user index must fold them in before the table counts as fully indexed."""
    monkeypatch.setattr(lance_upkeep, "ANN_MIN_ROWS", 300)
    monkeypatch.setattr(lance_upkeep, "ROWS_PER_PARTITION", 25)
    older = open_index()
    rows = [item(f"a{n}", text=f"note {n} about the garden shed") for n in range(320)]
    older.add("passages", rows, user_id="alice")
    late = [item("late", text="the violin lesson moved to Thursday")]
    older.add("passages", late, user_id="alice")
    older.close()
    table = lancedb.connect(tmp_path / "vectors").open_table("passages")
    assert any(ix.name.startswith("vector_ivfsq") for ix in table.list_indices())
    table.create_index("user_id", config=Bitmap(), replace=True, name="user_id_idx")

    reopened = open_index()
    reopened.add("passages", [item("p1")], user_id="alice")  # rebuilds the user index
    reopened.add("passages", [item("p3")], user_id="alice")
    hits = reopened.search("passages", "violin lesson Thursday", user_id="alice", mode="vector")
    assert hits and hits[0].id == "late"


@pytest.mark.duckdb_only  # LanceDB's own version files
def test_a_fold_removes_the_versions_older_than_it_keeps(
    index: SearchIndex, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every fold's cleanup reads every version still kept: kept for an hour, a busy server's
    folds grew slower by the minute. What is older than ``KEEP_VERSIONS_FOR`` goes."""
    monkeypatch.setattr(lance_upkeep, "REINDEX_AFTER_ADDS", 4)
    monkeypatch.setattr(lance_upkeep, "KEEP_VERSIONS_FOR", timedelta(milliseconds=1))
    versions = tmp_path / "vectors" / "turns.lance" / "_versions"
    for n in range(4):  # the first builds the indices, three more appends are not a fold yet
        index.add("turns", [item(f"t{n}", text=f"turn number {n}", kind="turn")], user_id="alice")
    kept = len(list(versions.glob("*.manifest")))
    index.add("turns", [item("t4", text="turn number 4", kind="turn")], user_id="alice")
    index.close()  # waits for the fold
    assert kept >= 8 and len(list(versions.glob("*.manifest"))) <= kept // 2
    found = index.search("turns", "turn number", user_id="alice", mode="fts", limit=10)
    assert sorted(h.id for h in found) == [f"t{n}" for n in range(5)]


def _index_type(table: lancedb.table.Table, name: str) -> str:
    return {ix.name: ix for ix in table.list_indices()}[name].index_type


def test_a_table_folds_at_a_tenth_of_its_rows_between_sixteen_and_a_thousand() -> None:
    """Rows not folded yet are scored with the index's BM25 statistics, where a word only they
    hold weighs nothing: a small table folds once a tenth of it waits (at least 16 rows)."""

    def due_after(folded: int, rows: int) -> bool:
        state = lance_upkeep.TableState(None, None, indexed=True, folded_rows=folded)  # type: ignore[arg-type]
        return lance_upkeep.after_add("turns", state, rows)

    assert not due_after(400, 39) and due_after(400, 40)
    assert not due_after(3, 15) and due_after(3, 16)
    assert not due_after(1_000_000, 999) and due_after(1_000_000, 1_000)
