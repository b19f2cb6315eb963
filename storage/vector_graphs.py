"""In-memory HNSW graphs over the vectors of each user who holds many rows of a table.

At 100k rows LanceDB's IVF_SQ query costs ~5 ms of page-in's ~13 (its raw query alone,
whatever the probes: planning, the user's prefilter, reading the candidates' vectors), the
largest piece of the floor. An HNSW graph in this process (usearch: float16 vectors,
connectivity 12, expansion 128 to add and 64 to search) answers the same query in ~0.2 ms
with recall@10 0.997 against a flat scan of the store's own MiniLM vectors (IVF_SQ: 0.99),
for ~90 MB resident at 100k x 384 (IVF_SQ's cache: ~40 MB). Its similarities are computed
from float16 vectors: within ~1e-3 of the exact cosine.

A user gets a graph of their own once they hold ``GRAPH_MIN_ROWS`` rows of a table (below
that LanceDB's prefiltered scan is fast), so no search ever walks another user's rows and
none needs a user filter. The third search in a process that finds such a user without one
starts a build on a worker thread (one core, ~20 s at 100k rows), and LanceDB answers
meanwhile, as it does every search until the graph is complete; a search of some kinds
keeps the rows of those kinds among the graph's best few (``vectors.KIND_OVERSAMPLE``), and
asks LanceDB when too few are. Writes reach the graph as they reach
LanceDB (``VectorIndex`` reports them after each commit); writes during a build are kept
and applied to the graph before it is used. Replaying a write is harmless (a put replaces,
a remove of a missing id is nothing), so a write both read by the build and kept is
applied twice without harm.

On a clean close each graph is saved beside the tables with the LanceDB version it
reflects (``graphs/<table>/<user hash>.usearch`` and ``.json``); the next process's first
search of that user loads it (~0.1 s at 100k, on the searching thread, so LanceDB's vector
index is never read) when the table is still at that version and unchanged since (the
reconcile mark says so), and builds it again otherwise. All graphs of a process together
hold at most ``MAX_GRAPH_ROWS`` rows; a user past that is searched by LanceDB.

usearch is imported after onnxruntime: the other order crashes onnxruntime's import
(usearch 2.26.6 with onnxruntime 1.32, a segmentation fault).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import threading
import time
from collections.abc import Callable, Sequence
from concurrent import futures
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa

from .logger import logger
from .native_memory import release_freed
from .unfolded_vectors import vector_matrix

GRAPH_MIN_ROWS = 10_000  # LanceDB's ANN_MIN_ROWS: below it a prefiltered flat scan is fast
MAX_GRAPH_ROWS = 1_000_000  # every graph of a process: ~0.9 KB a row at 384 dimensions
CONNECTIVITY = 12  # 16: the same recall, more memory; 8: recall@10 0.988
EXPANSION_ADD = 128
EXPANSION_SEARCH = 64  # 128: +0.1 ms a query, no better recall at 12
# A build waits for the user's third search in a process: a one-off CLI search would start
# one only to stop it at exit (close waits for the chunk under way). A saved graph is loaded
# at the first.
SEARCHES_BEFORE_BUILD = 3
BUILD_CHUNK = 4_096  # rows added at a time by a build, which checks between chunks to stop
SPARSE_SLACK = 1_024  # removed nodes a graph may hold beyond as many as it has live ones
PARALLEL_ADD_ROWS = 256  # a batch of this many rows is added on every core
_FORMAT = 1

Ranked = list[tuple[str, float]]  # (id, similarity), best first
Reader = Callable[[], tuple[list[str], np.ndarray]]  # a user's ids and vectors, from LanceDB
Version = Callable[[], str | None]  # the table's version if unchanged since its clean close
Key = tuple[str, str]  # (table, user)


def _index_class() -> Any:
    import onnxruntime  # noqa: F401  (first: importing usearch before it crashes the process)
    from usearch.index import Index

    return Index


class Graph:
    """One user's rows of one table: an HNSW index keyed by position, and each key's id.

    Not thread-safe: ``VectorGraphs`` holds its lock around every call."""

    def __init__(self, dim: int, *, index: Any = None, ids: list[str | None] | None = None):
        self.dim = dim
        self.index = index if index is not None else _new_index(dim)
        self.ids: list[str | None] = ids if ids is not None else []  # key -> id; None: removed
        self.keys = {row_id: key for key, row_id in enumerate(self.ids) if row_id is not None}
        self.saved: str | None = None  # the LanceDB version its file reflects, if saved

    def __len__(self) -> int:
        return len(self.keys)

    @property
    def sparse(self) -> bool:
        """More removed nodes (rows replaced or deleted) than live ones, by ``SPARSE_SLACK``:
        HNSW keeps a removed node's memory and links, so such a graph is built again."""
        return len(self.ids) > 2 * len(self.keys) + SPARSE_SLACK

    def put(self, ids: Sequence[str], vectors: np.ndarray, *, threads: int = 1) -> None:
        """Add these rows; an id held already is replaced (the last of an id given twice
        wins)."""
        last = {row_id: n for n, row_id in enumerate(ids)}
        self.remove(list(last))
        rows = list(last.values())
        keys = np.arange(len(self.ids), len(self.ids) + len(rows), dtype=np.uint64)
        self.index.add(keys, np.ascontiguousarray(vectors[rows], dtype=np.float32), threads=threads)
        for key, n in zip(keys.tolist(), rows, strict=True):
            self.ids.append(ids[n])
            self.keys[ids[n]] = key
        self.saved = None

    def remove(self, ids: Sequence[str]) -> None:
        keys = [self.keys.pop(row_id) for row_id in ids if row_id in self.keys]
        if keys:
            self.index.remove(np.asarray(keys, dtype=np.uint64))
            for key in keys:
                self.ids[key] = None
            self.saved = None

    def nearest(self, vector: np.ndarray, limit: int) -> Ranked:
        """The best ``limit`` rows by cosine similarity, best first (equal scores by id)."""
        if not self.keys or limit < 1:
            return []
        query = np.asarray(vector, dtype=np.float32).reshape(-1)
        found = self.index.search(query, min(limit, len(self.keys)), threads=1)
        ranked = [
            (row_id, 1.0 - float(distance))
            for key, distance in zip(found.keys.tolist(), found.distances.tolist(), strict=True)
            if (row_id := self.ids[key]) is not None
        ]
        return sorted(ranked, key=lambda hit: (-hit[1], hit[0]))


