"""Sealed secrets: encrypted at rest, revealed to their owner only, shredded when forgotten,
exported as ciphertext only."""

from __future__ import annotations

import base64
import json
import shutil
import stat
import threading
from pathlib import Path

import pytest
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from memvisor.agent.guards import import_through_firewall
from memvisor.errors import NotFound, StorageError, UserError
from memvisor.storage import ManualClock, Store
from memvisor.storage import sealed as sealed_module
from memvisor.storage.database import DuckDBDatabase
from memvisor.storage.export import export_user, import_user
from memvisor.storage.migrations import migrate
from memvisor.storage.sealed import SealedStore

VALUE = "Zq7-gate-4471-unique"
U = "maya"


def seal(store: Store, value: str = VALUE, *, user_id: str = U, what: str = "allotment gate"):
    return store.sealed.seal(
        user_id=user_id,
        value=value,
        description=f"{what} code",
        kind="pin",
        trace_id="trc_1",
        source_event_ids=["evt_1"],
    )


def ciphertext(store: Store, secret_id: str) -> bytes:
    rows = store.db.query("SELECT ciphertext FROM sealed_secrets WHERE id = ?", [secret_id])
    return bytes(rows[0][0])


def set_ciphertext(store: Store, secret_id: str, blob: bytes) -> None:
    with store.db.transaction() as conn:
        conn.execute("UPDATE sealed_secrets SET ciphertext = ? WHERE id = ?", [blob, secret_id])


def key_map(path: Path) -> dict[str, bytes]:
    """The key file as it is on disk: ``{"version": 1, "keys": {id: base64}}``."""
    doc = json.loads(path.read_text())
    assert doc["version"] == 1 and set(doc) == {"version", "keys"}
    return {i: base64.b64decode(k) for i, k in doc["keys"].items()}


def write_key_map(path: Path, keys: dict[str, bytes]) -> None:
    doc = {"version": 1, "keys": {i: base64.b64encode(k).decode() for i, k in keys.items()}}
    path.write_text(json.dumps(doc))
    path.chmod(0o600)


def opens(key: bytes, blob: bytes, aad: bytes) -> bool:
    try:
        AESGCM(key).decrypt(blob[:12], blob[12:], aad)
    except InvalidTag:
        return False
    return True


def test_seal_then_reveal_round_trip(store: Store) -> None:
    secret = seal(store)
    assert secret.id.startswith("sec_") and secret.forgotten_at is None
    assert store.sealed.reveal(secret.id, user_id=U) == VALUE
    got = store.sealed.get(secret.id, user_id=U)
    assert got == secret and VALUE not in repr(got)
    assert store.sealed.list(user_id=U) == [secret]
    assert store.sealed.describe([secret.id, "sec_nope"], user_id=U) == {secret.id: secret}
    blob = ciphertext(store, secret.id)
    assert VALUE.encode() not in blob and len(blob) == 12 + len(VALUE) + 16
    # a fresh nonce per seal: the same value seals to different bytes
    assert ciphertext(store, seal(store).id)[12:] != blob[12:]


def test_another_user_gets_not_found_with_the_same_words(store: Store) -> None:
    secret = seal(store)
    with pytest.raises(NotFound) as other:
        store.sealed.reveal(secret.id, user_id="zoe")
    with pytest.raises(NotFound) as unknown:
        store.sealed.reveal("sec_0000000000000000000000000", user_id=U)
    assert str(other.value) == str(unknown.value).replace(
        "sec_0000000000000000000000000", secret.id
    )
    with pytest.raises(NotFound):
        store.sealed.get(secret.id, user_id="zoe")
    assert store.sealed.describe([secret.id], user_id="zoe") == {}
    assert store.sealed.list(user_id="zoe") == []
    assert store.sealed.forget(secret.id, user_id="zoe") is False
    assert store.sealed.reveal(secret.id, user_id=U) == VALUE
    with pytest.raises(UserError):
        store.sealed.reveal(secret.id, user_id="")


