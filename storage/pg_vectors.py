"""The search index of a PostgreSQL store: pgvector and PostgreSQL's own full-text search.

The same interface as the embedded ``VectorIndex`` (``search_index.SearchIndex``), in the
record store's database, on its connection: a rebuild or a search of one process is seen by
every other, and the data directory holds no index.

Where rows live: one PostgreSQL table per index table, every user's rows in it, keyed by
``(user_id, id)``: ``memvisor_search_<table>``, or ``memvisor_search_<table>_<hex>`` once
rebuilt. ``memvisor_search_tables`` names the one in use for each index table, with the
embedding model, the dimension and the text search configuration it was built with (a model
other than the embedder's is refused, as on the embedded index). One table per index table
rather than one for all: the ``vector(dim)`` column and its HNSW index have one dimension, so
a rebuild with another model needs a new table anyway; it is loaded beside the old one, then
the pointer row changes and the old table is dropped in one transaction.

Columns: ``embedding vector(dim)`` with an HNSW index (cosine, ``m`` 16, ``ef_construction``
64); ``words tsvector`` (``pg_fts``: words through a language configuration, CJK runs as
bigrams) with a GIN index. Every query filters ``user_id`` (and ``kind``) in its WHERE; the
HNSW scan iterates (pgvector's ``hnsw.iterative_scan``, relaxed order, sorted here) until it
has ``limit`` rows that pass, so a user with few rows among many still gets them. Hybrid
search is the embedded index's reciprocal-rank fusion of the two routes. The tables have the
record tables' row-level security policy: a ``memvisor_member`` connection sees its user's
rows only.
"""

from __future__ import annotations

import json
import secrets
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np
import psycopg

from memvisor.errors import IndexDamaged, StorageError, UserError

from .clock import to_utc
from .embedders import Embedder
from .logger import logger
from .pg_fts import check_config, document_sql, split_query
from .pg_fts import split_text as fts_parts
from .pg_search_sql import (
    ROW,
    is_hex,
    row_fields,
    row_hit,
    tsqueries,
    vector_literal,
    vector_sql,
    where_clause,
    words_sql,
)
from .pg_term_counts import TermCounts
from .postgres import MEMBER_ROLE, ROW_POLICY, SEARCH_TABLES, PostgresDatabase, Translated
from .users import require_user

# The embedded index's row types, argument checks and fusion: one behaviour on both backends.
from .vectors import (
    IndexedText,
    RouteHits,
    SearchHit,
    _batch,
    _check_table_name,
    search_by_mode,
)

POINTERS = "memvisor_search_tables"
HNSW_M = 16
HNSW_EF_CONSTRUCTION = 64
EF_SEARCH = 40  # pgvector's default; raised to the limit for larger ones (at most 1000)
_MAX_NAME = 63 - len(SEARCH_TABLES) - 9  # PostgreSQL names: 63 bytes, with a build's suffix
T = TypeVar("T")


@dataclass
class _Table:
    name: str  # the PostgreSQL table holding the index table now
    model_id: str
    dim: int
    config: str
    model_checked: bool = False


