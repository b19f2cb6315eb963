"""The logger Memvisor logs through: loguru's, imported when something first logs.

Importing loguru costs about 75 ms (it imports asyncio and multiprocessing), which every
``memvisor memory list`` paid at start-up though it logs nothing. ``logger`` stands for
loguru's ``logger``: the first attribute asked of it imports loguru, runs the set-up the
program gave ``on_first_use`` (the CLI's sink and level), and hands over.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from loguru import Logger

_LOCK = threading.Lock()
_waiting: list[Callable[[Logger], None]] = []  # set-ups for when loguru loads


def on_first_use(setup: Callable[[Logger], None]) -> None:
    """Run ``setup`` on loguru's logger before anything is logged through ``logger``: now if
    loguru is loaded already, else when the first attribute of ``logger`` is asked for."""
    with _LOCK:
        if "loguru" not in sys.modules:
            _waiting.append(setup)
            return
    setup(_loaded())


def _loaded() -> Logger:
    from loguru import logger as loaded

    return loaded


class _OnFirstUse:
    """Loguru's logger, imported when first used."""

    def __getattr__(self, name: str) -> Any:
        if _waiting:  # cleared only once every set-up ran: no thread logs before them
            with _LOCK:
                for setup in _waiting:
                    setup(_loaded())
                _waiting.clear()
        return getattr(_loaded(), name)


logger: Logger = _OnFirstUse()  # type: ignore[assignment]
