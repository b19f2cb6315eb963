"""Sealed secrets: a value the user asked to keep (a gate code, a router password), stored
encrypted at rest and revealed only to its owner.

Each secret is sealed with AES-256-GCM (``cryptography``'s audited primitive) under its own
random 256-bit data key. Where the keys live is ``sealed_keys``'s: on a shared store
(PostgreSQL) in the database, each wrapped under a master key file every worker holds
(``WrappedKeys``: added and deleted in the secret's own transactions). What follows is the
embedded store's ``KeyFile``. The keys live beside the record store, never inside it, in the
key file ``sealed.key``: a small JSON map ``{"version": 1, "keys": {secret_id: base64 key}}``,
mode 0600, made on the first seal and only ever rewritten atomically (a 0600 temp file in the
same directory, fsynced, ``os.replace``d over the old one, the directory fsynced), under a
``threading.Lock`` so that threads sealing at once do not lose each other's keys (one process
owns the data directory: ``DataDirLock``). Each row holds a random 12-byte nonce followed by
the ciphertext and its tag; the associated data is ``"{id}|{user_id}"``, so a ciphertext
copied to another row or another user does not open. The rows (so the DuckDB file, its WAL
and an export) hold the ciphertext, never the value nor a key; keeping the value out of the
rest (the logged message that said it, tool-call events, the search index) is up to the
caller that seals it.

Sealing writes the key before the row commits. If the row then does not commit (the insert
fails, or the caller's transaction rolls back), a key is left for a row that does not exist:
harmless, it opens nothing stored. It is dropped when the insert itself fails, and is not
pruned on open, because a key file copied into a new data directory before an import holds
keys for rows that do not exist yet.

Forgetting a secret is crypto-shredding: its key is removed from the key file (atomically,
before the transaction that marks the row forgotten commits) and its ciphertext overwritten
with empty bytes, so no read, reveal or export finds it again, and the old ciphertext DuckDB
may keep in blocks it has freed but not reused can no longer be decrypted. If that
transaction rolls back after the key is gone, the secret stays listed but cannot be revealed
(a clear StorageError): it fails towards forgetting, and forgetting it again finishes the
job. An imported row that is forgotten drops its key the same way. On open, the keys of rows
already forgotten (a key file restored from a backup older than the forget) are dropped, and
temp files left by a write cut short (they may hold such keys) are removed. Copies of the
key file this code does not control (backups, the old blocks of a replaced file on disk)
stay the owner's to destroy.

No key is in an export: an export imported into another data directory keeps the rows, but
only the ``sealed.key`` they were sealed under (copied alongside) opens them.
"""

from __future__ import annotations

import base64
import os
import re
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from pydantic import Field

from memvisor.errors import NotFound, StorageError, UserError

from .clock import Clock
from .database import Database, db_time, from_db_time
from .ids import new_id
from .records import Record
from .sealed_keys import KeyFile, WrappedKeys
from .text import valid_utf8
from .users import require_user

NONCE_BYTES = 12  # the GCM standard nonce; random per seal
_TAG_BYTES = 16
MAX_VALUE_CHARS = 1000
MAX_DESCRIPTION_CHARS = 200
_KIND = re.compile(r"[a-z][a-z0-9_]{0,39}")
_COLUMNS = "id, user_id, description, kind, created_at, trace_id, source_event_ids, forgotten_at"


class SealedSecret(Record):
    """What is known of a sealed secret without opening it: never its value."""

    id: str
    user_id: str
    description: str
    kind: str
    created_at: datetime
    trace_id: str
    source_event_ids: list[str] = Field(default_factory=list)
    forgotten_at: datetime | None = None


class SealedRow(SealedSecret):
    """A sealed secret as an export holds it: the metadata and ``ciphertext``, the base64 of
    nonce + AES-GCM output (empty once forgotten). Neither the value nor its key is exported."""

    ciphertext: str


