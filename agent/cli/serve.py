"""``memvisor serve`` (the REST API) and ``memvisor keys`` (its API keys)."""

from __future__ import annotations

import click

from memvisor.agent.models.names import model_from_name
from memvisor.errors import UserError

from .common import (
    check_listen,
    common_options,
    data_dir_option,
    emit_json,
    invocation,
    open_memory,
    open_store,
)


@click.command("serve")
@data_dir_option
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to bind; only loopback unless you name another.",
)
@click.option(
    "--port",
    type=click.IntRange(1, 65535),
    default=8077,
    show_default=True,
    help="TCP port, 1-65535.",
)
@click.option(
    "--model",
    "model_name",
    default=None,
    help="For /v1/chat: ollama:NAME, openai:NAME or replay:FILE (without it /v1/chat is 503).",
)
@click.option("--base-url", default=None, help="An openai: model's server (or $OPENAI_BASE_URL).")
@click.option("--num-ctx", type=click.IntRange(256), default=None, help="Context window for chat.")
def serve_cmd(
    data_dir: str | None,
    host: str,
    port: int,
    model_name: str | None,
    base_url: str | None,
    num_ctx: int | None,
) -> None:
    """Serve the memory API over HTTP: /v1/memories, /v1/search, /v1/context, /v1/chat,
    /v1/quarantine, /v1/trace, /v1/health and /metrics (OpenAPI docs at /docs).

    Every route but /v1/health needs a key (`memvisor keys create --user NAME`) sent as
    `Authorization: Bearer KEY`; a key reads and writes its own user's memory only. On the
    embedded store the server holds the data directory while it runs; with --store
    postgresql://… any number of servers, on any machines, serve one store (give each a
    copy of the sealed-secret master key: see README).
    """
    import uvicorn  # the web stack loads only for this command

    from memvisor.agent.servers.rest import create_app

    inv = invocation(data_dir, None, False)
    check_listen(host, port, option="--host or --port")
    with open_memory(inv) as memory:
        if not memory.store.api_keys.list():
            click.echo(
                "no API keys yet: every request will get 401; create one with "
                f"`memvisor keys create --user NAME --data-dir {inv.data_dir}`",
                err=True,
            )
        model = (
            model_from_name(model_name, num_ctx=num_ctx, base_url=base_url) if model_name else None
        )
        app = create_app(memory, model=model, num_ctx=num_ctx)
        uvicorn.run(app, host=host, port=port, log_level="warning")


@click.group("keys")
def keys_group() -> None:
    """API keys of `memvisor serve`: each bound to one user, stored hashed."""


@keys_group.command("create")
@common_options
@click.option("--name", default="", help="A label for the key, e.g. the app that uses it.")
def keys_create(data_dir: str | None, user: str | None, as_json: bool, name: str) -> None:
    """Create a key for --user; it is printed once and cannot be shown again."""
    inv = invocation(data_dir, user, as_json)
    with open_store(inv) as store:
        key, secret = store.api_keys.create(user_id=inv.user_id, name=name)
    if as_json:
        emit_json({**key.model_dump(mode="json"), "key": secret})
    else:
        click.echo(secret)
        click.echo(f"key {key.id} for user {key.user_id}: keep it, it is not shown again", err=True)


@keys_group.command("list")
@common_options
def keys_list(data_dir: str | None, user: str | None, as_json: bool) -> None:
    """The keys of --user (never the keys themselves)."""
    inv = invocation(data_dir, user, as_json)
    with open_store(inv, read_only=True) as store:
        keys = store.api_keys.list(user_id=inv.user_id)
    if as_json:
        emit_json({"keys": [k.model_dump(mode="json") for k in keys]})
        return
    for k in keys:
        state = f"revoked {k.revoked_at:%Y-%m-%d}" if k.revoked_at else "live"
        click.echo(f"{k.id}  {k.user_id}  {state}  {k.name}")
    if not keys:
        click.echo(f"no keys for {inv.user_id}")


@keys_group.command("revoke")
@click.argument("key_id")
@common_options
def keys_revoke(key_id: str, data_dir: str | None, user: str | None, as_json: bool) -> None:
    """Revoke a key of --user; requests with it get 401 from then on."""
    inv = invocation(data_dir, user, as_json)
    with open_store(inv) as store:
        if key_id not in {k.id for k in store.api_keys.list(user_id=inv.user_id)}:
            raise UserError(f"no key {key_id!r} for user {inv.user_id!r}")
        key = store.api_keys.revoke(key_id)
    if as_json:
        emit_json(key.model_dump(mode="json"))
    else:
        click.echo(f"revoked {key.id}")