@dataclass
class _Build:
    """A graph being built: the writes that arrived since it began, applied before use."""

    changes: list[tuple[str, Any, Any]] = field(default_factory=list)
    future: Future[None] | None = None


class VectorGraphs:
    """The graphs of one index directory's tables, built, kept current, saved and loaded.

    Thread-safe: one lock over the graphs (a search holds it ~0.2 ms, a write's update a
    few ms); builds run on one worker thread outside it."""

    def __init__(self, path: Path, *, reproducible: bool = False) -> None:
        """``reproducible``: a wanted graph is built at once, on the searching thread, with
        one thread (a graph's links depend on the order of concurrent inserts), so the same
        store answers a search the same way whatever the timing."""
        self.folder = Path(path) / "graphs"
        self.reproducible = reproducible
        self._lock = threading.Lock()
        self._graphs: dict[Key, Graph] = {}
        self._builds: dict[Key, _Build] = {}
        self._refused: set[Key] = set()  # past MAX_GRAPH_ROWS: LanceDB's
        self._asked: dict[Key, int] = {}  # searches that wanted a graph not started yet
        self._worker: ThreadPoolExecutor | None = None
        self._closing = threading.Event()

    # --- reads -----------------------------------------------------------------------

    def nearest(self, table: str, user_id: str, vector: np.ndarray, limit: int) -> Ranked | None:
        """The user's best ``limit`` rows, or None when they have no graph ready."""
        with self._lock:
            graph = self._graphs.get((table, user_id))
            return None if graph is None else graph.nearest(vector, limit)

    def has(self, table: str, user_id: str) -> bool:
        with self._lock:
            return (table, user_id) in self._graphs

    def want(self, table: str, user_id: str, rows: int, read: Reader, saved: Version) -> bool:
        """A search found this user without a graph: start one if they hold enough rows.
        ``read`` gives their ids and vectors; ``saved`` the table's version when it is
        unchanged since the last clean close (a graph saved then is loaded, not built).
        True when the graph is ready on return."""
        key = (table, user_id)
        if rows < GRAPH_MIN_ROWS or self._closing.is_set():
            return False
        saved_file = _stem(self.folder / table, user_id).with_suffix(".json").exists()
        with self._lock:
            if key in self._graphs or key in self._builds or key in self._refused:
                return key in self._graphs
            asked = self._asked[key] = self._asked.get(key, 0) + 1
            if not (saved_file or self.reproducible or asked >= SEARCHES_BEFORE_BUILD):
                return False  # a one-off search (`memory search`) builds nothing
            held = sum(len(graph) for graph in self._graphs.values())
            if held + rows > MAX_GRAPH_ROWS:
                self._refused.add(key)
                logger.info("search index: no graph for {!r} (graphs hold {} rows)", table, held)
                return False
            build = self._builds[key] = _Build()
        if (graph := self._saved(key, saved)) is not None:  # ~0.1 s at 100k: on this thread
            self._publish(key, graph, "loaded")
        elif self.reproducible:
            self._make(key, read)
        else:
            if self._worker is None:
                self._worker = ThreadPoolExecutor(1, thread_name_prefix="memvisor-graph")
            build.future = self._worker.submit(self._make, key, read)
        return self.has(table, user_id)

    def wait(self) -> float:
        """Seconds spent waiting for the builds under way (benches wait before timing)."""
        start = time.perf_counter()
        with self._lock:
            pending = [b.future for b in self._builds.values() if b.future is not None]
        futures.wait(pending)
        return time.perf_counter() - start

    # --- writes (reported by ``VectorIndex`` after LanceDB committed them) --------------

    def added(self, table: str, data: pa.Table) -> None:
        """Rows just written (``id``, ``user_id``, ``vector``), of one user or several."""
        users = data.column("user_id").to_pylist()
        with self._lock:
            wanted = {user for user in set(users) if self._tracks((table, user))}
            if not wanted:
                return
            ids = data.column("id").to_pylist()
            vectors = vector_matrix(data)
            for user_id in wanted:
                rows = [n for n, user in enumerate(users) if user == user_id]
                self._apply((table, user_id), "put", [ids[n] for n in rows], vectors[rows])

    def deleted(self, table: str, user_id: str, ids: Sequence[str]) -> None:
        with self._lock:
            if self._tracks((table, user_id)):
                self._apply((table, user_id), "remove", list(ids), None)

    def forget(self, table: str, *, files: bool = False) -> None:
        """Drop the table's graphs (a failed write: rebuilt on the next search); ``files``:
        their saved copies too (the table was rebuilt or dropped)."""
        with self._lock:
            for key in [key for key in self._graphs if key[0] == table]:
                del self._graphs[key]
            for key in [key for key in self._builds if key[0] == table]:
                del self._builds[key]  # its result is dropped when it completes
            self._refused = {key for key in self._refused if key[0] != table}
        if files:
            for path in (self.folder / table).glob("*"):
                with contextlib.suppress(OSError):
                    path.unlink()

    # --- clean close ---------------------------------------------------------------------

    def save(self, table: str, version: str) -> None:
        """Save the table's graphs not saved at ``version`` (a clean close: the table holds
        what they hold)."""
        with self._lock:
            for (of, user_id), graph in self._graphs.items():
                if of != table or graph.saved == version:
                    continue
                try:
                    _save(self.folder / table, user_id, graph, version)
                except OSError as exc:
                    logger.warning("search index: cannot save a graph of {!r}: {}", table, exc)
                else:
                    graph.saved = version

    def close(self) -> None:
        """Stop builds under way (their graphs are lost, rebuilt when next wanted)."""
        self._closing.set()
        if self._worker is not None:
            self._worker.shutdown(wait=True, cancel_futures=True)

    # --- inside ----------------------------------------------------------------------------

    def _tracks(self, key: Key) -> bool:
        return key in self._graphs or key in self._builds

    def _apply(self, key: Key, change: str, ids: list[str], vectors: np.ndarray | None) -> None:
        """A write to the user's graph, or kept for the build under way; the lock is held."""
        if (build := self._builds.get(key)) is not None:
            build.changes.append((change, ids, vectors))
            return
        graph = self._graphs[key]
        _change(graph, change, ids, vectors, threads=self._threads(len(ids)))
        if graph.sparse:
            del self._graphs[key]  # the user's next searches build it anew

    def _saved(self, key: Key, saved: Version) -> Graph | None:
        """The graph the last clean close saved, if the table is still as it was then."""
        table, user_id = key
        try:
            return _load(self.folder / table, user_id, version) if (version := saved()) else None
        except Exception as exc:  # noqa: BLE001  (a graph is an optimisation: it is built)
            logger.warning("search index: cannot load a graph of {!r}: {}", table, exc)
            return None

    def _make(self, key: Key, read: Reader) -> None:
        """Build the graph of ``key`` from its rows and publish it."""
        try:
            graph = self._build(read)
        except Exception as exc:  # noqa: BLE001  (a graph is an optimisation: LanceDB answers)
            logger.warning("search index: no graph for {!r}: {}", key[0], exc)
            graph = None
        self._publish(key, graph, "built")

    def _publish(self, key: Key, graph: Graph | None, how: str) -> None:
        """Apply the writes kept while ``graph`` was made, then let searches use it."""
        with self._lock:
            build = self._builds.pop(key, None)
            if graph is None or build is None or self._closing.is_set():
                return  # failed, forgotten meanwhile (a failed write, a rebuild), or closing
            for change, ids, vectors in build.changes:
                _change(graph, change, ids, vectors, threads=self._threads(len(ids)))
            self._graphs[key] = graph
        release_freed()  # what reading the rows and the file left in malloc's arenas
        logger.debug("search index: graph of {!r} {} ({} rows)", key[0], how, len(graph))

    def _build(self, read: Reader) -> Graph | None:
        ids, vectors = read()
        graph = Graph(vectors.shape[1])
        for start in range(0, len(ids), BUILD_CHUNK):
            if self._closing.is_set():
                return None
            end = start + BUILD_CHUNK
            # One core: a build takes ~20 s at 100k rows instead of ~10, and leaves the other
            # to the searches and writes it is meant to serve.
            graph.put(ids[start:end], vectors[start:end], threads=1)
        return graph

    def _threads(self, rows: int) -> int:
        """Threads to add a write's ``rows`` with: every core for a large batch (an import:
        0), one for a turn's few rows or in a reproducible index (the links depend on the
        order of inserts)."""
        return 1 if self.reproducible or rows < PARALLEL_ADD_ROWS else 0


