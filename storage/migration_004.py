"""Migration 004: procedural memory (recipes) and resumable batch task state."""

from __future__ import annotations

from .migrations import Migration, _sql

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

MIGRATION = Migration("004_recipes_and_tasks", _RECIPES_AND_TASKS)
