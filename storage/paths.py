"""Where a user's data lives: ``--data-dir`` > ``MEMVISOR_HOME`` > the platform data dir."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

import platformdirs


def resolve_data_dir(
    explicit: str | os.PathLike[str] | None = None, *, env: Mapping[str, str] | None = None
) -> Path:
    """Never /tmp by default: Mem0 lost users' data that way."""
    environ = os.environ if env is None else env
    if explicit:
        return Path(explicit).expanduser().resolve()
    if environ.get("MEMVISOR_HOME"):
        return Path(environ["MEMVISOR_HOME"]).expanduser().resolve()
    return Path(platformdirs.user_data_dir("memvisor", appauthor=False))


def cache_dir() -> Path:
    """Where derived files (the rewritten embedding model, compiled patterns) are kept:
    ``$MEMVISOR_CACHE_DIR`` or the user's cache directory."""
    configured = os.environ.get("MEMVISOR_CACHE_DIR")
    if configured:
        return Path(configured)
    return Path(platformdirs.user_cache_dir("memvisor", appauthor=False))
