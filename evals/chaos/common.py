"""What every chaos fault shares: its counters, the memvisor subprocess, the store check."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from memvisor.errors import MemvisorError
from memvisor.storage import Store

USER = "alice"
# The `memvisor` command exactly as the console script runs it, from this interpreter.
CLI = [sys.executable, "-c", "from memvisor.agent.cli import main; main()"]
COMMAND_TIMEOUT_S = 120.0


@dataclass
class FaultResult:
    """One fault's figures; every counter but ``trials`` and ``injected`` must be 0."""

    fault: str
    trials: int = 0
    injected: int = 0  # faults that actually hit (a kill before exit, a write refused, ...)
    acknowledged: int = 0  # writes whose success was reported, then checked
    lost_writes: int = 0
    reopen_failures: int = 0
    missing_searches: int = 0
    uncaught_exceptions: int = 0
    tracebacks_shown: int = 0
    broken_invariants: int = 0  # a partial import, a forgotten value found, a leak
    notes: list[str] = field(default_factory=list)
    seconds: float = 0.0

    COUNTERS = (
        "lost_writes",
        "reopen_failures",
        "missing_searches",
        "uncaught_exceptions",
        "tracebacks_shown",
        "broken_invariants",
    )

    def note(self, text: str) -> None:
        """Keep what went wrong in words (the first few of each fault)."""
        if len(self.notes) < 20:
            self.notes.append(text[:400])

    @property
    def failures(self) -> int:
        return sum(getattr(self, name) for name in self.COUNTERS)

    def as_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["seconds"] = round(self.seconds, 2)
        return data


@dataclass(frozen=True)
class Ack:
    """An acknowledged write: a word only it contains (to search for) and its record id, or
    its table when the id was not reported (found by the word after reopening)."""

    needle: str
    id: str | None = None
    table: str = "passages"
    user_id: str = USER


def needle(prefix: str, n: int) -> str:
    """A word the tokenizer keeps whole and no other record contains, e.g. ``zqkill17x``."""
    return f"zq{prefix}{n}x"


