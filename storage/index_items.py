"""What the search index holds for a user, built from the records (the truth).

Facts (every version, for history; page-in checks validity in the records), archival
passages, episodes and raw turns; archived records stay out.
"""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING

from .archive import not_archived
from .episodes import Episode
from .records import Event, Fact, Passage

if TYPE_CHECKING:
    from .database import Database
    from .store import Store
    from .vectors import IndexedText

TURN_KINDS = ("user_message", "assistant_message")


def memory_revisions(db: Database, user_id: str) -> dict[str, str]:
    """The ids ``memory_items`` returns, each with the md5 of its text (``text_revision``),
    read without building the items."""
    rows = db.query(_revisions_sql("user_id = ? AND"), [user_id, user_id, user_id, user_id])
    return {row[1]: row[2] for row in rows}


def all_memory_revisions(db: Database) -> dict[str, dict[str, str]]:
    """``memory_revisions`` of every user in one read: user -> id -> revision."""
    out: dict[str, dict[str, str]] = defaultdict(dict)
    for user_id, row_id, revision in db.query(_revisions_sql("")):
        out[user_id][row_id] = revision
    return dict(out)


def _revisions_sql(user_clause: str) -> str:
    fact_text = "subject || ' ' || replace(predicate, '_', ' ') || ' ' || object"
    turn_text = "coalesce(payload->>'$.content', '')"
    kinds = ", ".join(f"'{kind}'" for kind in TURN_KINDS)
    return (
        f"SELECT user_id, id, md5({fact_text}) FROM facts "
        f"WHERE {user_clause} {not_archived('facts')} "
        "UNION ALL SELECT user_id, id, md5(text) FROM passages "
        f"WHERE {user_clause} {not_archived('passages')} "
        "UNION ALL SELECT user_id, id, md5(summary) FROM episodes "
        f"WHERE {user_clause} {not_archived('episodes')} "
        f"UNION ALL SELECT user_id, id, md5({turn_text}) FROM events "
        f"WHERE {user_clause} kind IN ({kinds})"
    )


def memory_users(db: Database) -> list[str]:
    """Every user who has records the index holds."""
    rows = db.query(
        "SELECT user_id FROM facts UNION SELECT user_id FROM passages "
        "UNION SELECT user_id FROM episodes UNION SELECT user_id FROM events ORDER BY 1"
    )
    return [row[0] for row in rows]


def memory_items(store: Store, user_id: str) -> list[IndexedText]:
    facts = store.facts.list(user_id=user_id, include_inactive=True, include_archived=False)
    return [
        *(fact_item(f) for f in facts),
        *(passage_item(p) for p in store.passages.list(user_id=user_id)),
        *(episode_item(e) for e in store.episodes.list(user_id=user_id)),
        *(turn_item(e) for e in store.events.list(user_id=user_id, kinds=TURN_KINDS)),
    ]


def fact_item(fact: Fact) -> IndexedText:
    from .vectors import IndexedText

    return IndexedText(
        id=fact.id,
        user_id=fact.user_id,
        text=fact.text(),
        kind="fact",
        ts=fact.created_at,
        trace_id=fact.trace_id,
        meta={"lineage_id": fact.lineage_id},
    )


def passage_item(passage: Passage) -> IndexedText:
    from .vectors import IndexedText

    return IndexedText(
        id=passage.id,
        user_id=passage.user_id,
        text=passage.text,
        kind="passage",
        ts=passage.created_at,
        session_id=passage.session_id,
        trace_id=passage.trace_id,
    )


def episode_item(episode: Episode) -> IndexedText:
    from .vectors import IndexedText

    return IndexedText(
        id=episode.id,
        user_id=episode.user_id,
        text=episode.summary,
        kind="episode",
        ts=episode.end_ts,
        session_id=episode.session_id,
        trace_id=episode.trace_id,
        meta={"start": episode.start_ts.isoformat(), "sources": episode.source_event_ids[:50]},
    )


def turn_item(event: Event) -> IndexedText:
    from .vectors import IndexedText

    role = "user" if event.kind == "user_message" else "assistant"
    meta = {
        "role": role,
        **{k: v for k, v in event.payload.items() if k in ("speaker", "dia_id", "image_caption")},
    }
    return IndexedText(
        id=event.id,
        user_id=event.user_id,
        text=str(event.payload.get("content", "")),
        kind="turn",
        ts=event.ts,
        session_id=event.session_id,
        trace_id=event.trace_id,
        meta=meta,
    )
