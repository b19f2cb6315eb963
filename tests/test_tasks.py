"""Batch task state survives a crash: "how far along?" and "continue" after a restart."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from memvisor.agent.loop import Agent
from memvisor.agent.models.base import AssistantTurn, ToolCall
from memvisor.agent.models.scripted import ScriptedModel
from memvisor.errors import UserError
from memvisor.storage import ManualClock, Store
from memvisor.storage.tasks import TaskStore
from memvisor.tools.builtin import builtin_registry
from memvisor.tools.registry import ToolRegistry

# A storage contract: every test runs on DuckDB and on PostgreSQL (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("backend")


def registry() -> ToolRegistry:
    reg = builtin_registry(plugins=False)  # the recipe and task tools are built in
    return reg


def call(name: str, **arguments: Any) -> AssistantTurn:
    return AssistantTurn(tool_calls=[ToolCall(id="1", name=name, arguments=arguments)])


def agent(store: Store, model: ScriptedModel, session: str) -> Agent:
    return Agent(user_id="u", session_id=session, store=store, model=model, registry=registry())


def tool_output(model: ScriptedModel, call_index: int) -> str:
    return str(model.calls[call_index].messages[-1]["content"]).partition("\n")[2]


def power_cut(messages: list, tools: list) -> AssistantTurn:
    raise RuntimeError("power cut")


def test_interrupted_batch_is_resumed_after_restart(tmp_path: Path, clock: ManualClock) -> None:
    data = tmp_path / "data"
    photo = "renamed IMG_{:04d}.jpg to 2026-05-01_{:02d}.jpg"
    # turn 1 starts the batch and renames five photos (a turn allows 8 model steps)
    steps: list[Any] = [
        call(
            "task_update",
            task_id="rename-photos",
            title="Rename 20 holiday photos by date",
            total=20,
            completed=0,
        ),
    ]
    for n in range(1, 8):
        steps.append(
            call(
                "task_update", task_id="rename-photos", completed=n, last_success=photo.format(n, n)
            )
        )
        if n == 5:
            steps.append("Renamed 5 photos so far; say 'keep going' for more.")
    steps.append(call("task_update", task_id="rename-photos", error="IMG_0008.jpg: file is locked"))
    steps.append(power_cut)  # the process dies mid-turn: no answer, no clean shutdown
    store = Store.open(data, embedder="hash", clock=clock)
    bot = agent(store, ScriptedModel(steps), "s1")
    bot.step("rename my 20 holiday photos by date")
    with pytest.raises(RuntimeError, match="power cut"):
        bot.step("keep going")
    store.close()

    # a new process, a new session: "how far along are we?"
    with Store.open(data, embedder="hash", clock=clock) as store:
        model = ScriptedModel([call("task_status"), "7 of 20 photos are renamed."])
        agent(store, model, "s2").step("how far along are we?")
        status = tool_output(model, 1)
        assert "rename-photos 'Rename 20 holiday photos by date' [open]: 7/20 (35%)" in status
        assert f"last done: {photo.format(7, 7)}" in status
        assert "continue at: item 8 of 20" in status
        assert "IMG_0008.jpg: file is locked" in status

        # "continue": the model reads where to resume and carries on from item 8
        def resume(messages: list, tools: list) -> AssistantTurn:
            found = re.search(r"continue at: item (\d+)", str(messages[-1]["content"]))
            assert found is not None
            n = int(found.group(1))
            return call(
                "task_update", task_id="rename-photos", completed=n, last_success=photo.format(n, n)
            )

        model = ScriptedModel([call("task_status"), resume, "Renamed photo 8."])
        agent(store, model, "s2").step("continue")
        task = store.tasks.get("rename-photos", user_id="u")
        assert (task.completed, task.total, task.status) == (8, 20, "open")
        assert task.last_success == photo.format(8, 8)
        assert "continue at: item 9 of 20" in tool_output(model, 2)
        writes = [
            e
            for e in store.events.list(user_id="u", kinds=["memory_write"])
            if e.payload.get("record") == "task"
        ]
        assert len(writes) == 10 and writes[0].payload["action"] == "created"
        assert all(w.payload["action"] == "updated" for w in writes[1:])


def test_task_store_rules(store: Store, clock: ManualClock) -> None:
    tasks = TaskStore(store.db, store.clock)
    tasks.upsert("import", user_id="u", trace_id="t", title="Import contacts", total=3)
    clock.advance(timedelta(minutes=1))
    tasks.upsert("other", user_id="u", trace_id="t", total=5, completed=1)
    clock.advance(timedelta(minutes=1))
    tasks.upsert("import", user_id="u", trace_id="t", completed=2, error="row 2 malformed")
    assert [t.task_id for t in tasks.list_open(user_id="u")] == ["import", "other"]
    done = tasks.upsert("import", user_id="u", trace_id="t", completed=3, last_success="row 3")
    assert done.status == "done" and done.errors == ["row 2 malformed"]
    assert done.title == "Import contacts"  # fields left out keep their value
    assert [t.task_id for t in tasks.list_open(user_id="u")] == ["other"]
    with pytest.raises(UserError, match="cannot exceed total"):
        tasks.upsert("other", user_id="u", trace_id="t", completed=6)
    assert tasks.get("other", user_id="u").completed == 1  # the refused update left no trace
    with pytest.raises(UserError, match="invalid task id"):
        tasks.upsert("no spaces please", user_id="u", trace_id="t")
    with pytest.raises(UserError, match="status"):
        tasks.upsert("other", user_id="u", trace_id="t", status="paused")
    assert tasks.list_open(user_id="someone-else") == []
    with pytest.raises(UserError, match="no task"):
        tasks.get("other", user_id="someone-else")


def test_task_tools_report_errors_and_empty_state(store: Store) -> None:
    model = ScriptedModel(
        [
            call("task_status"),
            call("task_update", task_id="sync", total=2, completed=5),
            call("task_status", task_id="missing"),
            "ok",
        ]
    )
    agent(store, model, "s1").step("how far along is the sync?")
    assert tool_output(model, 1) == "no open tasks"
    assert "cannot exceed total" in tool_output(model, 2)
    assert "no task 'missing'" in tool_output(model, 3)


def test_store_from_migration_003_gains_recipes_and_tasks(
    tmp_path: Path, clock: ManualClock
) -> None:
    import duckdb

    from memvisor.storage.migrations import migrate

    data = tmp_path / "old"
    data.mkdir()
    conn = duckdb.connect(str(data / "memvisor.duckdb"))
    assert migrate(conn, upto="003_summaries_episodes_usage")[-1] == "003_summaries_episodes_usage"
    conn.close()
    with Store.open(data, embedder="hash", clock=clock) as store:
        store.tasks.upsert("t1", user_id="u", trace_id="t", total=2, completed=1)
        assert store.tasks.get("t1", user_id="u").next_item == 2
        assert store.recipes.list(user_id="u") == []
