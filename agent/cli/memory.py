"""``memvisor memory``: list, show, search, add, edit, forget, reveal, history; export and
import live in ``transfer``, confirm with the firewall, prune/restore and reindex in their own
modules."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

import click

from memvisor.errors import UserError
from memvisor.storage import CoreBlock, Fact, FactWrite, Passage
from memvisor.storage.clock import parse_time
from memvisor.storage.text import snippet

from .common import (
    Invocation,
    common_options,
    emit_json,
    invocation,
    open_memory,
    open_store,
    plural,
)
from .firewall import confirm_cmd
from .prune import ARCHIVABLE, archive_note, list_archived, prune_cmd, restore_cmd
from .reindex import reindex_cmd
from .transfer import export_cmd, import_cmd

# The memory API (and with it the firewall), page-in and the search index are imported by
# the commands that use them: `memory list` and `show` read records only, and every
# `memvisor memory ...` call would otherwise pay for all of them at start-up.
if TYPE_CHECKING:
    from memvisor.agent.memory.api import WriteOutcome
    from memvisor.paging.pagein import MemoryItem
    from memvisor.storage.store import SearchKind


@click.group()
def memory() -> None:
    """Inspect and edit a user's memory."""


# How to read ``_fact_line``, printed once above a list of facts.
FACT_LEGEND = (
    "(id  [status vVERSION c=CONFIDENCE 0-1 xTIMES-CONFIRMED]  subject | predicate | object)"
)


def _fact_line(fact: Fact) -> str:
    until = f" until {fact.valid_until.date()}" if fact.valid_until else ""
    return (
        f"{fact.id}  [{fact.status} v{fact.version} c={fact.confidence:.2f} "
        f"x{fact.confirmations}]  {fact.subject} | {fact.predicate} | {fact.object}{until}"
    )


@memory.command("list")
@common_options
@click.option("--quarantine", is_flag=True, help="List writes held in quarantine.")
@click.option("--archived", is_flag=True, help="List archived records (see `memory prune`).")
@click.option("--all", "include_all", is_flag=True, help="Include superseded and expired facts.")
@click.option("--as-of", default=None, help="Facts valid at this UTC time (ISO-8601).")
def list_cmd(
    data_dir: str | None,
    user: str | None,
    as_json: bool,
    quarantine: bool,
    archived: bool,
    include_all: bool,
    as_of: str | None,
) -> None:
    """List facts, core blocks and passages (or the quarantine, or the archive)."""
    inv = invocation(data_dir, user, as_json)
    if archived and quarantine:
        raise UserError("--archived and --quarantine list different records; pass only one")
    if archived:
        list_archived(inv)
        return
    with open_store(inv, read_only=True) as store:
        if quarantine:
            items = store.quarantine.list(user_id=inv.user_id)
            if as_json:
                emit_json({"quarantine": [i.model_dump(mode="json") for i in items]})
                return
            click.echo(f"quarantine ({len(items)}):")
            for item in items:
                sure = "" if item.confidence is None else f"  c={item.confidence:.2f}"
                held = snippet(json.dumps(item.arguments, ensure_ascii=False), 160)
                click.echo(
                    f"  {item.id}  {item.tool}  {held}{sure}  reasons: {', '.join(item.reasons)}"
                )
            if items:
                click.echo("confirm one with `memvisor memory confirm ID` (or --reject to discard)")
            return
        when = parse_time(as_of) if as_of else None
        facts = store.facts.list(
            user_id=inv.user_id, as_of=when, include_inactive=include_all, include_archived=False
        )
        blocks = store.core.list(user_id=inv.user_id)
        passages = store.passages.list(user_id=inv.user_id)
        held = store.quarantine.list(user_id=inv.user_id)
        hidden = len(store.archive.list(user_id=inv.user_id))
    if as_json:
        emit_json(
            {
                "user_id": inv.user_id,
                "facts": [f.model_dump(mode="json") for f in facts],
                "core_blocks": [b.model_dump(mode="json") for b in blocks],
                "passages": [p.model_dump(mode="json") for p in passages],
                "quarantine_held": len(held),
                "archived": hidden,
            }
        )
        return
    # One write, not one per record: click.echo flushes each call (5,000 lines: ~40 ms).
    lines = [f"core blocks ({len(blocks)}):"]
    for block in blocks:
        lines.append(
            f"  {block.label} (v{block.version}, limit {block.token_limit} tokens): "
            f"{snippet(block.value, 200) or '(empty)'}"
        )
    lines.append(f"facts ({len(facts)}):")
    if facts:
        lines.append(f"  {FACT_LEGEND}")
    lines.extend(f"  {_fact_line(fact)}" for fact in facts)
    lines.append(f"passages ({len(passages)}):")
    lines.extend(f"  {passage.id}  {snippet(passage.text, 120)}" for passage in passages)
    if held:
        lines.append(f"quarantine: {len(held)} held (memvisor memory list --quarantine)")
    if hidden:
        lines.append(f"archived: {hidden} hidden (memvisor memory list --archived)")
    click.echo("\n".join(lines))