def _change(
    graph: Graph, change: str, ids: list[str], vectors: np.ndarray | None, *, threads: int
) -> None:
    if change == "put" and vectors is not None:
        graph.put(ids, vectors, threads=threads)
    elif change == "remove":
        graph.remove(ids)


def _new_index(dim: int) -> Any:
    return _index_class()(
        ndim=dim,
        metric="cos",
        dtype="f16",
        connectivity=CONNECTIVITY,
        expansion_add=EXPANSION_ADD,
        expansion_search=EXPANSION_SEARCH,
    )


def _stem(folder: Path, user_id: str) -> Path:
    return folder / hashlib.sha256(user_id.encode("utf-8")).hexdigest()[:32]


def _save(folder: Path, user_id: str, graph: Graph, version: str) -> None:
    """The index, then its ids and version: the second file, written last, makes the pair."""
    folder.mkdir(parents=True, exist_ok=True)
    stem = _stem(folder, user_id)
    meta = stem.with_suffix(".json")
    with contextlib.suppress(FileNotFoundError):
        meta.unlink()  # a crash below leaves no pair to trust
    partial = stem.with_suffix(".usearch.partial")
    graph.index.save(str(partial))
    os.replace(partial, stem.with_suffix(".usearch"))
    body = {"format": _FORMAT, "user_id": user_id, "version": version, "dim": graph.dim}
    body["ids"] = graph.ids
    partial = meta.with_suffix(".json.partial")
    partial.write_text(json.dumps(body), encoding="utf-8")
    os.replace(partial, meta)


def _load(folder: Path, user_id: str, version: str) -> Graph | None:
    """The graph saved at ``version``, or None (none saved, another version, unreadable)."""
    stem = _stem(folder, user_id)
    try:
        body = json.loads(stem.with_suffix(".json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if body.get("format") != _FORMAT or body.get("user_id") != user_id:
        return None
    if body.get("version") != version:
        return None
    index = _index_class().restore(str(stem.with_suffix(".usearch")))
    if index is None:
        return None
    graph = Graph(int(body["dim"]), index=index, ids=list(body["ids"]))
    if len(index) != len(graph):  # the pair does not match: build it again
        return None
    graph.saved = version
    return graph
