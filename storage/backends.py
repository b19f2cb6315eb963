"""Which record store a ``Store`` opens: DuckDB in the data directory, or PostgreSQL.

``Store.open(data_dir, store="postgresql://…")`` (or ``MEMVISOR_STORE``) puts the records in
a PostgreSQL database; without it they are ``memvisor.duckdb`` in the data directory.
"""

from __future__ import annotations

import os
from pathlib import Path

from memvisor.errors import StorageError, UserError

from .database import Database, DuckDBDatabase
from .failures import record_store_errors
from .migrations import migrate, pending

STORE_ENV = "MEMVISOR_STORE"
RECORDS_FILE = "memvisor.duckdb"
EMBEDDED = "embedded"  # names the data directory's own store, whatever MEMVISOR_STORE says


def chosen_store(store: str | None) -> str | None:
    """The PostgreSQL URL asked for (the argument, else ``MEMVISOR_STORE``), or None for the
    embedded store (also asked for by name: ``"embedded"``)."""
    chosen = store if store is not None else os.environ.get(STORE_ENV) or None
    if chosen is None or chosen == EMBEDDED:
        return None
    try:
        from .postgres import checked_url, is_postgres_url, redacted
    except ModuleNotFoundError as exc:  # psycopg: the postgres extra
        raise UserError(
            f"a PostgreSQL store needs {exc.name}: pip install 'memvisor[postgres]'"
        ) from None

    if not is_postgres_url(chosen):
        raise UserError(
            f"unknown store {redacted(chosen)!r}: pass a postgresql:// URL, "
            f"or nothing (and no {STORE_ENV}) for the embedded store"
        )
    return checked_url(chosen)


def open_records(data_dir: Path, *, store: str | None, read_only: bool) -> Database:
    """The record store, migrated. A reader never migrates: a store that needs it is an error
    saying so, and an embedded store that is not there yet is an empty one in memory."""
    if store is not None:
        from .postgres import PostgresDatabase  # psycopg loads only for this backend

        return PostgresDatabase(store, read_only=read_only)
    path = data_dir / RECORDS_FILE
    if not read_only:
        db = DuckDBDatabase(path)
        _migrated(db)
        return db
    if not path.exists():
        db = DuckDBDatabase(":memory:")
        _migrated(db)
        db.read_only = True
        return db
    db = DuckDBDatabase(path, read_only=True)
    try:
        needed = pending(db)
    except BaseException:
        db.close()  # a damaged file: let a later open (a writer's) start afresh
        raise
    if needed:
        db.close()
        raise StorageError(
            f"the store {path} was written by an older memvisor and needs {len(needed)} "
            "migration(s) before it can be read: run a writing command on it once "
            "(e.g. `memvisor memory reindex`) with write access"
        )
    return db


def _migrated(db: DuckDBDatabase) -> None:
    try:
        with record_store_errors(db.path, writing=True):
            migrate(db.conn)
    except BaseException:
        db.close()
        raise
