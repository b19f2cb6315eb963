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
# Loguru's levels by the logger's methods that log at them.
_METHOD_LEVELS = {
    "trace": 5,
    "debug": 10,
    "info": 20,
    "success": 25,
    "warning": 30,
    "error": 40,
    "exception": 40,
    "critical": 50,
}
_LEVELS = {name.upper(): level for name, level in _METHOD_LEVELS.items() if name != "exception"}
_shown_from = [0]  # the lowest level a waiting set-up's sinks show


def on_first_use(setup: Callable[[Logger], None], *, shows_from: str = "TRACE") -> None:
    """Run ``setup`` on loguru's logger before anything is logged through ``logger``: now if
    loguru is loaded already, else when the first attribute of ``logger`` is asked for.
    ``shows_from`` is the lowest level of the sinks ``setup`` leaves (it removes any others):
    until loguru loads, a message below it is dropped without loading loguru, as loguru
    itself would drop it (a search's debug lines, at the default WARNING)."""
    with _LOCK:
        if "loguru" not in sys.modules:
            _shown_from[0] = _LEVELS[shows_from] if not _waiting else 0
            _waiting.append(setup)
            return
    setup(_loaded())


def _loaded() -> Logger:
    from loguru import logger as loaded

    return loaded


class _OnFirstUse:
    """Loguru's logger, imported when first used."""

    def __getattr__(self, name: str) -> Any:
        if _waiting and _METHOD_LEVELS.get(name, 100) < _shown_from[0]:
            return _drop
        if _waiting:  # cleared only once every set-up ran: no thread logs before them
            with _LOCK:
                for setup in _waiting:
                    setup(_loaded())
                _waiting.clear()
        return getattr(_loaded(), name)


def _drop(*_args: Any, **_kwargs: Any) -> None:
    """A message no sink would show."""


logger: Logger = _OnFirstUse()  # type: ignore[assignment]