def cli_env(home: Path, embedder: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(MEMVISOR_HOME=str(home), MEMVISOR_EMBEDDER=embedder, NO_COLOR="1")
    env.pop("OLLAMA_HOST", None)
    return env


@dataclass
class Run:
    """One ``memvisor`` subprocess: its exit code, output, and whether the kill landed."""

    returncode: int
    stdout: str
    stderr: str
    killed: bool
    seconds: float

    @property
    def traceback(self) -> bool:
        return "Traceback" in self.stdout or "Traceback" in self.stderr


def run_cli(
    args: Sequence[str],
    *,
    env: dict[str, str],
    kill_after: float | None = None,
    stdin: str | None = None,
) -> Run:
    """Run ``memvisor ARGS``; with ``kill_after``, SIGKILL it that many seconds after start."""
    start = time.monotonic()
    child = subprocess.Popen(
        [*CLI, *args],
        stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        text=True,
        encoding="utf-8",
        errors="replace",
    )
    out: list[str] = []
    err: list[str] = []
    readers = [
        threading.Thread(target=_drain, args=(child.stdout, out), daemon=True),
        threading.Thread(target=_drain, args=(child.stderr, err), daemon=True),
    ]
    for reader in readers:
        reader.start()
    if stdin is not None:
        assert child.stdin is not None
        try:
            child.stdin.write(stdin)
            child.stdin.close()
        except (BrokenPipeError, OSError):
            pass
    killed = False
    try:
        child.wait(timeout=kill_after if kill_after is not None else COMMAND_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        killed = True
        child.send_signal(signal.SIGKILL)
        child.wait()
    for reader in readers:
        reader.join(timeout=10)
    for stream in (child.stdout, child.stderr):
        if stream is not None:
            stream.close()
    return Run(child.returncode, "".join(out), "".join(err), killed, time.monotonic() - start)


def _drain(stream: Any, into: list[str]) -> None:
    for line in stream:
        into.append(line)


def check_acknowledged(
    result: FaultResult,
    data_dir: Path,
    acks: Sequence[Ack],
    *,
    embedder: str,
    forgotten: Sequence[Ack] = (),
) -> Store | None:
    """Reopen the store; count acknowledged records lost or unsearchable, forgotten ones found.

    Returns the reopened store (the caller closes it) or None when it did not open.
    """
    try:
        store = Store.open(data_dir, embedder=embedder)
    except Exception as exc:
        result.reopen_failures += 1
        result.note(f"{data_dir.name}: reopen failed: {type(exc).__name__}: {exc}")
        return None
    result.acknowledged += len(acks)
    crashed = False  # once search crashes, every record is counted not found unsearched
    for ack in acks:
        record_id = stored_id(store, ack)
        if record_id is None:
            result.lost_writes += 1
            result.note(f"{data_dir.name}: acknowledged {ack.id or ack.needle} is gone")
            continue
        hits = None if crashed else search_ids(store, ack.needle, ack.user_id, result)
        crashed = hits is None
        if not hits or record_id not in hits:
            result.missing_searches += 1
            result.note(f"{data_dir.name}: acknowledged {record_id} not found by {ack.needle!r}")
    for gone in forgotten:
        texts = search_texts(store, gone.needle, gone.user_id, result)
        if texts and any(gone.needle in text for text in texts):
            result.broken_invariants += 1
            result.note(f"{data_dir.name}: forgotten {gone.needle!r} still found")
    return store


_TEXT = {"passages": "text", "facts": "object", "episodes": "summary", "events": "payload"}
_TABLES = {"fct": "facts", "psg": "passages", "eps": "episodes", "evt": "events"}


def stored_id(store: Store, ack: Ack) -> str | None:
    """The record's id if DuckDB holds it (whatever the index says), else None."""
    if ack.id is not None:
        table = _TABLES[ack.id.split("_", 1)[0]]
        rows = store.db.query(
            f"SELECT id FROM {table} WHERE id = ? AND user_id = ?", [ack.id, ack.user_id]
        )
    else:
        column = _TEXT[ack.table]
        only_turns = " AND kind = 'user_message'" if ack.table == "events" else ""
        rows = store.db.query(
            f"SELECT id FROM {ack.table} WHERE user_id = ? AND CAST({column} AS VARCHAR) "
            f"LIKE ?{only_turns} ORDER BY id LIMIT 1",
            [ack.user_id, f"%{ack.needle}%"],
        )
    return str(rows[0][0]) if rows else None


def _hits(store: Store, query: str, user_id: str, result: FaultResult) -> list[Any] | None:
    """The user's hits for ``query``; None when search crashed (counted as uncaught)."""
    try:
        return store.search(
            query,
            user_id=user_id,
            kinds=("fact", "passage", "turn", "episode"),
            mode="fts",
            limit=20,
        )
    except MemvisorError as exc:
        result.note(f"search {query!r} refused: {type(exc).__name__}: {exc}")
        return []
    except Exception as exc:  # a search that crashes is a bug the user would see
        result.uncaught_exceptions += 1
        result.note(f"search {query!r} raised {type(exc).__name__}: {exc}")
        return None


def search_ids(store: Store, query: str, user_id: str, result: FaultResult) -> set[str] | None:
    hits = _hits(store, query, user_id, result)
    return None if hits is None else {hit.id for hit in hits}


def search_texts(store: Store, query: str, user_id: str, result: FaultResult) -> list[str]:
    return [hit.text for hit in _hits(store, query, user_id, result) or []]


def count_run(result: FaultResult, run: Run, what: str) -> None:
    """Count a traceback on the user's screen, and a crash (a traceback that ended the command)."""
    if not run.traceback:
        return
    result.tracebacks_shown += 1
    lines = (run.stderr if "Traceback" in run.stderr else run.stdout).strip().splitlines()
    result.note(f"{what}: traceback ({len(lines)} lines) ending {lines[-1] if lines else ''!r}")
    if not run.killed and run.returncode != 0:
        result.uncaught_exceptions += 1
