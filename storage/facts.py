"""Facts: versioned (subject, predicate, object) triples with lineage, TTL and as-of reads.

A fact with the same subject and predicate but another object supersedes the
old one (which keeps its row and lineage); the same object again confirms it.
Predicates that naturally hold many values (``likes``, ``has_child``...) add
instead of superseding: Graphiti invalidated most facts collaterally by
superseding non-comparable ones.
"""

from __future__ import annotations

import builtins
import hashlib
import re
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from memvisor.errors import NotFound, UserError

from .archive import not_archived
from .clock import Clock
from .database import Database, db_time, from_db_time
from .fact_view import FactView
from .forgetting import source_hashes
from .ids import new_id
from .records import Fact, FactWrite
from .users import require_user

MULTI_VALUED_PREDICATES = frozenset(
    {
        "likes",
        "dislikes",
        "loves",
        "enjoys",
        "has_child",
        "has_pet",
        "has_sibling",
        "has_friend",
        "speaks",
        "allergic_to",
        "owns",
        "visited",
        "hobby",
        "has_hobby",
        "knows",
        "interested_in",
        "ordered",
        "has_order",
        "works_with",
        "member_of",
        "prefers_not",
        "avoids",
    }
)

MAX_FIELD_CHARS = {"subject": 200, "predicate": 100, "object": 2000}

_COLUMNS = (
    "id, user_id, lineage_id, subject, predicate, object, confidence, importance, status, "
    "valid_from, valid_until, invalidated_at, created_at, last_confirmed_at, confirmations, "
    "version, supersedes, source_event_ids, trace_id"
)

_CREATED_AT = 12  # its place in _COLUMNS


def normalize_predicate(predicate: str) -> str:
    """'worksAt', 'works at', 'Works-At' -> 'works_at': the one form stored and compared."""
    text = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", predicate.strip())
    return re.sub(r"_+", "_", re.sub(r"[\s\-./]+", "_", text.lower())).strip("_")


def fingerprint(subject: str, predicate: str, obj: str) -> str:
    key = "\x1f".join(
        (subject.strip().lower(), normalize_predicate(predicate), obj.strip().lower())
    )
    return hashlib.sha256(key.encode()).hexdigest()[:32]


