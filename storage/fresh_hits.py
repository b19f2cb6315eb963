"""Queued items scored by a read before they are appended to the index.

``IndexSync`` lets a read leave a user's queued items unappended when no words route can
find them (``fts_reach``); the vector route then scores them here as it scores its own rows:
cosine similarity to the query (LanceDB's 1 - cosine distance, and the exact score the
route gives its ANN candidates), the hit built as the table would return it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from .clock import to_utc
from .vectors import IndexedText, RouteHits, SearchHit


def with_fresh(
    found: RouteHits,
    fresh: Sequence[tuple[IndexedText, np.ndarray]],
    query_vector: np.ndarray,
    *,
    limit: int,
) -> RouteHits:
    """``found`` with each fresh item in its vector route by its score, best ``limit`` kept
    (equal scores by id, as the route orders them)."""
    if not fresh:
        return found
    query = _unit(np.asarray(query_vector, dtype=np.float32).reshape(-1))
    ids = {item.id for item, _ in fresh}
    hits = [hit for hit in found.vector if hit.id not in ids]
    for item, vector in fresh:
        score = float(_unit(np.asarray(vector, dtype=np.float32).reshape(-1)) @ query)
        hits.append(_hit(item, score))
    hits.sort(key=lambda hit: (-hit.score, hit.id))
    return replace(found, vector=hits[:limit])


def _hit(item: IndexedText, score: float) -> SearchHit:
    # As stored and read back: the table keeps meta as JSON (dates become strings).
    meta = json.loads(json.dumps(item.meta, ensure_ascii=False, default=str))
    return SearchHit(
        id=item.id,
        kind=item.kind,
        text=item.text,
        score=score,
        route="vector",
        ts=to_utc(item.ts),
        session_id=item.session_id,
        trace_id=item.trace_id,
        meta=meta,
    )


def _unit(vector: np.ndarray) -> np.ndarray:
    norm = float(np.linalg.norm(vector))
    return vector / norm if norm > 0 else vector