@memory.command("show")
@click.argument("record_id")
@common_options
def show_cmd(record_id: str, data_dir: str | None, user: str | None, as_json: bool) -> None:
    """Show one record: fct_, psg_, eps_, qtn_, evt_, rcp_, sec_ (a sealed secret's description)
    or task:ID, or a core block label."""
    from memvisor.agent.memory.reads import get_record

    inv = invocation(data_dir, user, as_json)
    with open_store(inv, read_only=True) as store:
        record = get_record(store, record_id, user_id=inv.user_id).model_dump(mode="json")
        if record_id.startswith(ARCHIVABLE):
            record["archived"] = archive_note(store, record_id, inv.user_id)
    if as_json:
        emit_json(record)
        return
    for key, value in record.items():
        if key == "archived" and value:
            value = (
                f"{value['archived_at']} ({value['reason']}); "
                f"restore with `memvisor memory restore {record_id}`"
            )
        click.echo(f"{key}: {_plain(value)}")


def _plain(value: Any) -> str:
    """A field as a person reads it: no Python reprs, lists joined, objects as JSON."""
    if value is None or value == [] or value == {}:
        return "(none)"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list) and all(isinstance(v, str | int | float) for v in value):
        return ", ".join(str(v) for v in value)
    if isinstance(value, dict | list):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


@memory.command("search")
@click.argument("query")
@common_options
@click.option(
    "--kind",
    "kinds",
    multiple=True,
    type=click.Choice(["fact", "passage", "turn", "episode"]),
    help="Restrict to these kinds (repeatable); default all.",
)
@click.option(
    "--mode",
    type=click.Choice(["ranked", "hybrid", "vector", "fts"]),
    default="ranked",
    show_default=True,
    help="ranked: what page-in would rank (every route, scored); the others: one raw route.",
)
@click.option(
    "--limit",
    type=click.IntRange(1, 1000),
    default=10,
    show_default=True,
    help="Most hits to print, 1-1000.",
)
@click.option("--as-of", default=None, help="Facts valid at this UTC time (ISO-8601).")
def search_cmd(
    query: str,
    data_dir: str | None,
    user: str | None,
    as_json: bool,
    kinds: tuple[str, ...],
    mode: str,
    limit: int,
    as_of: str | None,
) -> None:
    """Search facts, archival passages, episodes and past turns."""
    from memvisor.paging.pagein import PageIn

    inv = invocation(data_dir, user, as_json)
    at = parse_time(as_of) if as_of else None
    if not query.strip():
        raise UserError("search query must be non-empty text")
    with open_store(inv, read_if_held=True) as store:
        if mode == "ranked":
            hits = [
                _ranked_hit(item)
                for item in PageIn(store, floor=0.0).retrieve(
                    query,
                    user_id=inv.user_id,
                    as_of=at,
                    kinds=kinds or ("fact", "passage", "turn", "episode"),
                    limit=limit,
                )
            ]
        else:
            raw = store.search(
                query,
                user_id=inv.user_id,
                kinds=cast("tuple[SearchKind, ...]", kinds or ("fact", "passage", "turn")),
                mode=mode,
                limit=limit,
                as_of=at,
            )
            hits = [
                {
                    "id": h.id,
                    "kind": h.kind,
                    "score": h.score,
                    "route": h.route,
                    "text": h.text,
                    "ts": h.ts.isoformat(),
                    "session_id": h.session_id,
                    "trace_id": h.trace_id,
                }
                for h in raw
            ]
    if as_json:
        emit_json({"query": query, "mode": mode, "hits": hits})
        return
    if not hits:
        click.echo("no matches")
    for hit in hits:
        click.echo(
            f"{hit['score']:7.4f}  {hit['kind']:<7} {hit['id']}  {snippet(hit['text'], 120)}"
        )

    def decode(self, ids: Sequence[int]) -> str:
        return self._loaded().decode(ids)


