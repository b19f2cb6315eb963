"""LanceDB index of texts (passages, turns, episodes, recipes): vector and BM25 search.

Every read and write names its user, and the user filter runs inside LanceDB (a
prefilter), never in Python after the fact. Each table records the embedding model
that built it; searching or adding with another model is refused, since vectors from
two models are not comparable. Hybrid search is our own reciprocal-rank fusion of the
vector and full-text routes.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Any

import lancedb
import numpy as np
import pyarrow as pa
from lancedb.index import FTS, Bitmap, BTree, IvfPq
from lancedb.query import LanceVectorQueryBuilder, MatchQuery
from lancedb.table import Table
from loguru import logger

from .clock import to_utc
from .embedders import Embedder
from .errors import StorageError, UserError
from .users import require_user

MODES = ("vector", "fts", "hybrid")
RRF_K = 60
REINDEX_AFTER_ROWS = 5_000  # rows appended since the last index build
REINDEX_AFTER_ADDS = 200  # appends (each one a small fragment) since the last build
ANN_MIN_ROWS = 20_000  # below this a prefiltered flat scan is fast enough
ANN_NPROBES = 20
ANN_REFINE = 5
_MAX_QUERY_CHARS = 2_000
_TABLE_NAME = re.compile(r"^[a-z][a-z0-9_]{0,63}$")
_MODEL_KEY = b"engram.embed_model"
_RESULT_COLUMNS = ["id", "kind", "text", "ts", "session_id", "trace_id", "meta"]
# ICU segments Chinese/Japanese words; for Latin text it behaves like the simple tokenizer.
_FTS_CONFIG = FTS(base_tokenizer="icu", language="English", stem=True, remove_stop_words=True)


@dataclass(frozen=True)
class IndexedText:
    id: str
    user_id: str
    text: str
    kind: str  # "passage" | "turn" | "episode" | "recipe" | ...
    ts: datetime  # aware UTC
    session_id: str | None = None
    trace_id: str | None = None
    meta: dict[str, Any] = field(default_factory=dict)  # stored as a JSON string


@dataclass(frozen=True)
class SearchHit:
    id: str
    kind: str
    text: str
    score: float  # higher is better; comparable only within one route
    route: str  # "vector" | "fts" | "hybrid"
    ts: datetime
    session_id: str | None
    trace_id: str | None
    meta: dict[str, Any]


@dataclass
class _TableState:
    table: Table
    indexed: bool  # user_id + FTS indices exist
    has_ann: bool
    pending_rows: int = 0
    pending_adds: int = 0


class VectorIndex:
    """Texts with their embeddings in one LanceDB directory, one table per kind of record."""

    def __init__(self, path: Path, embedder: Embedder) -> None:
        self.path = Path(path)
        self.embedder = embedder
        try:
            self.path.mkdir(parents=True, exist_ok=True)
            self._db = lancedb.connect(self.path)
        except OSError as exc:
            raise StorageError(f"cannot open the vector index at {self.path}: {exc}") from exc
        self._tables: dict[str, _TableState] = {}

    # --- writes -----------------------------------------------------------------------

    def add(self, table: str, items: Sequence[IndexedText], *, user_id: str) -> None:
        """Embed and store ``items``; an id already indexed for this user is replaced."""
        user_id = require_user(user_id)
        _check_table_name(table)
        for item in items:
            if item.user_id != user_id:
                raise UserError(
                    f"item {item.id!r} belongs to user {item.user_id!r}, not {user_id!r}: "
                    "index each user's items under their own user_id"
                )
        batch = list({item.id: item for item in items}.values())  # last write of an id wins
        if not batch:
            return
        state = self._state(table)
        if state is not None:
            self._check_model(table, state.table)
        vectors = self.embedder.embed([item.text for item in batch])
        if vectors.shape != (len(batch), self.embedder.dim):
            raise StorageError(
                f"embedder {self.embedder.model_id} returned shape {vectors.shape} "
                f"for {len(batch)} texts (expected dim {self.embedder.dim})"
            )
        data = self._to_arrow(batch, vectors)
        try:
            if state is None:
                state = self._create(table, data.schema)
            else:
                self._delete_ids(state.table, [item.id for item in batch], user_id)
            state.table.add(data)
        except (OSError, RuntimeError, ValueError) as exc:
            raise StorageError(f"cannot write to vector table {table!r}: {exc}") from exc
        state.pending_rows += len(batch)
        state.pending_adds += 1
        self._maintain(table, state)

    def delete(self, table: str, ids: Sequence[str], *, user_id: str) -> int:
        """Remove this user's rows with these ids; ids of other users are never touched."""
        user_id = require_user(user_id)
        state = self._state(table)
        if state is None or not ids:
            return 0
        return self._delete_ids(state.table, list(ids), user_id)

    def optimize(self, table: str) -> None:
        """Compact the table and fold appended rows into its indices (ANN once it is big)."""
        state = self._state(table)
        if state is None:
            return
        if not state.indexed:
            self._build_indices(state)
        else:
            state.table.optimize()
        if not state.has_ann and state.table.count_rows() >= ANN_MIN_ROWS:
            self._build_ann(state)
        state.pending_rows = state.pending_adds = 0

    # --- reads ------------------------------------------------------------------------

    def search(
        self,
        table: str,
        query: str,
        *,
        user_id: str,
        mode: str = "hybrid",
        limit: int = 10,
        kinds: Sequence[str] | None = None,
        query_vector: np.ndarray | None = None,
    ) -> list[SearchHit]:
        """Best ``limit`` hits of this user for ``query`` by vector, BM25 or both fused (RRF)."""
        user_id = require_user(user_id)
        if mode not in MODES:
            raise UserError(f"unknown search mode {mode!r}: use one of {', '.join(MODES)}")
        if limit < 1:
            return []
        state = self._state(table)
        if state is None or (kinds is not None and not kinds):
            return []
        where = _where(user_id, kinds)
        if mode == "fts":
            return self._fts(state.table, query, where, limit)
        self._check_model(table, state.table)
        if query_vector is None:
            if not query.strip():
                return []
            query_vector = self.embedder.embed([query])[0]
        if mode == "vector":
            return self._vector(state, query_vector, where, limit)
        fetch = max(limit * 2, 20)
        return _fuse(
            [
                self._vector(state, query_vector, where, fetch),
                self._fts(state.table, query, where, fetch),
            ],
            limit,
        )

    def items(self, table: str, *, user_id: str) -> list[IndexedText]:
        """Every item of this user, oldest first (for export and reindexing)."""
        user_id = require_user(user_id)
        state = self._state(table)
        if state is None:
            return []
        rows = (
            state.table.search()
            .where(_where(user_id, None))
            .select(_RESULT_COLUMNS)
            .limit(None)
            .to_arrow()
            .to_pylist()
        )
        out = [
            IndexedText(
                id=row["id"],
                user_id=user_id,
                text=row["text"],
                kind=row["kind"],
                ts=to_utc(row["ts"]),
                session_id=row["session_id"],
                trace_id=row["trace_id"],
                meta=_load_meta(row["meta"]),
            )
            for row in rows
        ]
        return sorted(out, key=lambda item: (item.ts, item.id))

    def ids(self, table: str, *, user_id: str) -> set[str]:
        user_id = require_user(user_id)
        state = self._state(table)
        if state is None:
            return set()
        result = state.table.search().where(_where(user_id, None)).select(["id"]).limit(None)
        return set(result.to_arrow().column("id").to_pylist())

    def count(self, table: str, *, user_id: str) -> int:
        user_id = require_user(user_id)
        state = self._state(table)
        return 0 if state is None else state.table.count_rows(_where(user_id, None))

    # --- routes -----------------------------------------------------------------------

    def _vector(
        self, state: _TableState, vector: np.ndarray, where: str, limit: int
    ) -> list[SearchHit]:
        vector = np.asarray(vector, dtype=np.float32).reshape(-1)
        if vector.shape[0] != self.embedder.dim:
            raise UserError(
                f"query_vector has {vector.shape[0]} dims; the index uses {self.embedder.dim}"
            )
        builder = state.table.search(vector, vector_column_name="vector")
        assert isinstance(builder, LanceVectorQueryBuilder)
        query = (
            builder.distance_type("cosine")
            .where(where, prefilter=True)
            .select([*_RESULT_COLUMNS, "_distance"])
            .limit(limit)
        )
        if state.has_ann:
            query = query.nprobes(ANN_NPROBES).refine_factor(ANN_REFINE)
        rows = query.to_arrow().to_pylist()
        return [_hit(row, 1.0 - float(row["_distance"]), "vector") for row in rows]

    def _fts(self, table: Table, query: str, where: str, limit: int) -> list[SearchHit]:
        text = _clean_fts_query(query)
        if not text:
            return []
        try:
            rows = (
                table.search(MatchQuery(text, "text"), query_type="fts")  # type: ignore[call-arg]
                .where(where, prefilter=True)
                .select([*_RESULT_COLUMNS, "_score"])
                .limit(limit)
                .to_arrow()
                .to_pylist()
            )
        except (ValueError, RuntimeError) as exc:
            # A query LanceDB cannot parse finds nothing by words; other routes still can.
            logger.warning("full-text query {!r} failed, no fts hits: {}", text[:80], exc)
            return []
        return [_hit(row, float(row["_score"]), "fts") for row in rows]

    # --- tables and indices -----------------------------------------------------------

    def _state(self, table: str) -> _TableState | None:
        _check_table_name(table)
        state = self._tables.get(table)
        if state is not None:
            return state
        try:
            handle = self._db.open_table(table)
        except ValueError as exc:
            if "not found" in str(exc).lower():
                return None
            raise StorageError(f"cannot open vector table {table!r}: {exc}") from exc
        indices = {tuple(ix.columns): ix for ix in handle.list_indices()}
        fts = indices.get(("text",))
        state = _TableState(
            table=handle,
            indexed=fts is not None and ("user_id",) in indices,
            has_ann=("vector",) in indices,
        )
        if fts is not None:
            stats = handle.index_stats(fts.name)
            state.pending_rows = stats.num_unindexed_rows if stats else 0
        self._tables[table] = state
        return state

    def _create(self, table: str, schema: pa.Schema) -> _TableState:
        handle = self._db.create_table(table, schema=schema)
        state = _TableState(table=handle, indexed=False, has_ann=False)
        self._tables[table] = state
        return state

    def _check_model(self, table: str, handle: Table) -> None:
        built_with = (handle.schema.metadata or {}).get(_MODEL_KEY, b"").decode()
        if built_with != self.embedder.model_id:
            raise StorageError(
                f"vector table {table!r} was built with embedding model {built_with or '?'!r}, "
                f"not {self.embedder.model_id!r}: rebuild it with `engram memory reindex` "
                "(or choose the original embedder)"
            )

    def _maintain(self, table: str, state: _TableState) -> None:
        if not state.indexed:
            self._build_indices(state)
        elif state.pending_rows >= REINDEX_AFTER_ROWS or state.pending_adds >= REINDEX_AFTER_ADDS:
            self.optimize(table)
        elif not state.has_ann and state.table.count_rows() >= ANN_MIN_ROWS:
            self._build_ann(state)

    def _build_indices(self, state: _TableState) -> None:
        state.table.create_index("user_id", config=Bitmap(), replace=True)
        state.table.create_index("id", config=BTree(), replace=True)
        state.table.create_index("text", config=_FTS_CONFIG, replace=True)
        state.indexed = True
        state.pending_rows = state.pending_adds = 0

    def _build_ann(self, state: _TableState) -> None:
        rows = state.table.count_rows()
        partitions = max(16, int(rows**0.5) // 2)
        config = IvfPq(
            distance_type="cosine",
            num_partitions=partitions,
            num_sub_vectors=_sub_vectors(self.embedder.dim),
        )
        state.table.create_index("vector", config=config, replace=True)
        state.has_ann = True
        logger.info("built IVF_PQ index ({} partitions) over {} rows", partitions, rows)

    # --- rows -------------------------------------------------------------------------

    def _to_arrow(self, batch: list[IndexedText], vectors: np.ndarray) -> pa.Table:
        dim = vectors.shape[1]
        schema = _schema(dim, self.embedder.model_id)
        flat = pa.array(np.ascontiguousarray(vectors, dtype=np.float32).reshape(-1))
        columns = {
            "id": [item.id for item in batch],
            "user_id": [item.user_id for item in batch],
            "kind": [item.kind for item in batch],
            "text": [item.text for item in batch],
            "ts": [to_utc(item.ts) for item in batch],
            "session_id": [item.session_id for item in batch],
            "trace_id": [item.trace_id for item in batch],
            "meta": [
                json.dumps(item.meta, ensure_ascii=False, sort_keys=True, default=str)
                for item in batch
            ],
            "embed_model": [self.embedder.model_id] * len(batch),
        }
        arrays = [pa.array(columns[f.name], type=f.type) for f in schema if f.name != "vector"]
        arrays.append(pa.FixedSizeListArray.from_arrays(flat, dim))
        return pa.Table.from_arrays(arrays, schema=schema)

    def _delete_ids(self, table: Table, ids: list[str], user_id: str) -> int:
        deleted = 0
        for start in range(0, len(ids), 500):
            chunk = ", ".join(_quote(i) for i in ids[start : start + 500])
            where = f"{_where(user_id, None)} AND id IN ({chunk})"
            matched = table.count_rows(where)
            if matched:  # a delete writes a new table version even when nothing matches
                table.delete(where)
                deleted += matched
        return deleted


def _schema(dim: int, model_id: str) -> pa.Schema:
    return pa.schema(
        [
            pa.field("id", pa.string(), nullable=False),
            pa.field("user_id", pa.string(), nullable=False),
            pa.field("kind", pa.string(), nullable=False),
            pa.field("text", pa.string(), nullable=False),
            pa.field("ts", pa.timestamp("us", tz="UTC"), nullable=False),
            pa.field("session_id", pa.string()),
            pa.field("trace_id", pa.string()),
            pa.field("meta", pa.string()),
            pa.field("embed_model", pa.string(), nullable=False),
            pa.field("vector", pa.list_(pa.float32(), dim), nullable=False),
        ],
        metadata={_MODEL_KEY: model_id.encode()},
    )


def _sub_vectors(dim: int) -> int:
    for size in (16, 8, 4, 2):  # 384 / 16 = 24 sub-vectors: a good PQ trade-off
        if dim % size == 0 and dim // size >= 4:
            return dim // size
    return 1


def _check_table_name(table: str) -> None:
    if not isinstance(table, str) or not _TABLE_NAME.match(table):
        raise UserError(f"invalid vector table name {table!r}: use lowercase letters, digits, '_'")


def _quote(value: str) -> str:
    return "'" + str(value).replace("'", "''") + "'"


def _where(user_id: str, kinds: Sequence[str] | None) -> str:
    # user_id already passed require_user (no quotes possible); quoting anyway is cheap.
    clause = f"user_id = {_quote(user_id)}"
    if kinds:
        clause += f" AND kind IN ({', '.join(_quote(k) for k in kinds)})"
    return clause


def _clean_fts_query(query: str) -> str:
    """Letters, digits and a few joiners only: the match query never sees syntax."""
    text = unicodedata.normalize("NFKC", query or "")[:_MAX_QUERY_CHARS]
    text = "".join(ch if ch.isalnum() or ch in "@.-_#'" else " " for ch in text)
    return " ".join(text.split())


def _load_meta(raw: str | None) -> dict[str, Any]:
    if not raw:
        return {}
    try:
        value = json.loads(raw)
    except ValueError:
        return {"raw": raw}
    return value if isinstance(value, dict) else {"value": value}


def _hit(row: dict[str, Any], score: float, route: str) -> SearchHit:
    return SearchHit(
        id=row["id"],
        kind=row["kind"],
        text=row["text"],
        score=score,
        route=route,
        ts=to_utc(row["ts"]),
        session_id=row["session_id"],
        trace_id=row["trace_id"],
        meta=_load_meta(row["meta"]),
    )


def _fuse(routes: list[list[SearchHit]], limit: int) -> list[SearchHit]:
    """Reciprocal-rank fusion: score = sum over routes of 1 / (k + rank)."""
    scores: dict[str, float] = {}
    first: dict[str, SearchHit] = {}
    for hits in routes:
        for rank, hit in enumerate(hits, start=1):
            scores[hit.id] = scores.get(hit.id, 0.0) + 1.0 / (RRF_K + rank)
            first.setdefault(hit.id, hit)
    ranked = sorted(scores, key=lambda i: (-scores[i], i))[:limit]
    return [replace(first[i], score=scores[i], route="hybrid") for i in ranked]
