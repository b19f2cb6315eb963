"""Where the data keys of sealed secrets live: a key file for the embedded store, wrapped
rows in the database for a shared one.

``KeyFile`` (embedded; ``sealed.key`` in the data directory): ``{"version": 1, "keys":
{secret_id: base64 key}}``, mode 0600, rewritten atomically under a thread lock. One process
owns the directory, so a thread lock is enough.

``WrappedKeys`` (PostgreSQL, which many processes on many machines share): each secret's
data key is stored in ``sealed_keys``, encrypted (AES-256-GCM, associated data
``"{id}|{user_id}|key"``) under a master key that never enters the database: the file
``$MEMVISOR_SEAL_KEY_FILE``, else ``sealed-master.key`` in the data directory (base64, mode
0600). A key is added in the transaction that stores its secret and deleted in the one that
forgets it, so every process sees the same keys and no file needs a lock. Every worker
must hold the same master key file: the store records the id (a hash) of the key its
secrets are sealed under (``sealed_master``), refuses to seal under another, and a reveal
under another names both ids. A database dump alone opens nothing; forgetting deletes the
wrapped key, and the dead row PostgreSQL keeps until vacuum holds it still encrypted.

``WrappedKeys.adopt`` wraps the keys of a ``sealed.key`` file into the store: ``memvisor
migrate`` moves an embedded store's keys this way, and a PostgreSQL store whose data
directory still has the key file of an earlier memvisor takes its keys on open.
"""

from __future__ import annotations

import base64
import glob
import hashlib
import json
import os
import tempfile
import threading
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from memvisor.errors import StorageError

from .database import Database
from .logger import logger

KEY_BYTES = 32  # AES-256, one data key per secret
KEY_FILE_VERSION = 1
NONCE_BYTES = 12
KEY_FILE = "sealed.key"
MASTER_KEY_FILE = "sealed-master.key"
MASTER_KEY_ENV = "MEMVISOR_SEAL_KEY_FILE"


def master_key_path(data_dir: Path) -> Path:
    """The master key file of a shared store: ``$MEMVISOR_SEAL_KEY_FILE``, else in the data
    directory."""
    named = os.environ.get(MASTER_KEY_ENV, "").strip()
    return Path(named).expanduser() if named else Path(data_dir) / MASTER_KEY_FILE


class KeyFile:
    """Data keys in a key file (``path``), or in memory when ``path`` is None."""

    def __init__(self, path: Path | None) -> None:
        self.path = Path(path) if path is not None else None
        self._memory: dict[str, bytes] = {}
        self._lock = threading.Lock()  # one read-modify-write of the file at a time

    def key(self, secret_id: str, user_id: str) -> bytes:
        key = self.read(missing_ok=False, opening=secret_id).get(secret_id)
        if key is None:
            raise StorageError(
                f"the sealed-secret key file {self.where()} holds no key for {secret_id}: "
                "was the data directory's sealed.key replaced, or the secret imported from "
                "another data directory?"
            )
        return key

    def add(self, conn: Any, secret_id: str, user_id: str, key: bytes) -> None:
        """Written before the row commits: a key error writes nothing."""
        with self._lock:
            if self.path is None:
                self._memory[secret_id] = key
                return
            keys = self.read(missing_ok=True)  # a corrupt file is refused, never overwritten
            keys[secret_id] = key
            _write_keys(self.path, keys)

    def discard(self, secret_id: str) -> None:
        """The row this key was for did not commit: drop it (harmless if left)."""
        try:
            self.drop(None, [secret_id])
        except StorageError as exc:
            logger.warning("the key of the unsealed {} was left in place: {}", secret_id, exc)

    def drop(self, conn: Any, secret_ids: Iterable[str]) -> None:
        """Remove these ids' keys; the file is rewritten only if one was there."""
        with self._lock:
            if self.path is None:
                for secret_id in secret_ids:
                    self._memory.pop(secret_id, None)
                return
            keys = self.read(missing_ok=True)
            gone = [i for i in secret_ids if keys.pop(i, None) is not None]
            if gone:
                _write_keys(self.path, keys)

    def tidy(self, db: Database) -> None:
        """On open: remove temp files of a write cut short, and the keys of rows already
        forgotten (a key file restored from a backup). Best effort."""
        if self.path is None:
            return
        for stale in self.path.parent.glob(f".{glob.escape(self.path.name)}.*.tmp"):
            try:
                stale.unlink()
            except OSError as exc:
                logger.warning("cannot remove the stale sealed-secret key file {}: {}", stale, exc)
        try:
            ids = list(self.read(missing_ok=True))
            if not ids:
                return
            forgotten = db.query(
                "SELECT id FROM sealed_secrets "
                "WHERE forgotten_at IS NOT NULL AND id IN (SELECT unnest(?))",
                [ids],
            )
            if forgotten:
                self.drop(None, [r[0] for r in forgotten])
                logger.info("dropped the keys of {} forgotten sealed secrets", len(forgotten))
        except Exception as exc:  # never fail the store's open over it
            logger.warning("the sealed-secret key file {} was not tidied: {}", self.path, exc)

    def read(self, *, missing_ok: bool, opening: str = "") -> dict[str, bytes]:
        """The file's map (a copy); a missing file is empty if ``missing_ok``."""
        if self.path is None:
            return dict(self._memory)
        path = self.path
        try:
            _tighten(path)
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

    def where(self) -> str:
        return str(self.path) if self.path else "(in memory)"

    def unopened(self, secret_id: str) -> str:
        return (
            f"the sealed-secret key file {self.where()} does not open {secret_id}: was its "
            "ciphertext altered, or the data directory's sealed.key replaced?"
        )