class FactStore:
    def __init__(
        self, db: Database, clock: Clock, *, multi_valued: frozenset[str] = MULTI_VALUED_PREDICATES
    ) -> None:
        self._db = db
        self._clock = clock
        self._multi_valued = multi_valued
        self._view = FactView(db, _COLUMNS, _fact)  # valid_among runs on every page-in

    def remember(
        self,
        *,
        user_id: str,
        subject: str,
        predicate: str,
        object: str,
        trace_id: str,
        confidence: float = 0.8,
        importance: float = 0.5,
        valid_from: datetime | None = None,
        valid_until: datetime | None = None,
        source_event_ids: Sequence[str] = (),
    ) -> FactWrite:
        """Create, confirm or supersede; committed before it returns."""
        require_user(user_id)
        subject, predicate, obj = _validate(subject, predicate, object)
        _check_unit("confidence", confidence)
        _check_unit("importance", importance)
        now = self._clock.now()
        valid_from = valid_from or now
        if valid_until is not None and valid_until <= valid_from:
            raise UserError("valid_until must be later than valid_from (or now)")
        sources = list(dict.fromkeys(source_event_ids))
        with self._db.transaction() as conn:
            if self._tombstoned(conn, user_id, subject, predicate, obj, sources):
                return FactWrite(action="suppressed", fact=None)
            # Sorted here, not by an ORDER BY: DuckDB plans a sort for the one or two rows
            # at a quarter of the statement's cost, on every write.
            rows = conn.execute(
                f"SELECT {_COLUMNS} FROM facts WHERE user_id = ? AND lower(subject) = lower(?) "
                "AND predicate = ? AND status = 'active' "
                "AND (valid_until IS NULL OR valid_until > ?)",
                [user_id, subject, predicate, db_time(now)],
            ).fetchall()
            current = [_fact(r) for r in sorted(rows, key=lambda row: row[_CREATED_AT])]
            same = next((f for f in current if f.object.lower() == obj.lower()), None)
            if same is not None:
                return FactWrite(
                    action="confirmed",
                    fact=self._confirm(conn, same, confidence, valid_until, sources, now),
                )
            previous = None if predicate in self._multi_valued or not current else current[-1]
            fact = Fact(
                id=new_id("fct"),
                user_id=user_id,
                lineage_id="",
                subject=subject,
                predicate=predicate,
                object=obj,
                confidence=confidence,
                importance=importance,
                status="active",
                valid_from=valid_from,
                valid_until=valid_until,
                created_at=now,
                confirmations=0,
                version=1,
                source_event_ids=sources,
                trace_id=trace_id,
            )
            if previous is None:
                fact.lineage_id = fact.id
                _insert(conn, fact)
                return FactWrite(action="created", fact=fact)
            fact.lineage_id = previous.lineage_id
            fact.version = previous.version + 1
            fact.supersedes = previous.id
            conn.execute(
                "UPDATE facts SET status = 'superseded', invalidated_at = ?, "
                "rev = nextval('fact_rev') WHERE user_id = ? AND id = ?",
                [db_time(now), user_id, previous.id],
            )
            _insert(conn, fact)
            previous.status, previous.invalidated_at = "superseded", now
            return FactWrite(action="superseded", fact=fact, previous=previous)

    def _confirm(
        self,
        conn: Any,
        fact: Fact,
        confidence: float,
        valid_until: datetime | None,
        sources: list[str],
        now: datetime,
    ) -> Fact:
        # A confirmation never lowers confidence, and extends (never shortens) validity.
        merged = list(dict.fromkeys([*fact.source_event_ids, *sources]))
        until = fact.valid_until
        if valid_until is not None and until is not None:
            until = max(until, valid_until)
        conn.execute(
            "UPDATE facts SET confirmations = confirmations + 1, last_confirmed_at = ?, "
            "confidence = ?, valid_until = ?, source_event_ids = ?, rev = nextval('fact_rev') "
            "WHERE user_id = ? AND id = ?",
            [
                db_time(now),
                max(fact.confidence, confidence),
                db_time(until),
                merged,
                fact.user_id,
                fact.id,
            ],
        )
        return fact.model_copy(
            update={
                "confirmations": fact.confirmations + 1,
                "last_confirmed_at": now,
                "confidence": max(fact.confidence, confidence),
                "valid_until": until,
                "source_event_ids": merged,
            }
        )

    @staticmethod
    def _tombstoned(
        conn: Any, user_id: str, subject: str, predicate: str, obj: str, sources: list[str]
    ) -> bool:
        if not sources:
            return False
        # The tombstones of this triple first: almost always none, and then the sources'
        # texts need not be read and hashed (one statement instead of two).
        rows = conn.execute(
            "SELECT source_event_ids, source_hashes FROM tombstones "
            "WHERE user_id = ? AND fingerprint = ?",
            [user_id, fingerprint(subject, predicate, obj)],
        ).fetchall()
        if not rows:
            return False
        said = set(sources)
        if any(said.intersection(ids or []) for ids, _ in rows):
            return True
        hashes = set(source_hashes(conn, user_id, sources))
        return any(hashes.intersection(known or []) for _, known in rows)

    def get(self, fact_id: str, *, user_id: str) -> Fact:
        rows = self._db.query(
            f"SELECT {_COLUMNS} FROM facts WHERE user_id = ? AND id = ?",
            [require_user(user_id), fact_id],
        )
        if not rows:
            raise NotFound(
                f"no fact {fact_id!r} for user {user_id!r}; list ids with `memvisor memory list`"
            )
        return self._effective(_fact(rows[0]))

    def history(self, fact_id: str, *, user_id: str) -> builtins.list[Fact]:
        """Every version in the fact's lineage, oldest first."""
        fact = self.get(fact_id, user_id=user_id)
        rows = self._db.query(
            f"SELECT {_COLUMNS} FROM facts WHERE user_id = ? AND lineage_id = ? ORDER BY version",
            [user_id, fact.lineage_id],
        )
        return [self._effective(_fact(r)) for r in rows]

    def list(
        self,
        *,
        user_id: str,
        as_of: datetime | None = None,
        include_inactive: bool = False,
        subject: str | None = None,
        limit: int | None = None,
        include_archived: bool = True,
    ) -> builtins.list[Fact]:
        """Facts valid at ``as_of`` (default now); or every row with ``include_inactive``.

        Archived facts are listed unless ``include_archived=False``: they are still data
        (a new value supersedes them, and the firewall weighs writes against them); page-in
        and search skip them through ``valid_among``.
        """
        require_user(user_id)
        params: list[Any] = [user_id]
        sql = f"SELECT {_COLUMNS} FROM facts WHERE user_id = ?"
        if not include_archived:
            sql += f" AND {not_archived('facts')}"
        if not include_inactive:
            at = db_time(as_of or self._clock.now())
            sql += (
                " AND status IN ('active', 'superseded') AND created_at <= ? "
                "AND valid_from <= ? AND (valid_until IS NULL OR valid_until > ?) "
                "AND (invalidated_at IS NULL OR invalidated_at > ?)"
            )
            params += [at, at, at, at]
        if subject:
            sql += " AND lower(subject) = lower(?)"
            params.append(subject)
        sql += " ORDER BY created_at, id"
        if limit is not None:
            sql += f" LIMIT {int(limit)}"
        return [self._effective(_fact(r)) for r in self._db.query(sql, params)]

    def warm(self, user_id: str) -> None:
        """Read the user's newly written facts into page-in's copy now (``FactView.warm``)."""
        self._view.warm(user_id)

    def valid_among(
        self, ids: Sequence[str], *, user_id: str, as_of: datetime | None = None
    ) -> dict[str, Fact]:
        """Of these ids, the unarchived facts valid at ``as_of`` (what page-in may show)."""
        require_user(user_id)
        ids = [i for i in dict.fromkeys(ids) if i.startswith("fct_")]
        if not ids:
            return {}
        rows = self._view.facts(ids, user_id=user_id)
        at = as_of or self._clock.now()
        valid: dict[str, Fact] = {}
        for fact_id, (fact, live) in rows.items():
            if live and _valid_at(fact, at):
                valid[fact_id] = fact
        return valid

    def edit(
        self,
        fact_id: str,
        *,
        user_id: str,
        trace_id: str,
        object: str | None = None,
        confidence: float | None = None,
        valid_until: datetime | None = None,
        source_event_ids: Sequence[str] = (),
    ) -> FactWrite:
        """A user's edit is a new version superseding the current one."""
        fact = self.get(fact_id, user_id=user_id)
        if fact.status != "active":
            raise UserError(
                f"fact {fact_id} is {fact.status}; edit its current version "
                "(see `memvisor memory history`)"
            )
        if object is None and confidence is None and valid_until is None:
            raise UserError("nothing to edit: pass --object, --confidence or --valid-until")
        new_obj = _validate(fact.subject, fact.predicate, object)[2] if object else fact.object
        now = self._clock.now()
        if valid_until is not None and valid_until <= now:
            raise UserError("valid_until must be in the future")
        new = fact.model_copy(
            update={
                "id": new_id("fct"),
                "object": new_obj,
                "confidence": fact.confidence if confidence is None else confidence,
                "valid_until": valid_until or fact.valid_until,
                "created_at": now,
                "version": fact.version + 1,
                "supersedes": fact.id,
                "trace_id": trace_id,
                "source_event_ids": list(source_event_ids) or fact.source_event_ids,
                "status": "active",
                "last_confirmed_at": None,
                "invalidated_at": None,
            }
        )
        _check_unit("confidence", new.confidence)
        with self._db.transaction() as conn:
            conn.execute(
                "UPDATE facts SET status = 'superseded', invalidated_at = ?, "
                "rev = nextval('fact_rev') WHERE user_id = ? AND id = ?",
                [db_time(now), user_id, fact.id],
            )
            _insert(conn, new)
        return FactWrite(action="superseded", fact=new, previous=fact)

    def forget(
        self, fact_id: str, *, user_id: str, trace_id: str, conn: Any
    ) -> builtins.list[Fact]:
        """Delete every version of the lineage; leave tombstones. Runs in the caller's tx."""
        fact = self.get(fact_id, user_id=user_id)
        rows = conn.execute(
            f"SELECT {_COLUMNS} FROM facts WHERE user_id = ? AND lineage_id = ?",
            [user_id, fact.lineage_id],
        ).fetchall()
        versions = [_fact(r) for r in rows]
        now = db_time(self._clock.now())
        for v in versions:
            conn.execute(
                "INSERT INTO tombstones (user_id, record_id, kind, fingerprint, "
                "source_event_ids, forgotten_at, trace_id, source_hashes) "
                "VALUES (?, ?, 'fact', ?, ?, ?, ?, ?)",
                [
                    user_id,
                    v.id,
                    fingerprint(v.subject, v.predicate, v.object),
                    v.source_event_ids,
                    now,
                    trace_id,
                    source_hashes(conn, user_id, v.source_event_ids),
                ],
            )
        conn.execute(
            "DELETE FROM archived WHERE user_id = ? AND item_id IN (SELECT unnest(?))",
            [user_id, [v.id for v in versions]],
        )
        conn.execute(
            "DELETE FROM facts WHERE user_id = ? AND lineage_id = ?", [user_id, fact.lineage_id]
        )
        return versions

    def restore(self, fact: Fact, *, user_id: str, conn: Any) -> None:
        """Insert a fact exactly as exported (import path)."""
        if fact.user_id != user_id:
            raise UserError(f"fact {fact.id} belongs to another user")
        conn.execute("DELETE FROM facts WHERE user_id = ? AND id = ?", [user_id, fact.id])
        _insert(conn, fact)

    def _effective(self, fact: Fact) -> Fact:
        if fact.status == "active" and fact.valid_until and fact.valid_until <= self._clock.now():
            return fact.model_copy(update={"status": "expired"})
        return fact

    def count(self, *, user_id: str) -> int:
        return int(
            self._db.query("SELECT count(*) FROM facts WHERE user_id = ?", [require_user(user_id)])[
                0
            ][0]
        )