class SealedStore:
    """Seal, reveal and forget one user's secrets. ``keys`` holds the data keys
    (``sealed_keys``): a ``KeyFile`` (``key_path``; None keeps them in memory) or, on a
    shared store, ``WrappedKeys``."""

    def __init__(
        self,
        db: Database,
        clock: Clock,
        *,
        key_path: Path | None = None,
        keys: KeyFile | WrappedKeys | None = None,
    ) -> None:
        self._db = db
        self._clock = clock
        self.keys = keys if keys is not None else KeyFile(key_path)
        if not db.read_only:
            self.keys.tidy(db)

    # -- writes --

    def seal(
        self,
        *,
        user_id: str,
        value: str,
        description: str,
        kind: str,
        trace_id: str,
        source_event_ids: Sequence[str] = (),
    ) -> SealedSecret:
        """Encrypt ``value`` under a new key of its own and store it; joins the caller's
        transaction if one is open."""
        require_user(user_id)
        value, description = _checked(value, description, kind)
        secret = SealedSecret(
            id=new_id("sec"),
            user_id=user_id,
            description=description,
            kind=kind,
            created_at=self._clock.now(),
            trace_id=trace_id,
            source_event_ids=list(source_event_ids),
        )
        # Loaded here, not with the store: every store opens, few seal (17 ms of start-up).
        from cryptography.hazmat.primitives.ciphers.aead import AESGCM

        key = AESGCM.generate_key(bit_length=256)
        nonce = os.urandom(NONCE_BYTES)
        blob = nonce + AESGCM(key).encrypt(nonce, value.encode(), _aad(secret.id, user_id))
        try:
            with self._db.transaction() as conn:
                self.keys.add(conn, secret.id, user_id, key)  # a key error writes nothing
                _insert(conn, secret, blob)
        except Exception:
            self.keys.discard(secret.id)  # left behind it would be harmless, but tidy
            raise
        return secret

    def forget(self, secret_id: str, *, user_id: str) -> bool:
        """Mark it forgotten, overwrite its ciphertext with empty bytes and remove its key
        from the key file (before the commit), so nothing left in the DuckDB file opens
        again; False when there is no live secret of that id for this user."""
        require_user(user_id)
        with self._db.transaction() as conn:
            found = conn.execute(
                "UPDATE sealed_secrets SET forgotten_at = ?, ciphertext = ? "
                "WHERE user_id = ? AND id = ? AND forgotten_at IS NULL RETURNING id",
                [db_time(self._clock.now()), b"", user_id, secret_id],
            ).fetchall()
            if found:
                self.keys.drop(conn, [secret_id])  # a failure here rolls the forget back
        return bool(found)

    # -- reads --

    def reveal(self, secret_id: str, *, user_id: str) -> str:
        """The value, for its owner only; NotFound alike for unknown, another user's and
        forgotten ids; StorageError when the key file is missing or corrupt, or holds no key
        that opens the row."""
        require_user(user_id)
        rows = self._db.query(
            "SELECT ciphertext FROM sealed_secrets "
            "WHERE user_id = ? AND id = ? AND forgotten_at IS NULL",
            [user_id, secret_id],
        )
        if not rows:
            raise not_found(secret_id)
        blob = bytes(rows[0][0] or b"")
        key = self.keys.key(secret_id, user_id)
        if len(blob) < NONCE_BYTES + _TAG_BYTES:
            raise StorageError(self.keys.unopened(secret_id))
        from cryptography.exceptions import InvalidTag
        from cryptography.hazmat.primitives.ciphers.aead import AESGCM

        try:
            plain = AESGCM(key).decrypt(
                blob[:NONCE_BYTES], blob[NONCE_BYTES:], _aad(secret_id, user_id)
            )
        except InvalidTag:
            raise StorageError(self.keys.unopened(secret_id)) from None
        return plain.decode()

    def get(self, secret_id: str, *, user_id: str) -> SealedSecret:
        """Metadata of one live secret (never the value)."""
        found = self.describe([secret_id], user_id=user_id)
        if secret_id not in found:
            raise not_found(secret_id)
        return found[secret_id]

    def describe(self, ids: Sequence[str], *, user_id: str) -> dict[str, SealedSecret]:
        """Metadata of the live secrets among ``ids`` (for page-in); others are left out."""
        require_user(user_id)
        wanted = [i for i in ids if isinstance(i, str)]
        if not wanted:
            return {}
        rows = self._db.query(
            f"SELECT {_COLUMNS} FROM sealed_secrets WHERE user_id = ? "
            "AND id IN (SELECT unnest(?)) AND forgotten_at IS NULL",
            [user_id, wanted],
        )
        return {r[0]: _secret(r) for r in rows}

    # -- export and import: the ciphertext travels, the keys do not --

    def rows(self, *, user_id: str) -> list[SealedRow]:
        """Every row of the user, forgotten ones included, with the ciphertext in base64."""
        rows = self._db.query(
            f"SELECT {_COLUMNS}, ciphertext FROM sealed_secrets WHERE user_id = ? "
            "ORDER BY created_at, id",
            [require_user(user_id)],
        )
        return [
            SealedRow(
                **_secret(r).model_dump(),
                ciphertext=base64.b64encode(bytes(r[8] or b"")).decode("ascii"),
            )
            for r in rows
        ]

    def restore(self, row: SealedRow, *, user_id: str, conn: Any) -> None:
        """Write an exported row exactly as it was; runs in the caller's transaction. A
        forgotten row drops its key here too (before the commit, as ``forget`` does)."""
        if row.user_id != user_id:
            raise UserError(f"sealed secret {row.id} belongs to another user")
        try:
            blob = base64.b64decode(row.ciphertext, validate=True)
        except ValueError:
            raise UserError(f"sealed secret {row.id}: its ciphertext is not base64") from None
        if row.forgotten_at is not None:
            blob = b""  # forgotten stays shredded, whatever the document says
            self.keys.drop(conn, [row.id])
        conn.execute("DELETE FROM sealed_secrets WHERE user_id = ? AND id = ?", [user_id, row.id])
        _insert(conn, SealedSecret(**row.model_dump(exclude={"ciphertext"})), blob)

    # last: below it, ``list`` in an annotation would name this method
    def list(self, *, user_id: str, include_forgotten: bool = False) -> list[SealedSecret]:
        """The user's secrets (metadata), oldest first; forgotten ones only if asked."""
        live = "" if include_forgotten else " AND forgotten_at IS NULL"
        rows = self._db.query(
            f"SELECT {_COLUMNS} FROM sealed_secrets WHERE user_id = ?{live} "
            "ORDER BY created_at, id",
            [require_user(user_id)],
        )
        return [_secret(r) for r in rows]


