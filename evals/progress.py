"""The progress callback every long run takes: ``progress(stage, done, total)``.

Replay, LoCoMo, the benchmarks and chaos runs call it as they go; the CLI passes one that
draws bars (``agent/cli/progress.py``), a library user any function of that shape.
"""

from __future__ import annotations

from collections.abc import Callable

ProgressFn = Callable[[str, int, int], None]
