"""Several processes writing one PostgreSQL store while one of them is killed and the server
restarts: every acknowledged write is there once, and the survivors carry on by themselves.
Two processes updating one core block: one wins each round, the other's conflict is retried,
no update is lost."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path

import psycopg
import pytest

from tests.postgres_server import PostgresCluster

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.slow


class Worker:
    """One ``tests/pg_worker.py`` process and the lines it printed, read as they come."""

    def __init__(self, url: str, data_dir: Path, mode: str, name: str, stop: Path, limit: int):
        self.name = name
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.log = data_dir.parent / f"{name}.stderr"
        with self.log.open("w") as err:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "tests.pg_worker", url, str(data_dir), mode, name,
                 str(stop), str(limit)],
                cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=err, text=True,
            )  # fmt: skip
        self.lines: list[str] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        with self.process.stdout:
            for line in self.process.stdout:
                self.lines.append(line.strip())

    def acked(self) -> list[str]:
        return [line for line in list(self.lines) if line.startswith("ACK ")]

    def wait_for(self, test: object, seconds: float = 60) -> None:
        deadline = time.monotonic() + seconds
        while not test():  # type: ignore[operator]
            if self.process.poll() is not None and not test():  # type: ignore[operator]
                err = self.log.read_text()[-800:]
                raise AssertionError(f"worker {self.name} ended: {self.lines[-3:]} {err}")
            if time.monotonic() > deadline:
                raise AssertionError(f"worker {self.name} stalled: {self.lines[-3:]}")
            time.sleep(0.05)

    def finish(self) -> None:
        self.process.wait(timeout=60)
        self._reader.join(5)


@contextmanager
def workers(
    url: str, tmp_path: Path, mode: str, names: list[str], limit: int = 10**9
) -> Iterator[tuple[list[Worker], Path]]:
    stop = tmp_path / "stop"
    started = [Worker(url, tmp_path / n, mode, n, stop, limit) for n in names]
    try:
        for w in started:  # all opened their store: they start writing together
            w.wait_for(lambda w=w: "READY" in w.lines)
        (tmp_path / "go").touch()
        yield started, stop
    finally:
        stop.touch()
        for w in started:
            if w.process.poll() is None:
                try:
                    w.process.wait(timeout=60)
                except subprocess.TimeoutExpired:
                    w.process.kill()
                    w.process.wait()
            w._reader.join(5)


def test_acknowledged_writes_survive_a_killed_writer_and_a_server_restart(
    postgres_cluster: PostgresCluster, postgres_url: str, tmp_path: Path
) -> None:
    names = ["w0", "w1", "w2", "w3"]
    with workers(postgres_url, tmp_path, "facts", names) as (running, stop):
        for w in running:
            w.wait_for(lambda w=w: len(w.acked()) >= 3)
        victim, survivors = running[0], running[1:]
        victim.process.send_signal(signal.SIGKILL)  # mid-write: it writes without pause
        victim.finish()
        began = _server_started(postgres_url)
        postgres_cluster.restart()
        restarted_at = _server_started(postgres_url)
        after = {w.name: len(w.acked()) for w in survivors}
        for w in survivors:  # they go on without anyone restarting them
            w.wait_for(lambda w=w: len(w.acked()) >= after[w.name] + 5)
        stop.touch()
        for w in survivors:
            w.finish()
            assert w.process.returncode == 0 and w.lines[-1] == "DONE", w.lines[-3:]
    with psycopg.connect(postgres_url) as raw:
        rows = raw.execute("SELECT id, user_id, predicate, object FROM facts").fetchall()
    stored = {r[0]: r for r in rows}
    for w in running:
        for line in w.acked():
            _, step, fact_id = line.split()
            assert fact_id in stored, f"{w.name} step {step}: acknowledged, then lost"
            assert stored[fact_id][2:] == (f"note_{step}", f"value {step} of {w.name}")
        unknown = [line for line in w.lines if line.startswith("UNKNOWN")]
        assert not unknown, unknown  # every lost COMMIT was resolved by asking the server
    # nothing doubled: one fact per worker and step, retried or not
    steps = [(r[1], r[2]) for r in rows]
    assert len(steps) == len(set(steps))
    # The server did restart under them (every connection was cut): the writes they
    # acknowledged after it ran on connections they opened again themselves. A write the
    # restart cut midway is a RETRY line; one between statements is not even seen.
    assert restarted_at > began


def _server_started(url: str) -> datetime:
    with psycopg.connect(url) as raw:
        started: datetime = raw.execute("SELECT pg_postmaster_start_time()").fetchall()[0][0]
    return started


def test_two_processes_updating_one_block_lose_no_update(postgres_url: str, tmp_path: Path) -> None:
    rounds = 25
    with workers(postgres_url, tmp_path, "block", ["a", "b"], limit=rounds) as (running, _):
        for w in running:
            w.finish()
            assert w.lines[-1] == "DONE", w.lines[-3:]
    with psycopg.connect(postgres_url) as raw:
        value, version = raw.execute(
            "SELECT value, version FROM core_blocks WHERE user_id = 'shared' AND label = 'human'"
        ).fetchall()[0]
    appended = value.split()
    for w in running:
        mine = [t for t in appended if t.startswith(f"{w.name}:")]
        assert mine == [f"{w.name}:{n}" for n in range(rounds)]  # each once, in order
    assert version == 1 + 2 * rounds  # one version per acknowledged update, none lost
    conflicts = sum(line.startswith("CONFLICT") for w in running for line in w.lines)
    assert conflicts >= 1  # they did collide; each conflict was retried on a fresh read


def test_two_processes_superseding_one_fact_keep_one_unbroken_lineage(
    postgres_url: str, tmp_path: Path
) -> None:
    rounds = 20
    with workers(postgres_url, tmp_path, "supersede", ["a", "b"], limit=rounds) as (running, _):
        for w in running:
            w.finish()
            assert w.lines[-1] == "DONE", w.lines[-3:]
    with psycopg.connect(postgres_url) as raw:
        rows = raw.execute(
            "SELECT id, object, version, status, supersedes FROM facts WHERE user_id = 'shared' "
            "ORDER BY version"
        ).fetchall()
    acked = {line.split()[2] for w in running for line in w.acked()}
    assert {r[0] for r in rows} == acked and len(rows) == 2 * rounds
    assert [r[2] for r in rows] == list(range(1, 2 * rounds + 1))  # no version twice
    assert [r[3] for r in rows].count("active") == 1 and rows[-1][3] == "active"
    # each version supersedes the one before it, whoever wrote that: no fork, none lost
    assert [r[4] for r in rows[1:]] == [r[0] for r in rows[:-1]]
