"""What the index sync and the store need of a search index, on either backend.

``VectorIndex`` (LanceDB in the data directory, beside DuckDB records) and ``PgVectorIndex``
(pgvector and PostgreSQL's full-text search, beside PostgreSQL records) both have it; nothing
above ``storage`` knows which one it searches.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import numpy as np

    from .embedders import Embedder
    from .vectors import IndexedText, RouteHits, SearchHit


class SearchIndex(Protocol):
    embedder: Embedder

    def add(self, table: str, items: Sequence[IndexedText], *, user_id: str) -> None: ...

    def add_many(self, table: str, by_user: Mapping[str, Sequence[IndexedText]]) -> None: ...

    def replace(self, table: str, batches: Iterable[tuple[str, Sequence[IndexedText]]]) -> None: ...

    def delete(self, table: str, ids: Sequence[str], *, user_id: str) -> int: ...

    def drop(self, table: str) -> None: ...

    def optimize(self, table: str) -> None: ...

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
    ) -> list[SearchHit]: ...

    def routes(
        self,
        table: str,
        query: str,
        *,
        user_id: str,
        limit: int = 10,
        kinds: Sequence[str] | None = None,
        query_vector: np.ndarray | None = None,
        vector: bool = True,
        fts: bool = True,
        needles: Sequence[str] = (),
    ) -> RouteHits: ...

    def floor(
        self, table: str, query: str, *, user_id: str, limit: int = 10
    ) -> dict[str, float]: ...

    def can_score_fresh(
        self, table: str, query: str, items: Sequence[IndexedText], *, user_id: str, **options: Any
    ) -> bool: ...

    def items(self, table: str, *, user_id: str) -> list[IndexedText]: ...

    def ids(self, table: str, *, user_id: str) -> set[str]: ...

    def revisions(self, table: str, *, user_id: str) -> dict[str, str]: ...

    def all_revisions(self, table: str) -> dict[str, dict[str, str]]: ...

    def close(self) -> None: ...

    def count(self, table: str, *, user_id: str) -> int: ...
