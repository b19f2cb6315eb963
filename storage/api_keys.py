"""API keys of the REST server: each bound to one user, stored only as a SHA-256 hash.

A key is 256 random bits, so a fast hash is enough (nothing to brute-force); the key is
shown once, when created, and cannot be read back.

A server asks whose a key is on every request: the live keys it has seen are kept by hash,
and all of them are dropped whenever a committed write changes the table (its
``generation``, which on PostgreSQL moves with other processes' writes too), so a key
revoked anywhere gets 401 on its next request. Unknown keys are not kept: they cannot
crowd out the live ones.
"""

from __future__ import annotations

import hashlib
import secrets
import threading
from collections import OrderedDict
from datetime import datetime
from typing import Any

from pydantic import BaseModel

from memvisor.errors import NotFound, UserError

from .clock import Clock
from .database import Database, db_time, from_db_time
from .ids import new_id
from .users import require_user

KEY_PREFIX = "mvk_"
_COLUMNS = "id, user_id, name, created_at, revoked_at"
KNOWN_KEYS = 10_000  # live keys kept by hash, the least recently used dropped first


class ApiKey(BaseModel):
    id: str
    user_id: str
    name: str
    created_at: datetime
    revoked_at: datetime | None = None


class ApiKeys:
    def __init__(self, db: Database, clock: Clock) -> None:
        self._db = db
        self._clock = clock
        self._known: OrderedDict[str, str] = OrderedDict()  # a live key's hash -> its user
        self._known_at = -1  # the table's generation the kept keys were read at
        self._lock = threading.Lock()  # a server's request threads ask at once

    def create(self, *, user_id: str, name: str = "") -> tuple[ApiKey, str]:
        """A new key for ``user_id``: the record, and the key itself (shown only now)."""
        require_user(user_id)
        if len(name) > 100:
            raise UserError(f"a key name is at most 100 characters, got {len(name)}")
        secret = KEY_PREFIX + secrets.token_urlsafe(32)
        key = ApiKey(id=new_id("key"), user_id=user_id, name=name, created_at=self._clock.now())
        with self._db.transaction() as conn:
            conn.execute(
                "INSERT INTO api_keys (id, user_id, name, key_hash, created_at) "
                "VALUES (?, ?, ?, ?, ?)",
                [key.id, user_id, name, _hash(secret), db_time(key.created_at)],
            )
        return key, secret

    def user_of(self, secret: str) -> str | None:
        """The user a live key belongs to, or None for an unknown or revoked key."""
        if not secret.startswith(KEY_PREFIX) or len(secret) > 200:
            return None
        digest = _hash(secret)
        generation = self._db.generation("api_keys")  # before the rows it guards
        with self._lock:
            if generation != self._known_at:  # a key was made or revoked: read afresh
                self._known.clear()
                self._known_at = generation
            elif (user := self._known.get(digest)) is not None:
                self._known.move_to_end(digest)
                return user
        rows = self._db.query(
            "SELECT user_id FROM api_keys WHERE key_hash = ? AND revoked_at IS NULL", [digest]
        )
        if not rows:
            return None
        user = str(rows[0][0])
        with self._lock:
            if self._known_at == generation:  # not kept if the table moved meanwhile
                self._known[digest] = user
                while len(self._known) > KNOWN_KEYS:
                    self._known.popitem(last=False)
        return user

    def list(self, *, user_id: str | None = None) -> list[ApiKey]:
        sql, params = f"SELECT {_COLUMNS} FROM api_keys", []
        if user_id is not None:
            sql, params = sql + " WHERE user_id = ?", [require_user(user_id)]
        return [_key(r) for r in self._db.query(sql + " ORDER BY created_at, id", params)]

    def revoke(self, key_id: str) -> ApiKey:
        with self._db.transaction() as conn:
            found = conn.execute(
                "UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL "
                "RETURNING " + _COLUMNS,
                [db_time(self._clock.now()), key_id],
            ).fetchall()
        if not found:
            raise NotFound(f"no live key {key_id!r}; list keys with `memvisor keys list`")
        return _key(found[0])


def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def _key(row: tuple[Any, ...]) -> ApiKey:
    return ApiKey(
        id=row[0],
        user_id=row[1],
        name=row[2],
        created_at=from_db_time(row[3]),
        revoked_at=from_db_time(row[4]) if row[4] is not None else None,
    )
