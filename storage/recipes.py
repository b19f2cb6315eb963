"""Recipes: procedural memory, the steps that completed a task, with their outcomes.

A recipe is written only after a verified success (the tools check for the signal), so
it starts with one success. Saving the same name again with other steps starts a new
version (the old steps and counts stay in ``history``); the id stays the same so the
model can keep reporting outcomes against it. A recipe that keeps failing is retired:
search never returns it again until a verified success saves new steps.
"""

from __future__ import annotations

import builtins
import json
from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field

from memvisor.errors import NotFound, UserError

from .clock import Clock, to_utc
from .database import Database, db_time
from .ids import new_id
from .records import Record
from .user_rows import UsersWithRows
from .users import require_user

if TYPE_CHECKING:  # a store that only reads records loads no embedder (nor numpy)
    from .embedders import Embedder

RecipeStatus = Literal["active", "retired"]

MAX_STEPS = 30
MAX_CHARS = {"name": 100, "trigger": 500, "step": 500, "note": 500}
MAX_NOTES = 10

_COLUMNS = (
    "id, user_id, name, trigger, steps, successes, failures, status, version, history, notes, "
    "created_at, updated_at, last_outcome_trace, source_event_ids, trace_id"
)


class RecipeVersion(Record):
    """Steps a recipe used to have, with the outcomes they earned."""

    version: int
    steps: list[str]
    successes: int
    failures: int
    replaced_at: datetime


class Recipe(Record):
    id: str
    user_id: str
    name: str
    trigger: str
    steps: list[str]
    successes: int = Field(ge=0)
    failures: int = Field(ge=0)
    status: RecipeStatus
    version: int = 1
    history: list[RecipeVersion] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)
    created_at: datetime
    updated_at: datetime
    last_outcome_trace: str | None = None
    source_event_ids: list[str] = Field(default_factory=list)
    trace_id: str

    @property
    def success_rate(self) -> float:
        """Laplace-smoothed, so one lucky run does not outrank a long record."""
        return (self.successes + 1) / (self.successes + self.failures + 2)

    def text(self) -> str:
        return f"{self.name}: {self.trigger}"


class RecipeSave(Record):
    """What a save did: a new recipe, a repeat of the same steps, new steps, or a revival."""

    action: Literal["created", "confirmed", "updated", "reactivated"]
    recipe: Recipe


class RecipeOutcome(Record):
    recipe: Recipe
    counted: bool  # False when this turn already reported an outcome for the recipe
    retired_now: bool = False


class RecipeMatch(Record):
    recipe: Recipe
    similarity: float
    score: float


