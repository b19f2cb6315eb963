"""``memvisor bench paging``: page-in and prompt assembly latency over a large user store.

A store of N mixed memories (turns, facts, passages, episodes; one user) is built,
then each query is timed end to end: query embedding, every route, scoring, packing.
Assembly is timed separately. Also reported: the first page-in of the process (it
reconciles the index and reads the in-memory copies) and page-in right after a turn's
writes. Figures are returned, never asserted. Given ``store`` (a ``postgresql://`` URL),
each size runs again on PostgreSQL, in a scratch database on that server (``postgres``).
"""

from __future__ import annotations

import random
import time
from collections.abc import Collection, Sequence
from datetime import timedelta
from pathlib import Path
from typing import Any

from memvisor.errors import UserError
from memvisor.evals.bench_storage import (
    _EPOCH,
    _PASSAGE_TEMPLATES,
    _QUERY_TEMPLATES,
    _TURN_TEMPLATES,
    _fill,
    _percentiles,
    _scratch_dir,
    scratch_databases,
)
from memvisor.evals.paging_resident import measure_in_child, status_mb
from memvisor.paging.assembler import PromptParts, assemble
from memvisor.paging.budget import ContextBudget
from memvisor.paging.pagein import PageIn
from memvisor.paging.tokens import counter_for_model
from memvisor.storage import ManualClock, Store
from memvisor.storage.backends import chosen_store
from memvisor.storage.store import MEMORY_TABLE

from .progress import ProgressFn

# Issue 17's targets (2 cores): page-in p95 at 100k memories, and no more than these
# ratios: to the floor measured in the same run, of the largest size to the smallest, and of
# page-in right after a turn's writes to the steady one.
TARGET_PAGE_IN_P95_MS = 12.0
TARGET_OVER_FLOOR = 2.0
TARGET_GROWTH = 1.3
TARGET_AFTER_WRITE = 1.5
TARGET_ASSEMBLY_P95_MS = 5.0
USER = "bench-user"
# The next turn's page-in comes after the user has read the answer and replied: a fifth of a
# second is quicker than anyone types (the model's own reply takes longer still).
USER_REPLY_SECONDS = 0.2
MIX = (("turn", 0.5), ("fact", 0.2), ("passage", 0.2), ("episode", 0.1))


def run_paging_bench(
    *,
    sizes: Sequence[int] = (10_000, 100_000),
    queries: int = 100,
    embedder: str = "minilm",
    data_dir: Path | None = None,
    progress: ProgressFn | None = None,
    store: str | None = None,
) -> dict[str, Any]:
    if not sizes or any(not isinstance(n, int) or n < 100 for n in sizes):
        raise UserError("--memories takes sizes of at least 100, e.g. 10000,100000")
    if queries < 1:
        raise UserError("--queries must be at least 1")
    url = chosen_store(store) if store is not None else None
    report = progress or (lambda stage, done, total: None)
    results: dict[str, list[dict[str, Any]]] = {}
    with (
        _scratch_dir(data_dir or Path.cwd() / ".bench-data") as work,
        scratch_databases(url) as fresh,
    ):
        for backend in ("embedded", "postgres") if url else ("embedded",):
            pg = backend == "postgres"
            results[backend] = [
                _one_size(work / f"{backend}{size}", size, queries, embedder, report, fresh(pg))
                for size in sorted(set(sizes))
            ]
    postgres = {"postgres": {"results": results["postgres"]}} if url else {}
    return {
        "results": results["embedded"],
        **_growth(results["embedded"]),
        **postgres,
        "embedder": embedder,
        "targets": {
            "page_in_p95_ms": TARGET_PAGE_IN_P95_MS,
            "page_in_p95_over_floor_p95": TARGET_OVER_FLOOR,
            "page_in_p95_largest_over_smallest": TARGET_GROWTH,
            "after_write_p50_over_page_in_p50": TARGET_AFTER_WRITE,
            "assembly_p95_ms": TARGET_ASSEMBLY_P95_MS,
        },
    }


