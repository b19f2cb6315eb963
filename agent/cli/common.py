"""Options every command shares, store opening and output helpers for the CLI."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from memvisor.errors import StoreLocked, StoreUnwritable, UserError
from memvisor.storage import Store, resolve_data_dir
from memvisor.storage.ids import new_id
from memvisor.storage.users import require_user

from .group import CliState, emit_error

if TYPE_CHECKING:
    from memvisor.agent.memory.api import Memory

F = TypeVar("F", bound=Callable[..., Any])


def data_dir_option(fn: F) -> F:
    """``--data-dir`` after the command's own name."""
    return click.option(
        "--data-dir",
        type=click.Path(file_okay=False),
        default=None,
        help="Data directory (overrides the global --data-dir).",
    )(fn)


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


def invocation(data_dir: str | None, user: str | None, as_json: bool) -> Invocation:
    state = click.get_current_context().find_object(CliState) or CliState()
    directory = _given("--data-dir", data_dir, state.data_dir, "MEMVISOR_HOME")
    resolved = resolve_data_dir(directory)
    user_id = _given("--user", user, state.user, "MEMVISOR_USER") or "default"
    require_user(user_id)
    return Invocation(
        data_dir=str(resolved), user_id=user_id, as_json=as_json, trace_id=new_id("trc")
    )


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
    try:
        store = Store.open(inv.data_dir, embedder=chosen, read_only=read_only)
    except (StoreLocked, StoreUnwritable):
        if not read_if_held:
            raise
        store = Store.open(inv.data_dir, embedder=chosen, read_only=True)
    try:
        yield store
    finally:
        store.close()


@contextmanager
def open_memory(inv: Invocation) -> Iterator[Memory]:
    """The guarded memory API over the invocation's store: every CLI write goes through it."""
    from memvisor.agent.memory.api import Memory

    memory = Memory.open(inv.data_dir, embedder=os.environ.get("MEMVISOR_EMBEDDER"))
    try:
        yield memory
    finally:
        memory.close()


def output_path(value: str, *, option: str, overwrite: bool = True) -> Path:
    """A file the command will write, checked before any work is done (so that results are
    never computed only to be lost on a bad path)."""
    path = Path(value).expanduser()
    if path.is_dir():
        raise UserError(f"{option} {value} is a directory: name a file")
    if path.exists() and not overwrite:
        raise UserError(f"{option} {value} exists: pass --force to overwrite it")
    parent = path.parent
    if not parent.is_dir():
        raise UserError(f"{option} {value}: the directory {parent} does not exist")
    if not os.access(parent, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise UserError(f"{option} {value}: no permission to write there")
    return path


def write_report(write: Callable[[], Any], *, option: str, path: Path) -> None:
    """Write a report after the results are out; a failure is one line and exit 1."""
    try:
        write()
    except OSError as exc:
        emit_error(f"{option} {path}: {exc.strerror or exc} (the results above are complete)")
        raise SystemExit(1) from None


def emit_json(data: Any) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=2, default=str))


def stderr(message: str) -> None:
    print(message, file=sys.stderr)