def _validate(subject: str, predicate: str, obj: str | None) -> tuple[str, str, str]:
    values = {"subject": subject, "predicate": predicate, "object": obj}
    for name, value in values.items():
        if not isinstance(value, str) or not value.strip():
            raise UserError(f"fact {name} must be a non-empty string")
        if len(value) > MAX_FIELD_CHARS[name]:
            raise UserError(
                f"fact {name} is {len(value)} characters; the limit is {MAX_FIELD_CHARS[name]}"
            )
    predicate = normalize_predicate(predicate)
    if not re.fullmatch(r"[\w.]+", predicate):
        raise UserError(f"invalid predicate {predicate!r}: use words joined by '_'")
    return " ".join(subject.split()), predicate, str(obj).strip()


def _check_unit(name: str, value: float) -> None:
    if not isinstance(value, int | float) or not 0.0 <= float(value) <= 1.0:
        raise UserError(f"{name} must be a number between 0 and 1, got {value!r}")


def _valid_at(fact: Fact, at: datetime) -> bool:
    """What a reader may see at ``at``: the rule of ``list`` without ``include_inactive``."""
    return (
        fact.status in ("active", "superseded")
        and fact.created_at <= at
        and fact.valid_from <= at
        and (fact.valid_until is None or fact.valid_until > at)
        and (fact.invalidated_at is None or fact.invalidated_at > at)
    )