def test_forgotten_is_not_found_and_its_ciphertext_is_shredded(store: Store) -> None:
    secret = seal(store)
    assert store.sealed.forget(secret.id, user_id=U) is True
    assert ciphertext(store, secret.id) == b""
    with pytest.raises(NotFound) as forgotten:
        store.sealed.reveal(secret.id, user_id=U)
    with pytest.raises(NotFound) as other:
        store.sealed.reveal(secret.id, user_id="zoe")
    assert str(forgotten.value) == str(other.value)
    with pytest.raises(NotFound):
        store.sealed.get(secret.id, user_id=U)
    assert store.sealed.list(user_id=U) == []
    [gone] = store.sealed.list(user_id=U, include_forgotten=True)
    assert gone.forgotten_at is not None
    assert store.sealed.forget(secret.id, user_id=U) is False


def test_store_forget_takes_sealed_ids(store: Store) -> None:
    secret = seal(store)
    assert store.forget(secret.id, user_id=U, trace_id="t")["removed"] == [secret.id]
    assert ciphertext(store, secret.id) == b""
    [event] = store.events.list(user_id=U, kinds=["memory_forget"])
    assert event.payload["id"] == secret.id and VALUE not in json.dumps(event.payload)
    with pytest.raises(NotFound):
        store.forget(secret.id, user_id=U, trace_id="t")


def test_the_value_is_never_in_the_files(tmp_path: Path, clock: ManualClock) -> None:
    data = tmp_path / "store"
    with Store.open(data, embedder="hash", clock=clock) as store:
        secret = seal(store)
        assert store.sealed.reveal(secret.id, user_id=U) == VALUE
        for path in data.rglob("*"):  # while open too: the WAL, if any, holds the writes
            if path.is_file():
                assert VALUE.encode() not in path.read_bytes(), path
    files = [p for p in data.rglob("*") if p.is_file()]
    assert data / "memvisor.duckdb" in files
    [key] = key_map(data / "sealed.key").values()
    for path in files:
        raw = path.read_bytes()
        assert VALUE.encode() not in raw, path
        assert VALUE.encode("utf-16-le") not in raw, path
        if path.name != "sealed.key":  # the key lives beside the record store only
            assert key not in raw and base64.b64encode(key) not in raw, path
    with Store.open(data, embedder="hash", clock=clock) as store:
        assert store.sealed.reveal(secret.id, user_id=U) == VALUE


def test_key_file_is_made_on_first_seal_with_mode_0600(store: Store) -> None:
    path = store.data_dir / "sealed.key"
    assert not path.exists()  # lazily: a store that never seals has no key file
    first = seal(store)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    keys = key_map(path)
    assert list(keys) == [first.id] and len(keys[first.id]) == 32
    path.chmod(0o644)  # loosened by hand: tightened, and it still opens
    assert store.sealed.reveal(first.id, user_id=U) == VALUE
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    second = seal(store, "another one")
    keys = key_map(path)
    assert set(keys) == {first.id, second.id} and keys[first.id] != keys[second.id]
    assert opens(keys[second.id], ciphertext(store, second.id), f"{second.id}|{U}".encode())
    assert not opens(keys[first.id], ciphertext(store, second.id), f"{second.id}|{U}".encode())
    assert stat.S_IMODE(path.stat().st_mode) == 0o600  # the atomic rewrite keeps 0600
    assert sorted(p.name for p in store.data_dir.glob("*sealed.key*")) == ["sealed.key"]
    assert store.sealed.forget(first.id, user_id=U)
    assert list(key_map(path)) == [second.id]
    assert store.sealed.reveal(second.id, user_id=U) == "another one"


def test_a_missing_or_replaced_key_file_is_a_clear_storage_error(store: Store) -> None:
    secret = seal(store)
    path = store.data_dir / "sealed.key"
    keys = key_map(path)
    path.unlink()
    with pytest.raises(StorageError, match="sealed.key") as missing:
        store.sealed.reveal(secret.id, user_id=U)
    assert "missing" in str(missing.value) and "\n" not in str(missing.value)
    write_key_map(path, {secret.id: b"\x01" * 32})  # another key under its id
    with pytest.raises(StorageError, match=f"does not open {secret.id}") as replaced:
        store.sealed.reveal(secret.id, user_id=U)
    assert "sealed.key replaced" in str(replaced.value) and "\n" not in str(replaced.value)
    write_key_map(path, {"sec_other": b"\x01" * 32})  # no key for it at all
    with pytest.raises(StorageError, match=f"holds no key for {secret.id}") as absent:
        store.sealed.reveal(secret.id, user_id=U)
    assert "sealed.key replaced" in str(absent.value) and "\n" not in str(absent.value)
    write_key_map(path, keys)
    assert store.sealed.reveal(secret.id, user_id=U) == VALUE


