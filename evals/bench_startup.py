"""``memvisor bench startup``: how long a fresh ``memvisor`` process takes, command by command.

A store of N memories (one user: turns, facts, passages) is built once in a scratch directory
the way a user would fill one, by importing an export file through the guarded memory API;
one untimed search then brings its search index up to date. Each command then runs ``runs``
times, every time in a new process: ``--version``, ``--help``, ``memory list`` (the user's,
and another user's, who holds nothing), ``memory search`` with a query no run has asked
before, so that it is the first search of its process and no cache helps, and ``memory add``
of a new passage (a one-shot write: the firewall loads and checks it, with no target; its
compiled patterns come from the user's cache, ``storage/disk_memo.py``, which the first
process after an install or upgrade fills). For each: median and max wall seconds, median CPU
seconds (user + system) and the largest peak resident memory, from the kernel's own
accounting of that one process (``os.wait4``). Figures are returned, never asserted.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

from memvisor.errors import UserError
from memvisor.evals.bench_storage import (
    _EPOCH,
    _MULTI_VALUED,
    _NAMES,
    _OBJECTS,
    _PASSAGE_TEMPLATES,
    _QUERY_TEMPLATES,
    _TURN_TEMPLATES,
    _fill,
    _scratch_dir,
)
from memvisor.evals.progress import ProgressFn

# Issue 17's start-up targets, wall seconds on 2 cores.
TARGETS_S: dict[str, float | None] = {
    "version": 0.15,
    "help": 0.15,
    "memory_list": 0.4,
    "memory_list_empty_user": 0.4,
    "memory_search_first": 1.0,
    "memory_add": None,  # no target: a one-shot write through the firewall, for the record
}
TARGET_SEARCH_AT = 10_000  # memories in the store
USER = "bench-user"
OTHER_USER = "nobody-yet"
MIX = (("turn", 0.5), ("fact", 0.2), ("passage", 0.3))


def run_startup_bench(
    *,
    memories: int = TARGET_SEARCH_AT,
    runs: int = 7,
    embedder: str = "minilm",
    data_dir: Path | None = None,
    progress: ProgressFn | None = None,
) -> dict[str, Any]:
    if memories < 10:
        raise UserError("--memories must be at least 10")
    if runs < 1:
        raise UserError("--runs must be at least 1")
    report = progress or (lambda stage, done, total: None)
    rng = random.Random(memories)
    with _scratch_dir(data_dir or Path.cwd() / ".bench-data") as work:
        store_dir = work / "store"
        report("building the store", 0, 2)
        build_seconds = _build_store(store_dir, memories, embedder, rng)
        report("building the store", 1, 2)
        index_seconds = _index_store(store_dir, embedder)
        report("building the store", 2, 2)
        where = ["--data-dir", str(store_dir)]
        commands: dict[str, Callable[[int], list[str]]] = {
            "version": lambda n: ["--version"],
            "help": lambda n: ["--help"],
            "memory_list": lambda n: ["memory", "list", "--user", USER, *where],
            "memory_list_empty_user": lambda n: ["memory", "list", "--user", OTHER_USER, *where],
            "memory_search_first": lambda n: [
                "memory",
                "search",
                f"{_fill(rng.choice(_QUERY_TEMPLATES), rng)} {n}",
                "--user",
                USER,
                *where,
            ],
            "memory_add": lambda n: [
                "memory",
                "add",
                f"{_fill(rng.choice(_PASSAGE_TEMPLATES), rng)} {n}",
                "--user",
                USER,
                *where,
            ],
        }
        env = {**os.environ, "MEMVISOR_EMBEDDER": embedder}
        results = {}
        total = runs * len(commands)
        done = 0
        for name, args_of in commands.items():
            timed = []
            for n in range(runs):
                timed.append(_run_once([*memvisor_command(), *args_of(n)], env, work))
                done += 1
                report("timing fresh processes", done, total)
            results[name] = _summary(timed, TARGETS_S[name])
    return {
        "memories": memories,
        "runs": runs,
        "embedder": embedder,
        "build_seconds": round(build_seconds, 2),
        "first_index_seconds": round(index_seconds, 2),
        "commands": results,
        "targets_s": TARGETS_S,
        "target_search_at": TARGET_SEARCH_AT,
        "machine": {
            "cpus": os.cpu_count(),
            "load_average_1m": round(os.getloadavg()[0], 2),
            # Set, an editable checkout's modules whose bytecode is not cached already are
            # compiled again by every process (an installed package ships its bytecode).
            "pythondontwritebytecode": bool(os.environ.get("PYTHONDONTWRITEBYTECODE")),
        },
    }


def memvisor_command() -> list[str]:
    """The installed ``memvisor`` script beside this interpreter, as a user runs it; else the
    same entry point through this interpreter."""
    script = Path(sys.executable).parent / "memvisor"
    if script.is_file() and os.access(script, os.X_OK):
        return [str(script)]
    found = shutil.which("memvisor")
    if found:
        return [found]
    return [sys.executable, "-c", "from memvisor.agent.cli import main; main()"]


def _build_store(path: Path, memories: int, embedder: str, rng: random.Random) -> float:
    """Import an export of ``memories`` records through the guarded memory API (one
    transaction: the import is the batch)."""
    from memvisor.agent.memory.api import Memory
    from memvisor.storage.ids import new_id

    document = _export_document(memories, rng)
    start = time.perf_counter()
    with Memory.open(path, embedder=embedder) as memory:
        memory.import_export(document, user_id=USER, trace_id=new_id("trc"), replace=True)
    return time.perf_counter() - start


def _index_store(path: Path, embedder: str) -> float:
    """One search through the API: it embeds and indexes every record (untimed by the
    figures: a store is indexed once, not at each process's first search)."""
    from memvisor.agent.memory.api import Memory

    start = time.perf_counter()
    with Memory.open(path, embedder=embedder) as memory:
        memory.search("warm-up", user=USER, k=1)
    return time.perf_counter() - start


def _export_document(memories: int, rng: random.Random) -> dict[str, Any]:
    """An export document (``memvisor.export`` v2) of one user's synthetic memories."""
    from memvisor.storage.ids import new_id
    from memvisor.storage.records import Event, Fact, Passage

    counts = {kind: int(memories * share) for kind, share in MIX}
    counts["turn"] += memories - sum(counts.values())
    trace = new_id("trc")
    events, facts, passages = [], [], []
    at = _EPOCH
    for n in range(counts["turn"]):
        at += timedelta(minutes=3)
        role = "user" if n % 2 == 0 else "assistant"
        events.append(
            Event(
                id=new_id("evt"),
                trace_id=trace,
                user_id=USER,
                session_id=f"s{n // 40}",
                ts=at,
                kind=f"{role}_message",
                payload={"content": _fill(rng.choice(_TURN_TEMPLATES), rng)},
            )
        )
    for n in range(counts["fact"]):
        at += timedelta(minutes=1)
        fact_id = new_id("fct")
        facts.append(
            Fact(
                id=fact_id,
                user_id=USER,
                lineage_id=fact_id,
                subject=rng.choice(_NAMES),
                predicate=rng.choice(_MULTI_VALUED),
                object=f"{rng.choice(_OBJECTS)} {n}",  # every value its own: no supersedes
                confidence=0.9,
                importance=0.5,
                status="active",
                valid_from=at,
                created_at=at,
                trace_id=trace,
            )
        )
    for _ in range(counts["passage"]):
        at += timedelta(minutes=1)
        passages.append(
            Passage(
                id=new_id("psg"),
                user_id=USER,
                text=_fill(rng.choice(_PASSAGE_TEMPLATES), rng),
                created_at=at,
                trace_id=trace,
            )
        )
    empty = ("core_blocks", "quarantine", "archived", "episodes", "summaries", "recipes")
    return {
        "format": "memvisor.export",
        "version": 2,
        "user_id": USER,
        **{kind: [] for kind in (*empty, "tasks", "session_state", "tombstones", "usage")},
        "facts": [f.model_dump(mode="json") for f in facts],
        "passages": [p.model_dump(mode="json") for p in passages],
        "events": [e.model_dump(mode="json") for e in events],
    }


# Runs one command and writes its figures to the file named first. It stands between the
# bench and the command because Linux counts into a process's peak resident memory that of
# the process it was forked from: forked from this small one, not from the bench (which holds
# the store and the embedder), the command's own peak is what ``wait4`` returns.
_TIMER = """
import json, os, sys, time
start = time.perf_counter()
pid = os.fork()
if pid == 0:
    os.execvp(sys.argv[2], sys.argv[2:])
_, status, usage = os.wait4(pid, 0)
wall = time.perf_counter() - start
with open(sys.argv[1], "w") as out:
    json.dump({"code": os.waitstatus_to_exitcode(status), "wall_s": wall,
               "cpu_s": usage.ru_utime + usage.ru_stime,
               "peak_rss_mb": usage.ru_maxrss / 1024}, out)
"""


def _run_once(command: list[str], env: dict[str, str], cwd: Path) -> dict[str, float]:
    """One fresh process: wall seconds, CPU seconds (user + system) and peak resident MB of
    that process alone."""
    with tempfile.TemporaryDirectory(dir=cwd) as scratch:
        figures = Path(scratch) / "figures.json"
        errors = Path(scratch) / "stderr"
        with errors.open("wb") as said:
            subprocess.run(
                [sys.executable, "-c", _TIMER, str(figures), *command],
                stdout=subprocess.DEVNULL,
                stderr=said,
                env=env,
                cwd=cwd,
                check=False,
            )
        try:
            timed = json.loads(figures.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            timed = {"code": None}
        if timed["code"] != 0:
            tail = errors.read_text(encoding="utf-8", errors="replace").strip()[-500:]
            raise RuntimeError(f"{' '.join(command[1:])} exited {timed['code']}: {tail}")
    return {key: timed[key] for key in ("wall_s", "cpu_s", "peak_rss_mb")}


def _summary(timed: list[dict[str, float]], target: float | None) -> dict[str, Any]:
    walls = [t["wall_s"] for t in timed]
    median = statistics.median(walls)
    return {
        "wall_s_median": round(median, 3),
        "wall_s_max": round(max(walls), 3),
        "cpu_s_median": round(statistics.median(t["cpu_s"] for t in timed), 3),
        "peak_rss_mb_max": round(max(t["peak_rss_mb"] for t in timed), 1),
        "target_s": target,
        "met": None if target is None else median <= target,
    }
