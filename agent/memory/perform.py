"""Perform a screened write: the record and its ``memory_write`` event in one transaction.

One function per write kind. Invariants (block token limits, validity, versions, lineage,
tombstones) are enforced by the storage calls these make, so no door can skip them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from memvisor.errors import UserError
from memvisor.paging.timeparse import resolve_time
from memvisor.storage import Store
from memvisor.storage.clock import parse_time

from . import writes as w


@dataclass
class WriteScope:
    """Who writes, for whom, from which events: what every performed write records."""

    user_id: str
    origin: str
    trace_id: str
    session_id: str | None
    source_event_ids: list[str]
    count_tokens: Callable[[str], int]
    # The firewall's view of the write: whose words it is and how sure memory may be of it.
    provenance: str | None = None
    confidence: float | None = None
    # Extra fields for the write's event (e.g. the evidence that a recipe worked).
    note: dict[str, Any] = field(default_factory=dict)
    # The session's current topic label (session state slots remember it).
    topic: str | None = None


@dataclass
class Performed:
    record_id: str | None
    action: str
    # One line for whoever proposed the write (the model reads it as the tool's result).
    detail: str
    record: Any = None


def perform(store: Store, write: w.Write, scope: WriteScope) -> Performed:
    return _PERFORMERS[type(write)](store, write, scope)


def _log(store: Store, conn: Any, scope: WriteScope, record: str, **payload: Any) -> None:
    store.log_write(
        conn,
        user_id=scope.user_id,
        trace_id=scope.trace_id,
        session_id=scope.session_id,
        record=record,
        **payload,
        **scope.note,
        origin=scope.origin,
        source_event_ids=list(scope.source_event_ids),
    )


def until(text: str | None, now: datetime) -> datetime | None:
    """ISO-8601, or a relative period ("tomorrow", "next month", "下个月") resolved on the
    store's clock: the fact holds until the end of that period."""
    if not text:
        return None
    try:
        return parse_time(text)
    except UserError:
        window = resolve_time(text, now, prefer="future")
        if window is None or window.last_time:
            raise UserError(
                f"valid_until {text!r} is not a date: use ISO-8601 (2026-07-01) "
                "or a period such as 'tomorrow', 'next week', 'next month'"
            ) from None
        return window.end


def check_valid_until(arguments: dict[str, Any], now: datetime) -> None:
    """A ``valid_until`` that is no date, or not after ``now``, refused before the firewall
    judges the write: held in quarantine, it could never be released."""
    text = arguments.get("valid_until")
    end = until(text, now) if isinstance(text, str) and text.strip() else None
    if end is not None and end <= now:
        raise UserError(
            f"valid_until {text!r} is not in the future: give a later date, or leave it out "
            "for a fact that holds until it changes"
        )


def check_forgettable(arguments: dict[str, Any], origin: str) -> None:
    """A model forgets records, never the user's own messages: a poisoned page or tool
    result could otherwise have it erase what the user said."""
    record_id = arguments.get("record_id")
    if origin == "model" and isinstance(record_id, str) and record_id.startswith("evt_"):
        raise UserError(
            "a message is forgotten by the user, not by a model: `memvisor memory forget ID` "
            "or DELETE /v1/memories/ID"
        )


def _fact(store: Store, write: w.FactRemember, scope: WriteScope) -> Performed:
    fact_write = store.remember_fact(
        user_id=scope.user_id,
        subject=write.subject,
        predicate=write.predicate,
        object=write.object,
        trace_id=scope.trace_id,
        session_id=scope.session_id,
        source_event_ids=scope.source_event_ids,
        confidence=write.confidence if write.confidence is not None else 0.9,
        importance=write.importance if write.importance is not None else 0.5,
        valid_until=until(write.valid_until, store.clock.now()),
        origin=scope.origin,
        note=scope.note,
    )
    fact = fact_write.fact
    if fact is None:
        return Performed(None, "suppressed", "not saved: the user asked to forget this before")
    if fact_write.action == "superseded" and fact_write.previous:
        detail = f"saved {fact.id}: {fact.text()} (replaces '{fact_write.previous.object}')"
    elif fact_write.action == "confirmed":
        detail = f"confirmed {fact.id}: {fact.text()} (seen {fact.confirmations + 1} times)"
    else:
        detail = f"saved {fact.id}: {fact.text()}"
    return Performed(fact.id, fact_write.action, detail, fact_write)


def _fact_edit(store: Store, write: w.FactEdit, scope: WriteScope) -> Performed:
    fact_write = store.edit_fact(
        write.fact_id,
        user_id=scope.user_id,
        trace_id=scope.trace_id,
        object=write.object,
        confidence=write.confidence,
        valid_until=until(write.valid_until, store.clock.now()),
        session_id=scope.session_id,
        source_event_ids=scope.source_event_ids,
        origin=scope.origin,
        note=scope.note,
    )
    assert fact_write.fact is not None
    fact = fact_write.fact
    return Performed(
        fact.id, "edited", f"edited {write.fact_id} -> {fact.id}: {fact.text()}", fact_write
    )


def _passage(store: Store, write: w.PassageInsert, scope: WriteScope) -> Performed:
    meta: dict[str, Any] = {}
    if scope.provenance is not None:
        meta = {"origin": scope.provenance, "confidence": scope.confidence}
    passage = store.insert_passage(
        user_id=scope.user_id,
        text=write.content,
        trace_id=scope.trace_id,
        session_id=scope.session_id,
        source_event_ids=scope.source_event_ids,
        meta=meta,
        origin=scope.origin,
        note=scope.note,
    )
    return Performed(passage.id, "created", f"saved {passage.id}", passage)


