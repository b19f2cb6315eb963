"""``memvisor memory``: list, show, search, add, edit, forget, history; export and import live
in ``transfer``, confirm with the firewall, prune/restore and reindex in their own modules."""

from __future__ import annotations

import json
from typing import Any, cast

import click
from memvisor.paging.pagein import MemoryItem, PageIn
from memvisor.storage import Fact, Store
from memvisor.storage.clock import parse_time
from memvisor.storage.store import SearchKind

from memvisor.errors import UserError

from .common import Invocation, common_options, emit_json, invocation, open_store
from .firewall import confirm_cmd
from .prune import ARCHIVABLE, archive_note, list_archived, prune_cmd, restore_cmd
from .reindex import reindex_cmd
from .transfer import export_cmd, import_cmd


@click.group()
def memory() -> None:
    """Inspect and edit a user's memory."""


def _fact_line(fact: Fact) -> str:
    until = f" until {fact.valid_until.date()}" if fact.valid_until else ""
    return (
        f"{fact.id}  [{fact.status} v{fact.version} c={fact.confidence:.2f} "
        f"x{fact.confirmations}]  {fact.subject} | {fact.predicate} | {fact.object}{until}"
    )


def _command_event(store: Store, inv: Invocation, command: str, args: dict[str, Any]) -> str:
    """The user's CLI command is the source event of what it writes."""
    event = store.events.append(
        user_id=inv.user_id,
        kind="user_command",
        trace_id=inv.trace_id,
        payload={"command": command, "arguments": args},
    )
    return event.id


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
    with open_store(inv) as store:
        if quarantine:
            items = store.quarantine.list(user_id=inv.user_id)
            if as_json:
                emit_json({"quarantine": [i.model_dump(mode="json") for i in items]})
            for item in [] if as_json else items:
                sure = "" if item.confidence is None else f"  c={item.confidence:.2f}"
                click.echo(
                    f"{item.id}  {item.tool}  {json.dumps(item.arguments, ensure_ascii=False)}"
                    f"{sure}  reasons: {', '.join(item.reasons)}"
                )
            if items and not as_json:
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
    click.echo(f"core blocks ({len(blocks)}):")
    for block in blocks:
        click.echo(
            f"  {block.label} (v{block.version}, limit {block.token_limit} tokens): "
            f"{block.value or '(empty)'}"
        )
    click.echo(f"facts ({len(facts)}):")
    for fact in facts:
        click.echo(f"  {_fact_line(fact)}")
    click.echo(f"passages ({len(passages)}):")
    for passage in passages:
        click.echo(f"  {passage.id}  {passage.text[:100]}")
    if held:
        click.echo(f"quarantine: {len(held)} held (memvisor memory list --quarantine)")
    if hidden:
        click.echo(f"archived: {hidden} hidden (memvisor memory list --archived)")


@memory.command("show")
@click.argument("record_id")
@common_options
def show_cmd(record_id: str, data_dir: str | None, user: str | None, as_json: bool) -> None:
    """Show one record: a fact, passage, episode, quarantined write, event or core block label."""
    inv = invocation(data_dir, user, as_json)
    with open_store(inv) as store:
        record = _get_record(store, record_id, inv.user_id)
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
        click.echo(f"{key}: {value}")


