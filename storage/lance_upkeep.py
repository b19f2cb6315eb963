"""A LanceDB table's state in this process and the upkeep of its indices.

The first add builds bitmap indices on user_id and kind, a btree on id and a native FTS
index on text. Rows appended later are flat-scanned until ``optimize`` folds them in,
which ``VectorIndex`` runs on a thread of its own every ``REINDEX_AFTER_ROWS`` rows or
``REINDEX_AFTER_ADDS`` appends.
From ``ANN_MIN_ROWS`` rows on, the vector route uses an IVF_HNSW_SQ index (cosine), rebuilt
when the table has doubled since it was trained, when optimize has stacked more than
``MAX_ANN_SEGMENTS`` delta segments onto it, or when the table has the IVF_SQ index of an
earlier release (searched as it is until then).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import timedelta

import lancedb
import pyarrow.compute as pc
from lancedb.index import FTS, Bitmap, BTree, HnswSq
from lancedb.table import AsyncTable, Table
from loguru import logger

from memvisor.errors import StorageError

from .index_tables import short

REINDEX_AFTER_ROWS = 1_000  # unindexed rows cost the FTS route ~6 ms per 1,000 at 100k
REINDEX_AFTER_ADDS = 32  # every append is a fragment; many small ones slow every query
ANN_MIN_ROWS = 10_000  # below this a prefiltered flat vector scan is fast enough
# IVF_HNSW_SQ, one graph per 100k rows. At 100k rows, queries interleaved on a loaded
# machine (load 7-8 on 2 cores), limit 80: p50 5.8 ms against IVF_SQ's 7.8 (66 partitions,
# 11 probed), recall@10 0.998 for both; m 16 and ef_construction 150 build in 119 s there
# (m 20 / 300: 268 s, recall no better; two partitions: p50 7.1 ms).
ANN_KIND = "hnswsq"
ROWS_PER_PARTITION = 100_000
HNSW_M = 16
HNSW_EF_CONSTRUCTION = 150
MAX_ANN_SEGMENTS = 6  # delta segments of the vector index before it is rebuilt
_ANN_NAME = re.compile(r"^vector_(ivfsq|hnswsq)_p(\d+)$")
# ICU segments Chinese/Japanese into words; on Latin text it splits like "simple".
_FTS = FTS(base_tokenizer="icu", language="English", stem=True, remove_stop_words=True)


@dataclass
class TableState:
    """An open table and what this process knows of it."""

    table: Table
    aio: AsyncTable  # the same table's async handle: queries skip per-call thread hops
    indexed: bool = False  # user_id, id and FTS indices exist
    ann_partitions: int = 0  # 0: no ANN index yet
    ann_kind: str = ""  # "hnswsq" or "ivfsq" (a table indexed before HNSW), "" before one
    model_checked: bool = False
    pending_rows: int = 0
    pending_adds: int = 0
    # The users and kinds the table holds, or may hold: rows are noted before they are
    # written and deletes never shrink these, so a filter is only left out if no row fails it.
    users: set[str] = field(default_factory=set)
    kinds: set[str] = field(default_factory=set)


def opened(handle: Table) -> TableState:
    """Its users, kinds and indices read (which reads every fragment's columns)."""
    state = TableState(handle, async_handle(handle))
    present = handle.search().select(["user_id", "kind"]).limit(None).to_arrow()
    state.users = set(pc.unique(present.column("user_id")).to_pylist())
    state.kinds = set(pc.unique(present.column("kind")).to_pylist())
    indices = {ix.name: ix for ix in handle.list_indices()}
    state.indexed = {"user_id_idx", "id_idx", "kind_idx", "text_idx"} <= set(indices)
    for name in indices:
        if match := _ANN_NAME.match(name):
            state.ann_kind, state.ann_partitions = match.group(1), int(match.group(2))
    if "text_idx" in indices:
        stats = handle.index_stats("text_idx")
        state.pending_rows = stats.num_unindexed_rows if stats else 0
    if not state.indexed and handle.count_rows():  # a crash between create and indexing
        optimize(state)
    return state


def after_add(table: str, state: TableState, added: int) -> bool:
    """Count an append; True when the appended rows are due to be folded into the
    indices (``optimize``). A table's first indices are built here and now: until they
    exist no word search can run."""
    state.pending_rows += added
    state.pending_adds += 1
    if not state.indexed:
        try:
            optimize(state)
        except (OSError, RuntimeError, ValueError) as exc:
            # The rows are stored and flat-searchable; the next add tries again.
            logger.warning("vector table {!r}: index upkeep failed: {}", table, short(exc))
        return False
    return state.pending_rows >= REINDEX_AFTER_ROWS or state.pending_adds >= REINDEX_AFTER_ADDS


def optimize(state: TableState) -> None:
    table = state.table
    if not state.indexed:
        table.create_index("user_id", config=Bitmap(), replace=True, name="user_id_idx")
        table.create_index("id", config=BTree(), replace=True, name="id_idx")
        # Page-in filters by kind: without an index the prefilter scans the column
        # (p50 14.7 -> 10.2 ms for a vector query at 100k rows).
        table.create_index("kind", config=Bitmap(), replace=True, name="kind_idx")
        table.create_index("text", config=_FTS, replace=True, name="text_idx")
        state.indexed = True
    else:
        table.optimize(cleanup_older_than=timedelta(hours=1))
    rows = table.count_rows()
    if rows >= ANN_MIN_ROWS:
        wanted = ann_partitions(rows)
        if (
            state.ann_kind != ANN_KIND
            or wanted >= 2 * state.ann_partitions
            or _ann_segments(state) > MAX_ANN_SEGMENTS
        ):
            _build_ann(state, wanted)
    state.pending_rows = state.pending_adds = 0


def _ann_segments(state: TableState) -> int:
    # Every optimize appends a delta segment to the vector index and queries pay
    # for each one (~0.3 ms at 100k rows); LanceDB cannot merge them, a rebuild can.
    if not state.ann_partitions:
        return 0
    stats = state.table.index_stats(f"vector_{state.ann_kind}_p{state.ann_partitions}")
    return int(stats.num_indices or 0) if stats else 0


def ann_partitions(rows: int) -> int:
    return max(1, rows // ROWS_PER_PARTITION)


def _build_ann(state: TableState, partitions: int) -> None:
    name = f"vector_{ANN_KIND}_p{partitions}"  # the name records kind and partitions
    config = HnswSq(
        distance_type="cosine", num_partitions=partitions, m=HNSW_M,
        ef_construction=HNSW_EF_CONSTRUCTION,
    )  # fmt: skip
    state.table.create_index("vector", config=config, replace=True, name=name)
    for index in state.table.list_indices():
        if index.columns == ["vector"] and index.name != name:
            state.table.drop_index(index.name)  # the one trained on a smaller table
    state.ann_kind, state.ann_partitions = ANN_KIND, partitions
    logger.info("built IVF_HNSW_SQ vector index ({} partitions)", partitions)


def async_handle(handle: Table) -> AsyncTable:
    aio = getattr(handle, "_table", None)
    if not isinstance(aio, AsyncTable):
        raise StorageError(
            f"lancedb {lancedb.__version__} has no async handle on its tables; "
            "install the lancedb version pyproject.toml names (pip install -e .)"
        )
    return aio
