"""``memvisor bench serve``: many HTTP clients against ``memvisor serve`` on 127.0.0.1.

For each client count, that many threads send a mix of writes (``POST /v1/memories``) and
searches (``POST /v1/search``) for randomly chosen users, each with its own key, for a fixed
time. Then every write the server acknowledged is looked up in the store: a lost write is a
failure of the durability promise, not noise. Only loopback is ever addressed; the loop is
bounded by time.
"""

from __future__ import annotations

import random
import shutil
import socket
import statistics
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import uvicorn

from memvisor.agent.memory.api import Memory
from memvisor.agent.servers.rest import create_app
from memvisor.errors import NotFound
from memvisor.storage.ids import new_id

Progress = Callable[[str, int, int], None]
TARGET_SEARCH_P95_MS = 50.0
TARGET_AT_CLIENTS = 32
WRITE_SHARE = 0.5
ENDPOINTS = ("write", "search")


def run_serve_bench(
    *,
    data_dir: Path,
    clients: list[int],
    seconds: float,
    users: int,
    embedder: str = "minilm",
    progress: Progress | None = None,
    seed: int = 7,
) -> dict[str, Any]:
    """Run each client count for ``seconds``; return throughput, latency, errors, losses."""
    scratch = data_dir / f"serve-{new_id('run')}"
    try:
        with Memory.open(scratch, embedder=embedder) as memory:
            keys = {f"user{n:04d}": memory.store.api_keys.create(user_id=f"user{n:04d}")[1]
                    for n in range(users)}  # fmt: skip
            server, port = _start(memory)
            try:
                _warm_up(port, keys)
                runs = []
                for step, count in enumerate(clients):
                    if progress:
                        progress("clients", step, len(clients))
                    runs.append(_load(port, keys, count, seconds, random.Random(seed + step)))
            finally:
                server.should_exit = True
            for run in runs:
                run["lost_writes"] = _lost(memory, run.pop("acknowledged"))
        if progress:
            progress("clients", len(clients), len(clients))
        return {
            "users": users,
            "seconds": seconds,
            "embedder": embedder,
            "write_share": WRITE_SHARE,
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


def _start(memory: Memory) -> tuple[uvicorn.Server, int]:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = int(sock.getsockname()[1])
    config = uvicorn.Config(create_app(memory), host="127.0.0.1", port=port, log_level="error")
    server = uvicorn.Server(config)
    threading.Thread(target=server.run, daemon=True).start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline:
            raise RuntimeError("the bench server did not start within 30 s")
        time.sleep(0.02)
    return server, port


def _warm_up(port: int, keys: dict[str, str]) -> None:
    """One untimed write and search: the first search of a process opens the index."""
    user, key = next(iter(keys.items()))
    auth = {"Authorization": f"Bearer {key}"}
    with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=120) as http:
        text = f"Warm-up note for {user}."
        body = {"passage": text, "context": [{"role": "user", "content": text}]}
        http.post("/v1/memories", json=body, headers=auth).raise_for_status()
        http.post("/v1/search", json={"query": "warm-up"}, headers=auth).raise_for_status()


def _load(
    port: int, keys: dict[str, str], count: int, seconds: float, rng: random.Random
) -> dict[str, Any]:
    users = sorted(keys)
    latencies: dict[str, list[float]] = {name: [] for name in ENDPOINTS}
    errors: list[str] = []
    acknowledged: list[tuple[str, str]] = []
    lock = threading.Lock()
    stop = time.monotonic() + seconds
    seeds = [rng.random() for _ in range(count)]

    def client(seed: float) -> None:
        local = random.Random(seed)
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as http:
            while time.monotonic() < stop:
                user = local.choice(users)
                auth = {"Authorization": f"Bearer {keys[user]}"}
                writing = local.random() < WRITE_SHARE
                topic = local.choice(("invoice", "garden", "flight", "recipe", "dentist"))
                started = time.perf_counter()
                try:
                    if writing:
                        text = f"Note {local.randrange(10**9)} about the {topic} for {user}."
                        body = {"passage": text, "context": [{"role": "user", "content": text}]}
                        response = http.post("/v1/memories", json=body, headers=auth)
                    else:
                        response = http.post(
                            "/v1/search", json={"query": f"the {topic}", "k": 5}, headers=auth
                        )
                except httpx.HTTPError as exc:
                    with lock:
                        errors.append(f"{type(exc).__name__}: {exc}")
                    continue
                elapsed = (time.perf_counter() - started) * 1000
                with lock:
                    latencies["write" if writing else "search"].append(elapsed)
                    if response.status_code >= 400:
                        errors.append(f"HTTP {response.status_code}: {response.text[:200]}")
                    elif writing and response.status_code == 201:
                        acknowledged.append((user, response.json()["record_id"]))

    threads = [threading.Thread(target=client, args=(s,)) for s in seeds]
    began = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    took = time.perf_counter() - began
    total = sum(len(v) for v in latencies.values())
    return {
        "clients": count,
        "requests": total,
        "requests_per_s": round(total / took, 1),
        "latency_ms": {name: _figures(values) for name, values in latencies.items()},
        "errors": len(errors),
        "error_samples": errors[:5],
        "writes_acknowledged": len(acknowledged),
        "acknowledged": acknowledged,
    }


def _lost(memory: Memory, acknowledged: list[tuple[str, str]]) -> int:
    lost = 0
    for user, record_id in acknowledged:
        try:
            memory.store.passages.get(record_id, user_id=user)
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