@pytest.mark.parametrize(
    ("raw", "words"),
    [
        (b"\x9f" * 32, "32 bytes, not a JSON key map"),  # the old single raw key, or noise
        (b'{"version": 1, "keys": {"sec_1": ', "not a JSON key map"),  # cut short
        (b"", "0 bytes, not a JSON key map"),
        (b"[]", "not a version 1 key map"),
        (b'{"version": 2, "keys": {}}', "not a version 1 key map"),
        (b'{"version": 1, "keys": {"sec_1": "c2hvcnQ="}}', "'sec_1' is not 32 bytes"),
        (b'{"version": 1, "keys": {"sec_1": "not base64!"}}', "'sec_1' is not 32 bytes"),
        (b'{"version": 1, "keys": {"sec_1": 7}}', "'sec_1' is not 32 bytes"),
    ],
)
def test_a_corrupt_key_file_is_a_clear_storage_error_and_never_overwritten(
    store: Store, raw: bytes, words: str
) -> None:
    secret = seal(store)
    path = store.data_dir / "sealed.key"
    path.write_bytes(raw)
    for call in (
        lambda: store.sealed.reveal(secret.id, user_id=U),
        lambda: seal(store, "a second one"),
        lambda: store.sealed.forget(secret.id, user_id=U),
    ):
        with pytest.raises(StorageError, match="corrupt") as corrupt:
            call()
        message = str(corrupt.value)
        assert words in message and "sealed.key from a backup" in message, message
        assert "\n" not in message and "\\x9f" not in message
    assert path.read_bytes() == raw  # refused, not replaced by a new map
    # nothing was written: no second row, and the forget rolled back
    assert [s.id for s in store.sealed.list(user_id=U, include_forgotten=True)] == [secret.id]
    assert ciphertext(store, secret.id)


def test_a_tampered_ciphertext_is_a_storage_error(store: Store) -> None:
    secret = seal(store)
    blob = bytearray(ciphertext(store, secret.id))
    blob[20] ^= 0x01
    set_ciphertext(store, secret.id, bytes(blob))
    with pytest.raises(StorageError, match=f"does not open {secret.id}"):
        store.sealed.reveal(secret.id, user_id=U)
    set_ciphertext(store, secret.id, b"\x00" * 5)  # too short to hold a nonce and tag
    with pytest.raises(StorageError, match=f"does not open {secret.id}"):
        store.sealed.reveal(secret.id, user_id=U)


def test_a_ciphertext_moved_to_another_row_or_user_does_not_open(store: Store) -> None:
    mine, other = seal(store), seal(store, "router-pw-998", what="router")
    set_ciphertext(store, other.id, ciphertext(store, mine.id))
    with pytest.raises(StorageError, match=f"does not open {other.id}"):
        store.sealed.reveal(other.id, user_id=U)
    with store.db.transaction() as conn:  # the row handed to another user
        conn.execute("UPDATE sealed_secrets SET user_id = 'zoe' WHERE id = ?", [mine.id])
    with pytest.raises(StorageError, match=f"does not open {mine.id}"):
        store.sealed.reveal(mine.id, user_id="zoe")


def test_seal_joins_the_outer_transaction(store: Store) -> None:
    with pytest.raises(RuntimeError), store.db.transaction():
        rolled_back = seal(store)
        raise RuntimeError("the record failed")
    assert store.sealed.list(user_id=U, include_forgotten=True) == []
    # its key was written first and is left for a row that does not exist: harmless
    assert rolled_back.id in key_map(store.data_dir / "sealed.key")
    with pytest.raises(NotFound):
        store.sealed.reveal(rolled_back.id, user_id=U)
    with store.db.transaction() as conn:
        secret = seal(store)
        store.log_write(
            conn, user_id=U, trace_id="trc_1", session_id=None, record="sealed", id=secret.id
        )
    assert store.sealed.reveal(secret.id, user_id=U) == VALUE
    [event] = store.events.list(user_id=U, kinds=["memory_write"])
    assert event.payload["id"] == secret.id


