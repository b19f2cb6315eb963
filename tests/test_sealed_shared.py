"""Sealed secrets on a store that many workers share (PostgreSQL): the data keys live in the
database, wrapped under a master key file every worker holds and the database never sees
(``storage/sealed_keys.WrappedKeys``). Against the real test server."""

from __future__ import annotations

import base64
import os
import shutil
import threading
from pathlib import Path

import psycopg
import pytest

from memvisor.errors import NotFound, StorageError
from memvisor.storage import Store
from memvisor.storage.sealed import SealedStore
from memvisor.storage.sealed_keys import MASTER_KEY_ENV, KeyFile

U = "maya"
VALUE = "7391-4402"


def _open(url: str, data_dir: Path) -> Store:
    return Store.open(data_dir, embedder="hash", store=url)


def _seal(store: Store, value: str = VALUE, user: str = U) -> str:
    return store.sealed.seal(
        user_id=user, value=value, description="gate code", kind="pin", trace_id="t"
    ).id


def _dump(url: str) -> bytes:
    """Every byte the database holds in the sealing tables, as a dump would."""
    with psycopg.connect(url) as conn:
        rows = conn.execute(
            "SELECT s.ciphertext, k.wrapped, k.master_id FROM sealed_secrets s "
            "LEFT JOIN sealed_keys k ON k.id = s.id"
        ).fetchall()
    return b"".join(bytes(c or b"") + bytes(w or b"") + (m or "").encode() for c, w, m in rows)


def test_a_secret_sealed_by_one_worker_opens_on_another_that_holds_the_master_key(
    postgres_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    master = tmp_path / "secrets" / "memvisor-seal"
    monkeypatch.setenv(MASTER_KEY_ENV, str(master))
    with _open(postgres_url, tmp_path / "a") as a, _open(postgres_url, tmp_path / "b") as b:
        secret = _seal(a)
        assert master.stat().st_mode & 0o777 == 0o600
        assert b.sealed.reveal(secret, user_id=U) == VALUE
        with pytest.raises(NotFound):
            b.sealed.reveal(secret, user_id="sam")
        assert a.sealed.forget(secret, user_id=U)
        with pytest.raises(NotFound):
            b.sealed.reveal(secret, user_id=U)
        held = _dump(postgres_url)
    key = base64.b64decode(master.read_text())
    assert VALUE.encode() not in held and key not in held  # neither value nor master key
    for data in (tmp_path / "a", tmp_path / "b"):  # no key of any kind in the data dirs
        assert not [p.name for p in data.rglob("*") if "key" in p.name]


def test_the_master_key_defaults_to_the_data_directory_and_workers_share_copies(
    postgres_url: str, tmp_path: Path
) -> None:
    with _open(postgres_url, tmp_path / "a") as a:
        secret = _seal(a)
    made = tmp_path / "a" / "sealed-master.key"
    assert made.is_file() and not (tmp_path / "a" / "sealed.key").exists()
    (tmp_path / "b").mkdir()
    shutil.copy2(made, tmp_path / "b" / "sealed-master.key")
    with _open(postgres_url, tmp_path / "b") as b:
        assert b.sealed.reveal(secret, user_id=U) == VALUE
        assert b.sealed.reveal(_seal(b, "second"), user_id=U) == "second"


def test_a_worker_without_the_stores_master_key_is_told_and_seals_nothing(
    postgres_url: str, tmp_path: Path
) -> None:
    with _open(postgres_url, tmp_path / "a") as a:
        secret = _seal(a)
    with _open(postgres_url, tmp_path / "missing") as b:
        with pytest.raises(StorageError, match="master key .* is missing: copy it"):
            b.sealed.reveal(secret, user_id=U)
        with pytest.raises(StorageError, match="missing"):
            _seal(b)
    other = tmp_path / "other"
    other.mkdir()
    (other / "sealed-master.key").write_text(base64.b64encode(os.urandom(32)).decode())
    os.chmod(other / "sealed-master.key", 0o600)
    with _open(postgres_url, other) as c:
        for attempt in (lambda: c.sealed.reveal(secret, user_id=U), lambda: _seal(c)):
            with pytest.raises(StorageError, match="give every worker the same key file") as e:
                attempt()
            assert "mk_" in str(e.value) and "\n" not in str(e.value)
        assert [s.id for s in c.sealed.list(user_id=U)] == [secret]  # nothing was added


def test_threads_of_two_workers_sealing_at_once_lose_no_key(
    postgres_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(MASTER_KEY_ENV, str(tmp_path / "seal.key"))
    sealed: dict[str, str] = {}
    with _open(postgres_url, tmp_path / "a") as a, _open(postgres_url, tmp_path / "b") as b:

        def work(store: Store, name: str) -> None:
            for i in range(10):
                value = f"{name}-{i}-code"
                sealed[_seal(store, value)] = value

        threads = [
            threading.Thread(target=work, args=(store, f"{name}{t}"))
            for name, store in (("a", a), ("b", b))
            for t in range(2)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert len(sealed) == 40
        for secret, value in sealed.items():
            assert a.sealed.reveal(secret, user_id=U) == value


def test_keys_an_earlier_memvisor_kept_beside_the_store_are_wrapped_into_it(
    postgres_url: str, tmp_path: Path
) -> None:
    data = tmp_path / "data"
    with _open(postgres_url, data) as store:  # sealed as before: a key file in the directory
        legacy = SealedStore(store.db, store.clock, keys=KeyFile(data / "sealed.key"))
        secret = legacy.seal(user_id=U, value=VALUE, description="gate", kind="pin", trace_id="t")
    assert secret.id in KeyFile(data / "sealed.key").read(missing_ok=False)
    with _open(postgres_url, data) as store:
        assert store.sealed.reveal(secret.id, user_id=U) == VALUE
    assert KeyFile(data / "sealed.key").read(missing_ok=True) == {}  # one copy: the wrapped one
    (tmp_path / "b").mkdir()
    shutil.copy2(data / "sealed-master.key", tmp_path / "b" / "sealed-master.key")
    with _open(postgres_url, tmp_path / "b") as other:
        assert other.sealed.reveal(secret.id, user_id=U) == VALUE