def _ranked_hit(item: MemoryItem) -> dict[str, Any]:
    return {
        "id": item.id,
        "kind": item.kind,
        "score": round(item.score, 4),
        "route": "+".join(item.routes),
        "text": item.text,
        "ts": item.ts.isoformat(),
        "session_id": item.session_id,
        "confidence": item.confidence,
    }


@memory.command("add")
@common_options
@click.option("--subject", default=None, help="Who or what the fact is about.")
@click.option("--predicate", default=None, help="The relation, e.g. lives_in.")
@click.option("--object", "obj", default=None, help="The value, e.g. Shanghai.")
@click.option(
    "--confidence",
    type=click.FloatRange(0.0, 1.0),
    default=0.9,
    show_default=True,
    help="How sure the fact is, 0-1.",
)
@click.option(
    "--importance",
    type=click.FloatRange(0.0, 1.0),
    default=0.5,
    show_default=True,
    help="Weight in page-in ranking, 0-1.",
)
@click.option("--valid-until", default=None, help="Expiry (UTC ISO-8601): the fact's TTL.")
@click.option("--text", default=None, help="Add an archival passage instead of a fact.")
@click.argument("passage", required=False, metavar="[TEXT]")
def add_cmd(
    passage: str | None,
    data_dir: str | None,
    user: str | None,
    as_json: bool,
    subject: str | None,
    predicate: str | None,
    obj: str | None,
    confidence: float,
    importance: float,
    valid_until: str | None,
    text: str | None,
) -> None:
    """Add a fact (--subject, --predicate, --object), or TEXT (or --text) as an archival
    passage; prints it after commit."""
    inv = invocation(data_dir, user, as_json)
    arguments: dict[str, Any]
    if passage is not None and text is not None:
        raise UserError("give the passage once: as TEXT or as --text, not both")
    text = passage if passage is not None else text
    if text is not None:
        if subject or predicate or obj:
            raise UserError("pass either --text or --subject/--predicate/--object, not both")
        kind, arguments = "archival_memory_insert", {"content": text}
    else:
        missing = [
            n
            for n, v in (("--subject", subject), ("--predicate", predicate), ("--object", obj))
            if v is None
        ]
        if missing:
            raise UserError(
                f"missing {', '.join(missing)}: a fact needs --subject, --predicate and "
                "--object (or give TEXT to save a passage)"
            )
        kind = "fact_remember"
        arguments = {
            "subject": subject,
            "predicate": predicate,
            "object": obj,
            "confidence": confidence,
            "importance": importance,
            "valid_until": valid_until,
        }
    _write(inv, "memory add", kind, arguments)


def _write(inv: Invocation, command: str, kind: str, arguments: dict[str, Any]) -> None:
    """A user's write through the memory API (origin ``cli``); the command is its source."""
    with open_memory(inv) as memory:
        source = memory.record_command(
            command, arguments, user_id=inv.user_id, trace_id=inv.trace_id
        )
        outcome = memory.write(
            kind,
            arguments,
            user_id=inv.user_id,
            origin="cli",
            trace_id=inv.trace_id,
            source_event_ids=[source],
        )
    _print_outcome(outcome, inv.as_json)


def _record_json(outcome: WriteOutcome) -> dict[str, Any]:
    """The written record first (``id`` leading), as `memory add --json` always printed it."""
    record = outcome.record
    if isinstance(record, FactWrite):
        return {
            "id": record.fact.id if record.fact else None,
            "action": record.action,
            "fact": record.fact.model_dump(mode="json") if record.fact else None,
            "previous": record.previous.id if record.previous else None,
        }
    if hasattr(record, "model_dump"):
        return dict(record.model_dump(mode="json"))
    return {"id": outcome.record_id, "action": outcome.action, "detail": outcome.detail}


def _firewall_json(outcome: WriteOutcome) -> dict[str, Any]:
    return {"verdict": outcome.verdict, "reasons": outcome.reasons, "message": outcome.message}


def _print_outcome(outcome: WriteOutcome, as_json: bool) -> None:
    record = outcome.record
    if as_json:
        emit_json({**_record_json(outcome), "firewall": _firewall_json(outcome)})
        return
    note = f"  ({outcome.message} {', '.join(outcome.reasons)})" if outcome.message else ""
    if isinstance(record, FactWrite):
        if record.fact is None:
            click.echo(f"not stored ({record.action}): it was forgotten before")
            return
        extra = f" (supersedes {record.previous.id})" if record.previous else ""
        click.echo(f"{_fact_line(record.fact)}  {record.action}{extra}{note}")
    elif isinstance(record, Passage):
        click.echo(f"{record.id}  passage  {snippet(record.text, 120)}{note}")
    elif isinstance(record, CoreBlock):
        click.echo(f"{record.label} v{record.version}: {record.value}{note}")
    else:
        click.echo(f"{outcome.detail}{note}")


