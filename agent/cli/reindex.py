"""``memvisor memory reindex`` (attached to the ``memory`` group): rebuild the search index.

The index is derived from the records and shared by all users; after the embedding model
changes it refuses searches until this rebuilds it with the new model.
"""

from __future__ import annotations

import click

from .common import common_options, emit_json, invocation, open_store
from .progress import working


@click.command("reindex")
@common_options
@click.option(
    "--embedder",
    default=None,
    metavar="NAME",
    help="Embedding model to rebuild with: minilm, hash or ollama:MODEL "
    "(default: $MEMVISOR_EMBEDDER, else minilm).",
)
def reindex_cmd(
    data_dir: str | None, user: str | None, as_json: bool, embedder: str | None
) -> None:
    """Rebuild the search index of ALL users from their records (after changing the model).

    The index is shared, so every user's rows are rebuilt whatever --user says. Records
    are only read; archived ones stay out. The new index is swapped in only when complete:
    a failure leaves the old one. Later commands must use the same embedder (set
    MEMVISOR_EMBEDDER to it). A damaged index needs no command: a search rebuilds it.
    """
    inv = invocation(data_dir, user, as_json)
    with open_store(inv, embedder=embedder) as store, working("rebuilding the search index…"):
        result = store.reindex(trace_id=inv.trace_id)
    if as_json:
        emit_json(result)
        return
    items, users = result["items"], result["users"]
    click.echo(
        f"rebuilt the search index: {items} item{'' if items == 1 else 's'} "
        f"for {users} user{'' if users == 1 else 's'} with {result['model']}"
    )
