"""The storage modules' DuckDB statements, said in PostgreSQL's dialect.

The modules keep one SQL text per statement, written for DuckDB; the PostgreSQL backend
rewrites it here, mechanically and only outside string literals:

- ``?`` placeholders become psycopg's ``%s`` (a literal ``%`` becomes ``%%``);
- ``list_contains(?, col)`` becomes ``col = ANY(%s::text[])``;
- ``len(list_intersect(col, ?)) > 0`` becomes ``col && %s::text[]`` (arrays overlap);
- ``unnest(?)`` of a Python list becomes ``unnest(%s::text[])`` (an untyped list is ambiguous);
- ``col->>'$.key'`` (DuckDB's JSON path on a VARCHAR) becomes ``(col::jsonb)->>'key'``;
- types: ``VARCHAR`` is ``TEXT`` (so that ``VARCHAR[]`` columns compare with ``text[]``
  parameters), ``DOUBLE`` is ``DOUBLE PRECISION``, ``BLOB`` is ``BYTEA``, ``DEFAULT []`` is
  ``DEFAULT '{}'``.

Every list parameter of the modules is a list of ids, labels or hashes: text.
"""

from __future__ import annotations

import re
from functools import lru_cache

# A string literal ('it''s') or a run of anything else.
_PIECES = re.compile(r"('(?:[^']|'')*')|([^']+)")
_JSON_PATH = re.compile(r"(\w+)->>'\$\.(\w+)'")
_RULES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"len\(list_intersect\((\w+),\s*\?\)\)\s*>\s*0", re.I), r"\1 && ?::text[]"),
    (re.compile(r"list_contains\(\?,\s*(\w+)\)", re.I), r"\1 = ANY(?::text[])"),
    (re.compile(r"unnest\(\?\)", re.I), "unnest(?::text[])"),
    (re.compile(r"\bVARCHAR\b", re.I), "TEXT"),
    (re.compile(r"\bDOUBLE\b(?!\s+PRECISION)", re.I), "DOUBLE PRECISION"),
    (re.compile(r"\bBLOB\b", re.I), "BYTEA"),
    (re.compile(r"\bDEFAULT\s+\[\]", re.I), "DEFAULT '{}'"),
)
_LEFT_OVER = re.compile(r"\b(list_\w+|len)\(", re.I)


@lru_cache(maxsize=1024)
def to_postgres(sql: str) -> str:
    """``sql`` (DuckDB's dialect, ``?`` placeholders) for psycopg on PostgreSQL."""
    sql = _JSON_PATH.sub(r"(\1::jsonb)->>'\2'", sql)
    out: list[str] = []
    for literal, code in _PIECES.findall(sql):
        if literal:
            out.append(literal.replace("%", "%%"))
            continue
        for pattern, replacement in _RULES:
            code = pattern.sub(replacement, code)
        if found := _LEFT_OVER.search(code):
            raise ValueError(
                f"no PostgreSQL form for DuckDB's {found.group(1)}(): {sql[:120]} "
                "(add a rule to storage/pg_dialect.py)"
            )
        out.append(code.replace("%", "%%").replace("?", "%s"))
    return "".join(out)
