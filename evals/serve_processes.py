"""``memvisor serve`` as real processes on 127.0.0.1, for ``memvisor bench serve``.

Each server is the command a user runs (``python -m memvisor.agent serve``), with its own data
directory (the directory's lock admits one server) and the records in the embedded store or
in one PostgreSQL database. On PostgreSQL the bench writes into a schema of its own, created
for the run and dropped after it, so the database it is given keeps nothing of the bench.
"""

from __future__ import annotations

import os
import secrets
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from urllib.parse import quote

import httpx

from memvisor.storage.sealed_keys import MASTER_KEY_ENV

READY_SECONDS = 60.0  # a server imports the web stack and opens its store first
STOP_SECONDS = 20.0


class ServerProcess:
    """One ``memvisor serve`` on a free loopback port; ``stop`` ends it (SIGTERM, then kill)."""

    def __init__(
        self, *, data_dir: Path, store: str, embedder: str, log: Path, seal_key: Path
    ) -> None:
        self.port = _free_port()
        self.log = log
        env = {**os.environ, "MEMVISOR_EMBEDDER": embedder, "MEMVISOR_LOG_LEVEL": "ERROR",
               MASTER_KEY_ENV: str(seal_key)}  # fmt: skip
        command = [sys.executable, "-m", "memvisor.agent", "serve", "--data-dir", str(data_dir),
                   "--store", store, "--host", "127.0.0.1", "--port", str(self.port)]  # fmt: skip
        with log.open("w", encoding="utf-8") as err:
            self.process = subprocess.Popen(
                command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err, env=env
            )

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def wait_ready(self) -> None:
        deadline = time.monotonic() + READY_SECONDS
        with httpx.Client(base_url=self.base_url, timeout=2) as http:
            while True:
                if self.process.poll() is not None:
                    raise RuntimeError(
                        f"memvisor serve exited with {self.process.returncode} before it "
                        f"answered: {self._last_error()}"
                    )
                with suppress(httpx.HTTPError):
                    if http.get("/v1/health").status_code == 200:
                        return
                if time.monotonic() > deadline:
                    raise RuntimeError(
                        f"memvisor serve did not answer within {READY_SECONDS:g} s: "
                        f"{self._last_error()}"
                    )
                time.sleep(0.1)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=STOP_SECONDS)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def cpu_seconds(self) -> float | None:
        """CPU time the server has used so far, every thread of it (user and system), from
        ``/proc``; None where there is none or the process is gone."""
        try:
            fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            return None
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime

    def _last_error(self) -> str:
        lines = self.log.read_text(encoding="utf-8", errors="replace").strip().splitlines()
        return lines[-1] if lines else "(nothing on stderr)"


@contextmanager
def servers(count: int, *, root: Path, store: str, embedder: str) -> Iterator[list[ServerProcess]]:
    """``count`` servers on one store, each with its own data directory under ``root`` and
    one sealed-secret master key, as workers are deployed; started together and all
    answering before the block runs."""
    started: list[ServerProcess] = []
    try:
        for n in range(count):
            data_dir = root / f"server{n}"
            started.append(
                ServerProcess(
                    data_dir=data_dir,
                    store=store,
                    embedder=embedder,
                    log=root / f"server{n}.log",
                    seal_key=root / "seal-master.key",
                )
            )
        for server in started:
            server.wait_ready()
        yield started
    finally:
        for server in started:
            server.stop()


@contextmanager
def scratch_schema(url: str) -> Iterator[str]:
    """``url`` pointed at a new schema (its ``search_path``), dropped with all it holds at
    the end: the bench's users and records never mix with the database's own."""
    import psycopg

    name = f"memvisor_bench_{secrets.token_hex(4)}"
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {name}")
    joiner = "&" if "?" in url else "?"
    try:
        yield f"{url}{joiner}options={quote(f'-c search_path={name}')}"
    finally:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {name} CASCADE")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])
