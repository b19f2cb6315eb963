"""A full disk: the data directory on a small tmpfs, filled to a few kilobytes, then
`memvisor memory add`, `list` and `search` run on it. A write that fails must say so in a line;
one that reported success must be there and found once space is back."""

from __future__ import annotations

import random
import shutil
import subprocess
from pathlib import Path

from .common import USER, Ack, FaultResult, check_acknowledged, cli_env, count_run, run_cli
from .seed import seed_store

TMPFS_BYTES = 24 * 1024 * 1024
# Space left for the commands: from too little for one write to room for a few.
LEFT_BYTES = (16 * 1024, 256 * 1024, 64 * 1024, 1024 * 1024, 4 * 1024)
WRITES = 2


def tmpfs_available(root: Path) -> str | None:
    """None when a tmpfs can be mounted here, else why not."""
    probe = root / "tmpfs-probe"
    probe.mkdir(parents=True, exist_ok=True)
    try:
        _mount(probe, 1024 * 1024)
    except (OSError, subprocess.CalledProcessError) as exc:
        return f"cannot mount a tmpfs ({exc}); run as root, or skip the full-disk fault"
    _umount(probe)
    return None


def _mount(path: Path, size: int) -> None:
    subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(path)],
        check=True,
        capture_output=True,
    )


def _umount(path: Path) -> None:
    subprocess.run(["umount", "-l", str(path)], check=False, capture_output=True)


def run_full_disk(root: Path, *, trials: int, embedder: str, rng: random.Random) -> FaultResult:
    result = FaultResult("full disk")
    why = tmpfs_available(root)
    if why:
        result.note(why)
        return result
    env = cli_env(root / "home", embedder)
    for n in range(trials):
        mount = root / f"disk{n}"
        mount.mkdir()
        _mount(mount, TMPFS_BYTES)
        try:
            result.trials += 1
            _trial(
                result, mount, n, env=env, embedder=embedder, left=LEFT_BYTES[n % len(LEFT_BYTES)]
            )
        finally:
            _umount(mount)
    return result


def _trial(
    result: FaultResult, mount: Path, n: int, *, env: dict[str, str], embedder: str, left: int
) -> None:
    data_dir = mount / "data"
    acks = seed_store(data_dir, prefix=f"dk{n}s", facts=2, passages=2, embedder=embedder)
    filler = mount / "filler"
    free = shutil.disk_usage(mount).free
    with filler.open("wb") as file:
        file.truncate(0)
        chunk = b"\0" * (1024 * 1024)
        remaining = max(free - left, 0)
        while remaining > 0:
            written = file.write(chunk[: min(len(chunk), remaining)])
            remaining -= written
    where = ["--data-dir", str(data_dir), "--user", USER]
    for k in range(WRITES):
        word = f"zqdisk{n}w{k}x"
        run = run_cli(["memory", "add", "--text", f"Shed inventory {word}.", *where], env=env)
        count_run(result, run, f"memory add with {left} bytes free")
        if run.returncode == 0:
            acks.append(Ack(word, table="passages"))
        else:
            result.injected += 1
    for args in (["memory", "list"], ["memory", "search", acks[0].needle]):
        run = run_cli([*args, *where], env=env)
        count_run(result, run, f"{' '.join(args[:2])} on a full disk")
        result.injected += run.returncode != 0
    filler.unlink()
    store = check_acknowledged(result, data_dir, acks, embedder=embedder)
    if store is not None:
        store.close()
