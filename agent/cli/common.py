"""Options every command shares, store opening and output helpers for the CLI."""

from __future__ import annotations

import json
import os
import shutil
import socket
import sys
import unicodedata
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from memvisor.errors import StorageError, StoreLocked, StoreUnwritable, UserError
from memvisor.storage import Store, resolve_data_dir
from memvisor.storage.backends import EMBEDDED
from memvisor.storage.ids import new_id
from memvisor.storage.users import require_user

from .group import CliState, emit_error

if TYPE_CHECKING:
    from memvisor.agent.memory.api import Memory

F = TypeVar("F", bound=Callable[..., Any])


STORE_META = "memvisor.store"  # where the command's --store waits for ``invocation``


def data_dir_option(fn: F) -> F:
    """``--data-dir`` and ``--store`` after the command's own name."""
    fn = click.option(
        "--store",
        default=None,
        expose_value=False,  # read by ``invocation``: no command spells it out
        callback=_keep_store,
        help="Keep the records in PostgreSQL: a postgresql:// URL (default: $MEMVISOR_STORE; "
        "'embedded' for the data directory's own). The data directory keeps the search "
        "index and sealed.key.",
    )(fn)
    return click.option(
        "--data-dir",
        type=click.Path(file_okay=False),
        default=None,
        help="Data directory (overrides the global --data-dir).",
    )(fn)


def _keep_store(ctx: click.Context, _param: click.Parameter, value: str | None) -> None:
    if value is not None:
        ctx.meta[STORE_META] = value


def common_options(fn: F) -> F:
    """``--data-dir``, ``--user`` and ``--json`` after the command's own name."""
    fn = click.option("--json", "as_json", is_flag=True, help="Print JSON only on stdout.")(fn)
    fn = click.option("--user", default=None, help="User id (overrides the global --user).")(fn)
    return data_dir_option(fn)


@dataclass
class Invocation:
    data_dir: str
    user_id: str
    as_json: bool
    trace_id: str
    store: str | None = None  # a postgresql:// URL, or None for the embedded store
    store_from: str = "--store"  # where it was given, for messages


def invocation(data_dir: str | None, user: str | None, as_json: bool) -> Invocation:
    state = click.get_current_context().find_object(CliState) or CliState()
    directory = _given("--data-dir", data_dir, state.data_dir, "MEMVISOR_HOME")
    resolved = resolve_data_dir(directory)
    given = _given("--user", user, state.user, "MEMVISOR_USER") or "default"
    # One spelling per name: a decomposed "zoë" (as some terminals send it) is the same user.
    user_id = require_user(unicodedata.normalize("NFC", given))
    store, store_from = _store(state)
    return Invocation(
        data_dir=str(resolved),
        user_id=user_id,
        as_json=as_json,
        trace_id=new_id("trc"),
        store=store,
        store_from=store_from,
    )


def _store(state: CliState) -> tuple[str | None, str]:
    """The record store asked for: the command's ``--store``, the global one, then
    ``$MEMVISOR_STORE``; checked here, so a bad one is one line naming where it came from.
    None is the embedded store."""
    from memvisor.storage.backends import STORE_ENV, chosen_store

    own = click.get_current_context().meta.get(STORE_META)
    for value, where in (
        (own, "--store"),
        (state.store, "--store"),
        (os.environ.get(STORE_ENV), f"${STORE_ENV}"),
    ):
        if value is None:
            continue
        if not value.strip():
            raise UserError(f"{where} is empty: give a postgresql:// URL or leave it out")
        try:
            return chosen_store(value), where
        except UserError as exc:
            raise UserError(f"{where}: {exc}") from None
    return None, "--store"


def explicit_user(user: str | None) -> str | None:
    """The command's or the global ``--user`` if one was typed (not the environment's or the
    default): for commands whose data names its own user, such as a transcript."""
    state = click.get_current_context().find_object(CliState) or CliState()
    given = user if user is not None else state.user
    return None if given is None else require_user(unicodedata.normalize("NFC", given))


def _given(option: str, own: str | None, global_: str | None, env: str) -> str | None:
    """The first value set of the command's option, the global one and the environment;
    an empty one is an error, never a silent fall back to the default."""
    for value, where in ((own, option), (global_, option), (os.environ.get(env), f"${env}")):
        if value is not None:
            if not value.strip():
                raise UserError(f"{where} is empty: give a value or leave it out")
            return value
    return None


