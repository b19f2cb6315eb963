"""``memvisor memory prune`` and ``memvisor memory restore`` (attached to the ``memory`` group),
and the archive listing of ``memvisor memory list --archived``.

A prune archives what went untouched (and with ``--unused`` unused) for a while: the records
stay, they only stop paging in and showing in search until restored. It always reports what
it archived, or that there was nothing to archive.
"""

from __future__ import annotations

import re
import shutil
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import click

from memvisor.errors import NotFound
from memvisor.storage import PruneReport, Store
from memvisor.storage.archive import snippet as archive_snippet
from memvisor.storage.text import snippet

from .common import Invocation, common_options, emit_json, invocation, open_store, plural
from .progress import working

_UNITS = {
    "h": timedelta(hours=1),
    "d": timedelta(days=1),
    "w": timedelta(weeks=1),
    "m": timedelta(days=30),
    "y": timedelta(days=365),
}
_DURATION = re.compile(r"([0-9]{1,6})([hdwmy])")
_LONGEST = timedelta(days=365 * 1000)
ARCHIVABLE = ("fct_", "psg_", "eps_")


@dataclass(frozen=True)
class Duration:
    text: str
    delta: timedelta


def parse_duration(text: str) -> Duration:
    """``36h``, ``90d``, ``12w``, ``6m`` (30-day months), ``1y`` (365 days); else ``ValueError``."""
    flat = text.strip().lower()
    match = _DURATION.fullmatch(flat)
    if not match or int(match.group(1)) == 0:
        raise ValueError(
            f"{text!r} is not a duration: use a positive whole number and a unit, "
            "e.g. 36h, 90d, 12w, 6m (30-day months) or 1y (365 days)"
        )
    delta = int(match.group(1)) * _UNITS[match.group(2)]
    if delta > _LONGEST:
        raise ValueError(f"{text!r} is too long: at most 1000y")
    return Duration(flat, delta)


class DurationType(click.ParamType):
    name = "duration"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, Duration):
            return value
        try:
            return parse_duration(str(value))
        except ValueError as exc:
            self.fail(str(exc), param, ctx)


@click.command("prune")
@common_options
@click.option(
    "--older-than",
    "older_than",
    type=DurationType(),
    required=True,
    help="Archive what was neither created nor confirmed within this long: 36h, 90d, 12w, "
    "6m (30-day months), 1y (365 days).",
)
@click.option(
    "--unused", is_flag=True, help="Only what was not paged in or cited within it either."
)
@click.option("--dry-run", is_flag=True, help="Show what would be archived; write nothing.")
def prune_cmd(
    data_dir: str | None,
    user: str | None,
    as_json: bool,
    older_than: Duration,
    unused: bool,
    dry_run: bool,
) -> None:
    """Archive old facts, passages and episodes out of page-in and search (restorable).

    Raw turns, core blocks, recipes and tasks are never archived.
    """
    inv = invocation(data_dir, user, as_json)
    with open_store(inv) as store, working("pruning…"):
        report = store.prune(
            user_id=inv.user_id,
            older_than=older_than.delta,
            unused=unused,
            trace_id=inv.trace_id,
            dry_run=dry_run,
        )
    if as_json:
        emit_json(
            {
                "archived": [item.model_dump(mode="json") for item in report.archived],
                "counts": report.counts,
                "dry_run": dry_run,
                "older_than": older_than.text,
                "unused": unused,
                "trace_id": inv.trace_id,
            }
        )
        return
    _print_report(report, older_than.text)


def _print_report(report: PruneReport, older_than: str) -> None:
    what = f"{'unused and ' if report.unused else ''}untouched for over {older_than}"
    if not report.archived:
        click.echo(f"nothing to prune: no fact, passage or episode of {report.user_id} is {what}")
        return
    verb = "would archive" if report.dry_run else "archived"
    click.echo(f"{verb} ({what}):")
    width = shutil.get_terminal_size((100, 24)).columns
    for item in report.archived:
        used = item.last_used_at.date().isoformat() if item.last_used_at else "never"
        row = f"  {item.id}  {item.kind:<7}  created {item.created_at.date()}  used {used:<10}  "
        click.echo(row + snippet(item.text, max(20, width - len(row) - 1)))
    totals = ", ".join(plural(n, kind) for kind, n in report.counts.items())
    if report.dry_run:
        click.echo(f"dry run: would archive {len(report.archived)} ({totals}); nothing written")
    else:
        click.echo(
            f"archived {len(report.archived)} ({totals}); "
            "bring one back with `memvisor memory restore ID`"
        )


@click.command("restore")
@click.argument("record_ids", nargs=-1, required=True)
@common_options
def restore_cmd(
    record_ids: tuple[str, ...], data_dir: str | None, user: str | None, as_json: bool
) -> None:
    """Bring archived records back to page-in and search (all or none)."""
    inv = invocation(data_dir, user, as_json)
    with open_store(inv) as store:
        rows = store.restore(list(record_ids), user_id=inv.user_id, trace_id=inv.trace_id)
    if as_json:
        emit_json(
            {
                "restored": [{"id": r.item_id, "kind": r.kind} for r in rows],
                "trace_id": inv.trace_id,
            }
        )
        return
    for row in rows:
        click.echo(f"restored {row.item_id} ({row.kind})")


def archived_records(store: Store, user_id: str) -> list[dict[str, Any]]:
    """The user's archive, each row with a snippet of its record."""
    return [
        {
            "id": row.item_id,
            "kind": row.kind,
            "archived_at": row.model_dump(mode="json")["archived_at"],
            "reason": row.reason,
            "trace_id": row.trace_id,
            "text": archive_snippet(_text(store, row.kind, row.item_id, user_id)),
        }
        for row in store.archive.list(user_id=user_id)
    ]


def _text(store: Store, kind: str, item_id: str, user_id: str) -> str:
    try:
        if kind == "fact":
            return store.facts.get(item_id, user_id=user_id).text()
        if kind == "passage":
            return store.passages.get(item_id, user_id=user_id).text
        return store.episodes.get(item_id, user_id=user_id).summary
    except NotFound:
        return ""


def list_archived(inv: Invocation) -> None:
    """``memvisor memory list --archived``."""
    with open_store(inv, read_only=True) as store:
        rows = archived_records(store, inv.user_id)
    if inv.as_json:
        emit_json({"user_id": inv.user_id, "archived": rows})
        return
    click.echo(f"archived ({len(rows)}):")
    for row in rows:
        click.echo(f"  {row['id']}  {row['kind']}  {row['archived_at']}  {row['text']}")
    if rows:
        click.echo("bring one back with `memvisor memory restore ID`")


def archive_note(store: Store, record_id: str, user_id: str) -> dict[str, Any] | None:
    """``memvisor memory show``: when and why the record was archived, or None."""
    row = store.archive.get(record_id, user_id=user_id)
    if row is None:
        return None
    return row.model_dump(mode="json", include={"archived_at", "reason", "trace_id"})
