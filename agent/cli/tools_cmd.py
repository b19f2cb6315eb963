"""``memvisor tools list``: every tool the model is offered, with its schema."""

from __future__ import annotations

import click

from memvisor.tools.builtin import builtin_registry

from .common import common_options, emit_json, invocation


@click.group("tools")
def tools() -> None:
    """Inspect the tools offered to the model."""


@tools.command("list")
@common_options
def list_tools(data_dir: str | None, user: str | None, as_json: bool) -> None:
    """List built-in and plugin tools (entry point group memvisor.tools)."""
    invocation(data_dir, user, as_json)
    specs = builtin_registry().specs()
    if as_json:
        emit_json({"tools": specs})
        return
    for spec in specs:
        fn = spec["function"]
        params = fn["parameters"].get("properties", {})
        required = set(fn["parameters"].get("required", []))
        args = ", ".join(p if p in required else f"{p}?" for p in params)
        click.echo(f"{fn['name']}({args})")
        click.echo(f"    {fn['description'].splitlines()[0]}")
