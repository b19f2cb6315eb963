"""The statements of ``PgVectorIndex`` (``pg_vectors``) and how their rows become hits.

Table names are checked before they get here (lowercase letters, digits, ``_``) and quoted;
every value is a parameter.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .clock import to_utc
from .pg_fts import all_terms_sql, any_terms_sql
from .postgres import Translated
from .vectors import SearchHit, _load_meta

ROW = "id, kind, text, ts, session_id, trace_id, meta"  # an IndexedText, less its user


def where_clause(user_id: str, kinds: Sequence[str] | None) -> tuple[str, list[Any]]:
    if kinds is None:
        return "user_id = ?", [user_id]
    return "user_id = ? AND kind = ANY(?::text[])", [user_id, list(kinds)]


def vector_sql(name: str, where: str) -> str:
    """The nearest rows and their similarity. The scan's order is relaxed (iterative), and
    the planner takes it as sorted (even out of a MATERIALIZED CTE, since PostgreSQL 17):
    the caller sorts the rows."""
    return (
        f"SELECT {ROW}, 1 - distance FROM (SELECT {ROW}, embedding <=> ?::vector AS distance "
        f'FROM "{name}" WHERE {where} ORDER BY distance LIMIT ?) AS near'
    )


def tsqueries(conn: Translated, config: str, asked: list[tuple[str, tuple[str, str]]]) -> list[str]:
    """Each query's tsquery as text, in one round trip: the query's terms any of, a needle's
    all of. Passed back as a parameter, the tsquery is made once per statement (made in the
    statement, a prepared one remade it for every row it ranked: 40 ms at 10k rows)."""
    if not asked:
        return []
    terms = [all_terms_sql(config) if needle else any_terms_sql(config) for needle, _ in asked]
    select = ", ".join(f"({term})::text" for term in terms)
    row = conn.execute(f"SELECT {select}", [w for _, parts in asked for w in parts]).fetchone()
    return [str(query or "") for query in row or ()]


def words_sql(name: str, where: str, *, holding: bool = False) -> str:
    needle = " AND strpos(lower(text), lower(?)) > 0" if holding else ""
    return (
        f'SELECT {ROW}, ts_rank(words, query) AS rank FROM "{name}", (SELECT ?::tsquery AS '
        f"query) AS terms WHERE {where} AND words @@ query{needle} ORDER BY rank DESC, id LIMIT ?"
    )


def vector_literal(vector: np.ndarray) -> str:
    return "[" + ",".join(map(str, np.asarray(vector, dtype=np.float32).tolist())) + "]"


def is_hex(text: str) -> bool:
    return all(ch in "0123456789abcdef" for ch in text)


def row_fields(row: Sequence[Any]) -> dict[str, Any]:
    return {
        "id": row[0],
        "kind": row[1],
        "text": row[2],
        "ts": to_utc(row[3]),
        "session_id": row[4],
        "trace_id": row[5],
        "meta": _load_meta(row[6]),
    }


def row_hit(row: Sequence[Any], route: str) -> SearchHit:
    return SearchHit(score=float(row[7]), route=route, **row_fields(row))
