"""Corrupted files: the record file truncated or garbled, the index's manifest garbled, its
fragments or indices gone. The user's next command must say what is wrong in a line, never
a traceback; a damaged index is derived data, so the store must reopen and find every
record again."""

from __future__ import annotations

import random
import shutil
from collections.abc import Callable
from pathlib import Path

from .common import FaultResult, check_acknowledged, cli_env, count_run, run_cli
from .seed import seed_store

CORRUPT_FAULTS = ("corrupt records", "corrupt index")


def _truncate(data_dir: Path, rng: random.Random) -> str:
    path = data_dir / "memvisor.duckdb"
    size = path.stat().st_size
    keep = int(size * rng.uniform(0.3, 0.9))  # past the header: a block goes missing
    with path.open("r+b") as file:
        file.truncate(keep)
    return f"memvisor.duckdb truncated to {keep} of {size} bytes"


def _garble(data_dir: Path, rng: random.Random) -> str:
    path = data_dir / "memvisor.duckdb"
    size = path.stat().st_size
    start = rng.randrange(min(12_288, size // 2), size - 4_096)
    with path.open("r+b") as file:
        file.seek(start)
        file.write(rng.randbytes(4_096))
    return f"memvisor.duckdb garbled at byte {start}"


def _lance(data_dir: Path) -> Path:
    return data_dir / "vectors" / "memory.lance"


def _garble_manifest(data_dir: Path, rng: random.Random) -> str:
    manifests = sorted((_lance(data_dir) / "_versions").glob("*.manifest"))
    target = manifests[-1]
    target.write_bytes(rng.randbytes(max(target.stat().st_size, 64)))
    return f"index manifest {target.name} garbled"


def _drop_fragment(data_dir: Path, rng: random.Random) -> str:
    fragments = sorted((_lance(data_dir) / "data").glob("*.lance"))
    target = rng.choice(fragments)
    target.unlink()
    return f"index fragment {target.name} deleted ({len(fragments)} there)"


def _drop_indices(data_dir: Path, rng: random.Random) -> str:
    shutil.rmtree(_lance(data_dir) / "_indices")
    return "index _indices deleted"


Damage = Callable[[Path, random.Random], str]
DAMAGES: dict[str, tuple[Damage, ...]] = {
    "corrupt records": (_truncate, _garble),
    "corrupt index": (_garble_manifest, _drop_fragment, _drop_indices),
}


def run_corruption(
    fault: str, root: Path, *, trials: int, embedder: str, rng: random.Random
) -> FaultResult:
    """``trials`` rounds of every damage of ``fault``, each on a fresh copy of one store."""
    result = FaultResult(fault)
    base = root / f"{fault.replace(' ', '-')}-base"
    acks = seed_store(base, prefix="cr", facts=5, passages=5, embedder=embedder)
    env = cli_env(root / "home", embedder)
    for n in range(trials):
        for damage in DAMAGES[fault]:
            target = root / f"{fault.replace(' ', '-')}-{n}-{damage.__name__.strip('_')}"
            shutil.copytree(base, target)
            what = damage(target, rng)
            result.trials += 1
            result.injected += 1
            args = ["memory", "search", acks[0].needle, "--data-dir", str(target), "--user"]
            run = run_cli([*args, acks[0].user_id], env=env)
            count_run(result, run, f"memory search, {what}")
            if fault == "corrupt index":  # derived data: the records are all there to heal from
                if run.returncode != 0:
                    result.note(f"{what}: memory search exit {run.returncode}: {run.stderr[-200:]}")
                store = check_acknowledged(result, target, acks, embedder=embedder)
                if store is not None:
                    store.close()
            elif run.returncode == 0 and acks[0].id and acks[0].id not in run.stdout:
                result.note(f"{what}: memory search succeeded without the record")
            shutil.rmtree(target, ignore_errors=True)
    return result
