"""Test defaults: data under tmp, fast embedder, no network beyond 127.0.0.1.

A module with ``pytestmark = pytest.mark.usefixtures("backend")`` is a storage contract: each
of its tests runs on the embedded store and on PostgreSQL (``tests/postgres_server.py``);
``@pytest.mark.duckdb_only`` keeps one test on the embedded store (say why beside it).
"""

from __future__ import annotations

import os
import signal
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from memvisor.storage import ManualClock, Store
from memvisor.storage.backends import STORE_ENV

# A suite started in the background of a non-interactive shell (``make test &``) inherits
# SIGINT ignored, and Python then installs no KeyboardInterrupt handler: the Ctrl-C tests
# (the chat REPL, the local PostgreSQL server) need a terminal's default. Restored before
# any test runs; processes the tests start get the default too (an ignored signal is what
# a child inherits, a handler is not).
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

# One BLAS thread per process, set before numpy loads (nothing imported above loads it);
# workers and the processes tests start inherit it. The suite runs one worker per core, and
# OpenBLAS's extra threads spin-wait for work beside the other worker's. Measured on 2
# cores, two firewall scans of a 300-write round side by side: 36 s each with OpenBLAS's
# default threads, 16.5 s with one (one scan alone: 14-17 s either way).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

BACKENDS = ("duckdb", "postgres")

pytest_plugins = ["tests.fake_ollama", "tests.fake_openai", "tests.postgres_server"]

_real_connect = socket.socket.connect


def _loopback_only(self: socket.socket, address: object) -> None:
    host = address[0] if isinstance(address, tuple) else address
    if (
        isinstance(host, str)
        and host not in ("127.0.0.1", "::1", "localhost")
        and self.family in (socket.AF_INET, socket.AF_INET6)
    ):
        raise OSError(f"tests may not reach the network ({host})")
    _real_connect(self, address)  # type: ignore[arg-type]


@pytest.fixture(scope="session")
def _cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # One per test session: the quantized embedding model is made once, not per test.
    return tmp_path_factory.mktemp("memvisor-cache")


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, _cache_dir: Path) -> None:
    monkeypatch.setenv("MEMVISOR_HOME", str(tmp_path / "memvisor-home"))
    monkeypatch.setenv("MEMVISOR_CACHE_DIR", str(_cache_dir))
    monkeypatch.setenv("MEMVISOR_EMBEDDER", "hash")
    monkeypatch.delenv("OLLAMA_HOST", raising=False)
    monkeypatch.delenv(STORE_ENV, raising=False)
    monkeypatch.setattr(socket.socket, "connect", _loopback_only)


@pytest.fixture
def clock() -> ManualClock:
    from datetime import UTC, datetime

    return ManualClock(datetime(2026, 5, 1, 9, 0, tzinfo=UTC))


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "backend" in metafunc.fixturenames:
        only = metafunc.definition.get_closest_marker("duckdb_only")
        metafunc.parametrize("backend", BACKENDS[:1] if only else BACKENDS, indirect=True)


@pytest.fixture
def backend(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """The record store of a contract test; on PostgreSQL every ``Store.open`` of the test
    (through ``MEMVISOR_STORE``) opens one fresh database."""
    name = str(getattr(request, "param", "duckdb"))
    if name == "postgres":
        monkeypatch.setenv(STORE_ENV, request.getfixturevalue("postgres_url"))
    return name


@pytest.fixture
def store(tmp_path: Path, clock: ManualClock, request: pytest.FixtureRequest) -> Iterator[Store]:
    if "backend" in request.fixturenames:
        request.getfixturevalue("backend")  # before the store opens
    with Store.open(tmp_path / "store", embedder="hash", clock=clock) as s:
        yield s
