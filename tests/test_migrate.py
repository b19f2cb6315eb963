"""``memvisor migrate --from DATA_DIR --to postgresql://…``: every record moves, verified;
a failure midway leaves the target empty; a target that holds records is refused."""

from __future__ import annotations

import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psycopg
import pytest

from memvisor.storage import ManualClock, Store
from memvisor.storage.export import export_user
from tests.cli_helpers import run_cli
from tests.test_transfer import TABLE_KINDS, U, fill

ROOT = Path(__file__).resolve().parents[1]


@contextmanager
def on_passage_insert(url: str, body: str) -> Iterator[psycopg.Connection]:
    """While the block runs, every insert into the target's passages runs ``body`` first
    (PL/pgSQL), on a connection the block may use too."""
    with psycopg.connect(url, autocommit=True) as raw:
        raw.execute(
            f"CREATE FUNCTION meddle() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN {body} END $$"
        )
        raw.execute(
            "CREATE TRIGGER meddle BEFORE INSERT ON passages FOR EACH ROW EXECUTE FUNCTION meddle()"
        )
        try:
            yield raw
        finally:
            raw.execute("DROP TRIGGER meddle ON passages")
            raw.execute("DROP FUNCTION meddle()")


def _inserting_passages(raw: psycopg.Connection) -> int:
    found = raw.execute(
        "SELECT count(*) FROM pg_stat_activity WHERE query LIKE 'INSERT INTO \"passages\"%'"
    ).fetchall()
    return int(found[0][0])


def _seeded(path: Path, clock: ManualClock) -> dict[str, str]:
    """Every record kind of two users, API keys and sealed secrets included."""
    with Store.open(path, embedder="hash", clock=clock, store="embedded") as store:
        ids = fill(store, clock)
        store.remember_fact(
            user_id="sam", subject="sam", predicate="likes", object="rye", trace_id="t"
        )
        store.api_keys.create(user_id=U, name="laptop")
        store.api_keys.create(user_id="sam")
    return ids


def _counts(url: str) -> dict[str, int]:
    with psycopg.connect(url) as raw:
        tables = [
            r[0]
            for r in raw.execute(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = "
                "current_schema() AND table_type = 'BASE TABLE' AND table_name NOT IN "
                "('schema_migrations', 'memvisor_revisions')"
            )
        ]
        return {t: raw.execute(f'SELECT count(*) FROM "{t}"').fetchall()[0][0] for t in tables}


def test_every_record_moves_and_reads_back_the_same(
    postgres_url: str, tmp_path: Path, clock: ManualClock, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "data"
    ids = _seeded(data, clock)
    with Store.open(data, embedder="hash", store="embedded", read_only=True) as source:
        before = {u: export_user(source, user_id=u) for u in (U, "sam")}
        keys = source.api_keys.list()
    moved = run_cli(capsys, "migrate", "--from", str(data), "--to", postgres_url)
    assert moved.code == 0, moved.err
    assert moved.out.startswith("moved ") and "facts 3" in moved.out, moved.out
    assert "api_keys 2" in moved.out and "sealed_secrets 1" in moved.out
    assert "export of 2 users" in moved.out
    master = data / "sealed-master.key"
    assert f"sealed secrets: 1 key wrapped under {master}" in moved.out
    counts = _counts(postgres_url)
    assert all(counts[t] > 0 for t in TABLE_KINDS), counts
    # the moved store, opened from the same data directory (its sealed.key) with --store
    with Store.open(data, embedder="hash", store=postgres_url) as moved_store:
        for user in (U, "sam"):
            assert export_user(moved_store, user_id=user) == before[user]
        assert moved_store.api_keys.list() == keys
        assert moved_store.sealed.reveal(ids["sealed"], user_id=U) == "4471"
        versions = [f for f in moved_store.facts.list(user_id=U, include_inactive=True)]
        assert {f.id for f in versions if f.status == "superseded"} == {ids["oslo"]}
        # new rows number after the copied ones
        later = moved_store.remember_fact(
            user_id=U, subject="Maya", predicate="owns", object="a kayak", trace_id="t"
        )
        assert later.fact is not None
    listed = run_cli(capsys, "memory", "list", "--data-dir", str(data), "--user", U,
                     "--store", postgres_url, "--json")  # fmt: skip
    assert "a kayak" in listed.out and "Bergen" in listed.out
    # another worker, with its own data directory and a copy of the master key only
    (tmp_path / "worker").mkdir()
    shutil.copy2(master, tmp_path / "worker" / "sealed-master.key")
    with Store.open(tmp_path / "worker", embedder="hash", store=postgres_url) as worker:
        assert worker.sealed.reveal(ids["sealed"], user_id=U) == "4471"


def test_a_failure_midway_leaves_the_target_empty(
    postgres_url: str, tmp_path: Path, clock: ManualClock, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "data"
    _seeded(data, clock)
    # the server refuses the passages, copied after events and facts
    with on_passage_insert(postgres_url, "RAISE EXCEPTION 'disk quota exceeded (test)';"):
        failed = run_cli(capsys, "migrate", "--from", str(data), "--to", postgres_url)
    assert failed.code == 1 and failed.err.count("\n") == 1
    assert "nothing was moved" in failed.err and "disk quota exceeded" in failed.err
    assert set(_counts(postgres_url).values()) == {0}
    again = run_cli(capsys, "migrate", "--from", str(data), "--to", postgres_url)
    assert again.code == 0, again.err  # the target was left empty: a second try goes


def test_a_target_that_holds_records_is_refused(
    postgres_url: str, tmp_path: Path, clock: ManualClock, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "data"
    _seeded(data, clock)
    assert run_cli(capsys, "migrate", "--from", str(data), "--to", postgres_url).code == 0
    counts = _counts(postgres_url)
    second = run_cli(capsys, "migrate", "--from", str(data), "--to", postgres_url)
    assert second.code == 1 and second.err.count("\n") == 1
    assert "already holds records" in second.err and "empty database only" in second.err
    assert _counts(postgres_url) == counts  # nothing doubled


def test_bad_input_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    empty = tmp_path / "nothing"
    empty.mkdir()
    url = "postgresql://u:pw@/db?host=/nonexistent"
    for args, says in (
        (("--from", str(empty), "--to", url), "holds no embedded store"),
        (("--from", str(empty), "--to", "mysql://u:pw@h/db"), "--to: unknown store"),
        (("--from", str(empty), "--to", " "), "--to is empty"),
    ):
        result = run_cli(capsys, "migrate", *args)
        assert result.code == 1 and result.err.count("\n") == 1, result.err
        assert says in result.err and ":pw@" not in result.err


def test_a_migrate_killed_midway_leaves_the_target_empty(
    postgres_url: str, tmp_path: Path, clock: ManualClock
) -> None:
    data = tmp_path / "data"
    _seeded(data, clock)
    # the passages' insert stalls, so the process is killed inside the copy
    with on_passage_insert(postgres_url, "PERFORM pg_sleep(2); RETURN NEW;") as raw:
        run = subprocess.Popen(
            [sys.executable, "-m", "memvisor.agent", "migrate", "--from", str(data),
             "--to", postgres_url],
            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        deadline = time.monotonic() + 60
        while not _inserting_passages(raw):
            assert run.poll() is None and time.monotonic() < deadline
            time.sleep(0.05)
        run.send_signal(signal.SIGKILL)
        run.wait(timeout=30)
        while _inserting_passages(raw):  # the server ends the dead client's transaction
            assert time.monotonic() < deadline
            time.sleep(0.05)
    assert set(_counts(postgres_url).values()) == {0}
