"""``memvisor firewall scan FILE`` (the write firewall, offline) and ``memvisor memory confirm ID``
(review of what the firewall held; attached to the ``memory`` group)."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

import click

from .common import common_options, emit_json, invocation, open_memory

# The firewall loads with the commands that run it: `confirm` is attached to the `memory`
# group, and `memory list` must not pay for the firewall's catalogues at start-up.
if TYPE_CHECKING:
    from memvisor.agent.guards import ScanReport


@click.group("firewall")
def firewall_group() -> None:
    """Check proposed memory writes with the write firewall."""


@firewall_group.command("scan")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document only on stdout.")
@click.option(
    "--config",
    "config_path",
    type=click.Path(dir_okay=False),
    default=None,
    help="Firewall settings (.json or .toml) overriding the defaults.",
)
def scan_cmd(file: str, as_json: bool, config_path: str | None) -> None:
    """Scan a JSONL file of proposed writes, one a line; print each verdict and a summary.

    A line: {"id", "user_id", "tool", "arguments", "source": "user|model|tool", "context":
    [{"role", "content"}...], "expect": "attack|benign" (optional)}. There is no store, so
    conflict and rate checks are skipped. Exits 1 when some lines could not be read.
    """
    from memvisor.agent.guards import FirewallConfig, scan_file

    config = FirewallConfig.load(config_path) if config_path else None
    report = scan_file(file, config=config)
    if as_json:
        emit_json(report.model_dump(mode="json"))
    else:
        _print(report)
    if report.errors:
        sys.exit(1)


def _print(report: ScanReport) -> None:
    for result in report.results:
        reasons = ", ".join(result.reasons)
        click.echo(f"{result.id:<12} {result.verdict:<10} {reasons}".rstrip())
        if result.stored is not None:
            click.echo(f"{'':<12} stored: {result.stored[:200]!r}")
    for error in report.errors:
        click.echo(f"line {error['line']}: error: {error['error']}")
    s = report.summary
    counts = ", ".join(f"{v} {s[v]}" for v in ("allow", "redact", "quarantine", "reject"))
    click.echo(f"summary: {counts} ({s['total']} writes, {s['errors']} bad lines)")
    if s.get("attacks"):
        click.echo(
            f"block rate: {s['block_rate']:.1%} ({s['attacks_blocked']}/{s['attacks']} attacks "
            "rejected or quarantined)"
        )
    if s.get("benign"):
        click.echo(
            f"false-positive rate: {s['false_positive_rate']:.1%} ({s['benign_held']}/"
            f"{s['benign']} ordinary writes held back)"
        )
    click.echo(f"secrets in clear: {s['secrets_in_clear']}")
    for category, row in s.get("by_category", {}).items():
        click.echo(f"  {category:<28} {_category_figure(row)}")
    click.echo(f"skipped (no store): {' and '.join(s['checks_skipped'])} checks")


def _category_figure(row: dict[str, Any]) -> str:
    total, held, clear = row["total"], row["held"], row["in_clear"]
    if row["expect"] == "attack":
        figure = f"{held}/{total} attacks held ({held / total:.0%})"
    elif row["expect"] == "benign":
        figure = f"{held}/{total} ordinary writes held back"
    else:
        figure = f"{total} secrets"
    return f"{figure}, {clear} secret(s) in clear" if clear else figure


@click.command("confirm")
@click.argument("item_id")
@common_options
@click.option("--reject", is_flag=True, help="Discard the held write instead of storing it.")
@click.option("--force", is_flag=True, help="Store it even though it was held as an injection.")
def confirm_cmd(
    item_id: str, data_dir: str | None, user: str | None, as_json: bool, reject: bool, force: bool
) -> None:
    """Release a quarantined write (stored, confidence raised) or discard it with --reject."""
    inv = invocation(data_dir, user, as_json)
    with open_memory(inv) as memory:
        source = memory.record_command(
            "memory confirm",
            {"id": item_id, "reject": reject},
            user_id=inv.user_id,
            trace_id=inv.trace_id,
        )
        result = memory.confirm(
            item_id,
            user_id=inv.user_id,
            trace_id=inv.trace_id,
            reject=reject,
            force=force,
            source_event_ids=[source],
        )
    if as_json:
        emit_json(result.model_dump(mode="json"))
    elif result.status == "rejected":
        click.echo(f"{result.id}  rejected: the held {result.tool} write was discarded")
    else:
        click.echo(f"{result.id}  released: {result.detail} ({result.record_id})")