@memory.command("edit")
@click.argument("record_id")
@common_options
@click.option("--object", "obj", default=None, help="New value for a fact.")
@click.option(
    "--confidence",
    type=click.FloatRange(0.0, 1.0),
    default=None,
    help="New confidence for a fact, 0-1.",
)
@click.option("--valid-until", default=None, help="New expiry (UTC ISO-8601).")
@click.option("--value", default=None, help="New value for a core block (by label).")
def edit_cmd(
    record_id: str,
    data_dir: str | None,
    user: str | None,
    as_json: bool,
    obj: str | None,
    confidence: float | None,
    valid_until: str | None,
    value: str | None,
) -> None:
    """Edit a fact (a new version supersedes it) or a core block's value."""
    inv = invocation(data_dir, user, as_json)
    if record_id.startswith("fct_"):
        arguments: dict[str, Any] = {"fact_id": record_id}
        for name, given in (("object", obj), ("confidence", confidence)):
            if given is not None:
                arguments[name] = given
        if valid_until is not None:
            arguments["valid_until"] = valid_until
        if len(arguments) == 1:
            raise UserError("nothing to edit: pass --object, --confidence or --valid-until")
        _write(inv, "memory edit", "fact_edit", arguments)
        return
    if value is None:
        raise UserError(
            f"{record_id!r} is not a fact id; to edit a core block pass its label with --value TEXT"
        )
    _write(inv, "memory edit", "core_memory_set", {"label": record_id, "value": value})


@memory.command("forget")
@click.argument("record_id")
@common_options
def forget_cmd(record_id: str, data_dir: str | None, user: str | None, as_json: bool) -> None:
    """Forget a record for good: every version, what derives from it, its index entries. A
    message (evt_…) keeps its place in the log with [forgotten] for its text."""
    inv = invocation(data_dir, user, as_json)
    with open_memory(inv) as memory:
        source = memory.record_command(
            "memory forget", {"id": record_id}, user_id=inv.user_id, trace_id=inv.trace_id
        )
        outcome = memory.forget(
            record_id,
            user=inv.user_id,
            origin="cli",
            trace_id=inv.trace_id,
            source_event_ids=[source],
        )
    report = outcome.record
    if as_json:
        emit_json(report)
    else:
        click.echo(f"forgot {record_id}: removed {plural(len(report['removed']), 'record')}")


@memory.command("reveal")
@click.argument("secret_id")
@common_options
def reveal_cmd(secret_id: str, data_dir: str | None, user: str | None, as_json: bool) -> None:
    """Print the value of a sealed secret (sec_…): the user's own, kept encrypted."""
    inv = invocation(data_dir, user, as_json)
    with open_memory(inv) as memory:
        meta = memory.store.sealed.get(secret_id, user_id=inv.user_id)
        value = memory.reveal(secret_id, user=inv.user_id, origin="cli", trace_id=inv.trace_id)
    if as_json:
        emit_json({"id": secret_id, "description": meta.description, "value": value})
    else:
        click.echo(f"{meta.description}: {value}")


@memory.command("history")
@click.argument("fact_id")
@common_options
def history_cmd(fact_id: str, data_dir: str | None, user: str | None, as_json: bool) -> None:
    """Every version of a fact with the events it came from."""
    from memvisor.agent.memory.reads import fact_history

    inv = invocation(data_dir, user, as_json)
    with open_store(inv, read_only=True) as store:
        versions = fact_history(store, fact_id, user_id=inv.user_id)
    if as_json:
        emit_json(
            {
                "id": fact_id,
                "versions": [
                    {
                        **v.fact.model_dump(mode="json"),
                        "source_events": [e.model_dump(mode="json") for e in v.source_events],
                    }
                    for v in versions
                ],
            }
        )
        return
    for v in versions:
        click.echo(_fact_line(v.fact))
        for event in v.source_events:
            click.echo(
                f"    from {event.id} ({event.kind}, {event.ts.isoformat()}): "
                f"{snippet(json.dumps(event.payload, ensure_ascii=False), 160)}"
            )


# Reviewing the quarantine is the firewall's business; the command lives with it.
memory.add_command(confirm_cmd)
for command in (prune_cmd, restore_cmd, reindex_cmd, export_cmd, import_cmd):
    memory.add_command(command)
