"""Sealed secrets: a value the user asked to keep (a gate code, a router password), stored
encrypted at rest and revealed only to its owner.

Each secret is sealed with AES-256-GCM (``cryptography``'s audited primitive) under its own
random 256-bit data key. The keys live beside the record store, never inside it, in the key
file ``sealed.key``: a small JSON map ``{"version": 1, "keys": {secret_id: base64 key}}``,
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
import glob
import json
import os
import re
import tempfile
import threading
from collections.abc import Iterable, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from loguru import logger
from pydantic import Field

from memvisor.errors import NotFound, StorageError, UserError

from .clock import Clock
from .database import Database, db_time, from_db_time
from .ids import new_id
from .records import Record
from .text import valid_utf8
from .users import require_user

KEY_BYTES = 32  # AES-256, one data key per secret
KEY_FILE_VERSION = 1
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
    """Seal, reveal and forget one user's secrets; ``key_path`` is the key file, None keeps
    the keys in memory."""

    def __init__(self, db: Database, clock: Clock, *, key_path: Path | None = None) -> None:
        self._db = db
        self._clock = clock
        self._key_path = Path(key_path) if key_path is not None else None
        self._memory_keys: dict[str, bytes] = {}  # when there is no key file
        self._keys_lock = threading.Lock()  # one read-modify-write of the key file at a time
        if self._key_path is not None and not db.read_only:
            self._tidy(self._key_path)

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
        self._add_key(secret.id, key)  # before the row: a key error writes nothing
        try:
            with self._db.transaction() as conn:
                _insert(conn, secret, blob)
        except Exception:
            self._drop_key_quietly(secret.id)  # left behind it would be harmless, but tidy
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
                self._drop_keys([secret_id])  # a failure here rolls the forget back
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
        key = self._keys(missing_ok=False, opening=secret_id).get(secret_id)
        if key is None:
            raise StorageError(
                f"the sealed-secret key file {self._where()} holds no key for {secret_id}: "
                "was the data directory's sealed.key replaced, or the secret imported from "
                "another data directory?"
            )
        if len(blob) < NONCE_BYTES + _TAG_BYTES:
            raise StorageError(self._unopened(secret_id))
        from cryptography.exceptions import InvalidTag
        from cryptography.hazmat.primitives.ciphers.aead import AESGCM

        try:
            plain = AESGCM(key).decrypt(
                blob[:NONCE_BYTES], blob[NONCE_BYTES:], _aad(secret_id, user_id)
            )
        except InvalidTag:
            raise StorageError(self._unopened(secret_id)) from None
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
            self._drop_keys([row.id])
        conn.execute("DELETE FROM sealed_secrets WHERE user_id = ? AND id = ?", [user_id, row.id])
        _insert(conn, SealedSecret(**row.model_dump(exclude={"ciphertext"})), blob)

    # -- the keys --

    def _keys(self, *, missing_ok: bool, opening: str = "") -> dict[str, bytes]:
        """The key file's map (a copy); a missing file is empty if ``missing_ok``."""
        if self._key_path is None:
            return dict(self._memory_keys)
        path = self._key_path
        try:
            if os.name == "posix":
                mode = path.stat().st_mode & 0o777
                if mode & 0o077:
                    os.chmod(path, 0o600)
                    logger.warning(
                        "the sealed-secret key file {} was readable by others (mode {:o}); "
                        "tightened to 0600",
                        path,
                        mode,
                    )
            raw = path.read_bytes()
        except FileNotFoundError:
            if missing_ok:
                return {}
            raise StorageError(
                f"the sealed-secret key file {path} is missing, so {opening or 'no secret'} "
                "cannot be opened: restore the data directory's sealed.key from a backup"
            ) from None
        except OSError as exc:
            raise StorageError(f"cannot read the sealed-secret key file {path}: {exc}") from exc
        return _parse_keys(raw, path)

    def _add_key(self, secret_id: str, key: bytes) -> None:
        with self._keys_lock:
            if self._key_path is None:
                self._memory_keys[secret_id] = key
                return
            keys = self._keys(missing_ok=True)  # a corrupt file is refused, never overwritten
            keys[secret_id] = key
            _write_keys(self._key_path, keys)

    def _drop_keys(self, secret_ids: Iterable[str]) -> None:
        """Remove these ids' keys (a missing key file holds none); the file is rewritten only
        if one was there."""
        with self._keys_lock:
            if self._key_path is None:
                for secret_id in secret_ids:
                    self._memory_keys.pop(secret_id, None)
                return
            keys = self._keys(missing_ok=True)
            gone = [i for i in secret_ids if keys.pop(i, None) is not None]
            if gone:
                _write_keys(self._key_path, keys)

    def _drop_key_quietly(self, secret_id: str) -> None:
        try:
            self._drop_keys([secret_id])
        except StorageError as exc:
            logger.warning("the key of the unsealed {} was left in place: {}", secret_id, exc)

    def _tidy(self, path: Path) -> None:
        """On open: remove temp files of a key-file write cut short, and the keys of rows
        already forgotten. Best effort: a reveal or seal reports a bad key file clearly."""
        for stale in path.parent.glob(f".{glob.escape(path.name)}.*.tmp"):
            try:
                stale.unlink()
            except OSError as exc:
                logger.warning("cannot remove the stale sealed-secret key file {}: {}", stale, exc)
        try:
            ids = list(self._keys(missing_ok=True))
            if not ids:
                return
            forgotten = self._db.query(
                "SELECT id FROM sealed_secrets "
                "WHERE forgotten_at IS NOT NULL AND id IN (SELECT unnest(?))",
                [ids],
            )
            if forgotten:
                self._drop_keys([r[0] for r in forgotten])
                logger.info("dropped the keys of {} forgotten sealed secrets", len(forgotten))
        except Exception as exc:  # never fail the store's open over it
            logger.warning("the sealed-secret key file {} was not tidied: {}", path, exc)

    def _where(self) -> str:
        return str(self._key_path) if self._key_path else "(in memory)"

    def _unopened(self, secret_id: str) -> str:
        return (
            f"the sealed-secret key file {self._where()} does not open {secret_id}: was its "
            "ciphertext altered, or the data directory's sealed.key replaced?"
        )

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