class RecipeStore:
    def __init__(
        self,
        db: Database,
        clock: Clock,
        *,
        retire_min_failures: int = 3,
        retire_failure_rate: float = 0.6,
    ) -> None:
        self._db = db
        self._clock = clock
        self._retire_min_failures = retire_min_failures
        self._retire_failure_rate = retire_failure_rate
        self._active: dict[str, tuple[int, builtins.list[Recipe]]] = {}
        self._owners = UsersWithRows(db, "recipes")  # most users have none

    def should_retire(self, successes: int, failures: int) -> bool:
        runs = successes + failures
        return (
            failures >= self._retire_min_failures
            and runs > 0
            and failures / runs > self._retire_failure_rate
        )

    def save(
        self,
        *,
        user_id: str,
        name: str,
        trigger: str,
        steps: Sequence[str],
        trace_id: str,
        source_event_ids: Sequence[str] = (),
    ) -> RecipeSave:
        """Create or version a recipe after a verified success; committed before it returns."""
        require_user(user_id)
        name, trigger, clean = _validate(name, trigger, steps)
        now = self._clock.now()
        sources = list(dict.fromkeys(source_event_ids))
        with self._db.transaction() as conn:
            current = self._find(conn, user_id, name)
            if current is None:
                recipe = Recipe(
                    id=new_id("rcp"),
                    user_id=user_id,
                    name=name,
                    trigger=trigger,
                    steps=clean,
                    successes=1,
                    failures=0,
                    status="active",
                    created_at=now,
                    updated_at=now,
                    last_outcome_trace=trace_id,
                    source_event_ids=sources,
                    trace_id=trace_id,
                )
                _write(conn, recipe, insert=True)
                return RecipeSave(action="created", recipe=recipe)
            merged = list(dict.fromkeys([*current.source_event_ids, *sources]))
            if clean == current.steps and current.status == "active":
                # The same steps worked again: one more success (once per turn).
                counted = current.last_outcome_trace != trace_id
                recipe = current.model_copy(
                    update={
                        "trigger": trigger,
                        "successes": current.successes + (1 if counted else 0),
                        "updated_at": now,
                        "last_outcome_trace": trace_id,
                        "source_event_ids": merged,
                    }
                )
                _write(conn, recipe)
                return RecipeSave(action="confirmed", recipe=recipe)
            old = RecipeVersion(
                version=current.version,
                steps=current.steps,
                successes=current.successes,
                failures=current.failures,
                replaced_at=now,
            )
            recipe = current.model_copy(
                update={
                    "trigger": trigger,
                    "steps": clean,
                    "successes": 1,
                    "failures": 0,
                    "status": "active",
                    "version": current.version + 1,
                    "history": [*current.history, old],
                    "updated_at": now,
                    "last_outcome_trace": trace_id,
                    "source_event_ids": merged,
                    "trace_id": trace_id,
                }
            )
            _write(conn, recipe)
            if current.status == "retired":
                return RecipeSave(action="reactivated", recipe=recipe)
            return RecipeSave(action="updated", recipe=recipe)

    def record_outcome(
        self,
        recipe_id: str,
        *,
        user_id: str,
        success: bool,
        trace_id: str,
        note: str | None = None,
    ) -> RecipeOutcome:
        """Count one success or failure (at most one per recipe per turn); retire a loser."""
        require_user(user_id)
        if note is not None:
            note = note.strip()[: MAX_CHARS["note"]] or None
        with self._db.transaction() as conn:
            current = self._get(conn, user_id, recipe_id)
            if current.last_outcome_trace == trace_id:
                return RecipeOutcome(recipe=current, counted=False)
            successes = current.successes + (1 if success else 0)
            failures = current.failures + (0 if success else 1)
            retire = current.status == "active" and self.should_retire(successes, failures)
            notes = current.notes
            if note:
                tag = "worked" if success else "failed"
                notes = [*current.notes, f"{tag}: {note}"][-MAX_NOTES:]
            recipe = current.model_copy(
                update={
                    "successes": successes,
                    "failures": failures,
                    "status": "retired" if retire else current.status,
                    "notes": notes,
                    "updated_at": self._clock.now(),
                    "last_outcome_trace": trace_id,
                }
            )
            _write(conn, recipe)
        return RecipeOutcome(recipe=recipe, counted=True, retired_now=retire)

    def retire(self, recipe_id: str, *, user_id: str) -> Recipe:
        require_user(user_id)
        with self._db.transaction() as conn:
            recipe = self._get(conn, user_id, recipe_id).model_copy(
                update={"status": "retired", "updated_at": self._clock.now()}
            )
            _write(conn, recipe)
        return recipe

    def restore(self, recipe: Recipe, *, user_id: str, conn: Any) -> None:
        """Write a recipe exactly as exported, replacing one of the same id (import path)."""
        if recipe.user_id != user_id:
            raise UserError(f"recipe {recipe.id} belongs to another user")
        conn.execute("DELETE FROM recipes WHERE user_id = ? AND id = ?", [user_id, recipe.id])
        _write(conn, recipe, insert=True)

    def get(self, recipe_id: str, *, user_id: str) -> Recipe:
        with self._db.transaction() as conn:
            return self._get(conn, require_user(user_id), recipe_id)

    def find(self, name: str, *, user_id: str) -> Recipe | None:
        """The recipe with this name (any case), or None."""
        with self._db.transaction() as conn:
            return self._find(conn, require_user(user_id), " ".join(name.split()))

    def list(self, *, user_id: str, include_retired: bool = False) -> builtins.list[Recipe]:
        sql = f"SELECT {_COLUMNS} FROM recipes WHERE user_id = ?"
        if not include_retired:
            sql += " AND status = 'active'"
        rows = self._db.query(sql + " ORDER BY created_at, id", [require_user(user_id)])
        return [_recipe(r) for r in rows]

    def candidates(self, *, user_id: str) -> builtins.list[Recipe]:
        """What may be offered for a task: active recipes only, never retired ones."""
        if not self._owners.has_rows(require_user(user_id)):
            return []
        generation = self._db.generation("recipes")
        cached = self._active.get(user_id)
        if cached is None or cached[0] != generation:  # page-in asks on every turn
            cached = self._active[user_id] = (generation, self.list(user_id=user_id))
        return list(cached[1])

    def search(
        self,
        task: str,
        *,
        user_id: str,
        embedder: Embedder,
        limit: int = 3,
        min_similarity: float = 0.2,
    ) -> builtins.list[RecipeMatch]:
        """Rank active recipes by trigger similarity times smoothed success rate."""
        if not isinstance(task, str) or not task.strip():
            raise UserError("describe the task to find a recipe for, e.g. 'export invoices'")
        recipes = self.candidates(user_id=require_user(user_id))
        if not recipes:
            return []
        import numpy as np

        # Recipes are few: no search index; the embedder keeps recent vectors, so page-in's
        # query and the triggers are not computed again on every turn.
        vectors = np.asarray(embedder.embed([task, *(r.text() for r in recipes)]))
        sims = vectors[1:] @ vectors[0]
        matches = [
            RecipeMatch(recipe=r, similarity=float(s), score=float(s) * r.success_rate)
            for r, s in zip(recipes, sims, strict=True)
            if s >= min_similarity
        ]
        matches.sort(key=lambda m: (-m.score, m.recipe.created_at))
        return matches[:limit]

    @staticmethod
    def _get(conn: Any, user_id: str, recipe_id: str) -> Recipe:
        rows = conn.execute(
            f"SELECT {_COLUMNS} FROM recipes WHERE user_id = ? AND id = ?", [user_id, recipe_id]
        ).fetchall()
        if not rows:
            raise NotFound(
                f"no recipe {recipe_id!r} for user {user_id!r}; use the id recipe_search shows"
            )
        return _recipe(rows[0])

    @staticmethod
    def _find(conn: Any, user_id: str, name: str) -> Recipe | None:
        rows = conn.execute(
            f"SELECT {_COLUMNS} FROM recipes WHERE user_id = ? AND lower(name) = lower(?)",
            [user_id, name],
        ).fetchall()
        return _recipe(rows[0]) if rows else None


