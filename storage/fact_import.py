"""Facts an import brings into a live store: one active value per single-valued predicate.

``FactStore.remember`` supersedes the current value when a new one arrives; an import adds
facts of another store's history, so after it the same rule is applied to every subject and
predicate it touched: the value created last stays active, the others are superseded at the
moment it was created (their rows and lineage stay, as after a ``remember``).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from .database import db_time
from .facts import MULTI_VALUED_PREDICATES
from .import_report import SupersededFact
from .records import Fact


def is_active(fact: Fact, now: datetime) -> bool:
    """Active and not past its ``valid_until`` (what ``remember`` would supersede)."""
    return fact.status == "active" and (fact.valid_until is None or fact.valid_until > now)


def effective(fact: Fact, now: datetime) -> Fact:
    """The fact as ``FactStore`` reads it at ``now``: an active one past its end is expired."""
    if fact.status == "active" and fact.valid_until and fact.valid_until <= now:
        return fact.model_copy(update={"status": "expired"})
    return fact


def value_key(fact: Fact) -> tuple[str, str, str]:
    """Facts with this key state the same thing (``remember`` would confirm, not add)."""
    return fact.subject.lower(), fact.predicate, fact.object.strip().lower()


def one_value_each(
    conn: Any, *, store_facts: Iterable[Fact], imported: Iterable[Fact], now: datetime
) -> list[SupersededFact]:
    """Supersede all but the latest active fact of every single-valued predicate and subject
    that an imported fact takes part in; runs in the caller's transaction."""
    touched = {
        (f.subject.lower(), f.predicate)
        for f in imported
        if f.predicate not in MULTI_VALUED_PREDICATES and is_active(f, now)
    }
    groups: dict[tuple[str, str], dict[str, Fact]] = {}
    for fact in [*store_facts, *imported]:
        key = (fact.subject.lower(), fact.predicate)
        if key in touched and is_active(fact, now):
            groups.setdefault(key, {})[fact.id] = fact
    superseded = []
    for group in groups.values():
        if len(group) < 2:
            continue
        latest = max(group.values(), key=lambda f: (f.created_at, f.id))
        for fact in group.values():
            if fact.id == latest.id:
                continue
            supersede(conn, fact, at=latest.created_at)
            superseded.append(
                SupersededFact(
                    id=fact.id, by=latest.id, subject=fact.subject, predicate=fact.predicate
                )
            )
    return superseded


def supersede(conn: Any, fact: Fact, *, at: datetime) -> None:
    conn.execute(
        "UPDATE facts SET status = 'superseded', invalidated_at = ?, rev = nextval('fact_rev') "
        "WHERE user_id = ? AND id = ?",
        [db_time(at), fact.user_id, fact.id],
    )