class WrappedKeys:
    """Data keys in the shared store, wrapped under the master key file ``master_path``."""

    def __init__(self, db: Database, master_path: Path, *, legacy: Path | None = None) -> None:
        self._db = db
        self.path = Path(master_path)
        self._legacy = legacy
        self._master: bytes | None = None
        self._lock = threading.Lock()

    def key(self, secret_id: str, user_id: str) -> bytes:
        rows = self._db.query(
            "SELECT master_id, wrapped FROM sealed_keys WHERE id = ? AND user_id = ?",
            [secret_id, user_id],
        )
        if not rows:
            raise StorageError(
                f"the store holds no key for the sealed secret {secret_id}: was it imported "
                "from another store? Only `memvisor migrate` carries keys across"
            )
        master_id, wrapped = rows[0][0], bytes(rows[0][1])
        master = self._master_key(create=False)
        if master_id != _master_id(master):
            raise StorageError(
                f"the sealed secret {secret_id} was sealed under master key {master_id}, and "
                f"this process's {self.path} is {_master_id(master)}: give every worker the "
                f"same key file ({MASTER_KEY_ENV})"
            )
        return _open(master, wrapped, _key_aad(secret_id, user_id), self.unopened(secret_id))

    def add(self, conn: Any, secret_id: str, user_id: str, key: bytes) -> None:
        """In the transaction that stores the secret."""
        master = self._sealing_master(conn)
        conn.execute(
            "INSERT INTO sealed_keys (id, user_id, master_id, wrapped) VALUES (?, ?, ?, ?)",
            [secret_id, user_id, _master_id(master), _seal(master, key, secret_id, user_id)],
        )

    def discard(self, secret_id: str) -> None:
        """Nothing to do: the key's row rolled back with its secret's."""

    def drop(self, conn: Any, secret_ids: Iterable[str]) -> None:
        """In the transaction that forgets them."""
        ids = list(secret_ids)
        if ids:
            conn.execute("DELETE FROM sealed_keys WHERE id IN (SELECT unnest(?))", [ids])

    def tidy(self, db: Database) -> None:
        """On open: take the keys of a ``sealed.key`` an earlier memvisor kept beside a
        PostgreSQL store. Best effort: a reveal reports a missing key clearly."""
        if self._legacy is None or not self._legacy.is_file():
            return
        try:
            with db.transaction() as conn:
                taken = self.adopt(conn, KeyFile(self._legacy))
            if taken:
                KeyFile(self._legacy).drop(None, taken)  # one copy: the wrapped one
                logger.info(
                    "wrapped {} sealed-secret keys of {} into the store", len(taken), self._legacy
                )
        except Exception as exc:
            logger.warning("the sealed-secret keys of {} were not taken: {}", self._legacy, exc)

    def adopt(self, conn: Any, source: KeyFile) -> list[str]:
        """Wrap the keys of ``source`` whose secrets the store holds, alive and without a
        key, in the caller's transaction; the ids taken."""
        keys = source.read(missing_ok=True)
        if not keys:
            return []
        rows = conn.execute(
            "SELECT id, user_id FROM sealed_secrets WHERE forgotten_at IS NULL "
            "AND id IN (SELECT unnest(?)) AND id NOT IN (SELECT id FROM sealed_keys)",
            [sorted(keys)],
        ).fetchall()
        for secret_id, user_id in rows:
            self.add(conn, secret_id, user_id, keys[secret_id])
        return [r[0] for r in rows]

    def where(self) -> str:
        return f"the store (master key {self.path})"

    def unopened(self, secret_id: str) -> str:
        return (
            f"the master key {self.path} does not open {secret_id}: was its ciphertext or "
            "its key's row altered?"
        )

    def _sealing_master(self, conn: Any) -> bytes:
        """The master key to seal under: the store's, which this process must hold; the
        first seal of a store makes the key file if there is none, and records its id."""
        rows = conn.execute("SELECT master_id FROM sealed_master").fetchall()
        master = self._master_key(create=not rows)
        if not rows:
            conn.execute(
                "INSERT INTO sealed_master (master_id, created_at) VALUES (?, now())",
                [_master_id(master)],
            )
        elif rows[0][0] != _master_id(master):
            raise StorageError(
                f"this store's sealed secrets are under master key {rows[0][0]}, and this "
                f"process's {self.path} is {_master_id(master)}: give every worker the same "
                f"key file ({MASTER_KEY_ENV})"
            )
        return master

    def _master_key(self, *, create: bool) -> bytes:
        with self._lock:
            if self._master is None:
                self._master = _read_or_make_master(self.path, create=create)
            return self._master