def _parse_keys(raw: bytes, path: Path) -> dict[str, bytes]:
    """The map in a key file's bytes; StorageError (one line, no key material) if corrupt."""

    def corrupt(why: str) -> StorageError:
        return StorageError(
            f"the sealed-secret key file {path} is corrupt ({why}): restore the data "
            "directory's sealed.key from a backup"
        )

    try:
        doc = json.loads(raw.decode("utf-8"))
    except ValueError:  # UnicodeDecodeError included; its text would quote the bytes
        raise corrupt(f"{len(raw)} bytes, not a JSON key map") from None
    if (
        not isinstance(doc, dict)
        or doc.get("version") != KEY_FILE_VERSION
        or not isinstance(doc.get("keys"), dict)
    ):
        raise corrupt(f"not a version {KEY_FILE_VERSION} key map")
    keys: dict[str, bytes] = {}
    for secret_id, text in doc["keys"].items():
        try:
            key = base64.b64decode(text, validate=True) if isinstance(text, str) else b""
        except ValueError:
            key = b""
        if len(key) != KEY_BYTES:
            raise corrupt(f"the key of {secret_id[:60]!r} is not {KEY_BYTES} bytes in base64")
        keys[secret_id] = key
    return keys


def _write_keys(path: Path, keys: dict[str, bytes]) -> None:
    """Replace the key file atomically: a 0600 temp file beside it, written and fsynced,
    renamed over it, then the directory fsynced. A reader sees the old map or the new."""
    doc = {
        "version": KEY_FILE_VERSION,
        "keys": {i: base64.b64encode(k).decode("ascii") for i, k in sorted(keys.items())},
    }
    data = (json.dumps(doc, indent=1) + "\n").encode()
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as exc:
        raise StorageError(f"cannot write the sealed-secret key file {path}: {exc}") from exc
    try:
        try:
            if hasattr(os, "fchmod"):
                os.fchmod(fd, 0o600)  # mkstemp makes it 0600; whatever the platform
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)  # never leave a copy of the keys behind
        raise StorageError(f"cannot write the sealed-secret key file {path}: {exc}") from exc
    _sync_dir(path.parent)


def _sync_dir(directory: Path) -> None:
    """Make the renamed file's directory entry durable too (best effort: not on every OS)."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


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