def _get_record(store: Store, record_id: str, user_id: str) -> dict[str, Any]:
    if record_id.startswith("fct_"):
        return store.facts.get(record_id, user_id=user_id).model_dump(mode="json")
    if record_id.startswith("psg_"):
        return store.passages.get(record_id, user_id=user_id).model_dump(mode="json")
    if record_id.startswith("eps_"):
        return store.episodes.get(record_id, user_id=user_id).model_dump(mode="json")
    if record_id.startswith("qtn_"):
        return store.quarantine.get(record_id, user_id=user_id).model_dump(mode="json")
    if record_id.startswith("evt_"):
        event = store.events.get(record_id, user_id=user_id)
        if event is None:
            raise UserError(f"no event {record_id!r} for user {user_id!r}")
        return event.model_dump(mode="json")
    return store.core.get(record_id, user_id=user_id).model_dump(mode="json")


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
@click.option("--limit", type=click.IntRange(1, 1000), default=10, show_default=True)
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
    inv = invocation(data_dir, user, as_json)
    at = parse_time(as_of) if as_of else None
    if not query.strip():
        raise UserError("search query must be non-empty text")
    with open_store(inv) as store:
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
        click.echo(f"{hit['score']:7.4f}  {hit['kind']:<7} {hit['id']}  {hit['text'][:120]}")


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
@click.option("--confidence", type=float, default=0.9, show_default=True)
@click.option("--importance", type=float, default=0.5, show_default=True)
@click.option("--valid-until", default=None, help="Expiry (UTC ISO-8601): the fact's TTL.")
@click.option("--text", default=None, help="Add an archival passage instead of a fact.")
def add_cmd(
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
    """Add a fact (or with --text an archival passage); prints it after commit."""
    inv = invocation(data_dir, user, as_json)
    if text is not None:
        if subject or predicate or obj:
            raise UserError("pass either --text or --subject/--predicate/--object, not both")
        with open_store(inv) as store:
            source = _command_event(store, inv, "memory add", {"text": text})
            passage = store.insert_passage(
                user_id=inv.user_id,
                text=text,
                trace_id=inv.trace_id,
                source_event_ids=[source],
                origin="user",
            )
        if as_json:
            emit_json(passage.model_dump(mode="json"))
        else:
            click.echo(f"{passage.id}  passage  {passage.text[:120]}")
        return
    missing = [
        n
        for n, v in (("--subject", subject), ("--predicate", predicate), ("--object", obj))
        if v is None
    ]
    if missing:
        raise UserError(
            f"missing {', '.join(missing)}: a fact needs --subject, --predicate and --object"
        )
    until = parse_time(valid_until) if valid_until else None
    with open_store(inv) as store:
        source = _command_event(
            store, inv, "memory add", {"subject": subject, "predicate": predicate, "object": obj}
        )
        write = store.remember_fact(
            user_id=inv.user_id,
            subject=subject or "",
            predicate=predicate or "",
            object=obj or "",
            trace_id=inv.trace_id,
            source_event_ids=[source],
            confidence=confidence,
            importance=importance,
            valid_until=until,
            origin="user",
        )
    _print_write(write, as_json)


def _print_write(write: Any, as_json: bool) -> None:
    if as_json:
        emit_json(
            {
                "id": write.fact.id if write.fact else None,
                "action": write.action,
                "fact": write.fact.model_dump(mode="json") if write.fact else None,
                "previous": write.previous.id if write.previous else None,
            }
        )
        return
    if write.fact is None:
        click.echo(f"not stored ({write.action}): it was forgotten before")
        return
    extra = f" (supersedes {write.previous.id})" if write.previous else ""
    click.echo(f"{_fact_line(write.fact)}  {write.action}{extra}")


@memory.command("edit")
@click.argument("record_id")
@common_options
@click.option("--object", "obj", default=None, help="New value for a fact.")
@click.option("--confidence", type=float, default=None)
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
    with open_store(inv) as store:
        if not record_id.startswith("fct_"):
            if value is None:
                raise UserError(
                    f"{record_id!r} is not a fact id; to edit a core block pass "
                    "its label with --value TEXT"
                )
            block = store.core.get(record_id, user_id=inv.user_id)
            updated = store.core.update(
                record_id,
                value,
                user_id=inv.user_id,
                expected_version=block.version,
                trace_id=inv.trace_id,
            )
            _command_event(store, inv, "memory edit", {"label": record_id, "value": value})
            if as_json:
                emit_json(updated.model_dump(mode="json"))
            else:
                click.echo(f"{updated.label} v{updated.version}: {updated.value}")
            return
        _command_event(store, inv, "memory edit", {"id": record_id, "object": obj})
        write = store.edit_fact(
            record_id,
            user_id=inv.user_id,
            trace_id=inv.trace_id,
            object=obj,
            confidence=confidence,
            valid_until=parse_time(valid_until) if valid_until else None,
        )
    _print_write(write, as_json)


@memory.command("forget")
@click.argument("record_id")
@common_options
def forget_cmd(record_id: str, data_dir: str | None, user: str | None, as_json: bool) -> None:
    """Remove a record, every version of it and its index entries."""
    inv = invocation(data_dir, user, as_json)
    with open_store(inv) as store:
        _command_event(store, inv, "memory forget", {"id": record_id})
        report = store.forget(record_id, user_id=inv.user_id, trace_id=inv.trace_id)
    if as_json:
        emit_json(report)
    else:
        click.echo(f"forgot {record_id}: removed {len(report['removed'])} record(s)")


@memory.command("history")
@click.argument("fact_id")
@common_options
def history_cmd(fact_id: str, data_dir: str | None, user: str | None, as_json: bool) -> None:
    """Every version of a fact with the events it came from."""
    inv = invocation(data_dir, user, as_json)
    with open_store(inv) as store:
        versions = store.facts.history(fact_id, user_id=inv.user_id)
        sources = {
            v.id: store.events.many(v.source_event_ids, user_id=inv.user_id) for v in versions
        }
    if as_json:
        emit_json(
            {
                "id": fact_id,
                "versions": [
                    {
                        **v.model_dump(mode="json"),
                        "source_events": [e.model_dump(mode="json") for e in sources[v.id]],
                    }
                    for v in versions
                ],
            }
        )
        return
    for v in versions:
        click.echo(_fact_line(v))
        for event in sources[v.id]:
            click.echo(
                f"    from {event.id} ({event.kind}, {event.ts.isoformat()}): "
                f"{json.dumps(event.payload, ensure_ascii=False)[:160]}"
            )


# Reviewing the quarantine is the firewall's business; the command lives with it.
memory.add_command(confirm_cmd)
for command in (prune_cmd, restore_cmd, reindex_cmd, export_cmd, import_cmd):
    memory.add_command(command)