def _checked(value: Any, description: Any, kind: Any) -> tuple[str, str]:
    if not isinstance(value, str) or not value.strip():
        raise UserError("a sealed secret's value must be non-empty text")
    if len(value) > MAX_VALUE_CHARS:
        raise UserError(
            f"a sealed secret is at most {MAX_VALUE_CHARS} characters, got {len(value)}"
        )
    if not isinstance(description, str) or not description.strip():
        raise UserError("a sealed secret needs a short description, e.g. 'allotment gate code'")
    description = " ".join(description.split())
    if len(description) > MAX_DESCRIPTION_CHARS:
        raise UserError(
            f"a sealed secret's description is at most {MAX_DESCRIPTION_CHARS} characters, "
            f"got {len(description)}"
        )
    if len(value.strip()) >= 3 and value.strip().casefold() in description.casefold():
        raise UserError(
            "the description contains the secret itself: describe what it is for "
            "(e.g. 'router password'), not its value"
        )
    if not isinstance(kind, str) or not _KIND.fullmatch(kind):
        raise UserError(
            f"invalid secret kind {str(kind)[:40]!r}: use a lower-case word such as "
            "'password', 'pin' or 'card_number'"
        )
    return valid_utf8(value), description


def _aad(secret_id: str, user_id: str) -> bytes:
    return f"{secret_id}|{user_id}".encode()


def not_found(secret_id: Any) -> NotFound:
    """The same words for an unknown id, another user's and a forgotten one."""
    return NotFound(f"no sealed secret {str(secret_id)[:60]!r} for this user")


def _insert(conn: Any, secret: SealedSecret, blob: bytes) -> None:
    conn.execute(
        f"INSERT INTO sealed_secrets ({_COLUMNS}, ciphertext) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            secret.id,
            secret.user_id,
            secret.description,
            secret.kind,
            db_time(secret.created_at),
            secret.trace_id,
            secret.source_event_ids,
            db_time(secret.forgotten_at),
            blob,
        ],
    )


def _secret(row: tuple[Any, ...]) -> SealedSecret:
    return SealedSecret(
        id=row[0],
        user_id=row[1],
        description=row[2],
        kind=row[3],
        created_at=from_db_time(row[4]),
        trace_id=row[5],
        source_event_ids=list(row[6] or []),
        forgotten_at=from_db_time(row[7]),
    )
