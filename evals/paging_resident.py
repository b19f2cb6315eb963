"""Resident memory of page-in alone: a fresh process opens a store ``bench paging`` built,
pages in, and reports its own resident memory (Linux ``/proc``), so that what building
the store left in the bench's process (1.2 GB at 100k) is not counted.

Run by ``bench_paging`` as ``python -m memvisor.evals.paging_resident DIR COUNT EMBEDDER``
(``--store URL`` for records in PostgreSQL); prints one JSON object.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from datetime import timedelta
from pathlib import Path
from typing import Any

from memvisor.errors import StorageError

USER = "bench-user"  # bench_paging's user
TIMEOUT_SECONDS = 600


def measure_in_child(
    path: Path, count: int, embedder: str, store: str | None = None
) -> dict[str, float]:
    """The figures of a fresh process paging in ``count`` times from the store at ``path``
    (which no process may hold open meanwhile)."""
    command = [sys.executable, "-m", __name__, str(path), str(count), embedder]
    command += ["--store", store] if store else []
    done = subprocess.run(
        command, capture_output=True, text=True, timeout=TIMEOUT_SECONDS, check=False
    )
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise StorageError(f"the page-in memory probe failed (exit {done.returncode}): {last}")
    figures: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return figures


def page_in_resident(
    path: Path, count: int, embedder: str, store: str | None = None
) -> dict[str, float]:
    """This process's resident MB before opening the store, after ``count`` page-ins (the
    first reconciles the index and reads the copies), and its peak."""
    from memvisor.evals.bench_storage import _EPOCH, _QUERY_TEMPLATES, _fill
    from memvisor.paging.budget import ContextBudget
    from memvisor.paging.pagein import PageIn
    from memvisor.storage import ManualClock, Store

    base = status_mb("VmRSS")
    clock = ManualClock(_EPOCH + timedelta(days=366))
    rng = random.Random(count)
    cap = ContextBudget(8192).cap("paged")
    with Store.open(path, embedder=embedder, clock=clock, store=store) as opened:
        pagein = PageIn(opened, floor=0.0)
        for n in range(count):
            query = _fill(rng.choice(_QUERY_TEMPLATES), rng)
            pagein.pack(pagein.retrieve(query, user_id=USER, limit=12), budget_tokens=cap)
            if n == 0 and (wait := getattr(opened.index.index, "wait_for_graphs", None)):
                wait()  # the graph the first search loads (or builds) is counted
        after = status_mb("VmRSS")
    # The kernel updates VmHWM lazily: it may trail the VmRSS just read by a few pages.
    return {"base_mb": base, "after_mb": after, "peak_mb": max(status_mb("VmHWM"), after)}


def status_mb(field: str) -> float:
    """A ``/proc/self/status`` figure in MB; elsewhere the peak (``getrusage``)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith(f"{field}:"):
                    return round(int(line.split()[1]) / 1024, 1)  # kB
    except OSError:
        pass
    import resource

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # kB on Linux, bytes on macOS
    return round(peak / (1024 * 1024 if sys.platform == "darwin" else 1024), 1)


def _main(argv: list[str]) -> int:
    store = None
    if "--store" in argv:
        at = argv.index("--store")
        store, argv = argv[at + 1], argv[:at] + argv[at + 2 :]
    path, count, embedder = argv
    figures: dict[str, Any] = page_in_resident(Path(path), int(count), embedder, store)
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