def _insert(conn: Any, fact: Fact) -> None:
    conn.execute(
        f"INSERT INTO facts ({_COLUMNS}) VALUES ({', '.join('?' * 19)})",
        [
            fact.id,
            fact.user_id,
            fact.lineage_id,
            fact.subject,
            fact.predicate,
            fact.object,
            fact.confidence,
            fact.importance,
            fact.status,
            db_time(fact.valid_from),
            db_time(fact.valid_until),
            db_time(fact.invalidated_at),
            db_time(fact.created_at),
            db_time(fact.last_confirmed_at),
            fact.confirmations,
            fact.version,
            fact.supersedes,
            fact.source_event_ids,
            fact.trace_id,
        ],
    )


def _fact(row: tuple[Any, ...]) -> Fact:
    return Fact(
        id=row[0],
        user_id=row[1],
        lineage_id=row[2],
        subject=row[3],
        predicate=row[4],
        object=row[5],
        confidence=row[6],
        importance=row[7],
        status=row[8],
        valid_from=from_db_time(row[9]),
        valid_until=from_db_time(row[10]),
        invalidated_at=from_db_time(row[11]),
        created_at=from_db_time(row[12]),
        last_confirmed_at=from_db_time(row[13]),
        confirmations=row[14],
        version=row[15],
        supersedes=row[16],
        source_event_ids=list(row[17] or []),
        trace_id=row[18],
    )
