"""Memory health for one user: freshness, page-in hit rate, quarantine, amnesia alerts,
expired facts (they never page in) and how many records a prune archived.

Read-only: it lists records and events through ``Store`` and writes nothing.
Event contracts it reads: ``page_in`` ``{"ids", "query", "scores"}``,
``assistant_message`` ``{"content", "memory_ids", "cited_ids"}`` (``cited_ids``
absent in older events counts as ``[]``) and ``memory_write`` with
``action == "confirmed"``.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from memvisor.storage import Event, Fact, Store
from memvisor.storage.clock import iso
from memvisor.storage.text import snippet

# "archived": an active fact a prune archived (kept, out of page-in and search).
FACT_STATUSES = ("active", "archived", "expired", "superseded", "retracted", "quarantined")

# Answers that say the agent does not know or remember; curly apostrophes included.
_APOS = "['\u2019]"
AMNESIA_PATTERN = re.compile(
    "|".join(
        [
            rf"\bI\s+(?:don{_APOS}t|do\s+not)\s+(?:know|remember|recall)\b",
            rf"\bI{_APOS}?m\s+not\s+sure\b",
            r"\bI\s+am\s+not\s+sure\b",
            rf"\bI\s+(?:don{_APOS}t|do\s+not)\s+have\s+(?:any\s+)?"
            r"(?:information|record|records|memory|memories|details)\b",
            r"\bI\s+have\s+no\s+(?:information|record|records|memory|memories)\b",
            r"\bno\s+records?\b",
            rf"\bI\s+(?:can{_APOS}t|cannot)\s+(?:remember|recall)\b",
            "不知道",
            "不记得",
            "不清楚",
            "没有记录",
            "没有相关(?:信息|记录)",
        ]
    ),
    re.IGNORECASE,
)

_SNIPPET_CHARS = 160


def health_report(store: Store, *, user_id: str) -> dict[str, Any]:
    """Health figures for ``user_id``; ratios are rounded to 4 places, ``None`` when undefined."""
    # Archived records are still stored: they count in the totals, apart from the active ones.
    facts = store.facts.list(user_id=user_id, include_inactive=True, include_archived=True)
    passages = store.passages.list(user_id=user_id, include_archived=True)
    held = store.quarantine.list(user_id=user_id, status="held")
    events = store.events.list(user_id=user_id)
    archived = store.archive.list(user_id=user_id)
    archived_ids = {row.item_id for row in archived}
    by_status: Counter[str] = Counter(
        "archived" if f.id in archived_ids else f.status for f in facts
    )
    archived_passages = sum(p.id in archived_ids for p in passages)
    statuses = {s: by_status.get(s, 0) for s in FACT_STATUSES}
    statuses.update({s: n for s, n in by_status.items() if s not in statuses})
    return {
        "user_id": user_id,
        "as_of": iso(store.clock.now()),
        "freshness": _freshness(statuses, len(facts), len(passages), archived_passages),
        "facts": statuses,
        "page_in": _hit_rate(events, facts),
        "quarantine_held": len(held),
        "expired": _expired(facts),
        "archived": len(archived),
        "amnesia": _amnesia(events),
        "events": {
            "count": len(events),
            "last_activity": iso(max((e.ts for e in events), default=None)),
            "by_kind": dict(sorted(Counter(e.kind for e in events).items())),
        },
        "records": {
            "facts": len(facts),
            "passages": len(passages),
            "quarantine_held": len(held),
            "events": len(events),
        },
    }


def _ratio(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def _freshness(
    statuses: dict[str, int], facts: int, passages: int, archived_passages: int
) -> dict[str, Any]:
    # Passages have no validity window: every stored passage not archived counts as active.
    active, archived = statuses.get("active", 0), statuses.get("archived", 0)
    expired, superseded = statuses.get("expired", 0), statuses.get("superseded", 0)
    live_passages = passages - archived_passages
    return {
        "ratio": _ratio(active + live_passages, facts + passages),
        "active": active,
        "archived": archived + archived_passages,
        "expired": expired,
        "superseded": superseded,
        "other": facts - active - archived - expired - superseded,
        "passages": live_passages,
    }


def _expired(facts: Iterable[Fact]) -> list[dict[str, Any]]:
    """Facts past their ``valid_until``: kept, never paged in, soonest expired first."""
    expired = sorted(
        (f for f in facts if f.status == "expired"),
        key=lambda f: (f.valid_until is None, f.valid_until or f.created_at, f.id),
    )
    return [
        {
            "id": f.id,
            "subject": f.subject,
            "predicate": f.predicate,
            "object": f.object,
            "valid_until": iso(f.valid_until),
        }
        for f in expired
    ]


def _ids(value: Any) -> list[str]:
    if not isinstance(value, list):
        return []
    return [str(v) for v in value if isinstance(v, str | int) and str(v)]


def _hit_rate(events: Sequence[Event], facts: Iterable[Fact]) -> dict[str, Any]:
    """Each id counts once per trace, from its first page-in in that trace.

    A hit is an id cited by a later answer of the same trace, or a fact confirmed
    after the page-in: by a later ``memory_write`` confirmation event (exact order,
    even when a replay clock stands still) or by the fact's ``last_confirmed_at``.
    """
    first: dict[tuple[str, str], int] = {}
    last_cited: dict[tuple[str, str], int] = {}
    last_confirm_event: dict[str, int] = {}
    page_ins = 0
    for pos, event in enumerate(events):
        payload = event.payload
        if event.kind == "page_in":
            page_ins += 1
            for item in _ids(payload.get("ids")):
                first.setdefault((event.trace_id, item), pos)
        elif event.kind == "assistant_message":
            for item in _ids(payload.get("cited_ids")):
                last_cited[(event.trace_id, item)] = pos
        elif (
            event.kind == "memory_write"
            and payload.get("action") == "confirmed"
            and isinstance(payload.get("id"), str)
        ):
            last_confirm_event[payload["id"]] = pos
    confirmed_at: dict[str, datetime] = {
        f.id: f.last_confirmed_at for f in facts if f.confirmations > 0 and f.last_confirmed_at
    }
    cited = confirmed = hits = 0
    for (trace_id, item), pos in first.items():
        was_cited = last_cited.get((trace_id, item), -1) > pos
        was_confirmed = last_confirm_event.get(item, -1) > pos or (
            item in confirmed_at and confirmed_at[item] > events[pos].ts
        )
        cited += was_cited
        confirmed += was_confirmed
        hits += was_cited or was_confirmed
    return {
        "hit_rate": _ratio(hits, len(first)),
        "paged_in": len(first),
        "hits": hits,
        "cited": cited,
        "confirmed": confirmed,
        "page_in_events": page_ins,
    }


def _amnesia(events: Sequence[Event]) -> dict[str, Any]:
    """Answers saying "I don't know" in turns whose page-ins returned nothing.

    A turn without any ``page_in`` event counts as one that paged nothing in.
    """
    paged: dict[str, int] = Counter()
    for event in events:
        if event.kind == "page_in":
            paged[event.trace_id] += len(_ids(event.payload.get("ids")))
    alerts = []
    for event in events:
        if event.kind != "assistant_message" or paged.get(event.trace_id, 0):
            continue
        content = event.payload.get("content")
        if isinstance(content, str) and AMNESIA_PATTERN.search(content):
            alerts.append(
                {
                    "trace_id": event.trace_id,
                    "ts": iso(event.ts),
                    "answer": snippet(content, _SNIPPET_CHARS),
                }
            )
    return {"count": len(alerts), "alerts": alerts}


# -- Prometheus text exposition format --


def _label(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def _value(value: float) -> str:
    if isinstance(value, bool):
        return str(int(value))
    if isinstance(value, int):
        return str(value)
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "+Inf" if value > 0 else "-Inf"
    return repr(float(value))


def prometheus_text(report: dict[str, Any]) -> str:
    """The report as Prometheus text exposition (version 0.0.4); null figures are omitted."""
    user = _label(str(report["user_id"]))
    lines: list[str] = []

    def family(
        name: str, kind: str, help_text: str, samples: list[tuple[dict[str, str], Any]]
    ) -> None:
        samples = [(labels, v) for labels, v in samples if v is not None]
        if not samples:
            return
        lines.append(f"# HELP {name} {help_text}")
        lines.append(f"# TYPE {name} {kind}")
        for labels, value in samples:
            extra = "".join(f',{k}="{_label(str(v))}"' for k, v in labels.items())
            lines.append(f'{name}{{user="{user}"{extra}}} {_value(value)}')

    fresh, page_in = report["freshness"], report["page_in"]
    last = report["events"]["last_activity"]
    family(
        "memvisor_memory_freshness_ratio",
        "gauge",
        "Share of active, unexpired records among all facts and passages.",
        [({}, fresh["ratio"])],
    )
    family(
        "memvisor_facts",
        "gauge",
        "Fact rows by status.",
        [({"status": s}, n) for s, n in report["facts"].items()],
    )
    family(
        "memvisor_passages",
        "gauge",
        "Archival passages in page-in and search (archived ones not counted).",
        [({}, fresh["passages"])],
    )
    family(
        "memvisor_quarantine_held",
        "gauge",
        "Writes held in quarantine awaiting confirmation.",
        [({}, report["quarantine_held"])],
    )
    family(
        "memvisor_archived_records",
        "gauge",
        "Records archived by `memvisor memory prune` (kept, out of page-in and search).",
        [({}, report.get("archived"))],
    )
    family(
        "memvisor_page_in_hit_ratio",
        "gauge",
        "Share of paged-in items later cited or confirmed.",
        [({}, page_in["hit_rate"])],
    )
    family(
        "memvisor_page_in_items",
        "gauge",
        "Paged-in items (each id once per trace).",
        [({}, page_in["paged_in"])],
    )
    family(
        "memvisor_page_in_hits",
        "gauge",
        "Paged-in items later cited or confirmed.",
        [({}, page_in["hits"])],
    )
    family(
        "memvisor_amnesia_alerts_total",
        "counter",
        "Answers saying the agent does not know after a page-in that returned nothing.",
        [({}, report["amnesia"]["count"])],
    )
    family("memvisor_events_total", "counter", "Events logged.", [({}, report["events"]["count"])])
    family(
        "memvisor_last_activity_timestamp_seconds",
        "gauge",
        "Unix time of the newest event.",
        [({}, _unix(last) if last else None)],
    )
    family(
        "memvisor_records",
        "gauge",
        "Stored records by kind.",
        [({"kind": k}, n) for k, n in report["records"].items()],
    )
    return "\n".join(lines) + "\n"


def _unix(ts: str) -> float:
    return datetime.fromisoformat(ts.replace("Z", "+00:00")).timestamp()