def _one_size(
    path: Path,
    size: int,
    queries: int,
    embedder: str,
    report: ProgressFn,
    records: str | None = None,
) -> dict[str, Any]:
    rng = random.Random(size)
    clock = ManualClock(_EPOCH)
    with Store.open(path, embedder=embedder, clock=clock, store=records) as store:
        _fill_store(store, clock, size, rng, report)
        report(f"indexing {size}", 0, 1)
        if store.shared:  # PostgreSQL: rows first, then HNSW over them (as reindex loads it)
            store.index.rebuild(MEMORY_TABLE, user_ids=[USER])
        store.index.sync(MEMORY_TABLE, user_id=USER)
        store.index.index.optimize(MEMORY_TABLE)
        report(f"indexing {size}", 1, 1)
        pagein = PageIn(store, floor=0.0)
        texts = [_fill(rng.choice(_QUERY_TEMPLATES), rng) for _ in range(queries + 5)]
        start = time.perf_counter()  # the first one reads what the caches hold
        pagein.retrieve(texts[0], user_id=USER, limit=12)
        first = time.perf_counter() - start
        for text in texts[1:5]:  # warm-up: caches, ONNX session, first queries
            pagein.retrieve(text, user_id=USER, limit=12)
        graph_wait = _wait_for_graphs(store)
        page_in, assembly, paged = [], [], []
        budget = ContextBudget(8192)
        counter = counter_for_model("qwen2.5:7b")
        history = [
            [
                {"role": "user", "content": _fill(rng.choice(_TURN_TEMPLATES), rng)},
                {"role": "assistant", "content": "Noted."},
            ]
            for _ in range(20)
        ]
        core = store.core.list(user_id=USER)
        for n, text in enumerate(texts[5:], 1):
            start = time.perf_counter()
            items = pagein.pack(
                pagein.retrieve(text, user_id=USER, limit=12), budget_tokens=budget.cap("paged")
            )
            page_in.append(time.perf_counter() - start)
            paged.append(len(items))
            parts = PromptParts(
                system_prompt="You are Memvisor.",
                core=core,
                user_message=text,
                paged=items,
                history=history,
                execution={"session": "b"},
            )
            start = time.perf_counter()
            assemble(parts, budget, counter)
            assembly.append(time.perf_counter() - start)
            report(f"queries at {size}", n, queries)
        after_write = _after_writes(store, pagein, rng, budget.cap("paged"), max(queries // 5, 1))
        paused = _paused(pagein, rng, budget.cap("paged"), max(queries // 5, 1))
        after_turn = _next_turns(store, pagein, rng, budget.cap("paged"), max(queries // 5, 1))
        floor = _floor(store, rng, queries)
        resident = status_mb("VmRSS")  # before the recall's flat scans, which page in every vector
        recall = _vector_recall(store, rng, queries)
    # The store closed: a fresh process opens it and pages in (issue 17: <= 600 MB at 100k).
    alone = measure_in_child(path, queries, embedder, records)
    page_in_ms = _percentiles(page_in)
    return {
        "memories": size,
        "page_in_ms": page_in_ms,
        **floor,
        "page_in_p95_over_floor_p95": round(page_in_ms["p95"] / floor["floor_ms"]["p95"], 2),
        # The vector route's top 10 against an exact (flat) scan, on other queries of the
        # same kind: what the ANN index trades for speed. Issue 17 keeps it >= 0.95.
        **({"vector_recall_at_10": round(recall, 4)} if recall is not None else {}),
        "assembly_ms": _percentiles(assembly),
        "paged_items_mean": round(sum(paged) / len(paged), 2),
        "first_page_in_ms": round(first * 1000, 3),
        # From 10,000 rows a user's vector route is an in-memory graph, built on a thread of
        # its own after the first search (LanceDB answers meanwhile): the wait for it after
        # the warm-up, before anything is timed.
        "graph_wait_s": round(graph_wait, 2),
        "page_in_after_write_ms": _percentiles(after_write),
        # Issue 17: page-in right after writes within 1.5x of the steady one.
        "after_write_p50_over_page_in_p50": round(
            _percentiles(after_write)["p50"] / page_in_ms["p50"], 2
        ),
        "page_in_next_turn_ms": _percentiles(after_turn),
        "next_turn_p50_over_page_in_p50": round(
            _percentiles(after_turn)["p50"] / page_in_ms["p50"], 2
        ),
        # Page-in after the same pause as the next turn's, with no write: what the pause
        # alone costs (caches and threads gone cold), so the next turn's ratio to it is what
        # the turn's writes add.
        "page_in_after_pause_ms": _percentiles(paused),
        "next_turn_p50_over_paused_p50": round(
            _percentiles(after_turn)["p50"] / _percentiles(paused)["p50"], 2
        ),
        # The bench process's resident memory after the timed page-ins: the store at this
        # size, its read copies and index, the embedder, and what filling it left behind
        # (the allocator keeps some). Issue 17's target is <= 600 MB at 100k.
        "resident_mb": resident,
        # A fresh process that opens this store and pages in ``queries`` times: its resident
        # memory before opening it (interpreter and imports), after, and at its peak.
        "page_in_process_mb": alone,
    }


def _wait_for_graphs(store: Store) -> float:
    """Seconds until the vector graphs the warm-up started are built (0 on PostgreSQL)."""
    wait = getattr(store.index.index, "wait_for_graphs", None)
    return float(wait()) if wait is not None else 0.0


def _growth(results: list[dict[str, Any]]) -> dict[str, float]:
    """Page-in p95 at the largest size over that at the smallest (``TARGET_GROWTH``)."""
    if len(results) < 2:
        return {}
    smallest, largest = results[0]["page_in_ms"]["p95"], results[-1]["page_in_ms"]["p95"]
    return {"page_in_p95_largest_over_smallest": round(largest / smallest, 2)}


def _floor(store: Store, rng: random.Random, queries: int) -> dict[str, Any]:
    """The pieces page-in cannot do without, each timed alone on queries of the same kind
    (other texts, so no embedding is cached): the query embedding, the raw vector query and
    the raw BM25 query; their sum per query is the floor page-in is compared with."""
    pieces: dict[str, list[float]] = {"embed": [], "vector": [], "fts": []}
    sums = []
    for _ in range(queries):
        text = f"{_fill(rng.choice(_QUERY_TEMPLATES), rng)} {rng.randrange(10**6)}"
        timed = store.index.index.floor(MEMORY_TABLE, text, user_id=USER, limit=12)
        for piece, seconds in timed.items():
            pieces[piece].append(seconds)
        sums.append(sum(timed.values()))
    return {
        "floor_ms": _percentiles(sums),
        "embed_ms": _percentiles(pieces["embed"]),
        "raw_vector_ms": _percentiles(pieces["vector"]),
        "raw_fts_ms": _percentiles(pieces["fts"]),
        # What the raw vector query was: the user's in-memory graph or LanceDB's index.
        "vector_engine": _engine(store),
    }


def _engine(store: Store) -> str:
    engine = getattr(store.index.index, "vector_engine", None)  # pgvector: its HNSW
    return engine(MEMORY_TABLE, user_id=USER) if engine is not None else "pgvector"


def _vector_recall(store: Store, rng: random.Random, queries: int) -> float | None:
    """Recall@10 of the vector route against a flat scan (the embedded index; pgvector's
    HNSW is not measured here)."""
    measure = getattr(store.index.index, "vector_recall", None)
    if measure is None:
        return None
    texts = [_fill(rng.choice(_QUERY_TEMPLATES), rng) for _ in range(queries)]
    return float(measure(MEMORY_TABLE, texts, user_id=USER, k=10))


def _after_writes(
    store: Store, pagein: PageIn, rng: random.Random, budget: int, count: int
) -> list[float]:
    """Page-in right after a chat turn's writes (a message and a fact), as in a session.

    Includes indexing the new message and fact, which page-in does before it searches.
    """
    timings = []
    for n in range(count):
        _turn_writes(store, rng, role="user", predicate=f"live_note_{n}")
        query = _fill(rng.choice(_QUERY_TEMPLATES), rng)
        timings.append(_timed_page_in(pagein, query, budget))
    return timings


def _paused(pagein: PageIn, rng: random.Random, budget: int, count: int) -> list[float]:
    """Page-in after ``USER_REPLY_SECONDS`` with nothing written meanwhile."""
    timings = []
    for _ in range(count):
        time.sleep(USER_REPLY_SECONDS)
        query = _fill(rng.choice(_QUERY_TEMPLATES), rng)
        timings.append(_timed_page_in(pagein, query, budget))
    return timings


def _next_turns(
    store: Store, pagein: PageIn, rng: random.Random, budget: int, count: int
) -> list[float]:
    """Page-in of the next turn, as the agent runs it: the last turn's writes (its answer
    and a fact), ``USER_REPLY_SECONDS`` for the user to read and reply, then the user's
    message logged and paged in, excluding itself (``AgentLoop._page_in``)."""
    timings = []
    for n in range(count):
        _turn_writes(store, rng, role="assistant", predicate=f"turn_note_{n}")
        time.sleep(USER_REPLY_SECONDS)
        message = _fill(rng.choice(_QUERY_TEMPLATES), rng)
        logged = store.log_turn(
            user_id=USER, role="user", content=message, session_id="bench-live", paged_in_next=True
        )
        timings.append(_timed_page_in(pagein, message, budget, exclude_ids={logged.id}))
    return timings


def _timed_page_in(
    pagein: PageIn, query: str, budget: int, *, exclude_ids: Collection[str] = ()
) -> float:
    """Seconds to page in for ``query`` and pack the items into ``budget`` tokens."""
    start = time.perf_counter()
    items = pagein.retrieve(query, user_id=USER, limit=12, exclude_ids=exclude_ids)
    pagein.pack(items, budget_tokens=budget)
    return time.perf_counter() - start


def _turn_writes(store: Store, rng: random.Random, *, role: str, predicate: str) -> None:
    """A chat turn's writes: a message of ``role`` and a fact, each committed."""
    text = _fill(rng.choice(_TURN_TEMPLATES), rng)
    store.log_turn(user_id=USER, role=role, content=text, session_id="bench-live")
    store.remember_fact(
        user_id=USER,
        subject="user",
        predicate=predicate,
        object=_fill(rng.choice(_PASSAGE_TEMPLATES), rng)[:200],
        trace_id="trc_bench",
    )


def _fill_store(
    store: Store, clock: ManualClock, size: int, rng: random.Random, report: ProgressFn
) -> None:
    """Write ``size`` records in committed batches, spread over a year of sessions."""
    counts = {kind: int(size * share) for kind, share in MIX}
    counts["turn"] += size - sum(counts.values())
    plan = [kind for kind, n in counts.items() for _ in range(n)]
    rng.shuffle(plan)
    step = timedelta(minutes=525_600 / max(size, 1))
    for start in range(0, len(plan), 2_000):
        with store.db.transaction() as conn:
            for n, kind in enumerate(plan[start : start + 2_000], start):
                clock.advance(step)
                session = f"s{n // 40}"
                if kind == "turn":
                    store.events.append_in(
                        conn,
                        user_id=USER,
                        kind="user_message",
                        session_id=session,
                        payload={"content": _fill(rng.choice(_TURN_TEMPLATES), rng)},
                    )
                elif kind == "fact":
                    store.facts.remember(
                        user_id=USER,
                        subject="user",
                        predicate=f"note_{n}",
                        trace_id="trc_bench",
                        object=_fill(rng.choice(_PASSAGE_TEMPLATES), rng)[:200],
                    )
                elif kind == "passage":
                    store.passages.insert(
                        user_id=USER,
                        trace_id="trc_bench",
                        conn=conn,
                        text=_fill(rng.choice(_PASSAGE_TEMPLATES), rng),
                    )
                else:
                    summary = " ".join(_fill(rng.choice(_PASSAGE_TEMPLATES), rng) for _ in range(3))
                    episode = store.episodes.build(
                        user_id=USER,
                        session_id=session,
                        start_ts=clock.now() - step * 40,
                        end_ts=clock.now(),
                        summary=summary,
                        entities=[],
                        source_event_ids=[],
                        trace_id="trc_bench",
                    )
                    store.episodes.insert(episode, conn=conn)
        report(f"writing {size}", min(start + 2_000, size), size)
