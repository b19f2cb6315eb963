"""``memvisor bench chaos``: every fault family in turn, its counters, one report."""

from __future__ import annotations

import platform
import random
import shutil
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from ..progress import ProgressFn
from .common import FaultResult
from .corrupt import CORRUPT_FAULTS, run_corruption
from .disk import run_full_disk
from .failing_parts import FAILING_PARTS, run_failing_part
from .fuzz import run_fuzz
from .kills import KILLED_COMMANDS, KillTrials

FAULTS = (
    *(f"kill {command}" for command in KILLED_COMMANDS),
    *FAILING_PARTS,
    "full disk",
    *CORRUPT_FAULTS,
    "fuzzed tool calls",
)


def run_chaos(
    *,
    data_dir: Path,
    trials: int = 3,
    fuzz: int = 10_000,
    seed: int | None = None,
    embedder: str = "hash",
    faults: tuple[str, ...] = FAULTS,
    jobs: int = 1,
    progress: ProgressFn | None = None,
) -> dict[str, Any]:
    """Run ``faults`` (``trials`` each, ``fuzz`` tool calls) in a scratch directory under
    ``data_dir``, removed afterwards; the figures of each, and the seed to run it again.

    ``jobs`` faults run at once (each in its own directories, with its own random stream):
    most of a fault's time is spent waiting on `memvisor` subprocesses."""
    unknown = sorted(set(faults) - set(FAULTS))
    if unknown:
        raise ValueError(f"unknown faults {unknown}; known: {', '.join(FAULTS)}")
    seed = random.SystemRandom().randrange(2**32) if seed is None else seed
    root = Path(data_dir) / f"chaos-{seed}"
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir(parents=True)
    started = time.monotonic()
    done = 0

    def one(fault: str) -> FaultResult:
        nonlocal done
        rng = random.Random(f"{seed}:{fault}")  # each fault reproducible on its own
        began = time.monotonic()
        result = _run_one(fault, root, trials=trials, fuzz=fuzz, seed=seed, rng=rng,
                          embedder=embedder)  # fmt: skip
        result.seconds = time.monotonic() - began
        done += 1
        if progress:
            progress("chaos", done, len(faults))
        return result

    try:
        with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            results = list(pool.map(one, faults))
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return {
        "seed": seed,
        "trials": trials,
        "fuzz": fuzz,
        "embedder": embedder,
        "jobs": jobs,
        "seconds": round(time.monotonic() - started, 1),
        "machine": {"python": platform.python_version(), "platform": platform.platform()},
        "faults": [r.as_dict() for r in results],
        "failures": sum(r.failures for r in results),
    }


def _run_one(
    fault: str,
    root: Path,
    *,
    trials: int,
    fuzz: int,
    seed: int,
    rng: random.Random,
    embedder: str,
) -> FaultResult:
    if fault.startswith("kill "):
        command = fault.removeprefix("kill ")
        # Longer runs for the larger configurations: more moments to be killed at.
        size = 2 + 2 * min(trials, 8)
        return KillTrials(command, root, embedder=embedder, rng=rng, size=size).run(trials)
    if fault in FAILING_PARTS:
        return run_failing_part(fault, root, trials=trials, embedder=embedder, rng=rng)
    if fault == "full disk":
        return run_full_disk(root, trials=trials, embedder=embedder, rng=rng)
    if fault in CORRUPT_FAULTS:
        return run_corruption(fault, root, trials=trials, embedder=embedder, rng=rng)
    return run_fuzz(root, calls=fuzz, seed=seed, embedder=embedder)