def _validate(name: str, trigger: str, steps: Sequence[str]) -> tuple[str, str, list[str]]:
    name = " ".join(str(name).split())
    trigger = " ".join(str(trigger).split())
    if not name or len(name) > MAX_CHARS["name"]:
        raise UserError(f"a recipe needs a short name (1-{MAX_CHARS['name']} characters)")
    if not trigger or len(trigger) > MAX_CHARS["trigger"]:
        raise UserError(
            f"a recipe needs a trigger (1-{MAX_CHARS['trigger']} characters) saying which "
            "task it is for"
        )
    if isinstance(steps, str):
        raise UserError("steps must be a list of strings, one per step")
    clean = [" ".join(str(s).split()) for s in steps]
    clean = [s for s in clean if s]
    if not clean or len(clean) > MAX_STEPS:
        raise UserError(f"a recipe needs 1-{MAX_STEPS} non-empty steps")
    if any(len(s) > MAX_CHARS["step"] for s in clean):
        raise UserError(f"each step must be at most {MAX_CHARS['step']} characters")
    return name, trigger, clean


def _write(conn: Any, recipe: Recipe, *, insert: bool = False) -> None:
    history = json.dumps([v.model_dump(mode="json") for v in recipe.history], ensure_ascii=False)
    if insert:
        conn.execute(
            f"INSERT INTO recipes ({_COLUMNS}) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                recipe.id,
                recipe.user_id,
                recipe.name,
                recipe.trigger,
                recipe.steps,
                recipe.successes,
                recipe.failures,
                recipe.status,
                recipe.version,
                history,
                recipe.notes,
                db_time(recipe.created_at),
                db_time(recipe.updated_at),
                recipe.last_outcome_trace,
                recipe.source_event_ids,
                recipe.trace_id,
            ],
        )
        return
    conn.execute(
        "UPDATE recipes SET trigger = ?, steps = ?, successes = ?, failures = ?, status = ?, "
        "version = ?, history = ?, notes = ?, updated_at = ?, last_outcome_trace = ?, "
        "source_event_ids = ?, trace_id = ? WHERE user_id = ? AND id = ?",
        [
            recipe.trigger,
            recipe.steps,
            recipe.successes,
            recipe.failures,
            recipe.status,
            recipe.version,
            history,
            recipe.notes,
            db_time(recipe.updated_at),
            recipe.last_outcome_trace,
            recipe.source_event_ids,
            recipe.trace_id,
            recipe.user_id,
            recipe.id,
        ],
    )


def _recipe(row: tuple[Any, ...]) -> Recipe:
    return Recipe(
        id=row[0],
        user_id=row[1],
        name=row[2],
        trigger=row[3],
        steps=list(row[4]),
        successes=row[5],
        failures=row[6],
        status=row[7],
        version=row[8],
        history=[RecipeVersion.model_validate(v) for v in json.loads(row[9])],
        notes=list(row[10] or []),
        created_at=to_utc(row[11]),
        updated_at=to_utc(row[12]),
        last_outcome_trace=row[13],
        source_event_ids=list(row[14] or []),
        trace_id=row[15],
    )