class PgVectorIndex:
    """Texts and their embeddings in the PostgreSQL store's database.

    Thread-safe: statements run on the store's connection, one at a time; the lock guards
    this process's copy of the pointer rows only.
    """

    def __init__(
        self, db: PostgresDatabase, embedder: Embedder, *, text_config: str = "english"
    ) -> None:
        self.db = db
        self.embedder = embedder
        try:
            self.text_config = check_config(text_config)
        except ValueError as exc:
            raise UserError(f"{exc}: name one PostgreSQL has (e.g. 'english')") from exc
        self._lock = threading.RLock()
        self._tables: dict[str, _Table] = {}
        self._set_up = False
        self._terms = TermCounts()

    # --- writes -------------------------------------------------------------------------

    def add(self, table: str, items: Sequence[IndexedText], *, user_id: str) -> None:
        """Embed and store ``items``; an id this user already has is replaced."""
        self.add_many(table, {require_user(user_id): items})

    def add_many(self, table: str, by_user: Mapping[str, Sequence[IndexedText]]) -> None:
        """``add`` for several users at once: one embedding batch, one statement batch."""
        batch = [
            item
            for user_id, items in by_user.items()
            for item in _batch(table, items, require_user(user_id))
        ]
        if not batch:
            return
        state = self._state(table)
        if state is not None:
            self._check_model(table, state)
        vectors = self._embed(batch)
        if state is None:
            state = self._create_current(table)  # or the one another writer just made
            self._check_model(table, state)
        self._on(table, lambda s: self._insert(s.name, s.config, batch, vectors), state)

    def replace(self, table: str, batches: Iterable[tuple[str, Sequence[IndexedText]]]) -> None:
        """Build ``table`` anew from ``batches`` (user, items) in a new PostgreSQL table and
        swap it in only when complete: a failure on the way leaves the old one in use."""
        _check_name(table)
        self._setup()
        name = f"{SEARCH_TABLES}{table}_{secrets.token_hex(4)}"
        built = False
        try:
            for user_id, items in batches:
                batch = _batch(table, items, require_user(user_id))
                if not batch:
                    continue
                vectors = self._embed(batch)
                if not built:
                    with self.db.transaction() as conn:
                        self._create(conn, name, self.embedder.dim, indexes=False)
                    built = True
                self._insert(name, self.text_config, batch, vectors)
            if built:  # the indices of a loaded table: faster than growing them row by row
                with self.db.transaction() as conn:
                    self._index(conn, name)
        except BaseException:
            if built:
                self._drop_quietly(name)
            raise
        with self._lock, self.db.transaction() as conn:
            old = self._pointer(conn, table)
            conn.execute(f"DELETE FROM {POINTERS} WHERE name = ?", [table])
            if built:
                self._point(conn, table, name)
            stale = {old.name if old else "", f"{SEARCH_TABLES}{table}", *self._builds(conn, table)}
            for gone in stale - {name, ""}:
                conn.execute(f'DROP TABLE IF EXISTS "{gone}"')
            self._tables.pop(table, None)
            if built:
                self._tables[table] = self._current(name, model_checked=True)

    def delete(self, table: str, ids: Sequence[str], *, user_id: str) -> int:
        """Remove this user's rows with these ids; rows of other users are never touched."""
        user_id = require_user(user_id)
        state = self._state(table)
        if state is None or not ids:
            return 0

        def run(s: _Table) -> int:
            sql = f'DELETE FROM "{s.name}" WHERE user_id = ? AND id = ANY(?::text[])'
            with self.db.transaction() as conn:
                row = conn.execute(sql, [user_id, list(ids)]).fetchone()
            return int(row[0]) if row else 0

        return self._on(table, run, state)

    def drop(self, table: str) -> None:
        """Delete the whole table, every user's rows, unread (a missing one is fine).

        Its model is never checked: this is how an index of another model goes away.
        """
        _check_name(table)
        with self._lock:
            self._tables.pop(table, None)
            if not self._has_pointers():
                return
            with self.db.transaction() as conn:
                old = self._pointer(conn, table)
                conn.execute(f"DELETE FROM {POINTERS} WHERE name = ?", [table])
                if old is not None:
                    conn.execute(f'DROP TABLE IF EXISTS "{old.name}"')

    def optimize(self, table: str) -> None:
        """Fresh planner statistics (HNSW and GIN take rows as they come: nothing to fold)."""
        state = self._state(table)
        if state is not None:
            self._on(table, lambda s: self._run(f'ANALYZE "{s.name}"'), state)

    # --- reads --------------------------------------------------------------------------

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
        """This user's best ``limit`` hits by vector, full text or both fused by RRF."""
        return search_by_mode(
            self.routes, table, query, user_id=user_id, mode=mode, limit=limit, kinds=kinds,
            query_vector=query_vector,
        )  # fmt: skip

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
    ) -> RouteHits:
        """The vector and the full-text route, each this user's best ``limit``, in one
        snapshot. ``needles`` (identifiers: codes, emails, numbers) each find the rows holding
        every word of theirs and the needle itself, any case."""
        user_id = require_user(user_id)
        kinds = [kinds] if isinstance(kinds, str) else kinds
        state = self._state(table)
        if state is None or limit < 1 or (kinds is not None and not kinds):
            return RouteHits([], [])
        query_vec = None
        if vector:
            self._check_model(table, state)
            query_vec = self._query_vector(query, query_vector)
        words = split_query(query) if fts else None
        needle_words = [(n, split_query(n)) for n in dict.fromkeys(needles) if n and n.strip()]
        return self._on(
            table,
            lambda s: self._routes(s, user_id, limit, kinds, query_vec, words, needle_words),
            state,
        )

    def _routes(
        self,
        state: _Table,
        user_id: str,
        limit: int,
        kinds: Sequence[str] | None,
        query_vec: np.ndarray | None,
        words: tuple[str, str] | None,
        needles: list[tuple[str, tuple[str, str]]],
    ) -> RouteHits:
        where, params = where_clause(user_id, kinds)
        by_vector: list[SearchHit] = []
        by_words: list[SearchHit] = []
        exact: dict[str, SearchHit] = {}
        with self.db.transaction(reading=True) as conn:
            if query_vec is not None:
                conn.execute(
                    "SELECT set_config('hnsw.iterative_scan', 'relaxed_order', true), "
                    "set_config('hnsw.ef_search', ?, true)",
                    [str(min(1000, max(EF_SEARCH, limit)))],
                )
                rows = conn.execute(
                    vector_sql(state.name, where), [vector_literal(query_vec), *params, limit]
                ).fetchall()
                rows.sort(key=lambda row: (-row[7], row[0]))
                by_vector = [row_hit(row, "vector") for row in rows]
            asked = [("", words)] if words is not None and any(words) else []
            asked += [(needle, parts) for needle, parts in needles if any(parts)]
            queries = tsqueries(conn, state.config, asked)
            for (needle, _), query in zip(asked, queries, strict=True):
                if not query:  # stop words or punctuation only: no row holds it
                    continue
                if not needle:  # its common words neither rank nor widen what is ranked
                    query = self._terms.selective(conn, state.name, user_id, query, wanted=limit)
                sql = words_sql(state.name, where, holding=bool(needle))
                holding = [needle] if needle else []
                rows = conn.execute(sql, [query, *params, *holding, limit]).fetchall()
                if needle:
                    for row in rows:
                        exact.setdefault(row[0], row_hit(row, "exact"))
                else:
                    by_words = [row_hit(row, "fts") for row in rows]
        return RouteHits(by_vector, by_words, list(exact.values()))

    def can_score_fresh(
        self, table: str, query: str, items: Sequence[IndexedText], *, user_id: str, **options: Any
    ) -> bool:
        """Never: an insert here is a row in a transaction, with no fragment to save a read
        from (``VectorIndex.can_score_fresh``)."""
        return False

    def floor(self, table: str, query: str, *, user_id: str, limit: int = 10) -> dict[str, float]:
        """Seconds of the pieces a search cannot do without, each alone: the query's
        embedding, the vector query and the full-text query (the user's filter inside)."""
        user_id = require_user(user_id)
        state = self._state(table)
        if state is None or not self.count(table, user_id=user_id):
            raise UserError(f"no {table} index for {user_id!r} to time")
        start = time.perf_counter()
        vector = self.embedder.embed([query])[0]
        embedded = time.perf_counter()
        self._routes(state, user_id, limit, None, vector, None, [])
        searched = time.perf_counter()
        self._routes(state, user_id, limit, None, None, split_query(query), [])
        done = time.perf_counter()
        return {"embed": embedded - start, "vector": searched - embedded, "fts": done - searched}

    def items(self, table: str, *, user_id: str) -> list[IndexedText]:
        """Every item of this user, oldest first (for export and reindexing)."""
        user_id = require_user(user_id)
        rows = self._select(table, f"SELECT {ROW} FROM {{}} WHERE user_id = ?", [user_id])
        out = [IndexedText(user_id=user_id, **row_fields(row)) for row in rows]
        return sorted(out, key=lambda item: (item.ts, item.id))

    def ids(self, table: str, *, user_id: str) -> set[str]:
        user_id = require_user(user_id)
        rows = self._select(table, "SELECT id FROM {} WHERE user_id = ?", [user_id])
        return {row[0] for row in rows}

    def revisions(self, table: str, *, user_id: str) -> dict[str, str]:
        """This user's ids and the ``text_revision`` (md5) of the text each row holds."""
        user_id = require_user(user_id)
        rows = self._select(table, "SELECT id, md5(text) FROM {} WHERE user_id = ?", [user_id])
        return {row[0]: row[1] for row in rows}

    def all_revisions(self, table: str) -> dict[str, dict[str, str]]:
        """Every user's ids with the md5 of each row's text: user -> id -> revision."""
        out: dict[str, dict[str, str]] = {}
        for user_id, row_id, revision in self._select(
            table, "SELECT user_id, id, md5(text) FROM {}", []
        ):
            out.setdefault(user_id, {})[row_id] = revision
        return out

    def close(self) -> None:
        """Nothing runs in the background here: the database does the index upkeep."""

    def count(self, table: str, *, user_id: str) -> int:
        user_id = require_user(user_id)
        rows = self._select(table, "SELECT count(*) FROM {} WHERE user_id = ?", [user_id])
        return int(rows[0][0]) if rows else 0

    # --- tables -------------------------------------------------------------------------

    def _select(self, table: str, sql: str, params: list[Any]) -> list[tuple[Any, ...]]:
        state = self._state(table)
        if state is None:
            return []
        return self._on(table, lambda s: self.db.query(sql.format(f'"{s.name}"'), params), state)

    def _on(self, table: str, run: Callable[[_Table], T], state: _Table) -> T:
        """``run`` on the table in use; if it is gone, once more on the one the pointer names
        now (another process rebuilt it), else the index is damaged: rebuilt from the records."""
        try:
            return run(state)
        except StorageError as exc:
            if not isinstance(exc.__cause__, psycopg.errors.UndefinedTable):
                raise
        with self._lock:
            self._tables.pop(table, None)
        now = self._state(table)
        if now is not None and now.name != state.name:
            return run(now)
        raise IndexDamaged(f"search index table {table!r} is damaged (table {state.name} is gone)")

    def _state(self, table: str) -> _Table | None:
        """The table in use for ``table`` (read from the pointers if not yet), or None."""
        _check_name(table)
        with self._lock:
            state = self._tables.get(table)
            if state is not None:
                return state
            if not self._has_pointers():
                return None
            with self.db.transaction(reading=True) as conn:
                state = self._pointer(conn, table)
            if state is not None:
                self._tables[table] = state
            return state

    def _has_pointers(self) -> bool:
        if not self._set_up:
            rows = self.db.query(  # in this schema: the record tables' (search_path's first)
                "SELECT count(*) > 0 FROM pg_tables WHERE schemaname = current_schema() "
                "AND tablename = ?",
                [POINTERS],
            )
            self._set_up = bool(rows[0][0])
        return self._set_up

    def _pointer(self, conn: Translated, table: str) -> _Table | None:
        row = conn.execute(
            f"SELECT physical, model_id, dim, text_config FROM {POINTERS} WHERE name = ?", [table]
        ).fetchone()
        return None if row is None else _Table(row[0], row[1], int(row[2]), row[3])

    def _point(self, conn: Translated, table: str, name: str) -> None:
        conn.execute(
            f"INSERT INTO {POINTERS} (name, physical, model_id, dim, text_config) "
            "VALUES (?, ?, ?, ?, ?)",
            [table, name, self.embedder.model_id, self.embedder.dim, self.text_config],
        )

    def _current(self, name: str, *, model_checked: bool = False) -> _Table:
        model = self.embedder.model_id
        return _Table(name, model, self.embedder.dim, self.text_config, model_checked)

    def _setup(self) -> None:
        """pgvector, the pointer table and this configuration, once per process."""
        if self._set_up:
            return
        with self.db.transaction() as conn:
            if not conn.execute("SELECT 1 FROM pg_extension WHERE extname = 'vector'").fetchone():
                self._create_extension(conn)
            known = conn.execute(
                "SELECT count(*) FROM pg_ts_config WHERE cfgname = ?", [self.text_config]
            )
            if not known.fetchall()[0][0]:
                raise UserError(
                    f"PostgreSQL has no text search configuration {self.text_config!r}: "
                    "see `SELECT cfgname FROM pg_ts_config`"
                )
            conn.execute(
                f"CREATE TABLE IF NOT EXISTS {POINTERS} (name TEXT PRIMARY KEY, "
                "physical TEXT NOT NULL, model_id TEXT NOT NULL, dim INTEGER NOT NULL, "
                "text_config TEXT NOT NULL)"
            )
            conn.execute(f"GRANT SELECT ON {POINTERS} TO {MEMBER_ROLE}")
        self._set_up = True

    def _create_extension(self, conn: Translated) -> None:
        try:
            conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
        except StorageError as exc:
            how = (
                "this role may not create it: run `CREATE EXTENSION vector;` in this database "
                "once as a superuser"
                if isinstance(exc.__cause__, psycopg.errors.InsufficientPrivilege)
                else "install pgvector on the server, then run `CREATE EXTENSION vector;`"
            )
            raise StorageError(
                f"the PostgreSQL store {self.db.path} has no pgvector extension for its search "
                f"index, and {how}"
            ) from exc

    def _create_current(self, table: str) -> _Table:
        """The first table of ``table``: under its plain name, unless another writer just
        made one (the writers' lock orders the two)."""
        self._setup()
        name = f"{SEARCH_TABLES}{table}"
        with self._lock, self.db.transaction() as conn:
            state = self._pointer(conn, table)
            if state is None:
                conn.execute(f'DROP TABLE IF EXISTS "{name}"')  # named by no pointer: unused
                self._create(conn, name, self.embedder.dim, indexes=True)
                self._point(conn, table, name)
                state = self._current(name, model_checked=True)
            self._tables[table] = state
            return state

    def _create(self, conn: Translated, name: str, dim: int, *, indexes: bool) -> None:
        conn.execute(
            f'CREATE TABLE "{name}" (user_id TEXT NOT NULL, id TEXT NOT NULL, '
            "kind TEXT NOT NULL, text TEXT NOT NULL, ts TIMESTAMPTZ NOT NULL, session_id TEXT, "
            "trace_id TEXT, meta TEXT, embed_model TEXT NOT NULL, "
            f"embedding vector({int(dim)}) NOT NULL, words tsvector NOT NULL, "
            "PRIMARY KEY (user_id, id))"
        )
        for statement in ROW_POLICY.format(table=f'"{name}"').split(";"):
            if statement.strip():
                conn.execute(statement)
        if indexes:
            self._index(conn, name)

    def _index(self, conn: Translated, name: str) -> None:
        conn.execute(
            f'CREATE INDEX ON "{name}" USING hnsw (embedding vector_cosine_ops) '
            f"WITH (m = {HNSW_M}, ef_construction = {HNSW_EF_CONSTRUCTION})"
        )
        # No pending list: a row is found by its words as soon as it commits, at full speed.
        conn.execute(f'CREATE INDEX ON "{name}" USING gin (words) WITH (fastupdate = off)')
        conn.execute(f'CREATE INDEX ON "{name}" (user_id, kind)')

    def _builds(self, conn: Translated, table: str) -> list[str]:
        """PostgreSQL tables a rebuild of ``table`` wrote (one may be left by a crash)."""
        rows = conn.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() "
            "AND starts_with(tablename, ?)",
            [f"{SEARCH_TABLES}{table}_"],
        ).fetchall()
        prefix = len(f"{SEARCH_TABLES}{table}_")
        return [r[0] for r in rows if len(r[0]) == prefix + 8 and is_hex(r[0][prefix:])]

    def _insert(
        self, name: str, config: str, batch: list[IndexedText], vectors: np.ndarray
    ) -> None:
        sql = (
            f'INSERT INTO "{name}" (user_id, {ROW}, embed_model, embedding, words) '
            f"VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?::vector, {document_sql(config)}) "
            "ON CONFLICT (user_id, id) DO UPDATE SET kind = EXCLUDED.kind, "
            "text = EXCLUDED.text, ts = EXCLUDED.ts, session_id = EXCLUDED.session_id, "
            "trace_id = EXCLUDED.trace_id, meta = EXCLUDED.meta, "
            "embed_model = EXCLUDED.embed_model, embedding = EXCLUDED.embedding, "
            "words = EXCLUDED.words"
        )
        model = self.embedder.model_id
        rows = [
            [
                item.user_id,
                item.id,
                item.kind,
                item.text,
                to_utc(item.ts),
                item.session_id,
                item.trace_id,
                json.dumps(item.meta, ensure_ascii=False, default=str),
                model,
                vector_literal(vector),
                *fts_parts(item.text),
            ]
            for item, vector in zip(batch, vectors, strict=True)
        ]
        with self.db.transaction() as conn:
            conn.executemany(sql, rows)

    def _run(self, sql: str) -> None:
        with self.db.transaction() as conn:
            conn.execute(sql)

    def _drop_quietly(self, name: str) -> None:
        try:
            self._run(f'DROP TABLE IF EXISTS "{name}"')
        except StorageError as exc:  # only space is lost; the next rebuild drops it
            logger.warning("search index: {}", exc)

    # --- vectors ------------------------------------------------------------------------

    def _check_model(self, table: str, state: _Table) -> None:
        if state.model_checked:
            return
        if state.model_id != self.embedder.model_id:
            raise StorageError(
                f"vector table {table!r} was built with embedding model {state.model_id!r}, "
                f"not {self.embedder.model_id!r}: rebuild it with `memvisor memory reindex` "
                "(or use the embedder it was built with)"
            )
        state.model_checked = True

    def _embed(self, batch: list[IndexedText]) -> np.ndarray:
        vectors = self.embedder.embed([item.embedded for item in batch])
        if vectors.shape != (len(batch), self.embedder.dim):
            raise StorageError(
                f"embedder {self.embedder.model_id} returned shape {vectors.shape} "
                f"for {len(batch)} texts (expected dim {self.embedder.dim})"
            )
        return vectors

    def _query_vector(self, query: str, given: np.ndarray | None) -> np.ndarray | None:
        if given is not None:
            vector = np.asarray(given, dtype=np.float32).reshape(-1)
            if vector.shape[0] != self.embedder.dim:
                raise UserError(
                    f"query_vector has {vector.shape[0]} dims; the index uses {self.embedder.dim}"
                )
            return vector
        return self.embedder.embed([query])[0] if query and query.strip() else None


def _check_name(table: str) -> None:
    _check_table_name(table)
    if len(table) > _MAX_NAME:
        raise UserError(f"index table name {table!r} is too long: at most {_MAX_NAME} characters")
