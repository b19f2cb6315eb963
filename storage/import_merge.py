"""How an export is written into a store: exactly (``--replace``) or merged, never backwards.

A merge decides every record of the document against what the store holds, then writes the
records decided ``created`` or ``updated``:

- a record whose id the store has: identical -> unchanged; otherwise skipped, the store's
  copy kept (a fact the store superseded is never made active again);
- a record the store, or the document itself, has forgotten (a tombstone, a ``memory_forget``
  event, or for facts a tombstone of the same fingerprint and source) -> skipped: tombstones
  always win, and the document's tombstones are added to the store;
- core blocks and rolling summaries: the higher version wins; tasks, session state slots and
  recipes: the newer wins; the store wins every tie;
- events: by id, inserted exactly as they were (records name them as their sources);
- then no single-valued predicate of a subject keeps two active facts (``fact_import``).

``plan`` reads and never writes, so the firewall can screen just the records a merge would
write before ``apply`` runs the same plan inside the import's transaction.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .core_blocks import DEFAULT_BLOCKS, import_refusal, is_default_text
from .database import from_db_time
from .fact_import import effective, is_active, one_value_each, value_key
from .facts import fingerprint
from .forgetting import content_hash
from .import_report import KindCounts, MergeReport, Outcome
from .records import CoreBlock, Event, Fact
from .session_state import MAX_KEYS
from .tombstones import forget_event_ids, forgotten_ids, list_tombstones, restore_tombstone

if TYPE_CHECKING:
    from .export import ExportDocument
    from .store import Store

# The order records are written in: tombstones and events first (what is forgotten, and the
# sources records name), archive rows after the records they hide.
KINDS = (
    "tombstones",
    "events",
    "core_blocks",
    "facts",
    "passages",
    "episodes",
    "summaries",
    "recipes",
    "tasks",
    "session_state",
    "quarantine",
    "archived",
    "usage",
)
ARCHIVABLE = ("facts", "passages", "episodes")
FORGOTTEN = "forgotten"
KEPT = "the store's copy differs; it is kept"


@dataclass(frozen=True)
class Decision:
    kind: str
    key: str
    record: Any
    outcome: Outcome
    reason: str = ""

    @property
    def writes(self) -> bool:
        return self.outcome in ("created", "updated")


def record_key(kind: str, record: Any) -> str:
    """What identifies a record of this kind within one user."""
    if kind == "tombstones":
        return str(record.record_id)
    if kind == "core_blocks":
        return str(record.label)
    if kind == "summaries":
        return str(record.session_id)
    if kind == "tasks":
        return str(record.task_id)
    if kind == "session_state":
        return f"{record.session_id}/{record.key}"
    if kind in ("archived", "usage"):
        return str(record.item_id)
    return str(record.id)


def plan(
    store: Store,
    doc: ExportDocument,
    *,
    user_id: str,
    replace: bool,
    count_tokens: Callable[[str], int],
) -> list[Decision]:
    """One decision per record of the document, in write order; nothing is written. A core
    block that breaks the rules every block write follows is skipped in either mode."""
    known = set(DEFAULT_BLOCKS) | {b.label for b in _blocks(store, user_id)}
    refused = {
        b.label: reason
        for b in doc.core_blocks
        if (reason := import_refusal(b, known=known, count_tokens=count_tokens))
    }
    if replace:
        decisions = _exact(doc)
    else:
        planner = _Planner(store, doc, user_id)
        decisions = [planner.decide(k, r) for k in KINDS for r in getattr(doc, k)]
    return [
        Decision(d.kind, d.key, d.record, "skipped", refused[d.key])
        if d.kind == "core_blocks" and d.key in refused
        else d
        for d in decisions
    ]


def apply(
    store: Store,
    decisions: list[Decision],
    *,
    user_id: str,
    conn: Any,
    report: MergeReport,
    merge: bool,
) -> None:
    """Write what ``plan`` decided, in its order, inside the caller's transaction."""
    for kind in KINDS:
        report.kinds.setdefault(kind, KindCounts())
    events = [d.record for d in decisions if d.kind == "events" and d.writes]
    store.events.restore_many_in(conn, events, user_id=user_id)
    for decision in decisions:
        report.note(decision.kind, decision.outcome, decision.key, decision.reason)
        if decision.writes and decision.kind != "events":
            _write(store, decision.kind, decision.record, user_id=user_id, conn=conn)
    if merge:
        created = [d.record for d in decisions if d.kind == "facts" and d.writes]
        new_ids = {f.id for f in created}
        store_facts = [
            f
            for f in store.facts.list(user_id=user_id, include_inactive=True)
            if f.id not in new_ids
        ]
        report.superseded = one_value_each(
            conn, store_facts=store_facts, imported=created, now=store.clock.now()
        )


def _unwritten_default(block: CoreBlock) -> bool:
    """A default block exported before anyone wrote it: the store shows the same already (a
    block with a time of its own, or another value, is imported like any other)."""
    return block.updated_at is None and is_default_text(block.label, block.value)


