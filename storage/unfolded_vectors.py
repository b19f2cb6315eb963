"""The vectors of a LanceDB table's rows that its vector index does not cover yet.

Every append is a fragment of its own until the next fold (``lance_upkeep``), and LanceDB
flat-scans each unindexed fragment on every vector query: at 10k rows 31 appends of two
rows took a query's CPU from 8 to 26 ms. The rows appended since the fold are few and this
process wrote them, so it keeps their vectors here: the vector route asks LanceDB for its
indexed rows only (``fast_search``) and scores these exactly, as LanceDB's flat scan of
them would (cosine), merging both by score.

Immutable: an append or a delete makes a new one, so a search that took one before a
fold committed still scores the rows that fold was indexing (a row found both ways counts
once).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

import numpy as np
import pyarrow as pa

Ranked = list[tuple[str, float]]  # (id, score), best first


class UnfoldedVectors:
    """Ids, users, kinds and unit-length vectors of the rows appended since the fold."""

    def __init__(
        self,
        ids: Sequence[str] = (),
        users: Sequence[str] = (),
        kinds: Sequence[str] = (),
        vectors: np.ndarray | None = None,
    ) -> None:
        self.ids = list(ids)
        self.users = list(users)
        self.kinds = list(kinds)
        self.vectors = vectors if vectors is not None else np.zeros((0, 0), dtype=np.float32)

    def __len__(self) -> int:
        return len(self.ids)

    def appended(self, data: pa.Table) -> UnfoldedVectors:
        """These rows added (``data`` as written: ``id``, ``user_id``, ``kind``, ``vector``)."""
        added = _unit(vector_matrix(data))
        vectors = added if not len(self) else np.vstack([self.vectors, added])
        return UnfoldedVectors(
            [*self.ids, *data.column("id").to_pylist()],
            [*self.users, *data.column("user_id").to_pylist()],
            [*self.kinds, *data.column("kind").to_pylist()],
            vectors,
        )

    def without(self, user_id: str, ids: Collection[str]) -> UnfoldedVectors:
        """The user's rows with these ids left out (deleted, or about to be re-added)."""
        keep = [
            n
            for n, (row_id, user) in enumerate(zip(self.ids, self.users, strict=True))
            if user != user_id or row_id not in ids
        ]
        if len(keep) == len(self):
            return self
        return UnfoldedVectors(
            [self.ids[n] for n in keep],
            [self.users[n] for n in keep],
            [self.kinds[n] for n in keep],
            self.vectors[keep],
        )

    def nearest(
        self, vector: np.ndarray, user_id: str, kinds: Collection[str] | None, limit: int
    ) -> Ranked:
        """The user's best ``limit`` of these rows (of ``kinds``, None: any), by cosine
        similarity (1 - LanceDB's cosine distance)."""
        rows = [
            n
            for n, (user, kind) in enumerate(zip(self.users, self.kinds, strict=True))
            if user == user_id and (kinds is None or kind in kinds)
        ]
        if not rows or limit < 1:
            return []
        query = _unit(np.asarray(vector, dtype=np.float32).reshape(1, -1))[0]
        scores = self.vectors[rows] @ query
        return [(self.ids[n], float(score)) for n, score in zip(rows, scores, strict=True)]


def vector_matrix(data: pa.Table) -> np.ndarray:
    """The ``vector`` column of these rows as one float32 matrix, a row each."""
    column = data.column("vector").combine_chunks()
    flat = np.asarray(column.flatten().to_numpy(zero_copy_only=False), dtype=np.float32)
    return flat.reshape(len(data), column.type.list_size)


def merged(indexed: Ranked, unfolded: Ranked, limit: int) -> Ranked:
    """Both lists as one, best first (equal scores by id), a row found twice counted once
    with its better score."""
    best: dict[str, float] = {}
    for row_id, score in (*indexed, *unfolded):
        if row_id not in best or score > best[row_id]:
            best[row_id] = score
    return sorted(best.items(), key=lambda hit: (-hit[1], hit[0]))[:limit]


def _unit(vectors: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return np.divide(vectors, norms, out=np.zeros_like(vectors), where=norms > 0)
