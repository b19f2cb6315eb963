"""A LanceDB table's state in this process and the upkeep of its indices.

The first add builds btrees on user_id and id, a bitmap on kind and a native FTS index on
text. Rows appended later are flat-scanned until ``optimize`` folds them in,
which ``VectorIndex`` runs on a thread of its own every ``REINDEX_AFTER_ROWS`` rows (a tenth
of a smaller table) or ``REINDEX_AFTER_ADDS`` appends.
From ``ANN_MIN_ROWS`` rows on, the vector route uses an IVF_SQ index (cosine), rebuilt
when the table has doubled since it was trained or when optimize has stacked more than
``MAX_ANN_SEGMENTS`` delta segments onto it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

import lancedb
import pyarrow as pa
import pyarrow.compute as pc
from lancedb.index import FTS, Bitmap, BTree, IvfSq
from lancedb.table import AsyncTable, Table

from memvisor.errors import StorageError

from .index_tables import short
from .logger import logger
from .unfolded_vectors import UnfoldedVectors

REINDEX_AFTER_ROWS = 1_000  # unindexed rows cost the FTS route ~6 ms per 1,000 at 100k
# ... or a tenth of the rows folded so far, if fewer (but at least 16): BM25 scores rows not
# yet folded with the index's statistics, where a word only they hold weighs nothing
# ("K000-Z" ranked below every other turn of a new session's 40), and a small table's fold
# costs milliseconds.
REINDEX_SHARE = 0.1
REINDEX_MIN_ROWS = 16
REINDEX_AFTER_ADDS = 32  # every append is a fragment; many small ones slow every query
ANN_MIN_ROWS = 10_000  # below this a prefiltered flat vector scan is fast enough
ROWS_PER_PARTITION = 1_500
MAX_ANN_SEGMENTS = 6  # delta segments of the vector index before it is rebuilt
# How long a fold keeps the versions a table had before it. Every fold's cleanup reads every
# version still kept (~0.06 ms each): at an hour, a server writing 33 versions/s spent
# ~0.5 s per fold after 4 minutes and more the longer it ran (bench serve's search p95 rose
# run after run). Readers of an older version need it for well under this: a search reading
# the view a fold pinned, another process's read-only search.
KEEP_VERSIONS_FOR = timedelta(seconds=30)
_INDEX_NAMES = {"user_id_idx", "id_idx", "kind_idx", "text_idx"}
_ANN_NAME = re.compile(r"^vector_ivfsq_p(\d+)$")
# ICU segments Chinese/Japanese into words; on Latin text it splits like "simple".
_FTS = FTS(base_tokenizer="icu", language="English", stem=True, remove_stop_words=True)


@dataclass
class TableState:
    """An open table and what this process knows of it."""

    table: Table
    aio: AsyncTable  # the same table's async handle: queries skip per-call thread hops
    indexed: bool = False  # user_id, id and FTS indices exist
    ann_partitions: int = 0  # 0: no ANN index yet
    model_checked: bool = False
    pending_rows: int = 0
    folded_rows: int = 0  # the table's rows at its last fold (or open)
    bitmap_users: bool = False  # an older table's bitmap on user_id: the next add replaces it
    pending_adds: int = 0
    # The users and kinds the table holds, or may hold: rows are noted before they are
    # written and deletes never shrink these, so a filter is only left out if no row fails it.
    users: set[str] = field(default_factory=set)
    kinds: set[str] = field(default_factory=set)
    # Rows the vector index does not cover yet, when this process knows them all (it
    # appended them since a fold): the vector route then asks LanceDB for indexed rows
    # only. None: unknown (no ANN index, or a failed write), LanceDB scans them itself.
    unfolded: UnfoldedVectors | None = None
    # While a fold runs, searches read the table as it was when the fold began (``ReadView``).
    pinned: ReadView | None = None

    def view(self) -> ReadView:
        """What a search reads now: the pinned version during a fold, else the table."""
        return self.pinned or ReadView(self.aio, self.ann_partitions, self.unfolded, main=True)


@dataclass(frozen=True)
class ReadView:
    """One version of a table and what this process knew of it then: a search reads through
    one view from its first query to its last, so a fold that commits meanwhile (compacted
    files, an index extended or rebuilt) is never half seen."""

    aio: AsyncTable
    ann_partitions: int
    unfolded: UnfoldedVectors | None
    main: bool = False  # the table's own handle, which a fold moves on


def pinned_view(handle: Table, state: TableState) -> ReadView:
    """``handle`` (a second handle on the same table) checked out at the version ``state``'s
    table is at now, with what is known of that version."""
    handle.checkout(state.table.version)
    return ReadView(async_handle(handle), state.ann_partitions, state.unfolded)


def opened(handle: Table, present: pa.Table) -> TableState:
    """Its indices read, its users and kinds those of ``present``: every row it holds
    (read once by the caller, who keeps them)."""
    state = TableState(handle, async_handle(handle))
    state.users = set(pc.unique(present.column("user_id")).to_pylist())
    state.kinds = set(pc.unique(present.column("kind")).to_pylist())
    indices = {ix.name: ix for ix in handle.list_indices()}
    state.indexed = set(indices) >= _INDEX_NAMES
    state.bitmap_users = state.indexed and not _btree(indices["user_id_idx"])
    for name in indices:
        if match := _ANN_NAME.match(name):
            state.ann_partitions = int(match.group(1))
            stats = handle.index_stats(name)
            if stats is not None and not stats.num_unindexed_rows:
                state.unfolded = UnfoldedVectors()
    if "text_idx" in indices:
        stats = handle.index_stats("text_idx")
        state.pending_rows = stats.num_unindexed_rows if stats else 0
    state.folded_rows = present.num_rows - state.pending_rows
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
        _upkeep_now(table, lambda: optimize(state))
        return False
    if state.bitmap_users:
        _upkeep_now(table, lambda: _replace_bitmap(state))
    share = max(REINDEX_MIN_ROWS, int(state.folded_rows * REINDEX_SHARE))
    due = min(REINDEX_AFTER_ROWS, share)
    return state.pending_rows >= due or state.pending_adds >= REINDEX_AFTER_ADDS


def optimize(state: TableState) -> None:
    table = state.table
    if not state.indexed:
        _index_users(table)
        table.create_index("id", config=BTree(), replace=True, name="id_idx")
        # Page-in filters by kind: without an index the prefilter scans the column
        # (p50 14.7 -> 10.2 ms for a vector query at 100k rows).
        table.create_index("kind", config=Bitmap(), replace=True, name="kind_idx")
        table.create_index("text", config=_FTS, replace=True, name="text_idx")
        state.indexed = True
    else:
        table.optimize(cleanup_older_than=KEEP_VERSIONS_FOR)
    rows = table.count_rows()
    if rows >= ANN_MIN_ROWS:
        wanted = max(8, rows // ROWS_PER_PARTITION)
        if wanted >= 2 * max(state.ann_partitions, 4) or _ann_segments(state) > MAX_ANN_SEGMENTS:
            _build_ann(state, wanted)
    state.pending_rows = state.pending_adds = 0
    state.folded_rows = rows
    # Every row is in the vector index now (optimize adds the appended ones to it).
    state.unfolded = UnfoldedVectors() if state.ann_partitions else None


def _upkeep_now(table: str, step: Callable[[], None]) -> None:
    """Index upkeep an add does at once; a failure is only logged: the rows are stored and
    flat-searchable, and the next add tries again."""
    try:
        step()
    except (OSError, RuntimeError, ValueError) as exc:
        logger.warning("vector table {!r}: index upkeep failed: {}", table, short(exc))


def _index_users(table: Table) -> None:
    # A btree, not a bitmap: a bitmap keeps one bitmap per user and a fold rewrote them
    # all (124-167 ms at 10k rows of 1,000 users, against 6 ms for the btree, whose
    # prefiltered queries are no slower: 2.65 against 3.29 ms).
    table.create_index("user_id", config=BTree(), replace=True, name="user_id_idx")


def _replace_bitmap(state: TableState) -> None:
    _index_users(state.table)
    state.bitmap_users = False


def _btree(index: Any) -> bool:
    return str(index.index_type).lower() == "btree"


def _ann_segments(state: TableState) -> int:
    # Every optimize appends a delta segment to the vector index and queries pay
    # for each one (~0.3 ms at 100k rows); LanceDB cannot merge them, a rebuild can.
    if not state.ann_partitions:
        return 0
    stats = state.table.index_stats(f"vector_ivfsq_p{state.ann_partitions}")
    return int(stats.num_indices or 0) if stats else 0


def _build_ann(state: TableState, partitions: int) -> None:
    name = f"vector_ivfsq_p{partitions}"  # the name records the partition count
    config = IvfSq(distance_type="cosine", num_partitions=partitions)
    state.table.create_index("vector", config=config, replace=True, name=name)
    for index in state.table.list_indices():
        if index.columns == ["vector"] and index.name != name:
            state.table.drop_index(index.name)  # the one trained on a smaller table
    state.ann_partitions = partitions
    logger.info("built IVF_SQ vector index ({} partitions)", partitions)


def async_handle(handle: Table) -> AsyncTable:
    aio = getattr(handle, "_table", None)
    if not isinstance(aio, AsyncTable):
        raise StorageError(
            f"lancedb {lancedb.__version__} has no async handle on its tables; "
            "install the lancedb version pyproject.toml names (pip install -e .)"
        )
    return aio
