"""API keys: a live key's user is kept between requests, and a revoked key is refused on its
next look-up, whether this process revoked it or another did (on PostgreSQL)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from memvisor.storage import Store
from memvisor.storage import api_keys as api_keys_module


def _key_reads(store: Store, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The statements that read the api_keys table from now on."""
    reads: list[str] = []
    query = store.db.query

    def counted(sql: str, params: list[Any] | None = None) -> list[tuple[Any, ...]]:
        if "FROM api_keys" in sql:
            reads.append(sql)
        return query(sql, params)

    monkeypatch.setattr(store.db, "query", counted)
    return reads


@pytest.mark.usefixtures("backend")
def test_a_live_key_is_kept_and_a_revoked_one_is_refused_at_once(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    maya, maya_secret = store.api_keys.create(user_id="maya")
    _, sam_secret = store.api_keys.create(user_id="sam")
    reads = _key_reads(store, monkeypatch)
    assert store.api_keys.user_of(maya_secret) == "maya"
    assert store.api_keys.user_of(maya_secret) == "maya"
    assert store.api_keys.user_of(sam_secret) == "sam"
    assert len(reads) == 2  # each key read once, then kept
    assert store.api_keys.user_of("mvk_unknown") is None
    assert store.api_keys.user_of("mvk_unknown") is None
    assert len(reads) == 4  # an unknown key is never kept: it cannot crowd out live ones
    store.api_keys.revoke(maya.id)
    assert store.api_keys.user_of(maya_secret) is None  # the next look-up, not later
    assert store.api_keys.user_of(sam_secret) == "sam"


def test_the_kept_keys_are_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(api_keys_module, "KNOWN_KEYS", 2)
    with Store.open(tmp_path / "store", embedder="hash") as store:
        secrets = [store.api_keys.create(user_id=f"u{n}")[1] for n in range(3)]
        assert [store.api_keys.user_of(s) for s in secrets] == ["u0", "u1", "u2"]
        assert len(store.api_keys._known) == 2
        reads = _key_reads(store, monkeypatch)
        assert store.api_keys.user_of(secrets[0]) == "u0"  # dropped first, read again
        assert len(reads) == 1


def test_a_key_revoked_by_another_process_is_refused_at_once(
    postgres_url: str, tmp_path: Path
) -> None:
    with Store.open(tmp_path / "server", embedder="hash", store=postgres_url) as server:
        key, secret = server.api_keys.create(user_id="maya", name="app")
        assert server.api_keys.user_of(secret) == "maya"  # kept by this process
        revoked = subprocess.run(
            [sys.executable, "-m", "memvisor.agent", "keys", "revoke", key.id, "--user", "maya",
             "--data-dir", str(tmp_path / "cli"), "--store", postgres_url],
            capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        assert revoked.returncode == 0, revoked.stderr
        assert server.api_keys.user_of(secret) is None