def _exact(doc: ExportDocument) -> list[Decision]:
    """Everything as it is (the store holds nothing of the user), except archive rows of
    records the firewall held back: those records are not there to hide."""
    present = {r.id for kind in ARCHIVABLE for r in getattr(doc, kind)}
    decisions = []
    for kind in KINDS:
        for record in getattr(doc, kind):
            key = record_key(kind, record)
            if kind == "archived" and record.item_id not in present:
                decisions.append(Decision(kind, key, record, "skipped", "its record was held"))
            elif kind == "core_blocks" and _unwritten_default(record):
                decisions.append(Decision(kind, key, record, "unchanged"))
            else:
                decisions.append(Decision(kind, key, record, "created"))
    return decisions


class _Planner:
    """What the store holds of the user, read once, and the rules that weigh a record."""

    def __init__(self, store: Store, doc: ExportDocument, user_id: str) -> None:
        self.now = store.clock.now()
        facts = store.facts.list(user_id=user_id, include_inactive=True, include_archived=True)
        self.have: dict[str, dict[str, Any]] = {
            "facts": {f.id: f for f in facts},
            "passages": _by_key(
                "passages", store.passages.list(user_id=user_id, include_archived=True)
            ),
            "episodes": _by_key(
                "episodes", store.episodes.list(user_id=user_id, include_archived=True)
            ),
            "summaries": _by_key("summaries", store.summaries.list(user_id=user_id)),
            "recipes": _by_key(
                "recipes", store.recipes.list(user_id=user_id, include_retired=True)
            ),
            "tasks": _by_key("tasks", store.tasks.list(user_id=user_id)),
            "session_state": _by_key("session_state", store.session_state.slots(user_id=user_id)),
            "quarantine": _by_key(
                "quarantine", store.quarantine.list(user_id=user_id, status=None)
            ),
            "archived": _by_key("archived", store.archive.list(user_id=user_id)),
            "usage": _by_key("usage", store.usage.rows(user_id=user_id)),
            "tombstones": _by_key("tombstones", list_tombstones(store.db, user_id=user_id)),
            "core_blocks": _by_key("core_blocks", _blocks(store, user_id)),
            "events": _by_key(
                "events", store.events.many([e.id for e in doc.events], user_id=user_id)
            ),
        }
        self.values = {value_key(f): f.id for f in facts if is_active(f, self.now)}
        self.recipe_names = {r.name.lower(): r.id for r in self.have["recipes"].values()}
        self.slots = Counter(s.session_id for s in self.have["session_state"].values())
        # Tombstones always win, the document's as much as the store's.
        self.forgotten = forgotten_ids(store.db, user_id=user_id)
        self.forgotten |= {t.record_id for t in doc.tombstones}
        for event in doc.events:
            if event.kind == "memory_forget":
                self.forgotten |= forget_event_ids(event.payload)
        self.tombstones = [*self.have["tombstones"].values(), *doc.tombstones]
        self.texts = _message_texts(store, doc, user_id)
        # Records of the document that exist once it is written (archive rows need them).
        self.present = {key for kind in ARCHIVABLE for key in self.have[kind]}

    def decide(self, kind: str, record: Any) -> Decision:
        key = record_key(kind, record)
        outcome, reason = getattr(self, f"_{kind}", self._by_id)(kind, key, record)
        if outcome in ("created", "updated") and kind in ARCHIVABLE:
            self.present.add(key)
        return Decision(kind, key, record, outcome, reason)

    # -- the rules, per kind -----------------------------------------------------------------

    def _by_id(self, kind: str, key: str, record: Any) -> tuple[Outcome, str]:
        have = self.have[kind].get(key)
        if have is not None:
            return ("unchanged", "") if have == record else ("skipped", KEPT)
        if kind not in ("tombstones", "events", "usage") and key in self.forgotten:
            return "skipped", FORGOTTEN
        return "created", ""

    def _facts(self, kind: str, key: str, fact: Fact) -> tuple[Outcome, str]:
        have = self.have["facts"].get(key)
        if have is not None:
            if have == effective(fact, self.now):
                return "unchanged", ""
            if have.status != "active" and fact.status == "active":
                return "skipped", f"{have.status} in the store; it stays {have.status}"
            return "skipped", KEPT
        if key in self.forgotten or self._tombstoned(fact):
            return "skipped", FORGOTTEN
        if is_active(fact, self.now):
            same = self.values.get(value_key(fact))
            if same is not None:
                return "skipped", f"the store holds the same value as {same}"
            self.values[value_key(fact)] = fact.id
        return "created", ""

    def _tombstoned(self, fact: Fact) -> bool:
        """The rule of ``FactStore.remember``: the same fingerprint from the same source events,
        or from messages of the same words."""
        if not fact.source_event_ids:
            return False
        mark = fingerprint(fact.subject, fact.predicate, fact.object)
        sources = set(fact.source_event_ids)
        hashes = {self.texts[s] for s in sources if s in self.texts}
        return any(
            t.fingerprint == mark
            and (sources & set(t.source_event_ids) or hashes & set(t.source_hashes))
            for t in self.tombstones
        )

    def _core_blocks(self, kind: str, key: str, block: CoreBlock) -> tuple[Outcome, str]:
        have = self.have["core_blocks"].get(key)
        if have is None:
            return ("unchanged", "") if _unwritten_default(block) else ("created", "")
        if block.version > have.version:
            return "updated", ""
        if block.version < have.version:
            return "skipped", f"store's block is newer (version {have.version})"
        same = (block.value, block.token_limit, block.read_only) == (
            have.value,
            have.token_limit,
            have.read_only,
        )
        return ("unchanged", "") if same else ("skipped", "store's block differs at this version")

    def _summaries(self, kind: str, key: str, summary: Any) -> tuple[Outcome, str]:
        have = self.have["summaries"].get(key)
        if have is None:
            return "created", ""
        if have == summary:
            return "unchanged", ""
        if summary.version > have.version:
            return "updated", ""
        return "skipped", f"store's summary is as new or newer (version {have.version})"

    def _recipes(self, kind: str, key: str, recipe: Any) -> tuple[Outcome, str]:
        have = self.have["recipes"].get(key)
        if have is not None:
            if have == recipe:
                return "unchanged", ""
            if (recipe.version, recipe.updated_at) > (have.version, have.updated_at):
                return "updated", ""
            return "skipped", "store's recipe is as new or newer"
        if key in self.forgotten:
            return "skipped", FORGOTTEN
        other = self.recipe_names.get(recipe.name.lower())
        if other is not None:
            return "skipped", f"the store has another recipe named {recipe.name!r} ({other})"
        self.recipe_names[recipe.name.lower()] = recipe.id
        return "created", ""

    def _tasks(self, kind: str, key: str, task: Any) -> tuple[Outcome, str]:
        return self._newer(kind, key, task, "task")

    def _session_state(self, kind: str, key: str, slot: Any) -> tuple[Outcome, str]:
        if key not in self.have["session_state"]:
            if self.slots[slot.session_id] >= MAX_KEYS:
                return "skipped", f"session {slot.session_id} already holds {MAX_KEYS} state keys"
            self.slots[slot.session_id] += 1
        return self._newer(kind, key, slot, "slot")

    def _newer(self, kind: str, key: str, record: Any, what: str) -> tuple[Outcome, str]:
        have = self.have[kind].get(key)
        if have is None:
            return "created", ""
        if have == record:
            return "unchanged", ""
        if record.updated_at > have.updated_at:
            return "updated", ""
        return "skipped", f"store's {what} is as new or newer"

    def _archived(self, kind: str, key: str, row: Any) -> tuple[Outcome, str]:
        have = self.have["archived"].get(key)
        if have is not None:
            return ("unchanged", "") if have == row else ("skipped", KEPT)
        if key in self.forgotten:
            return "skipped", FORGOTTEN
        if key in self.have[f"{row.kind}s"]:
            return "skipped", "not archived in the store; it stays in use"
        if key not in self.present:
            return "skipped", "its record was not imported"
        return "created", ""


