"""Hand memory that native code freed back to the system (glibc's ``malloc_trim``).

LanceDB's scans run on its own threads, each with a glibc malloc arena, and glibc keeps what
they free for reuse instead of returning it: opening a 100k-row table (one read of every
row, 23 MB of data) left the process 140 MB larger, 68 MB of it freed but still resident,
and building a vector graph reads every vector of its user (150 MB at 100k) the same way.
After such one-off reads the process trims its heaps (a few milliseconds at ~500 MB); a
steady search never calls this. Elsewhere than glibc (macOS, Windows, musl) it does nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import sys
from collections.abc import Callable


def release_freed() -> None:
    """Return the freed pages of every malloc arena to the system, where glibc can."""
    if (trim := _malloc_trim()) is not None:
        trim(0)


@functools.cache
def _malloc_trim() -> Callable[[int], int] | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        trim: Callable[[int], int] = libc.malloc_trim  # absent from musl
    except (OSError, AttributeError):
        return None
    return trim