@pytest.mark.parametrize(
    ("value", "description", "kind", "words"),
    [
        ("", "gate code", "pin", "non-empty"),
        ("x" * 1001, "gate code", "pin", "at most 1000"),
        (VALUE, "", "pin", "description"),
        (VALUE, f"gate code is {VALUE.lower()}", "pin", "contains the secret"),
        (VALUE, "gate code", "Gate Code", "invalid secret kind"),
    ],
)
def test_bad_seals_are_refused(
    store: Store, value: str, description: str, kind: str, words: str
) -> None:
    with pytest.raises(UserError, match=words):
        store.sealed.seal(user_id=U, value=value, description=description, kind=kind, trace_id="t")
    assert store.sealed.list(user_id=U, include_forgotten=True) == []


def test_a_store_without_a_key_path_keeps_the_key_in_memory(tmp_path: Path) -> None:
    db = DuckDBDatabase(tmp_path / "db.duckdb")
    migrate(db.conn)
    sealed = SealedStore(db, ManualClock())
    secret = sealed.seal(user_id=U, value=VALUE, description="gate code", kind="pin", trace_id="t")
    assert sealed.reveal(secret.id, user_id=U) == VALUE
    assert sealed.forget(secret.id, user_id=U)
    assert secret.id not in sealed.keys.read(missing_ok=False)
    db.close()
    assert not list(tmp_path.glob("*.key"))


def test_export_holds_ciphertext_only_and_restores_under_the_same_key(
    tmp_path: Path, clock: ManualClock
) -> None:
    with Store.open(tmp_path / "a", embedder="hash", clock=clock) as store:
        kept = seal(store)
        dropped = seal(store, "old-router-pw-1", what="old router")
        store.sealed.forget(dropped.id, user_id=U)
        doc = export_user(store, user_id=U)
    text = json.dumps(doc)
    assert VALUE not in text and "old-router-pw-1" not in text
    [key] = key_map(tmp_path / "a" / "sealed.key").values()  # the forgotten one's is gone
    assert base64.b64encode(key).decode() not in text
    rows = {r["id"]: r for r in doc["sealed_secrets"]}
    assert base64.b64decode(rows[kept.id]["ciphertext"])[12:]  # the ciphertext travels
    assert rows[dropped.id]["ciphertext"] == "" and rows[dropped.id]["forgotten_at"]

    # the same data directory's key (copied along): revealable again
    (tmp_path / "b").mkdir()
    shutil.copy2(tmp_path / "a" / "sealed.key", tmp_path / "b" / "sealed.key")
    with Store.open(tmp_path / "b", embedder="hash", clock=clock) as store:
        report = import_user(store, doc, user_id=U, trace_id="t", count_tokens=len, replace=True)
        assert report.kinds["sealed_secrets"].created == 2
        assert store.sealed.reveal(kept.id, user_id=U) == VALUE
        with pytest.raises(NotFound):
            store.sealed.reveal(dropped.id, user_id=U)
        assert export_user(store, user_id=U)["sealed_secrets"] == doc["sealed_secrets"]

    # importing into the store it came from changes nothing
    with Store.open(tmp_path / "a", embedder="hash", clock=clock) as store:
        report = import_user(store, doc, user_id=U, trace_id="t", count_tokens=len)
        assert report.kinds["sealed_secrets"].unchanged == 2
        assert store.sealed.reveal(kept.id, user_id=U) == VALUE

    # another data directory, another key: the rows are kept, revealing says why it cannot
    with Store.open(tmp_path / "c", embedder="hash", clock=clock) as store:
        report = import_through_firewall(store, doc, user_id=U, trace_id="t")
        assert report.kinds["sealed_secrets"].created == 2
        assert store.sealed.reveal(seal(store, "a new one").id, user_id=U) == "a new one"
        with pytest.raises(StorageError, match="sealed.key replaced"):
            store.sealed.reveal(kept.id, user_id=U)


