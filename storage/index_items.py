"""What the search index holds for a user, built from the records (the truth).

Facts (every version, for history; page-in checks validity in the records), archival
passages, episodes and raw turns; archived records stay out.

A turn's vector is made of its text and then the turn before it in its session
(``turn_items``, ``IndexedText.context``): a reply ("Yes, it was so powerful!") says little
of what it is about without what it answers, as contextual chunk embeddings do for a
document's chunks. The words route and the hits keep the turn's own text. What counts as
the turn before is what page-in's ``turn_order`` calls it: the user's previous message or
answer of the same session, in the order logged.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import TYPE_CHECKING

from .archive import not_archived
from .episodes import Episode
from .forgetting import FORGOTTEN
from .records import Event, Fact, Passage

if TYPE_CHECKING:
    from .database import Database
    from .store import Store
    from .vectors import IndexedText

TURN_KINDS = ("user_message", "assistant_message")
_KINDS = ", ".join(f"'{kind}'" for kind in TURN_KINDS)
_TURN_TEXT = "coalesce(payload->>'$.content', '')"
# A message forgotten by its id keeps its place in the log with this text; it is not indexed.
_INDEXED_TURN = f"kind IN ({_KINDS}) AND {_TURN_TEXT} <> '{FORGOTTEN}'"


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
    return (
        f"SELECT user_id, id, md5({fact_text}) FROM facts "
        f"WHERE {user_clause} {not_archived('facts')} "
        "UNION ALL SELECT user_id, id, md5(text) FROM passages "
        f"WHERE {user_clause} {not_archived('passages')} "
        "UNION ALL SELECT user_id, id, md5(summary) FROM episodes "
        f"WHERE {user_clause} {not_archived('episodes')} "
        f"UNION ALL SELECT user_id, id, md5({_TURN_TEXT}) FROM events "
        f"WHERE {user_clause} {_INDEXED_TURN}"
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
        *turn_items(store.db, store.events.list(user_id=user_id, kinds=TURN_KINDS), earlier=False),
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


def turn_items(
    db: Database, events: Sequence[Event], *, consecutive: bool = True, earlier: bool = True
) -> list[IndexedText]:
    """The items of one user's turns (in the order logged), each with the text of the turn
    before it in its session as its context. ``consecutive``: no turn of theirs was logged
    between two of ``events`` (a batch just logged, or all of them), so a turn's context is
    the one before it here when there is one; the others' are read (a query each) unless
    not ``earlier``: ``events`` are all of the user's turns, and none came before them."""
    last: dict[str | None, tuple[str, str]] = {}  # session -> its latest turn so far
    before: dict[str, tuple[str, str]] = {}  # turn -> (id, text) of the turn before it
    unknown: list[str] = []
    for event in events:
        if consecutive and event.session_id in last:
            before[event.id] = last[event.session_id]
        else:
            unknown.append(event.id)
        last[event.session_id] = (event.id, _content(event))
    if unknown and earlier:
        before.update(_turns_before(db, events[0].user_id, unknown))
    return [
        turn_item(event, before=before.get(event.id))
        for event in events
        if _content(event) != FORGOTTEN
    ]


def turns_after(db: Database, user_id: str, event_ids: Sequence[str]) -> list[str]:
    """The ids of the turns right after these turns in their sessions: the turns whose
    context (``turn_items``) a change of these turns' text changes."""
    return list(_adjacent(db, user_id, event_ids, later=True).values())


def _turns_before(
    db: Database, user_id: str, event_ids: Sequence[str]
) -> dict[str, tuple[str, str]]:
    """For each of these turns that has one, the id and text of the turn before it in its
    session."""
    before = _adjacent(db, user_id, event_ids, later=False)
    if not before:
        return {}
    texts = dict(
        db.query(
            f"SELECT id, {_TURN_TEXT} FROM events WHERE user_id = ? AND id IN (SELECT unnest(?))",
            [user_id, list(set(before.values()))],
        )
    )
    return {turn: (prior, texts[prior]) for turn, prior in before.items() if prior in texts}


def _adjacent(
    db: Database, user_id: str, event_ids: Sequence[str], *, later: bool
) -> dict[str, str]:
    """For each of these turns that has one, the id of the turn right after (``later``) or
    before it in its session: one query per turn, about 2.5 ms at 10k turns, where one
    query for all of them (a correlated subquery or a join) took 6-10 ms for one turn."""
    side, order = (">", "") if later else ("<", " DESC")
    sql = (
        f"SELECT id FROM events WHERE user_id = ? AND kind IN ({_KINDS})"
        " AND session_id IS NOT DISTINCT FROM"
        " (SELECT session_id FROM events WHERE user_id = ? AND id = ?)"
        f" AND seq {side} (SELECT seq FROM events WHERE user_id = ? AND id = ?)"
        f" ORDER BY seq{order} LIMIT 1"
    )
    found = {}
    for turn in dict.fromkeys(event_ids):
        rows = db.query(sql, [user_id, user_id, turn, user_id, turn])
        if rows:
            found[turn] = rows[0][0]
    return found


def _content(event: Event) -> str:
    return str(event.payload.get("content", ""))


def turn_item(event: Event, *, before: tuple[str, str] | None = None) -> IndexedText:
    """The item of one turn; ``before`` is the id and text of the turn before it in its
    session (``turn_items`` finds it)."""
    from .vectors import IndexedText

    role = "user" if event.kind == "user_message" else "assistant"
    meta = {
        "role": role,
        **{k: v for k, v in event.payload.items() if k in ("speaker", "dia_id", "image_caption")},
    }
    return IndexedText(
        id=event.id,
        user_id=event.user_id,
        text=_content(event),
        kind="turn",
        ts=event.ts,
        session_id=event.session_id,
        trace_id=event.trace_id,
        meta=meta,
        context=before[1] if before else "",
        context_of=before[0] if before else None,
    )
