"""``memvisor health``: freshness, page-in hit rate, quarantine and amnesia alerts for a user."""

from __future__ import annotations

from typing import Any

import click

from memvisor.errors import UserError
from memvisor.evals.health import health_report, prometheus_text

from .common import common_options, emit_json, invocation, open_store, plural


@click.command("health")
@common_options
@click.option(
    "--prometheus",
    is_flag=True,
    help="Print the figures in Prometheus text exposition format.",
)
def health(data_dir: str | None, user: str | None, as_json: bool, prometheus: bool) -> None:
    """Show memory health: freshness, page-in hit rate, quarantine, archive, expired facts,
    amnesia alerts."""
    if as_json and prometheus:
        raise UserError("--json and --prometheus print different formats; pass only one")
    inv = invocation(data_dir, user, as_json)
    with open_store(inv, read_only=True) as store:
        report = health_report(store, user_id=inv.user_id)
    if as_json:
        emit_json(report)
    elif prometheus:
        click.echo(prometheus_text(report), nl=False)
    else:
        click.echo(format_health(report))


def _pct(ratio: float | None) -> str:
    return "n/a" if ratio is None else f"{ratio:.1%}"


def _passages(fresh: dict[str, Any], facts: dict[str, int]) -> str:
    archived = fresh["archived"] - facts.get("archived", 0)
    return f"{fresh['passages']} active" + (f", {archived} archived" if archived else "")


def format_health(report: dict[str, Any]) -> str:
    fresh, page_in, amnesia = report["freshness"], report["page_in"], report["amnesia"]
    events = report["events"]
    statuses = ", ".join(f"{n} {s}" for s, n in report["facts"].items() if n)
    lines = [
        f"memory health for user {report['user_id']} (as of {report['as_of']})",
        f"  freshness      {_pct(fresh['ratio'])} active "
        f"(facts: {statuses or 'none'}; passages: {_passages(fresh, report['facts'])})",
        f"  page-in hits   {_pct(page_in['hit_rate'])} "
        f"({page_in['hits']} of {page_in['paged_in']} paged-in items cited or confirmed; "
        f"{page_in['cited']} cited, {page_in['confirmed']} confirmed)",
        f"  quarantine     {report['quarantine_held']} held",
        f"  archived       {plural(report['archived'], 'record')} kept out of page-in and "
        "search (memvisor memory list --archived)",
        f"  expired        {plural(len(report['expired']), 'fact')}, never paged in",
    ]
    for fact in report["expired"]:
        lines.append(
            f"    {fact['id']}  {fact['subject']} | {fact['predicate']} | {fact['object']}  "
            f"(until {fact['valid_until']})"
        )
    lines.append(f"  amnesia        {plural(amnesia['count'], 'alert')}")
    for alert in amnesia["alerts"]:
        lines.append(f"    {alert['ts']}  {alert['trace_id']}  {alert['answer']}")
    kinds = ", ".join(f"{k} {n}" for k, n in events["by_kind"].items())
    lines.append(
        f"  events         {events['count']} (last activity {events['last_activity'] or 'never'})"
    )
    if kinds:
        lines.append(f"    {kinds}")
    records = ", ".join(f"{k} {n}" for k, n in report["records"].items())
    lines.append(f"  records        {records}")
    return "\n".join(lines)