def test_a_forget_in_the_document_wins_on_merge(tmp_path: Path, clock: ManualClock) -> None:
    (tmp_path / "b").mkdir()
    with Store.open(tmp_path / "a", embedder="hash", clock=clock) as store:
        secret = seal(store)
        live = export_user(store, user_id=U)
        # copied while the secret is live (the forget below removes its key from a's file)
        shutil.copy2(tmp_path / "a" / "sealed.key", tmp_path / "b" / "sealed.key")
        store.sealed.forget(secret.id, user_id=U)
        forgotten = export_user(store, user_id=U)
    # opening b keeps the key of a row it does not hold yet: it may be imported next
    with Store.open(tmp_path / "b", embedder="hash", clock=clock) as store:
        import_user(store, live, user_id=U, trace_id="t", count_tokens=len)
        assert store.sealed.reveal(secret.id, user_id=U) == VALUE
        report = import_user(store, forgotten, user_id=U, trace_id="t", count_tokens=len)
        assert report.kinds["sealed_secrets"].updated == 1
        assert ciphertext(store, secret.id) == b""
        assert secret.id not in key_map(store.data_dir / "sealed.key")  # shredded here too
        # ... and an older live copy does not bring it back
        report = import_user(store, live, user_id=U, trace_id="t", count_tokens=len)
        assert report.kinds["sealed_secrets"].skipped == 1
        with pytest.raises(NotFound):
            store.sealed.reveal(secret.id, user_id=U)


def test_an_export_without_sealed_secrets_still_imports(store: Store) -> None:
    seal(store)
    doc = export_user(store, user_id=U)
    del doc["sealed_secrets"]  # written before sealed secrets existed
    report = import_user(store, doc, user_id=U, trace_id="t", count_tokens=len)
    assert report.kinds["sealed_secrets"].created == 0


def test_sealed_ids_of_another_user_are_refused(store: Store) -> None:
    seal(store, user_id="zoe")
    doc = export_user(store, user_id="zoe")
    text = json.dumps(doc).replace('"user_id": "zoe"', f'"user_id": "{U}"')
    with pytest.raises(UserError, match="collide with another user's records"):
        import_user(store, json.loads(text), user_id=U, trace_id="t", count_tokens=len)


def test_a_forgotten_ciphertext_left_in_the_file_opens_under_no_key(
    tmp_path: Path, clock: ManualClock
) -> None:
    data = tmp_path / "store"
    with Store.open(data, embedder="hash", clock=clock) as store:
        kept, secret = seal(store, "router-pw-998", what="router"), seal(store)
        blob = ciphertext(store, secret.id)
    with Store.open(data, embedder="hash", clock=clock) as store:
        assert store.sealed.forget(secret.id, user_id=U)
    # DuckDB may keep the overwritten ciphertext in freed blocks: take every copy of it (or,
    # if the file no longer holds one, the ciphertext as it was) and every key left
    raw = (data / "memvisor.duckdb").read_bytes()
    body = blob[12:]
    recovered = [raw[at - 12 : at + len(body)] for at in _offsets(raw, body) if at >= 12] or [blob]
    keys = key_map(data / "sealed.key")
    assert secret.id not in keys and list(keys) == [kept.id]
    aad = f"{secret.id}|{U}".encode()
    for found in recovered:
        assert not any(opens(key, found, aad) for key in keys.values())
    with Store.open(data, embedder="hash", clock=clock) as store:
        with pytest.raises(NotFound):
            store.sealed.reveal(secret.id, user_id=U)
        assert store.sealed.reveal(kept.id, user_id=U) == "router-pw-998"


def _offsets(haystack: bytes, needle: bytes) -> list[int]:
    found, at = [], haystack.find(needle)
    while at >= 0:
        found.append(at)
        at = haystack.find(needle, at + 1)
    return found


