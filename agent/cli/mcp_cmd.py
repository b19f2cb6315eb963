"""``memvisor mcp``: serve one user's memory to an MCP client (stdio, or streamable HTTP)."""

from __future__ import annotations

import click

from memvisor.errors import UserError

from .common import check_listen, data_dir_option, invocation, open_memory


def parse_host_port(value: str) -> tuple[str, int]:
    host, sep, port = value.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise UserError(f"--http takes HOST:PORT (e.g. 127.0.0.1:8765), got {value!r}")
    return host.strip("[]"), int(port)


@click.command("mcp")
@data_dir_option
@click.option("--user", default=None, help="The one user whose memory this server serves.")
@click.option(
    "--http",
    "http",
    default=None,
    metavar="HOST:PORT",
    help="Serve streamable HTTP at http://HOST:PORT/mcp instead of stdio (bind 127.0.0.1 "
    "unless the network must reach it).",
)
@click.option(
    "--keys",
    is_flag=True,
    help="With --http: each connection's user is the user of the API key it sends "
    "(Authorization: Bearer mvk_…, from `memvisor keys create --user NAME`); no --user.",
)
def mcp_cmd(data_dir: str | None, user: str | None, http: str | None, keys: bool) -> None:
    """Serve memory tools (remember, save, search, context, list, edit, forget, core blocks,
    confirm) to an MCP client such as Claude Desktop, Cursor or an agent framework.

    Writes are the client model's: every one passes the write firewall (origin model) and
    cites the MCP request as its source. The server holds the data directory while it runs.
    """
    from memvisor.agent.servers.mcp import build_server  # the SDK loads only for this command

    address = parse_host_port(http) if http else None
    if keys and address is None:
        raise UserError("--keys needs --http HOST:PORT: over stdio the one user is --user")
    if keys and user is not None:
        raise UserError("--keys takes each connection's user from its API key: drop --user")
    inv = invocation(data_dir, user, False)
    if address is not None:
        check_listen(*address, option="--http HOST:PORT")
    with open_memory(inv) as memory:
        if keys and address is not None:
            host = f"[{address[0]}]" if ":" in address[0] else address[0]
            issuer = f"http://{host}:{address[1]}"
            server = build_server(memory, keys_issuer=issuer)
        else:
            server = build_server(memory, user=inv.user_id)
        if address is None:
            server.run("stdio")
        else:
            server.run("streamable-http", host=address[0], port=address[1])
