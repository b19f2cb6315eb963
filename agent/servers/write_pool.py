"""Where a server's writes run: a thread of their own, at a lower CPU priority.

A write (firewall, embedding, index append, commit) costs tens of milliseconds of CPU, a
search a few. Run in the request threads, writes take the cores from the searches, whose
latency then grows with the queue of writes. The pool bounds how many writes run at once
(the rest wait their turn holding nothing: no user lock, no transaction) and, on Linux,
lowers its threads' scheduling priority, so that a search wanting a core gets it first
and a write takes what the searches leave. A write still runs whenever a core is free:
lower priority slows it under load, it never stops it.

Only the threads' own work is lowered: what a write hands to a library's thread pool
(ONNX Runtime's, LanceDB's) runs at that pool's priority.
"""

from __future__ import annotations

import contextvars
import os
import sys
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import suppress
from typing import TypeVar

T = TypeVar("T")

# Writes whose pipeline runs at once. Writes commit one at a time anyway: more of them at
# once only takes the interpreter (the GIL: a write's firewall is Python) from the searches.
# bench serve, 32 clients, quiet 2 cores: search p95 39-46 ms with one thread, 51-67 ms
# with two, requests/s 71-83 against 70-86.
WRITE_THREADS = 1
# Added to the writes' nice value: at +15 a write gets about 3.5% of a core a search keeps
# busy (the kernel's weights: 1024 at 0, 36 at 15). Search p95 under 32 clients fell with it
# (0: 222 ms, 5: 182, 10: 180, 15: 129, README's performance section); writes slow, never stop.
WRITE_NICENESS = 15


def _lower_priority() -> None:
    """Make the calling thread nicer. On Linux a thread id names one thread for
    ``setpriority``; elsewhere it would name a process, so nothing is changed there."""
    if sys.platform != "linux":
        return
    tid = threading.get_native_id()
    # A sandbox that forbids it leaves the writes at the usual priority.
    with suppress(OSError):
        os.setpriority(os.PRIO_PROCESS, tid, os.getpriority(os.PRIO_PROCESS, tid) + WRITE_NICENESS)


class WritePool:
    """``run(write)`` on one of the pool's threads, in a copy of the caller's context (its
    context variables: a request's, an MCP connection's); the caller waits for its result
    (or its exception, raised in the caller as it would have been there)."""

    def __init__(self, threads: int = WRITE_THREADS) -> None:
        self._threads = threads
        self._pool: ThreadPoolExecutor | None = None  # made by the first write after a close
        self._lock = threading.Lock()

    def run(self, write: Callable[[], T]) -> T:
        with self._lock:  # never a submit to a pool ``close`` is shutting down
            if self._pool is None:
                self._pool = ThreadPoolExecutor(
                    max_workers=self._threads,
                    thread_name_prefix="memvisor-write",
                    initializer=_lower_priority,
                )
            done = self._pool.submit(contextvars.copy_context().run, write)
        return done.result()

    def close(self) -> None:
        """Once the writes under way are done, end the threads (a server shutting down; an
        app served again, as tests do, makes new ones)."""
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True)
