"""Move a data directory's embedded records into an empty PostgreSQL database: all or nothing.

Every table is copied row by row as it is (ids, versions, revisions, ciphertexts), then the
sequences are set past what was copied. Before COMMIT, inside the one transaction on the
target, the copy is checked twice: every table's row count against the source's, and each
user's export (``storage/export.py``, every record kind and the event log) read back from
PostgreSQL against the same export of the embedded store. Any difference, any failure, or a
killed process rolls the transaction back and leaves the target as it was.

The source is held with the data directory's writer lock throughout (no write can slip in
after its rows were read) and is left unchanged. The keys of its sealed secrets
(``sealed.key``) are wrapped into the target under the master key file the workers will use
(``sealed_keys.master_key_path`` of the data directory, made if missing), in the same
transaction; the search index is built anew in PostgreSQL by the first search.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from memvisor.errors import StorageError, UserError

from .backends import EMBEDDED, RECORDS_FILE, chosen_store
from .export import export_user
from .sealed_keys import KEY_FILE, KeyFile, WrappedKeys, master_key_path
from .store import Store

BATCH = 1000  # rows per executemany
_META_TABLES = ("schema_migrations",)  # the target's own migrations record


class MoveReport(BaseModel):
    """What ``move_to_postgres`` moved, and what it checked."""

    source: str
    target: str  # the URL without its password
    tables: dict[str, int]  # rows copied per table
    users: list[str]  # whose exports were compared
    sequences: dict[str, int]  # the value each sequence was set to
    sealed_keys: int = 0  # sealed-secret keys wrapped into the target
    master_key: str | None = None  # the file they are wrapped under, which workers need

    @property
    def rows(self) -> int:
        return sum(self.tables.values())


def move_to_postgres(data_dir: Path | str, url: str) -> MoveReport:
    """Copy the embedded store of ``data_dir`` into the empty PostgreSQL database ``url``
    in one transaction, verified before it commits."""
    target_url = chosen_store(url)
    if target_url is None:
        raise UserError("the target must be a postgresql:// URL, not the embedded store")
    source_dir = Path(data_dir)
    if not (source_dir / RECORDS_FILE).is_file():
        raise UserError(
            f"{source_dir} holds no embedded store (no {RECORDS_FILE}): pass the data "
            "directory memvisor has been using"
        )
    from .postgres import redacted  # chosen_store said psycopg is there

    where = redacted(target_url)
    with (
        Store.open(source_dir, embedder="hash", store=EMBEDDED) as source,
        tempfile.TemporaryDirectory(prefix="memvisor-move-") as scratch,
        Store.open(scratch, embedder="hash", store=target_url) as target,
    ):
        tables = _tables(source)
        try:
            with target.db.transaction() as conn:
                _refuse_non_empty(conn, tables, where)
                copied = {table: _copy(source, conn, table) for table in tables}
                _check_counts(conn, copied)
                users = _users(source, tables)
                for user in users:
                    _check_export(source, target, user)
                sequences = _set_sequences(source, conn)
                master = master_key_path(source_dir)
                keys = WrappedKeys(target.db, master).adopt(conn, KeyFile(source_dir / KEY_FILE))
        except StorageError as exc:
            raise StorageError(
                f"moving {source_dir} to {where} failed, nothing was moved (the target is as "
                f"it was): {exc}"
            ) from exc
    return MoveReport(
        source=str(source_dir),
        target=where,
        tables=copied,
        users=users,
        sequences=sequences,
        sealed_keys=len(keys),
        master_key=str(master) if keys else None,
    )


def _tables(source: Store) -> list[str]:
    rows = source.db.query(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = 'main' "
        "AND table_type = 'BASE TABLE' ORDER BY table_name"
    )
    return [r[0] for r in rows if r[0] not in _META_TABLES]


def _columns(source: Store, table: str) -> list[str]:
    rows = source.db.query(
        "SELECT column_name FROM information_schema.columns WHERE table_schema = 'main' "
        "AND table_name = ? ORDER BY ordinal_position",
        [table],
    )
    return [r[0] for r in rows]


def _refuse_non_empty(conn: Any, tables: list[str], where: str) -> None:
    """A move never merges: rows already there would mix two stores' histories."""
    held = {}
    for table in tables:
        n = int(conn.execute(f'SELECT count(*) FROM "{table}"').fetchall()[0][0])
        if n:
            held[table] = n
    if held:
        listed = ", ".join(f"{table} {n}" for table, n in sorted(held.items()))
        raise UserError(
            f"the PostgreSQL store {where} already holds records ({listed}): migrate moves "
            "into an empty database only; create a fresh one (e.g. `createdb memvisor`) and "
            "pass its URL"
        )


def _copy(source: Store, conn: Any, table: str) -> int:
    columns = _columns(source, table)
    names = ", ".join(f'"{c}"' for c in columns)
    insert = f'INSERT INTO "{table}" ({names}) VALUES ({", ".join("?" * len(columns))})'
    copied = 0
    with source.db.snapshot() as duck:
        cursor = duck.execute(f'SELECT {names} FROM "{table}"')
        while batch := cursor.fetchmany(BATCH):
            conn.executemany(insert, batch)
            copied += len(batch)
    return copied


def _check_counts(conn: Any, copied: dict[str, int]) -> None:
    for table, n in copied.items():
        there = int(conn.execute(f'SELECT count(*) FROM "{table}"').fetchall()[0][0])
        if there != n:
            raise StorageError(f"{table}: {n} rows copied but {there} read back")


def _users(source: Store, tables: list[str]) -> list[str]:
    found: set[str] = set()
    for table in tables:
        if "user_id" in _columns(source, table):
            found.update(r[0] for r in source.db.query(f'SELECT DISTINCT user_id FROM "{table}"'))
    return sorted(found)


def _check_export(source: Store, target: Store, user_id: str) -> None:
    """The user's export read back from the target (inside the open transaction: the
    target's reads join it) is the source's, record for record."""
    before, after = export_user(source, user_id=user_id), export_user(target, user_id=user_id)
    for kind in sorted(set(before) | set(after)):
        if _canonical(before.get(kind)) != _canonical(after.get(kind)):
            size = len(before.get(kind) or []) if isinstance(before.get(kind), list) else 1
            raise StorageError(
                f"the export of user {user_id!r} differs after the copy in {kind} "
                f"({size} in the source)"
            )


def _canonical(value: Any) -> Any:
    """A kind's records in one order (backends may order ties differently)."""
    if isinstance(value, list):
        return sorted(json.dumps(v, sort_keys=True, default=str) for v in value)
    return json.dumps(value, sort_keys=True, default=str)


def _set_sequences(source: Store, conn: Any) -> dict[str, int]:
    """Each sequence where the source's was, so new rows number after the copied ones."""
    rows = source.db.query("SELECT sequence_name, last_value FROM duckdb_sequences()")
    values: dict[str, int] = {}
    for name, last in rows:
        if last:
            conn.execute("SELECT setval(?, ?)", [name, int(last)])
            values[name] = int(last)
    return values
