"""Working memory: the execution context the model sees on every request, never dialogue.

It holds the session id, the last episode (resuming: "where were we?" needs no search),
the user's open tasks ("how far along are we?"), the session's task-scoped state slots,
and the last tool call with its result. A topic switch drops the task-scoped part.
``for_prompt`` shrinks it to the section's token cap, least needed first.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from memvisor.agent.guards import redact_secrets
from memvisor.paging.assembler import EXECUTION_HEADING, compact_json
from memvisor.paging.tokens import TokenCounter
from memvisor.storage import Store
from memvisor.storage.clock import iso

# Keys that belong to the current task; a topic switch drops them.
TASK_SCOPED = ("state", "last_tool", "last_arguments", "last_result")
OPEN_TASKS = 5
STATE_CHARS = 600  # of the session state shown
EPISODE_CHARS = 1200


def redact(text: str) -> str:
    return redact_secrets(text)[0]


class WorkingMemory:
    def __init__(self, store: Store, *, user_id: str, session_id: str) -> None:
        self.store = store
        self.user_id = user_id
        self.session_id = session_id
        self.data: dict[str, Any] = {"session": session_id}
        # A resumed session starts from its own last episode; a new one from the user's
        # latest episode of any session.
        episode = store.episodes.latest(
            user_id=user_id, session_id=session_id
        ) or store.episodes.latest(user_id=user_id)
        if episode is not None:
            self.data["last_episode"] = {
                "id": episode.id,
                **({} if episode.session_id == session_id else {"session": episode.session_id}),
                "ended": iso(episode.end_ts),
                "summary": episode.summary[:EPISODE_CHARS],
            }
        self.refresh_open_tasks()
        self.refresh_state()

    def refresh_state(self) -> None:
        """The session's task slots, newest kept when they are long."""
        state = self.store.session_state.get_all(user_id=self.user_id, session_id=self.session_id)
        shown: dict[str, Any] = {}
        size = 0
        for key in reversed(state):
            size += len(key) + len(json.dumps(state[key], ensure_ascii=False))
            if size > STATE_CHARS and shown:
                break
            shown[key] = state[key]
        if shown:
            self.data["state"] = dict(reversed(shown.items()))
        else:
            self.data.pop("state", None)

    def refresh_open_tasks(self) -> None:
        """The user's unfinished tasks, newest first: "continue" works without a search."""
        tasks = self.store.tasks.list_open(user_id=self.user_id)[:OPEN_TASKS]
        if not tasks:
            self.data.pop("open_tasks", None)
            return
        self.data["open_tasks"] = [
            {
                "id": t.task_id,
                "title": redact(t.title[:80]),
                "progress": t.progress(),
                "next_item": t.next_item,
                **({"last_success": redact(t.last_success[:120])} if t.last_success else {}),
            }
            for t in tasks
        ]

    def record_tool(self, name: str, arguments: dict[str, Any], result: str) -> None:
        self.data.update({"last_tool": name, "last_arguments": arguments, "last_result": result})
        if name == "state_set":
            self.refresh_state()
        elif name == "task_update":
            self.refresh_open_tasks()

    def reset_task(self) -> None:
        for key in TASK_SCOPED:
            self.data.pop(key, None)

    def for_prompt(self, now: datetime, counter: TokenCounter, cap: int) -> dict[str, Any]:
        return fit_execution({**self.data, "time": iso(now)}, counter, cap)


def fit_execution(execution: dict[str, Any], counter: TokenCounter, cap: int) -> dict[str, Any]:
    """Shrink the execution context to its cap, least needed first.

    The assembler can only cut ``last_result`` and sheds the whole section otherwise, which
    would take the task state with it. In order: shorten the old episode, drop the last
    call's arguments, list fewer open tasks, shorten the episode to a line, drop it, drop
    the open tasks, then the oldest state slots.
    """
    data = dict(execution)
    # The section heading, and room for last_result cut to its marker.
    room = cap - counter.count(EXECUTION_HEADING) - (16 if "last_result" in data else 0)

    def size() -> int:
        return counter.count(compact_json({k: v for k, v in data.items() if k != "last_result"}))

    def shorten_episode(limit: int) -> bool:
        episode = data.get("last_episode")
        if not episode or len(episode["summary"]) <= limit:
            return False
        data["last_episode"] = {**episode, "summary": episode["summary"][: limit - 1] + "…"}
        return True

    while size() > room:
        if shorten_episode(400):
            continue
        if "last_arguments" in data:
            del data["last_arguments"]
        elif len(data.get("open_tasks", [])) > 1:
            data["open_tasks"] = data["open_tasks"][:-1]
        elif shorten_episode(max(120, len(data.get("last_episode", {}).get("summary", "")) // 2)):
            continue
        elif "last_episode" in data:
            del data["last_episode"]
        elif "open_tasks" in data:
            del data["open_tasks"]
        elif len(data.get("state", {})) > 1:
            data["state"] = dict(list(data["state"].items())[1:])
        else:
            break
    return data