@contextmanager
def open_store(
    inv: Invocation,
    *,
    embedder: str | None = None,
    read_only: bool = False,
    read_if_held: bool = False,
) -> Iterator[Store]:
    """The invocation's store. A command that only reads passes ``read_only``: it then runs
    beside other readers and on a directory it may not write. ``read_if_held`` (search, which
    brings the index up to date when it may) opens for writing, and for reading only when
    another process holds the directory or it may not be written."""
    chosen = embedder or os.environ.get("MEMVISOR_EMBEDDER")
    where = inv.store or EMBEDDED
    try:
        with _naming_store(inv):
            store = Store.open(inv.data_dir, embedder=chosen, read_only=read_only, store=where)
    except (StoreLocked, StoreUnwritable):
        if not read_if_held:
            raise
        with _naming_store(inv):
            store = Store.open(inv.data_dir, embedder=chosen, read_only=True, store=where)
    try:
        yield store
    finally:
        store.close()


@contextmanager
def open_memory(inv: Invocation) -> Iterator[Memory]:
    """The guarded memory API over the invocation's store: every CLI write goes through it."""
    from memvisor.agent.memory.api import Memory

    with _naming_store(inv):
        memory = Memory.open(
            inv.data_dir,
            embedder=os.environ.get("MEMVISOR_EMBEDDER"),
            store=inv.store or EMBEDDED,
        )
    try:
        yield memory
    finally:
        memory.close()


@contextmanager
def _naming_store(inv: Invocation) -> Iterator[None]:
    """A PostgreSQL store that cannot be opened, as one line naming the option it came from
    (the message holds its address without the password)."""
    try:
        yield
    except (StoreLocked, StoreUnwritable):
        raise
    except StorageError as exc:
        if inv.store is None:
            raise
        raise StorageError(f"{inv.store_from}: {exc}") from exc


def output_path(value: str, *, option: str, overwrite: bool = True) -> Path:
    """A file the command will write, checked before any work is done (so that results are
    never computed only to be lost on a bad path).

    The check opens the file for writing rather than asking ``os.access``, which says yes to
    root on a read-only mount; a file the check created is removed again.
    """
    path = Path(value).expanduser()
    if path.is_dir():
        raise UserError(f"{option} {value} is a directory: name a file")
    existed = path.exists()
    if existed and not overwrite:
        raise UserError(f"{option} {value} exists: pass --force to overwrite it")
    if not path.parent.is_dir():
        raise UserError(f"{option} {value}: the directory {path.parent} does not exist")
    try:
        with path.open("a", encoding="utf-8"):
            pass
    except OSError as exc:
        raise UserError(f"{option} {value}: cannot write there ({exc.strerror or exc})") from None
    if not existed:
        path.unlink(missing_ok=True)
    return path


def write_report(
    write: Callable[[], Any], *, option: str, path: Path, document: Any, keep: Path
) -> None:
    """Write a report after the results are out. If that fails, the results are kept as
    JSON in ``keep`` first, so that nothing computed is lost; then one line and exit 1."""
    try:
        write()
    except OSError as exc:
        reason = exc.strerror or str(exc)
        try:
            keep.parent.mkdir(parents=True, exist_ok=True)
            keep.write_text(json.dumps(document, ensure_ascii=False, indent=2, default=str))
            kept = f"the results are kept as JSON in {keep}"
        except OSError:
            kept = "the results above are complete"
        emit_error(f"{option} {path}: {reason} ({kept})")
        raise SystemExit(1) from None


def check_listen(host: str, port: int, *, option: str) -> None:
    """Refuse, in one line, an address a server could not listen on (a port in use, an
    address not this machine's): uvicorn would log its own error and exit 3, the code of a
    data directory in use."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds
            probe.bind(address)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise UserError(
            f"cannot listen on {host}:{port}: {reason}; pass another {option}"
        ) from None


def program() -> str:
    """The command as the user ran it (``.venv/bin/memvisor`` when it is not on PATH), for
    a printed next step that works when pasted."""
    invoked = sys.argv[0] if sys.argv else ""
    if Path(invoked).name != "memvisor":
        return "memvisor"
    on_path = shutil.which("memvisor")
    return "memvisor" if on_path and Path(on_path).resolve() == Path(invoked).resolve() else invoked


def plural(n: int, noun: str) -> str:
    """``1 crash``, ``2 crashes``, ``0 tool calls``."""
    if n == 1:
        return f"{n} {noun}"
    return f"{n} {noun}{'es' if noun.endswith(('s', 'sh', 'ch', 'x')) else 's'}"


def emit_json(data: Any) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=2, default=str))


def stderr(message: str) -> None:
    print(message, file=sys.stderr)
