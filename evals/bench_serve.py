"""``memvisor bench serve``: many HTTP clients against ``memvisor serve`` on 127.0.0.1.

The servers are real ``memvisor serve`` processes (``evals/serve_processes.py``), so the load
generator here shares no interpreter with them. One configuration is one process on the
embedded store; with ``store`` (a ``postgresql://`` URL) each count of ``workers`` is that
many server processes on one PostgreSQL database, the clients spread over them round-robin,
after the embedded one for comparison. The API keys are created through the Python API
before any server starts.

For each client count, that many threads send a mix of writes (``POST /v1/memories``) and
searches (``POST /v1/search``) for randomly chosen users, each with its own key, for a fixed
time, each its next request as soon as the last is answered (a closed loop). The clients
share the servers' cores, so they are lean: the standard library's ``http.client`` on one
kept connection each, about a third of ``httpx``'s CPU a request (``httpx.AsyncClient`` on
one event loop took more than either); ``client_cpu_ms_per_request`` says what they took.
Then every write the servers acknowledged is looked up in the store: a lost write is a
failure of the durability promise, not noise. Only loopback is ever addressed; the loop is
bounded by time. Each run also says how much CPU the servers spent per request (from
``/proc``, on Linux): on a machine shared with other work, latency and throughput move with
the load, and the CPU a request costs much less.
"""

from __future__ import annotations

import json
import random
import shutil
import statistics
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.client import HTTPConnection, HTTPException
from pathlib import Path
from typing import Any

import httpx

from memvisor.errors import NotFound
from memvisor.storage import Store
from memvisor.storage.ids import new_id

from .progress import ProgressFn
from .serve_processes import ServerProcess, scratch_schema, servers

TARGET_SEARCH_P95_MS = 50.0
TARGET_AT_CLIENTS = 32
WRITE_SHARE = 0.5
ENDPOINTS = ("write", "search")
JSON_HEADERS = {"Content-Type": "application/json"}
EMBEDDED = "embedded"


def run_serve_bench(
    *,
    data_dir: Path,
    clients: list[int],
    seconds: float,
    users: int,
    embedder: str = "minilm",
    progress: ProgressFn | None = None,
    seed: int = 7,
    store: str | None = None,
    workers: list[int] | None = None,
) -> dict[str, Any]:
    """Run each client count for ``seconds`` in each configuration; return throughput,
    latency, errors and losses per run (``runs``, each naming its store and servers)."""
    configurations: list[tuple[str, int]] = [(EMBEDDED, 1)]  # the comparison, always
    if store:
        configurations += [(store, n) for n in workers or [1]]
    scratch = data_dir / f"serve-{new_id('run')}"
    steps, done = len(configurations) * len(clients), 0
    runs: list[dict[str, Any]] = []
    try:
        for index, (where, count) in enumerate(configurations):
            root = scratch / f"config{index}"
            with _records(where) as url:
                keys = _create_keys(root / "keys", url, users)
                with servers(count, root=root, store=url, embedder=embedder) as started:
                    ports = [server.port for server in started]
                    for port in ports:  # every process opens its index on its first search
                        _warm_up(port, keys)
                    for step, client_count in enumerate(clients):
                        if progress:
                            progress("runs", done, steps)
                        cpu_before = _cpu(started)
                        run = _load(ports, keys, client_count, seconds, random.Random(seed + step))
                        run["server_cpu_ms_per_request"] = _cpu_per_request(
                            cpu_before, _cpu(started), run["requests"]
                        )
                        run.update(
                            store="postgresql" if where != EMBEDDED else EMBEDDED, servers=count
                        )
                        runs.append(run)
                        done += 1
                for run in runs[-len(clients) :]:
                    run["lost_writes"] = _lost(root / "check", url, run.pop("acknowledged"))
        if progress:
            progress("runs", steps, steps)
        return {
            "users": users,
            "seconds": seconds,
            "embedder": embedder,
            "write_share": WRITE_SHARE,
            "store": _redacted(store) if store else EMBEDDED,
            "runs": runs,
            "targets": {
                "search_p95_ms": TARGET_SEARCH_P95_MS,
                "at_clients": TARGET_AT_CLIENTS,
                "errors": 0,
                "lost_writes": 0,
            },
        }
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _redacted(url: str) -> str:
    from memvisor.storage.postgres import redacted  # psycopg loads only for PostgreSQL

    return redacted(url)


@contextmanager
def _records(where: str) -> Iterator[str]:
    """The ``--store`` the servers are given: the embedded store in each one's data
    directory, or a scratch schema of the PostgreSQL database, dropped afterwards."""
    if where == EMBEDDED:
        yield EMBEDDED
        return
    with scratch_schema(where) as url:
        yield url


def _create_keys(keys_dir: Path, url: str, users: int) -> dict[str, str]:
    """One key per user, made through the Python API before any server holds the store. On
    the embedded store the keys live in the server's own data directory."""
    data_dir = keys_dir.parent / "server0" if url == EMBEDDED else keys_dir
    with Store.open(data_dir, embedder="hash", store=url) as store:
        return {f"user{n:04d}": store.api_keys.create(user_id=f"user{n:04d}")[1]
                for n in range(users)}  # fmt: skip


