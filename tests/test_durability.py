"""Crash safety: every acknowledged write survives SIGKILL; one writer per directory."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from memvisor.storage import Store

# A storage contract: every test runs on DuckDB and on PostgreSQL (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("backend")

WRITER = """
import sys
from memvisor.storage import Store
store = Store.open(sys.argv[1], embedder="hash")
i = 0
while True:
    w = store.remember_fact(user_id="crash", subject=f"item{i}", predicate="has_value",
                            object=str(i), trace_id="trc_crash")
    print(w.fact.id, flush=True)
    i += 1
"""

HOLDER = """
import sys, time
from memvisor.storage import Store
store = Store.open(sys.argv[1], embedder="hash")
store.remember_fact(user_id="u", subject="u", predicate="lives_in", object="Oslo", trace_id="t")
print("ready", flush=True)
time.sleep(60)
"""

ROOT = Path(__file__).resolve().parents[1]


def _spawn(code: str, data: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", code, str(data)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )


def test_acknowledged_writes_survive_sigkill(tmp_path: Path) -> None:
    data = tmp_path / "crash"
    rng = random.Random(7)
    acknowledged: list[str] = []
    for _ in range(20):
        child = _spawn(WRITER, data)
        assert child.stdout is not None
        first = child.stdout.readline()  # wait until it is writing
        assert first.startswith("fct_"), child.stderr.read() if child.stderr else ""
        acknowledged.append(first.strip())
        time.sleep(rng.uniform(0.0, 0.25))
        child.send_signal(signal.SIGKILL)
        out, _ = child.communicate()
        acknowledged += [line.strip() for line in out.splitlines() if line.startswith("fct_")]
        # any line cut mid-write by the kill is not an acknowledgement
        acknowledged = [a for a in acknowledged if len(a) == len(first.strip())]
    with Store.open(data, embedder="hash") as store:
        stored = {f.id for f in store.facts.list(user_id="crash")}
        assert set(acknowledged) <= stored
        assert len(acknowledged) > 20
        # the store is usable after the crashes: it accepts and returns a new write
        w = store.remember_fact(
            user_id="crash", subject="after", predicate="has_value", object="ok", trace_id="t"
        )
        assert store.facts.get(w.fact.id, user_id="crash").object == "ok"


# The lock guards the embedded store's files; PostgreSQL workers share a directory
# (tests/test_pg_shared_index.py).
@pytest.mark.duckdb_only
def test_second_writer_gets_one_line_and_exit_3(tmp_path: Path) -> None:
    data = tmp_path / "locked"
    holder = _spawn(HOLDER, data)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "ready"
        result = subprocess.run(
            [
                sys.executable,
                "-m",
                "memvisor.agent",
                "memory",
                "add",
                "--text",
                "a second writer",
                "--data-dir",
                str(data),
                "--user",
                "u",
            ],
            capture_output=True,
            text=True,
            cwd=ROOT,
            timeout=60,
        )
        assert result.returncode == 3  # in use: its own code, apart from bad usage (2)
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and "in use by another memvisor process" in lines[0]
        assert str(os.getpid()) not in lines[0]  # names the holder, not itself
    finally:
        holder.kill()
        holder.communicate()
    with Store.open(data, embedder="hash") as store:
        assert [f.object for f in store.facts.list(user_id="u")] == ["Oslo"]
