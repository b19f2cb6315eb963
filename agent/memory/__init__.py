"""The one guarded memory API: every write of every door passes ``Memory``.

Names load lazily: the firewall imports ``writes`` from here while ``Memory`` imports the
firewall, so importing this package must not import ``api`` up front.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from memvisor.lazy import lazy_exports

if TYPE_CHECKING:
    from .api import Memory, WriteOutcome

__all__ = ["Memory", "WriteOutcome"]

_LAZY = {"Memory": ".api", "WriteOutcome": ".api"}


__getattr__ = lazy_exports(__name__, _LAZY)
