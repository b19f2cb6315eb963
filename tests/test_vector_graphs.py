"""The vector route from in-memory HNSW graphs (``storage/vector_graphs.py``): one per user
past ``GRAPH_MIN_ROWS`` rows of a table, built off the read path, kept current by every
write, saved on a clean close and loaded by the next process."""

from __future__ import annotations

import platform
import subprocess
import sys
import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from memvisor.storage import native_memory, vector_graphs, vectors
from memvisor.storage.embedders import HashEmbedder
from memvisor.storage.vector_graphs import Graph, VectorGraphs
from memvisor.storage.vectors import IndexedText, VectorIndex

T0 = datetime(2026, 5, 1, 9, 0, tzinfo=UTC)
WORDS = ["coffee", "tea", "order", "flight", "meeting", "berlin", "paris", "invoice", "train"]
ROWS = 240


def item(id: str, user: str, text: str, kind: str = "passage") -> IndexedText:
    return IndexedText(id=id, user_id=user, text=text, kind=kind, ts=T0)  # type: ignore[arg-type]


def text_of(n: int) -> str:
    return f"{WORDS[n % 9]} {WORDS[n // 9 % 9]} {WORDS[n // 81 % 9]} note {n}"


@pytest.fixture(autouse=True)
def small_graphs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(vector_graphs, "GRAPH_MIN_ROWS", 200)


def filled(path: Path, **options: Any) -> VectorIndex:
    index = VectorIndex(path, HashEmbedder(), **options)
    for user in ("alice", "bob"):
        index.add("m", [item(f"{user}{n}", user, text_of(n)) for n in range(ROWS)], user_id=user)
    return index


def graphed(index: VectorIndex, user: str = "alice") -> None:
    """The vector searches that start the user's graph, then the wait for it."""
    for _ in range(vector_graphs.SEARCHES_BEFORE_BUILD):
        index.search("m", "tea coffee", user_id=user, mode="vector")
    index.wait_for_graphs()
    assert index._graphs.has("m", user)


def exact_scores(index: VectorIndex, user: str, query: str, k: int) -> list[float]:
    """The best ``k`` cosine similarities of the user's rows to ``query``, by a flat scan."""
    vector = index.embedder.embed([query])[0]
    rows = index.embedder.embed([text_of(n) for n in range(ROWS)])
    scores = rows @ vector / (np.linalg.norm(rows, axis=1) * np.linalg.norm(vector))
    return sorted(scores.tolist(), reverse=True)[:k]


# -- the graph alone ----------------------------------------------------------------------


def test_a_graph_finds_the_nearest_rows_and_forgets_removed_and_replaced_ones() -> None:
    rng = np.random.default_rng(3)
    vectors = rng.normal(size=(2_000, 32)).astype(np.float32)
    graph = Graph(32)
    ids = [f"r{n}" for n in range(2_000)]
    graph.put(ids, vectors)
    queries = rng.normal(size=(50, 32)).astype(np.float32)
    unit = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
    found = 0
    for query in queries:
        exact = {ids[n] for n in np.argsort(-(unit @ query))[:10]}
        hits = graph.nearest(query, 10)
        found += len(exact & {row_id for row_id, _ in hits})
        similarity = unit[int(hits[0][0][1:])] @ query / np.linalg.norm(query)
        assert hits[0][1] == pytest.approx(similarity, abs=2e-3)  # float16 vectors
    assert found / 500 >= 0.95
    best = graph.nearest(queries[0], 1)[0][0]
    graph.remove([best])
    assert best not in {row_id for row_id, _ in graph.nearest(queries[0], 50)}
    assert len(graph) == 1_999
    graph.put(["r1"], -queries[1:2])  # r1 replaced: now the farthest from queries[1]
    assert graph.nearest(-queries[1], 1)[0][0] == "r1"
    assert len(graph) == 1_999 and graph.ids.count("r1") == 1


# -- behind VectorIndex -----------------------------------------------------------------


def test_the_vector_route_of_a_user_with_a_graph_scores_as_an_exact_scan(tmp_path: Path) -> None:
    index = filled(tmp_path / "v")
    graphed(index)
    assert not index._graphs.has("m", "bob")  # bob never searched
    for query in ("tea coffee note", "berlin invoice 40", text_of(117)):
        hits = index.search("m", query, user_id="alice", mode="vector", limit=5)
        expected = exact_scores(index, "alice", query, 5)
        assert [h.score for h in hits] == pytest.approx(expected, abs=2e-3)
        assert all(h.id.startswith("alice") for h in hits)
    graphed(index, "bob")
    hits = index.search("m", text_of(5), user_id="bob", mode="hybrid", limit=10)
    assert hits[0].id == "bob5" and all(h.id.startswith("bob") for h in hits)