def _read_or_make_master(path: Path, *, create: bool) -> bytes:
    """The master key in ``path``; made (0600, atomically: two processes making it at
    once end with the same one) if missing and ``create``."""
    try:
        _tighten(path)
        text = path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        if not create:
            raise StorageError(
                f"the sealed-secret master key {path} is missing: copy it from a worker that "
                f"has it, or point {MASTER_KEY_ENV} at it"
            ) from None
        return _make_master(path)
    except (OSError, UnicodeDecodeError) as exc:
        raise StorageError(f"cannot read the sealed-secret master key {path}: {exc}") from exc
    try:
        key = base64.b64decode(text, validate=True)
    except ValueError:
        key = b""
    if len(key) != KEY_BYTES:
        raise StorageError(
            f"the sealed-secret master key {path} is not {KEY_BYTES} bytes in base64: "
            "restore it from a backup or from another worker"
        )
    return key


def _make_master(path: Path) -> bytes:
    key = os.urandom(KEY_BYTES)
    data = (base64.b64encode(key).decode("ascii") + "\n").encode()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(data)
                out.flush()
                os.fsync(out.fileno())
            os.link(tmp, path)  # never replaces one another process made meanwhile
        finally:
            Path(tmp).unlink(missing_ok=True)
    except FileExistsError:
        return _read_or_make_master(path, create=False)
    except OSError as exc:
        raise StorageError(f"cannot write the sealed-secret master key {path}: {exc}") from exc
    _sync_dir(path.parent)
    logger.info("made the sealed-secret master key {}: give every worker a copy", path)
    return key


def _master_id(master: bytes) -> str:
    """Names the master key without revealing it."""
    return "mk_" + hashlib.sha256(b"memvisor sealed master id\0" + master).hexdigest()[:16]


def _key_aad(secret_id: str, user_id: str) -> bytes:
    return f"{secret_id}|{user_id}|key".encode()


def _seal(master: bytes, key: bytes, secret_id: str, user_id: str) -> bytes:
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM

    nonce = os.urandom(NONCE_BYTES)
    return nonce + AESGCM(master).encrypt(nonce, key, _key_aad(secret_id, user_id))


def _open(master: bytes, wrapped: bytes, aad: bytes, failure: str) -> bytes:
    from cryptography.exceptions import InvalidTag
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM

    try:
        key = AESGCM(master).decrypt(wrapped[:NONCE_BYTES], wrapped[NONCE_BYTES:], aad)
    except (InvalidTag, ValueError):
        raise StorageError(failure) from None
    if len(key) != KEY_BYTES:
        raise StorageError(failure)
    return key


def _tighten(path: Path) -> None:
    """A key file readable by others is made 0600 (and said so)."""
    if os.name != "posix":
        return
    mode = path.stat().st_mode & 0o777
    if mode & 0o077:
        os.chmod(path, 0o600)
        logger.warning(
            "the sealed-secret key file {} was readable by others (mode {:o}); tightened to 0600",
            path,
            mode,
        )


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