def _by_key(kind: str, records: Iterable[Any]) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for record in records:
        found.setdefault(record_key(kind, record), record)
    return found


def _blocks(store: Store, user_id: str) -> list[CoreBlock]:
    """The user's blocks as stored: ``CoreBlocks.list`` would create the defaults first, and
    a default block created now would make an exported one look older than it is."""
    rows = store.db.query(
        "SELECT user_id, label, value, token_limit, read_only, version, updated_at, trace_id "
        "FROM core_blocks WHERE user_id = ?",
        [user_id],
    )
    return [
        CoreBlock(
            user_id=r[0],
            label=r[1],
            value=r[2],
            token_limit=r[3],
            read_only=r[4],
            version=r[5],
            updated_at=from_db_time(r[6]),
            trace_id=r[7],
        )
        for r in rows
    ]


def _message_texts(store: Store, doc: ExportDocument, user_id: str) -> dict[str, str]:
    """Event id -> hash of its message text, for the sources of the document's facts."""
    wanted = {s for f in doc.facts for s in f.source_event_ids}
    events: dict[str, Event] = {e.id: e for e in doc.events if e.id in wanted}
    missing = [s for s in wanted if s not in events]
    events.update({e.id: e for e in store.events.many(missing, user_id=user_id)})
    texts = {}
    for event_id, event in events.items():
        content = event.payload.get("content")
        if isinstance(content, str) and content.strip():
            texts[event_id] = content_hash(content)
    return texts


def _write(store: Store, kind: str, record: Any, *, user_id: str, conn: Any) -> None:
    if kind == "tombstones":
        restore_tombstone(record, user_id=user_id, conn=conn)
    elif kind == "core_blocks":
        store.core.restore(record, user_id=user_id)
    elif kind == "archived":
        store.archive.insert(record, user_id=user_id, conn=conn)
    else:
        owners: dict[str, Any] = {
            "facts": store.facts,
            "passages": store.passages,
            "episodes": store.episodes,
            "summaries": store.summaries,
            "recipes": store.recipes,
            "tasks": store.tasks,
            "session_state": store.session_state,
            "quarantine": store.quarantine,
            "usage": store.usage,
        }
        owners[kind].restore(record, user_id=user_id, conn=conn)