def _warm_up(port: int, keys: dict[str, str]) -> None:
    """One untimed write and search: the first search of a process opens the index."""
    user, key = next(iter(keys.items()))
    auth = {"Authorization": f"Bearer {key}"}
    with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=120) as http:
        text = f"Warm-up note for {user}."
        body = {"passage": text, "context": [{"role": "user", "content": text}]}
        for route, sent in (("/v1/memories", body), ("/v1/search", {"query": "warm-up"})):
            response = http.post(route, json=sent, headers=auth)
            if response.status_code >= 400:  # the server's own words, not a bare status
                raise RuntimeError(
                    f"the bench server on port {port} answered {response.status_code} to its "
                    f"warm-up POST {route}: {response.text[:300]}"
                )


def _load(
    ports: list[int], keys: dict[str, str], count: int, seconds: float, rng: random.Random
) -> dict[str, Any]:
    users = sorted(keys)
    latencies: dict[str, list[float]] = {name: [] for name in ENDPOINTS}
    errors: list[str] = []
    acknowledged: list[tuple[str, str]] = []
    lock = threading.Lock()
    stop = time.monotonic() + seconds
    seeds = [rng.random() for _ in range(count)]

    def client(seed: float, port: int) -> None:
        local = random.Random(seed)
        http = HTTPConnection("127.0.0.1", port, timeout=30)
        try:
            while time.monotonic() < stop:
                user = local.choice(users)
                writing = local.random() < WRITE_SHARE
                topic = local.choice(("invoice", "garden", "flight", "recipe", "dentist"))
                body: dict[str, Any]
                if writing:
                    text = f"Note {local.randrange(10**9)} about the {topic} for {user}."
                    route = "/v1/memories"
                    body = {"passage": text, "context": [{"role": "user", "content": text}]}
                else:
                    route, body = "/v1/search", {"query": f"the {topic}", "k": 5}
                headers = {"Authorization": f"Bearer {keys[user]}", **JSON_HEADERS}
                started = time.perf_counter()
                try:
                    http.request("POST", route, body=json.dumps(body), headers=headers)
                    response = http.getresponse()
                    answer = response.read()
                except (OSError, HTTPException) as exc:
                    http.close()  # the next request opens a new connection
                    with lock:
                        errors.append(f"{type(exc).__name__}: {exc}")
                    continue
                elapsed = (time.perf_counter() - started) * 1000
                with lock:
                    latencies["write" if writing else "search"].append(elapsed)
                    if response.status >= 400:
                        errors.append(f"HTTP {response.status}: {answer[:200]!r}")
                    elif writing and response.status == 201:
                        acknowledged.append((user, json.loads(answer)["record_id"]))
        finally:
            http.close()

    # round-robin: client n talks to server n mod the number of servers
    threads = [
        threading.Thread(target=client, args=(s, ports[n % len(ports)]))
        for n, s in enumerate(seeds)
    ]
    began, cpu_before = time.perf_counter(), time.process_time()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    took, client_cpu = time.perf_counter() - began, time.process_time() - cpu_before
    total = sum(len(v) for v in latencies.values())
    return {
        "clients": count,
        "requests": total,
        "requests_per_s": round(total / took, 1),
        "latency_ms": {name: _figures(values) for name, values in latencies.items()},
        "errors": len(errors),
        "error_samples": errors[:5],
        "writes_acknowledged": len(acknowledged),
        "client_cpu_ms_per_request": round(client_cpu * 1000 / total, 2) if total else None,
        "acknowledged": acknowledged,
    }


def _cpu(started: list[ServerProcess]) -> float | None:
    """The servers' CPU seconds so far, all together; None where it cannot be read."""
    seconds = [server.cpu_seconds() for server in started]
    return None if None in seconds else sum(s for s in seconds if s is not None)


def _cpu_per_request(before: float | None, after: float | None, requests: int) -> float | None:
    if before is None or after is None or not requests:
        return None
    return round((after - before) * 1000 / requests, 2)


def _lost(check_dir: Path, url: str, acknowledged: list[tuple[str, str]]) -> int:
    """Acknowledged writes the store does not hold, read after the servers stopped (on the
    embedded store, from the server's own data directory)."""
    data_dir = check_dir.parent / "server0" if url == EMBEDDED else check_dir
    lost = 0
    with Store.open(data_dir, embedder="hash", store=url) as store:
        for user, record_id in acknowledged:
            try:
                store.passages.get(record_id, user_id=user)
            except NotFound:
                lost += 1
    return lost


def _figures(values: list[float]) -> dict[str, float | None]:
    if not values:
        return {"p50": None, "p95": None, "p99": None}
    ordered = sorted(values)

    def at(share: float) -> float:
        return round(ordered[min(len(ordered) - 1, int(share * len(ordered)))], 2)

    return {"p50": round(statistics.median(ordered), 2), "p95": at(0.95), "p99": at(0.99)}
