"""Task state: how far a batch operation got, committed after every step.

A crash or restart loses nothing: "how far along are we?" reads ``completed``/``total``
and ``last_success``; "continue" resumes at item ``completed + 1``.
"""

from __future__ import annotations

import builtins
import re
from datetime import datetime
from typing import Any, Literal

from pydantic import Field

from memvisor.errors import NotFound, UserError

from .clock import Clock, to_utc
from .database import Database, db_time
from .records import Record
from .users import require_user

TaskStatus = Literal["open", "done", "failed", "cancelled"]
TASK_STATUSES: tuple[str, ...] = ("open", "done", "failed", "cancelled")

MAX_ERRORS = 20
MAX_CHARS = {"title": 200, "last_success": 500, "error": 500}
_TASK_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$")

_COLUMNS = (
    "user_id, task_id, title, total, completed, last_success, errors, status, created_at, "
    "updated_at, trace_id"
)

_BY_ID = f"SELECT {_COLUMNS} FROM tasks WHERE user_id = ? AND task_id = ?"


class TaskState(Record):
    user_id: str
    task_id: str
    title: str
    total: int | None = Field(default=None, ge=0)
    completed: int = Field(default=0, ge=0)
    last_success: str | None = None
    errors: list[str] = Field(default_factory=list)
    status: TaskStatus = "open"
    created_at: datetime
    updated_at: datetime
    trace_id: str

    @property
    def next_item(self) -> int:
        """The 1-based item a "continue" resumes at."""
        return self.completed + 1

    def progress(self) -> str:
        if self.total:
            return f"{self.completed}/{self.total} ({100 * self.completed // self.total}%)"
        return f"{self.completed} done (total unknown)"


class TaskStore:
    def __init__(self, db: Database, clock: Clock) -> None:
        self._db = db
        self._clock = clock

    def upsert(
        self,
        task_id: str,
        *,
        user_id: str,
        trace_id: str,
        title: str | None = None,
        total: int | None = None,
        completed: int | None = None,
        last_success: str | None = None,
        error: str | None = None,
        status: str | None = None,
    ) -> TaskState:
        """Create or update a task; fields left None keep their value. Committed on return."""
        require_user(user_id)
        task_id = _check_task_id(task_id)
        now = self._clock.now()
        with self._db.transaction() as conn:
            current = self._find(conn, user_id, task_id)
            state = current or TaskState(
                user_id=user_id,
                task_id=task_id,
                title=task_id,
                created_at=now,
                updated_at=now,
                trace_id=trace_id,
            )
            update: dict[str, Any] = {"updated_at": now, "trace_id": trace_id}
            if title is not None:
                update["title"] = _clip("title", title, required=True)
            if total is not None:
                if total < 0:
                    raise UserError("total must be 0 or more (the number of items in the batch)")
                update["total"] = total
            if completed is not None:
                if completed < 0:
                    raise UserError("completed must be 0 or more (items finished so far)")
                update["completed"] = completed
            if last_success is not None:
                update["last_success"] = _clip("last_success", last_success) or None
            if error is not None and error.strip():
                update["errors"] = [*state.errors, _clip("error", error)][-MAX_ERRORS:]
            if status is not None:
                if status not in TASK_STATUSES:
                    raise UserError(f"task status must be one of {', '.join(TASK_STATUSES)}")
                update["status"] = status
            state = state.model_copy(update=update)
            if state.total is not None and state.completed > state.total:
                raise UserError(
                    f"completed ({state.completed}) cannot exceed total ({state.total}); "
                    "raise total if the batch grew"
                )
            if status is None and state.total and state.completed == state.total:
                state.status = "done"  # the last item finished: nothing left to continue
            _write(conn, state, insert=current is None)
        return state

    def get(self, task_id: str, *, user_id: str) -> TaskState:
        rows = self._db.query(_BY_ID, [require_user(user_id), task_id])
        if not rows:
            raise NotFound(
                f"no task {task_id!r} for user {user_id!r}; call task_status() to list open tasks"
            )
        return _task(rows[0])

    def list(self, *, user_id: str, status: str | None = None) -> builtins.list[TaskState]:
        sql = f"SELECT {_COLUMNS} FROM tasks WHERE user_id = ?"
        params: list[Any] = [require_user(user_id)]
        if status:
            sql += " AND status = ?"
            params.append(status)
        return [
            _task(r) for r in self._db.query(sql + " ORDER BY updated_at DESC, task_id", params)
        ]

    def find(self, task_id: str, *, user_id: str) -> TaskState | None:
        """The task, or None when it does not exist yet."""
        rows = self._db.query(_BY_ID, [require_user(user_id), task_id])
        return _task(rows[0]) if rows else None

    def restore(self, state: TaskState, *, user_id: str, conn: Any) -> None:
        """Write a task exactly as exported, replacing the one of that id (import path)."""
        if state.user_id != user_id:
            raise UserError(f"task {state.task_id} belongs to another user")
        conn.execute(
            "DELETE FROM tasks WHERE user_id = ? AND task_id = ?", [user_id, state.task_id]
        )
        _write(conn, state, insert=True)

    def list_open(self, *, user_id: str) -> builtins.list[TaskState]:
        """Unfinished tasks, most recently touched first (what "continue" most likely means)."""
        return self.list(user_id=user_id, status="open")

    @staticmethod
    def _find(conn: Any, user_id: str, task_id: str) -> TaskState | None:
        rows = conn.execute(_BY_ID, [user_id, task_id]).fetchall()
        return _task(rows[0]) if rows else None


def _check_task_id(task_id: str) -> str:
    if not isinstance(task_id, str) or not _TASK_ID.match(task_id):
        raise UserError(
            f"invalid task id {task_id!r}: use 1-64 letters, digits, '_', '.', ':' or '-', "
            "e.g. 'rename-photos-2026'"
        )
    return task_id


def _clip(field: str, value: str, *, required: bool = False) -> str:
    text = " ".join(str(value).split())
    if required and not text:
        raise UserError(f"{field} must not be empty")
    return text[: MAX_CHARS[field]]


def _write(conn: Any, state: TaskState, *, insert: bool) -> None:
    if insert:
        conn.execute(
            f"INSERT INTO tasks ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                state.user_id,
                state.task_id,
                state.title,
                state.total,
                state.completed,
                state.last_success,
                state.errors,
                state.status,
                db_time(state.created_at),
                db_time(state.updated_at),
                state.trace_id,
            ],
        )
        return
    conn.execute(
        "UPDATE tasks SET title = ?, total = ?, completed = ?, last_success = ?, errors = ?, "
        "status = ?, updated_at = ?, trace_id = ? WHERE user_id = ? AND task_id = ?",
        [
            state.title,
            state.total,
            state.completed,
            state.last_success,
            state.errors,
            state.status,
            db_time(state.updated_at),
            state.trace_id,
            state.user_id,
            state.task_id,
        ],
    )


def _task(row: tuple[Any, ...]) -> TaskState:
    return TaskState(
        user_id=row[0],
        task_id=row[1],
        title=row[2],
        total=row[3],
        completed=row[4],
        last_success=row[5],
        errors=list(row[6] or []),
        status=row[7],
        created_at=to_utc(row[8]),
        updated_at=to_utc(row[9]),
        trace_id=row[10],
    )