def test_forget_removes_the_key_before_the_commit(store: Store) -> None:
    secret = seal(store)
    path = store.data_dir / "sealed.key"
    # the forget's transaction rolls back after the key is gone: it fails towards forgetting
    with pytest.raises(RuntimeError), store.db.transaction():
        assert store.sealed.forget(secret.id, user_id=U)
        raise RuntimeError("the event log failed")
    assert secret.id not in key_map(path)
    assert [s.id for s in store.sealed.list(user_id=U)] == [secret.id]
    with pytest.raises(StorageError, match=f"holds no key for {secret.id}"):
        store.sealed.reveal(secret.id, user_id=U)
    assert store.sealed.forget(secret.id, user_id=U)  # and forgetting again finishes it
    assert store.sealed.list(user_id=U) == []


def test_a_key_write_that_fails_leaves_nothing(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    kept = seal(store)
    path = store.data_dir / "sealed.key"
    before = path.read_bytes()

    def refuse(src: object, dst: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(sealed_module.os, "replace", refuse)
    with pytest.raises(StorageError, match="cannot write the sealed-secret key file") as failed:
        seal(store, "another one")
    assert "\n" not in str(failed.value)
    with pytest.raises(StorageError, match="cannot write"):
        store.sealed.forget(kept.id, user_id=U)
    monkeypatch.undo()
    assert path.read_bytes() == before
    assert sorted(p.name for p in store.data_dir.glob("*sealed.key*")) == ["sealed.key"]
    assert [s.id for s in store.sealed.list(user_id=U)] == [kept.id]  # nothing was written
    assert store.sealed.reveal(kept.id, user_id=U) == VALUE


def test_a_failed_insert_drops_its_key(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    kept = seal(store)

    def fail(conn: object, secret: object, blob: bytes) -> None:
        raise RuntimeError("the insert failed")

    monkeypatch.setattr(sealed_module, "_insert", fail)
    with pytest.raises(RuntimeError):
        seal(store, "another one")
    monkeypatch.undo()
    assert list(key_map(store.data_dir / "sealed.key")) == [kept.id]
    assert store.sealed.list(user_id=U, include_forgotten=True) == [kept]


def test_opening_drops_keys_of_forgotten_rows_and_stale_temp_files(
    tmp_path: Path, clock: ManualClock
) -> None:
    data = tmp_path / "store"
    with Store.open(data, embedder="hash", clock=clock) as store:
        kept, secret = seal(store, "router-pw-998", what="router"), seal(store)
        backup = (data / "sealed.key").read_bytes()
        store.sealed.forget(secret.id, user_id=U)
    # a key file restored from a backup older than the forget, a key for a row not imported
    # yet, and the temp file of a write cut short
    keys = json.loads(backup)
    keys["keys"]["sec_not_imported_yet"] = base64.b64encode(b"\x02" * 32).decode()
    (data / "sealed.key").write_text(json.dumps(keys))
    (data / ".sealed.key.abc123.tmp").write_bytes(backup)
    with Store.open(data, embedder="hash", clock=clock) as store:
        assert set(key_map(data / "sealed.key")) == {kept.id, "sec_not_imported_yet"}
        assert not list(data.glob(".sealed.key.*"))
        assert store.sealed.reveal(kept.id, user_id=U) == "router-pw-998"
    (data / "sealed.key").write_bytes(b"garbage")  # a corrupt file does not stop the open
    with Store.open(data, embedder="hash", clock=clock) as store:
        assert [s.id for s in store.sealed.list(user_id=U)] == [kept.id]
        with pytest.raises(StorageError, match="corrupt"):
            store.sealed.reveal(kept.id, user_id=U)


def test_threads_sealing_at_once_keep_every_key(store: Store) -> None:
    ids: list[str] = []
    errors: list[BaseException] = []

    def work(n: int) -> None:
        try:
            for i in range(5):
                ids.append(seal(store, f"value-{n}-{i}", what=f"door {n} {i}").id)
        except BaseException as exc:  # reported below, not lost in the thread
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == [] and len(ids) == 40
    assert set(key_map(store.data_dir / "sealed.key")) == set(ids)
    revealed = {store.sealed.reveal(i, user_id=U) for i in ids}
    assert revealed == {f"value-{n}-{i}" for n in range(8) for i in range(5)}