def test_writes_reach_the_graph_at_once(tmp_path: Path) -> None:
    index = filled(tmp_path / "v")
    graphed(index)
    index.add("m", [item("new", "alice", "zeppelin harbour lantern")], user_id="alice")
    hits = index.search("m", "zeppelin harbour lantern", user_id="alice", mode="vector")
    assert hits[0].id == "new"
    index.add("m", [item("new", "alice", "quartz violin meadow")], user_id="alice")
    assert index.search("m", "quartz violin meadow", user_id="alice", mode="vector")[0].id == "new"
    index.delete("m", ["new"], user_id="alice")
    hits = index.search("m", "quartz violin meadow", user_id="alice", mode="vector", limit=50)
    assert "new" not in {h.id for h in hits}
    assert len(index._graphs._graphs[("m", "alice")]) == ROWS


def test_a_graph_mostly_rewritten_is_built_anew(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(vector_graphs, "SPARSE_SLACK", 10)
    index = filled(tmp_path / "v")
    graphed(index)
    for round_ in range(2):  # every row replaced twice: twice as many removed nodes as live ones
        rows = [item(f"alice{n}", "alice", f"{text_of(n)} v{round_}") for n in range(ROWS)]
        index.add("m", rows, user_id="alice")
    assert not index._graphs.has("m", "alice")
    graphed(index)
    assert len(index._graphs._graphs[("m", "alice")].ids) == ROWS


def test_writes_during_a_build_are_applied_before_the_graph_is_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    index = filled(tmp_path / "v")
    reading, go_on = threading.Event(), threading.Event()
    build = VectorGraphs._build

    def slow_build(self: VectorGraphs, read: Any) -> Graph | None:
        snapshot = read()
        reading.set()
        go_on.wait(10)
        return build(self, lambda: snapshot)

    monkeypatch.setattr(VectorGraphs, "_build", slow_build)
    for _ in range(vector_graphs.SEARCHES_BEFORE_BUILD):
        index.search("m", "tea", user_id="alice", mode="vector")
    assert reading.wait(10)
    index.add("m", [item("late", "alice", "zeppelin harbour lantern")], user_id="alice")
    index.delete("m", ["alice3"], user_id="alice")
    go_on.set()
    index.wait_for_graphs()
    graph = index._graphs._graphs[("m", "alice")]
    assert "late" in graph.keys and "alice3" not in graph.keys
    assert index.search("m", "zeppelin harbour lantern", user_id="alice", mode="vector")[0].id == (
        "late"
    )


def test_a_search_of_some_kinds_keeps_the_graphs_rows_of_them_or_asks_lancedb(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    index = filled(tmp_path / "v")
    turns = [item(f"t{n}", "alice", f"zeppelin harbour lantern {n}", kind="turn") for n in range(3)]
    index.add("m", turns, user_id="alice")
    graphed(index)
    asked: list[int] = []
    lancedb_route = vectors.vector_ids

    def counted(*args: Any, **kwargs: Any) -> Any:
        asked.append(1)
        return lancedb_route(*args, **kwargs)

    monkeypatch.setattr(vectors, "vector_ids", counted)
    query = "zeppelin harbour lantern"
    # passages, most of the user's rows: the graph's best 40 hold 10 of them
    hits = index.search("m", query, user_id="alice", mode="vector", kinds=["passage"])
    assert len(hits) == 10 and all(h.id.startswith("alice") for h in hits) and not asked
    expected = exact_scores(index, "alice", query, 10)
    assert [h.score for h in hits] == pytest.approx(expected, abs=2e-3)
    # turns, 3 of 243 rows: too few among the graph's best 40, so LanceDB's filtered query
    hits = index.search("m", query, user_id="alice", mode="vector", kinds=["turn"])
    assert {h.id for h in hits} == {"t0", "t1", "t2"} and asked == [1]
    # every kind: the graph alone
    assert index.search("m", query, user_id="alice", mode="vector")[0].id.startswith("t")
    assert asked == [1]


def test_a_clean_close_saves_the_graph_and_the_next_process_loads_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    index = filled(tmp_path / "v")
    graphed(index)
    index.mark_clean("m")
    index.close()
    assert list((tmp_path / "v" / "graphs" / "m").glob("*.usearch"))

    def no_build(self: VectorGraphs, read: Any) -> Graph | None:
        raise AssertionError("built, not loaded")

    def no_lancedb(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("LanceDB's vector index was read")

    with monkeypatch.context() as patched:
        patched.setattr(VectorGraphs, "_build", no_build)
        reopened = VectorIndex(tmp_path / "v", HashEmbedder())
        with monkeypatch.context() as lancedb_off:  # the first search loads it and uses it
            lancedb_off.setattr(vectors, "vector_ids", no_lancedb)
            hits = reopened.search("m", text_of(7), user_id="alice", mode="vector")
        assert hits[0].id == "alice7" and reopened._graphs.has("m", "alice")
        hits = reopened.search("m", text_of(60), user_id="alice", mode="vector")
        assert hits[0].id == "alice60"
        # a write after the load: the saved graph no longer matches the table
        reopened.add("m", [item("late", "alice", "zeppelin harbour lantern")], user_id="alice")
        reopened.close()  # not clean: no mark
    built = []

    def counted(self: VectorGraphs, read: Any) -> Graph | None:
        built.append(1)
        return build(self, read)

    build = VectorGraphs._build
    monkeypatch.setattr(VectorGraphs, "_build", counted)
    again = VectorIndex(tmp_path / "v", HashEmbedder())
    graphed(again)
    assert built == [1]
    assert again.search("m", "zeppelin harbour lantern", user_id="alice", mode="vector")[0].id == (
        "late"
    )


def test_a_rebuilt_or_dropped_table_takes_its_graphs_with_it(tmp_path: Path) -> None:
    index = filled(tmp_path / "v")
    graphed(index)
    index.mark_clean("m")
    saved = tmp_path / "v" / "graphs" / "m"
    assert list(saved.glob("*.json"))
    rows = [item(f"alice{n}", "alice", f"rebuilt {text_of(n)}") for n in range(ROWS)]
    index.replace("m", [("alice", rows)])
    assert not index._graphs.has("m", "alice") and not list(saved.glob("*"))
    graphed(index)
    index.drop("m")
    assert not index._graphs.has("m", "alice")


def test_a_reproducible_index_builds_the_graph_before_the_search_returns(tmp_path: Path) -> None:
    index = filled(tmp_path / "v", reproducible=True)
    index.search("m", "tea", user_id="alice", mode="vector")
    assert index._graphs.has("m", "alice")


def test_a_one_off_search_builds_nothing_the_third_starts_the_graph(tmp_path: Path) -> None:
    index = filled(tmp_path / "v")
    for _ in range(vector_graphs.SEARCHES_BEFORE_BUILD - 1):
        index.search("m", "tea", user_id="alice", mode="hybrid")
        index.wait_for_graphs()
        assert not index._graphs.has("m", "alice")
    index.search("m", "tea", user_id="alice", mode="hybrid")
    index.wait_for_graphs()
    assert index._graphs.has("m", "alice")


def test_a_user_below_the_threshold_gets_no_graph(tmp_path: Path) -> None:
    index = VectorIndex(tmp_path / "v", HashEmbedder())
    index.add("m", [item(f"c{n}", "carol", text_of(n)) for n in range(50)], user_id="carol")
    for _ in range(vector_graphs.SEARCHES_BEFORE_BUILD):
        index.search("m", "tea", user_id="carol", mode="vector")
    assert index.wait_for_graphs() == pytest.approx(0, abs=0.5)
    assert not index._graphs.has("m", "carol")


def test_importing_the_graph_library_first_does_not_crash_onnxruntime() -> None:
    code = (
        "from memvisor.storage.vector_graphs import _index_class\n"
        "_index_class()\nimport onnxruntime\nprint('ok')\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr[-500:]


def test_freed_native_memory_is_handed_back_where_glibc_can() -> None:
    if sys.platform.startswith("linux") and platform.libc_ver()[0] == "glibc":
        assert native_memory._malloc_trim() is not None
    native_memory.release_freed()  # and a no-op elsewhere


def test_a_store_saves_its_graphs_on_close_and_the_next_open_loads_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from memvisor.storage import Store

    monkeypatch.setattr(vector_graphs, "GRAPH_MIN_ROWS", 40)
    with Store.open(tmp_path / "d", embedder="hash") as store:
        for n in range(50):
            store.insert_passage(user_id="alice", text=text_of(n), trace_id="trc_t")
        for _ in range(vector_graphs.SEARCHES_BEFORE_BUILD):
            store.search("tea coffee", user_id="alice", kinds=("passage",))
        store.index.index.wait_for_graphs()
        assert store.index.index.vector_engine("memory", user_id="alice") == "graph"
    assert list((tmp_path / "d").rglob("graphs/*/*.usearch"))

    def no_build(self: VectorGraphs, read: Any) -> Graph | None:
        raise AssertionError("built, not loaded")

    monkeypatch.setattr(VectorGraphs, "_build", no_build)
    with Store.open(tmp_path / "d", embedder="hash") as store:
        hits = store.search(text_of(17), user_id="alice", kinds=("passage",), mode="vector")
        assert store.index.index.vector_engine("memory", user_id="alice") == "graph"
        assert hits and hits[0].text == text_of(17)