def _core(
    store: Store, write: w.CoreAppend | w.CoreReplace | w.CoreSet, scope: WriteScope
) -> Performed:
    block = store.core.get(write.label, user_id=scope.user_id)
    if isinstance(write, w.CoreAppend):
        line = write.content.strip()
        value = f"{block.value}\n{line}" if block.value.strip() else line
    elif isinstance(write, w.CoreReplace):
        if write.old_content not in block.value:
            raise UserError(
                f"'{write.old_content[:80]}' is not in block '{write.label}'; copy the exact "
                "text from the block as it is now"
            )
        value = block.value.replace(write.old_content, write.new_content, 1).strip()
    else:
        value = write.value
    with store.db.transaction() as conn:  # the block and its event commit together
        updated = store.core.update(
            write.label,
            value,
            user_id=scope.user_id,
            expected_version=block.version,
            count_tokens=scope.count_tokens,
            trace_id=scope.trace_id,
        )
        _log(store, conn, scope, "core_block", label=write.label, version=updated.version)
    size = scope.count_tokens(updated.value)
    return Performed(
        f"core:{write.label}@v{updated.version}",
        "updated",
        f"saved: block '{write.label}' is now {size}/{updated.token_limit} tokens",
        updated,
    )


def _task(store: Store, write: w.TaskUpdate, scope: WriteScope) -> Performed:
    with store.db.transaction() as conn:
        existed = store.tasks.find(write.task_id, user_id=scope.user_id) is not None
        task = store.tasks.upsert(
            write.task_id,
            user_id=scope.user_id,
            trace_id=scope.trace_id,
            title=write.title,
            total=write.total,
            completed=write.completed,
            last_success=write.last_success,
            error=write.error,
            status=write.status,
        )
        action = "updated" if existed else "created"
        _log(
            store,
            conn,
            scope,
            "task",
            id=task.task_id,
            action=action,
            completed=task.completed,
            total=task.total,
            status=task.status,
        )
    return Performed(f"task:{task.task_id}", action, f"recorded task {task.task_id}", task)


def _recipe(store: Store, write: w.RecipeSave, scope: WriteScope) -> Performed:
    with store.db.transaction() as conn:
        saved = store.recipes.save(
            user_id=scope.user_id,
            name=write.name,
            trigger=write.trigger,
            steps=write.steps,
            trace_id=scope.trace_id,
            source_event_ids=scope.source_event_ids,
        )
        recipe = saved.recipe
        _log(
            store, conn, scope, "recipe", id=recipe.id, action=saved.action, version=recipe.version
        )
    return Performed(recipe.id, saved.action, f"recipe {saved.action}: {recipe.id}", saved)


def _recipe_outcome(store: Store, write: w.RecipeOutcome, scope: WriteScope) -> Performed:
    recipe_id = write.recipe_id
    if not recipe_id.startswith("rcp_"):  # small models often pass the name they just read
        named = store.recipes.find(recipe_id, user_id=scope.user_id)
        if named is None:
            raise UserError(f"no recipe {recipe_id!r}: use the id or name recipe_search shows")
        recipe_id = named.id
    with store.db.transaction() as conn:
        outcome = store.recipes.record_outcome(
            recipe_id,
            user_id=scope.user_id,
            success=write.success,
            trace_id=scope.trace_id,
            note=write.note,
        )
        if outcome.counted:
            _log(
                store,
                conn,
                scope,
                "recipe",
                id=recipe_id,
                action="outcome",
                success=write.success,
                retired=outcome.retired_now,
            )
    action = "counted" if outcome.counted else "already_counted"
    return Performed(recipe_id, action, f"outcome {action}: {recipe_id}", outcome)


def _state(store: Store, write: w.StateSet, scope: WriteScope) -> Performed:
    if scope.session_id is None:
        raise UserError("session state belongs to a session: name one (--session)")
    with store.db.transaction() as conn:
        action = store.session_state.set(
            write.key,
            write.value,
            user_id=scope.user_id,
            session_id=scope.session_id,
            trace_id=scope.trace_id,
            topic=scope.topic,
        )
        if action != "absent":
            _log(store, conn, scope, "session_state", key=write.key, action=action)
    return Performed(f"state:{write.key}", action, f"state {write.key}: {action}", write.value)


def _conversation(store: Store, write: w.ConversationAdd, scope: WriteScope) -> Performed:
    session = write.session_id or scope.session_id
    events = store.log_turns(
        [
            {
                "role": m.role,
                "content": m.content,
                "session_id": session,
                "trace_id": scope.trace_id,
            }
            for m in write.messages
        ],
        user_id=scope.user_id,
    )
    detail = f"logged {len(events)} message(s)" + (f" in session {session}" if session else "")
    return Performed(events[0].id, "logged", detail, events)


def _forget(store: Store, write: w.Forget, scope: WriteScope) -> Performed:
    report = store.forget(
        write.record_id,
        user_id=scope.user_id,
        trace_id=scope.trace_id,
        session_id=scope.session_id,
    )
    removed = len(report["removed"])
    return Performed(
        write.record_id,
        "forgotten",
        f"forgot {write.record_id} ({removed} record(s) removed)",
        report,
    )


_PERFORMERS: dict[type[w.Write], Callable[[Store, Any, WriteScope], Performed]] = {
    w.FactRemember: _fact,
    w.FactEdit: _fact_edit,
    w.PassageInsert: _passage,
    w.CoreAppend: _core,
    w.CoreReplace: _core,
    w.CoreSet: _core,
    w.TaskUpdate: _task,
    w.RecipeSave: _recipe,
    w.RecipeOutcome: _recipe_outcome,
    w.StateSet: _state,
    w.ConversationAdd: _conversation,
    w.Forget: _forget,
}
