"""The LanceDB queries behind a search: vector and BM25, as ids and scores, best first.

Queries run in LanceDB's own event loop, one hop each; ``start_query`` submits one whose
result is read later, so BM25 runs while the caller embeds the query. Filters are SQL over
``user_id`` and ``kind`` with every value quoted; words for BM25 are cleaned of syntax.
"""

from __future__ import annotations

import asyncio
import unicodedata
from collections.abc import Coroutine, Sequence
from concurrent.futures import Future
from typing import Any

import numpy as np
import pyarrow as pa
from lancedb.background_loop import LOOP
from lancedb.query import FullTextOperator, MatchQuery
from lancedb.table import AsyncTable

from .index_tables import looks_damaged
from .logger import logger
from .unfolded_vectors import vector_matrix

MAX_QUERY_CHARS = 2_000

Ranked = list[tuple[str, float]]  # (id, score), best first


async def vector_ids(
    table: AsyncTable,
    vector: np.ndarray,
    where: str | None,
    limit: int,
    *,
    partitions: int,
    flat: bool = False,
    indexed_only: bool = False,
) -> Ranked:
    """Ids and similarities (1 - cosine distance); ``partitions`` of the IVF index, if any;
    ``flat``: an exact scan, the index left aside (what recall is measured against);
    ``indexed_only``: the rows the index covers, none appended since (the caller scores
    those itself: ``unfolded_vectors``)."""
    query = table.query().nearest_to(vector).column("vector").distance_type("cosine")
    if flat:
        query = query.bypass_vector_index()
    elif indexed_only:
        query = query.fast_search()
    columns = ["id", "_distance"]
    if partitions:
        # A sixth of the partitions. At 100k rows (66 partitions) against a flat scan:
        # recall@10 0.985 as with a quarter or half of them (the int8 codes cap it), recall@80
        # 0.989 (a quarter: 0.992), and the query takes 6.1 ms instead of 7.1.
        query = query.nprobes(max(8, partitions // 6))
        # The index's int8 codes put a MiniLM similarity 0.24-0.33 below the exact one (0.52
        # for 0.76), and LanceDB scores rows it has not indexed exactly: the same memory's
        # score rose and fell with the fold. So the candidates are re-scored from their own
        # vectors, read in the same query: LanceDB's refine_factor(1) does the same (the same
        # rows, exact scores) but costs more (limit 80 at 100k rows, 66 partitions, p50 on a
        # busy machine: 9.2 ms refined, 7.4 ms with the vectors read, 5.5 ms neither).
        columns = ["id", "_distance", "vector"]  # _distance: LanceDB warns without it
    if where:
        query = query.where(where)
    found = await query.select(columns).limit(limit).to_arrow()
    if partitions:
        return best_first(_cosine(found, vector))
    return best_first([(i, 1.0 - distance) for i, distance in _id_scores(found, "_distance")])


def _cosine(found: pa.Table, vector: np.ndarray) -> Ranked:
    """Each row's cosine similarity to ``vector`` from its stored vector (as LanceDB's
    cosine distance, 1 - this, computes it)."""
    if not found.num_rows:
        return []
    rows = vector_matrix(found)
    query = np.asarray(vector, dtype=np.float32).reshape(-1)
    norms = np.linalg.norm(rows, axis=1) * float(np.linalg.norm(query))
    scores = np.divide(rows @ query, norms, out=np.zeros(len(rows), np.float32), where=norms > 0)
    return list(zip(found.column("id").to_pylist(), scores.tolist(), strict=True))


async def bm25_ids(
    table: AsyncTable, words: str, where: str | None, limit: int, *, all_words: bool = False
) -> Ranked:
    """Ids and BM25 scores; with ``all_words`` a row must hold every word."""
    operator = FullTextOperator.AND if all_words else FullTextOperator.OR
    match = MatchQuery(words, "text", operator=operator)  # type: ignore[call-arg]
    found = table.query().nearest_to_text(match)
    if where:
        found = found.where(where)
    return best_first(
        _id_scores(await found.select(["id", "_score"]).limit(limit).to_arrow(), "_score")
    )


def start_query(search: Coroutine[Any, Any, Ranked]) -> Future[Ranked]:
    """Run a query in LanceDB's event loop; its result is read later."""
    return asyncio.run_coroutine_threadsafe(search, LOOP.loop)


def bm25_result(words: str, pending: Future[Ranked]) -> Ranked:
    try:
        return pending.result()
    except (ValueError, RuntimeError) as exc:
        if looks_damaged(exc):
            raise  # missing index files: the caller rebuilds, never a silent empty route
        # A query LanceDB cannot take finds nothing by words; the vector route still can.
        logger.warning("full-text query {!r} failed, no fts hits: {}", words[:80], exc)
        return []


def search_filter(
    held_users: set[str], held_kinds: set[str], user_id: str, kinds: Sequence[str] | None
) -> str | None:
    """The prefilter a search needs in a table holding these users and kinds; None when
    every row passes (at 100k rows a filter costs the query ~2 ms)."""
    clauses = []
    if held_users != {user_id}:
        clauses.append(user_filter(user_id))
    if kinds and not held_kinds <= set(kinds):
        clauses.append(f"kind IN ({', '.join(quote(k) for k in kinds)})")
    return " AND ".join(clauses) or None


def user_filter(user_id: str) -> str:
    return f"user_id = {quote(user_id)}"  # user_id passed require_user; quoted anyway


def quote(value: str) -> str:
    return "'" + str(value).replace("'", "''") + "'"


def fts_words(query: str) -> str:
    """Words only: quotes, operators and brackets become spaces, so nothing is syntax."""
    text = unicodedata.normalize("NFKC", query or "")[:MAX_QUERY_CHARS]
    text = "".join(ch if ch.isalnum() or ch in "@.-_#'" else " " for ch in text)
    return " ".join(text.split())


def best_first(ranked: Ranked) -> Ranked:
    """Best score first, equal scores by id: LanceDB returns ties in the order its parallel
    scan met them, which differs from run to run, and a page-in that reads the first few
    hits of a route then ranked the same session differently each time."""
    return sorted(ranked, key=lambda hit: (-hit[1], hit[0]))


def _id_scores(found: pa.Table, column: str) -> Ranked:
    scores = [float(score) for score in found.column(column).to_pylist()]
    return list(zip(found.column("id").to_pylist(), scores, strict=True))
