"""Named, ordered, transactional schema migrations, recorded in the store.

Append new migrations at the end; never edit one that has shipped.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING

import duckdb

from memvisor.errors import StorageError

if TYPE_CHECKING:
    from .database import Database


@dataclass(frozen=True)
class Migration:
    name: str
    apply: Callable[[duckdb.DuckDBPyConnection], None]


def _sql(*statements: str) -> Callable[[duckdb.DuckDBPyConnection], None]:
    def run(conn: duckdb.DuckDBPyConnection) -> None:
        for statement in statements:
            conn.execute(statement)

    return run


_INITIAL = _sql(
    """CREATE SEQUENCE event_seq START 1""",
    """CREATE TABLE events (
        seq BIGINT NOT NULL DEFAULT nextval('event_seq'),
        id VARCHAR PRIMARY KEY,
        trace_id VARCHAR NOT NULL,
        user_id VARCHAR NOT NULL,
        session_id VARCHAR,
        ts TIMESTAMP NOT NULL,
        kind VARCHAR NOT NULL,
        payload VARCHAR NOT NULL
    )""",
    """CREATE TABLE core_blocks (
        user_id VARCHAR NOT NULL,
        label VARCHAR NOT NULL,
        value VARCHAR NOT NULL,
        token_limit INTEGER NOT NULL,
        read_only BOOLEAN NOT NULL DEFAULT FALSE,
        version INTEGER NOT NULL,
        updated_at TIMESTAMP NOT NULL,
        trace_id VARCHAR,
        PRIMARY KEY (user_id, label)
    )""",
    """CREATE TABLE facts (
        id VARCHAR PRIMARY KEY,
        user_id VARCHAR NOT NULL,
        lineage_id VARCHAR NOT NULL,
        subject VARCHAR NOT NULL,
        predicate VARCHAR NOT NULL,
        object VARCHAR NOT NULL,
        confidence DOUBLE NOT NULL,
        importance DOUBLE NOT NULL,
        status VARCHAR NOT NULL,
        valid_from TIMESTAMP NOT NULL,
        valid_until TIMESTAMP,
        invalidated_at TIMESTAMP,
        created_at TIMESTAMP NOT NULL,
        last_confirmed_at TIMESTAMP,
        confirmations INTEGER NOT NULL,
        version INTEGER NOT NULL,
        supersedes VARCHAR,
        source_event_ids VARCHAR[] NOT NULL,
        trace_id VARCHAR NOT NULL
    )""",
    """CREATE TABLE quarantine (
        id VARCHAR PRIMARY KEY,
        user_id VARCHAR NOT NULL,
        tool VARCHAR NOT NULL,
        arguments VARCHAR NOT NULL,
        reasons VARCHAR[] NOT NULL,
        confidence DOUBLE,
        status VARCHAR NOT NULL,
        created_at TIMESTAMP NOT NULL,
        resolved_at TIMESTAMP,
        source_event_ids VARCHAR[] NOT NULL,
        trace_id VARCHAR NOT NULL
    )""",
    """CREATE TABLE passages (
        id VARCHAR PRIMARY KEY,
        user_id VARCHAR NOT NULL,
        text VARCHAR NOT NULL,
        session_id VARCHAR,
        created_at TIMESTAMP NOT NULL,
        source_event_ids VARCHAR[] NOT NULL,
        trace_id VARCHAR NOT NULL,
        meta VARCHAR NOT NULL
    )""",
)

_TOMBSTONES = _sql(
    # A forget leaves a tombstone so re-ingestion or replay of the same source
    # events cannot resurrect what the user asked to forget.
    """CREATE TABLE tombstones (
        user_id VARCHAR NOT NULL,
        record_id VARCHAR NOT NULL,
        kind VARCHAR NOT NULL,
        fingerprint VARCHAR NOT NULL,
        source_event_ids VARCHAR[] NOT NULL,
        forgotten_at TIMESTAMP NOT NULL,
        trace_id VARCHAR NOT NULL
    )""",
    """CREATE INDEX facts_user_subject ON facts (user_id, subject, predicate)""",
)

_PAGING = _sql(
    # The rolling recursive summary of evicted dialogue, one row per user and session.
    """CREATE TABLE summaries (
        user_id VARCHAR NOT NULL,
        session_id VARCHAR NOT NULL,
        text VARCHAR NOT NULL,
        version INTEGER NOT NULL,
        updated_at TIMESTAMP NOT NULL,
        trace_id VARCHAR NOT NULL,
        PRIMARY KEY (user_id, session_id)
    )""",
    # Session segment summaries (written at eviction and at session end).
    """CREATE TABLE episodes (
        id VARCHAR PRIMARY KEY,
        user_id VARCHAR NOT NULL,
        session_id VARCHAR,
        start_ts TIMESTAMP NOT NULL,
        end_ts TIMESTAMP NOT NULL,
        summary VARCHAR NOT NULL,
        entities VARCHAR[] NOT NULL,
        source_event_ids VARCHAR[] NOT NULL,
        created_at TIMESTAMP NOT NULL,
        trace_id VARCHAR NOT NULL
    )""",
    # What page-in learned from use: items cited gain, items corrected lose.
    """CREATE TABLE memory_usage (
        user_id VARCHAR NOT NULL,
        item_id VARCHAR NOT NULL,
        paged_in INTEGER NOT NULL DEFAULT 0,
        cited INTEGER NOT NULL DEFAULT 0,
        corrected INTEGER NOT NULL DEFAULT 0,
        last_used_at TIMESTAMP,
        PRIMARY KEY (user_id, item_id)
    )""",
)

_RECIPES_AND_TASKS = _sql(
    # One row per recipe and name (RecipeStore keeps names unique per user: a unique index
    # would make DuckDB refuse in-transaction updates); saving the same name again bumps
    # ``version`` and moves the replaced steps and their counts into ``history`` (JSON).
    """CREATE TABLE recipes (
        id VARCHAR PRIMARY KEY,
        user_id VARCHAR NOT NULL,
        name VARCHAR NOT NULL,
        trigger VARCHAR NOT NULL,
        steps VARCHAR[] NOT NULL,
        successes INTEGER NOT NULL,
        failures INTEGER NOT NULL,
        status VARCHAR NOT NULL,
        version INTEGER NOT NULL,
        history VARCHAR NOT NULL,
        notes VARCHAR[] NOT NULL,
        created_at TIMESTAMP NOT NULL,
        updated_at TIMESTAMP NOT NULL,
        last_outcome_trace VARCHAR,
        source_event_ids VARCHAR[] NOT NULL,
        trace_id VARCHAR NOT NULL
    )""",
    # Progress of a batch operation, committed after every step so a crash loses nothing.
    """CREATE TABLE tasks (
        user_id VARCHAR NOT NULL,
        task_id VARCHAR NOT NULL,
        title VARCHAR NOT NULL,
        total INTEGER,
        completed INTEGER NOT NULL,
        last_success VARCHAR,
        errors VARCHAR[] NOT NULL,
        status VARCHAR NOT NULL,
        created_at TIMESTAMP NOT NULL,
        updated_at TIMESTAMP NOT NULL,
        trace_id VARCHAR NOT NULL,
        PRIMARY KEY (user_id, task_id)
    )""",
)

_TOMBSTONE_HASHES = _sql(
    # Hashes of the forgotten fact's source messages: a replay of the same words
    # (new event ids, same text) cannot bring it back.
    """ALTER TABLE tombstones ADD COLUMN source_hashes VARCHAR[] DEFAULT []""",
)

_ARCHIVE_AND_SESSION_STATE = _sql(
    # Records moved out of page-in and search by `memvisor memory prune` (restorable):
    # the record itself stays where it is, this row hides it.
    """CREATE TABLE archived (
        user_id VARCHAR NOT NULL,
        item_id VARCHAR NOT NULL,
        kind VARCHAR NOT NULL,
        archived_at TIMESTAMP NOT NULL,
        reason VARCHAR NOT NULL,
        trace_id VARCHAR NOT NULL,
        PRIMARY KEY (user_id, item_id)
    )""",
    # Task-scoped state of one session (slots such as the order being discussed); a topic
    # switch clears it, profile facts are never touched. ``value`` is JSON.
    """CREATE TABLE session_state (
        user_id VARCHAR NOT NULL,
        session_id VARCHAR NOT NULL,
        key VARCHAR NOT NULL,
        value VARCHAR NOT NULL,
        topic VARCHAR,
        updated_at TIMESTAMP NOT NULL,
        trace_id VARCHAR NOT NULL,
        PRIMARY KEY (user_id, session_id, key)
    )""",
)

_EPISODE_PARTICIPANTS = _sql(
    """ALTER TABLE episodes ADD COLUMN participants VARCHAR[] DEFAULT []""",
)

_FACT_REVISIONS = _sql(
    # Every insert or update of a fact takes the next revision (storage.database.REVISIONS
    # holds writers to it), so page-in's copy of the facts reads only what changed.
    """CREATE SEQUENCE fact_rev START 1""",
    """ALTER TABLE facts ADD COLUMN rev BIGINT DEFAULT nextval('fact_rev')""",
)

_API_KEYS = _sql(
    # Only a key's SHA-256 is kept: the key itself is shown once, when it is created.
    """CREATE TABLE api_keys (
        id VARCHAR PRIMARY KEY,
        user_id VARCHAR NOT NULL,
        name VARCHAR NOT NULL,
        key_hash VARCHAR NOT NULL UNIQUE,
        created_at TIMESTAMP NOT NULL,
        revoked_at TIMESTAMP
    )""",
)

_SEALED_SECRETS = _sql(
    # Secrets the user asked to keep, sealed with AES-256-GCM under the data directory's
    # sealed.key (storage/sealed.py): ``ciphertext`` is nonce + ciphertext + tag, emptied
    # when the secret is forgotten; the value is never stored in clear.
    """CREATE TABLE sealed_secrets (
        id VARCHAR PRIMARY KEY,
        user_id VARCHAR NOT NULL,
        description VARCHAR NOT NULL,
        kind VARCHAR NOT NULL,
        ciphertext BLOB NOT NULL,
        created_at TIMESTAMP NOT NULL,
        trace_id VARCHAR NOT NULL,
        source_event_ids VARCHAR[] NOT NULL,
        forgotten_at TIMESTAMP
    )""",
)

_SEARCH_OUTBOX = _sql(
    # A shared store's index work that a writer still owes (storage/index_outbox.py): one
    # ticket per writing transaction, committed with its records, deleted once indexed.
    # The embedded store (one process) leaves it empty.
    """CREATE TABLE search_outbox (
        ticket VARCHAR PRIMARY KEY,
        user_id VARCHAR NOT NULL,
        queued_at TIMESTAMP WITH TIME ZONE NOT NULL
    )""",
)

_SEALED_KEYS = _sql(
    # A shared store's sealed-secret data keys, each wrapped under the master key file its
    # workers hold (storage/sealed_keys.py), and the id of that master key. The embedded
    # store keeps its keys in sealed.key and leaves these empty.
    """CREATE TABLE sealed_keys (
        id VARCHAR PRIMARY KEY,
        user_id VARCHAR NOT NULL,
        master_id VARCHAR NOT NULL,
        wrapped BLOB NOT NULL
    )""",
    """CREATE TABLE sealed_master (
        master_id VARCHAR PRIMARY KEY,
        created_at TIMESTAMP WITH TIME ZONE NOT NULL
    )""",
)

MIGRATIONS: tuple[Migration, ...] = (
    Migration("001_initial", _INITIAL),
    Migration("002_tombstones_and_fact_index", _TOMBSTONES),
    Migration("003_summaries_episodes_usage", _PAGING),
    Migration("004_recipes_and_tasks", _RECIPES_AND_TASKS),
    Migration("005_tombstone_source_hashes", _TOMBSTONE_HASHES),
    Migration("006_archive_and_session_state", _ARCHIVE_AND_SESSION_STATE),
    Migration("007_episode_participants", _EPISODE_PARTICIPANTS),
    Migration("008_fact_revisions", _FACT_REVISIONS),
    Migration("009_api_keys", _API_KEYS),
    Migration("010_sealed_secrets", _SEALED_SECRETS),
    Migration("011_search_outbox", _SEARCH_OUTBOX),
    Migration("012_sealed_keys", _SEALED_KEYS),
)


def applied(conn: duckdb.DuckDBPyConnection) -> list[str]:
    conn.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations "
        "(name VARCHAR PRIMARY KEY, applied_at TIMESTAMP)"
    )
    rows = conn.execute("SELECT name FROM schema_migrations ORDER BY name").fetchall()
    return [r[0] for r in rows]


def pending(db: Database) -> list[str]:
    """The migrations a store still needs, read without writing (a read-only store too)."""
    # In this schema only: a PostgreSQL database may hold other stores in other schemas.
    tables = db.query(
        "SELECT count(*) FROM information_schema.tables WHERE table_name = 'schema_migrations' "
        "AND table_schema = current_schema()"
    )
    if not tables[0][0]:  # a store no memvisor has migrated
        return [m.name for m in MIGRATIONS]
    done = {r[0] for r in db.query("SELECT name FROM schema_migrations")}
    return [m.name for m in MIGRATIONS if m.name not in done]


def migrate(conn: duckdb.DuckDBPyConnection, *, upto: str | None = None) -> list[str]:
    """Apply pending migrations in order, each in its own transaction; return their names."""
    done = set(applied(conn))
    known = {m.name for m in MIGRATIONS}
    unknown = done - known
    if unknown:
        raise StorageError(
            f"store was written by a newer memvisor (migrations {sorted(unknown)}); "
            "upgrade memvisor"
        )
    ran: list[str] = []
    for migration in MIGRATIONS:
        if migration.name in done:
            continue
        conn.execute("BEGIN TRANSACTION")
        try:
            migration.apply(conn)
            conn.execute(
                "INSERT INTO schema_migrations VALUES (?, ?)",
                [migration.name, datetime.now(UTC).replace(tzinfo=None)],
            )
            conn.execute("COMMIT")
        except Exception as exc:
            conn.execute("ROLLBACK")
            raise StorageError(f"migration {migration.name} failed: {exc}") from exc
        ran.append(migration.name)
        if migration.name == upto:
            break
    return ran
