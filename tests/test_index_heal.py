"""The search index heals itself: failed writes retry, damage is rebuilt, threads serialise,
changed texts are re-indexed (issue 19, "The index heals itself; nothing acknowledged hides")."""

from __future__ import annotations

import glob
import json
import shutil
import threading
import time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from lancedb.table import LanceTable

from memvisor.errors import StorageError
from memvisor.storage import ManualClock, Store, indexing
from memvisor.storage.index_tables import POINTER_FILE
from memvisor.storage.indexing import IndexSync
from memvisor.storage.pg_vectors import PgVectorIndex
from memvisor.storage.store import MEMORY_TABLE
from memvisor.storage.vectors import VectorIndex
from tests.cli_helpers import run_cli

# A storage contract where it is about the store; LanceDB's files are ``duckdb_only``.
pytestmark = pytest.mark.usefixtures("backend")


def found(store: Store, query: str, user: str = "alice") -> set[str]:
    """Ids of the BM25 hits (the vector route returns every row of a small table)."""
    hits = store.search(query, user_id=user, kinds=("passage", "episode", "turn"), mode="fts")
    return {h.id for h in hits}


def appends_recorded(monkeypatch: pytest.MonkeyPatch) -> list[set[str]]:
    """The ids of each append to the embedded index from now on, one set an append."""
    appended: list[set[str]] = []
    real_add = VectorIndex.add_many

    def noted(self: VectorIndex, table: str, by_user: Any) -> None:
        appended.append({i.id for items in by_user.values() for i in items})
        real_add(self, table, by_user)

    monkeypatch.setattr(VectorIndex, "add_many", noted)
    return appended


def failing_index_add(monkeypatch: pytest.MonkeyPatch) -> Callable[[], None]:
    """Index appends fail (a full disk: LanceDB's, or the PostgreSQL server's) until the
    returned function is called."""
    appends = [(LanceTable, "add"), (PgVectorIndex, "_insert")]
    reals = [getattr(owner, name) for owner, name in appends]

    def full_disk(self: Any, *args: Any, **kwargs: Any) -> Any:
        raise StorageError("could not extend file: No space left on device")

    for owner, name in appends:
        monkeypatch.setattr(owner, name, full_disk)

    def clear() -> None:
        for (owner, name), real in zip(appends, reals, strict=True):
            monkeypatch.setattr(owner, name, real)

    return clear


# --- 1. pending index work survives a failed write ---------------------------------------


def test_a_record_whose_index_write_failed_is_found_once_the_index_works(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = store.insert_passage(user_id="alice", text="A teak bookshelf", trace_id="t").id
    assert found(store, "teak bookshelf") == {first}  # reconciled: later writes are queued
    clear = failing_index_add(monkeypatch)
    walnut = store.insert_passage(user_id="alice", text="A walnut desk lamp", trace_id="t").id
    assert store.passages.get(walnut, user_id="alice")  # acknowledged by DuckDB
    assert walnut not in found(store, "walnut desk lamp")  # the index cannot take it yet
    oak = store.insert_passage(user_id="alice", text="An oak desk lamp", trace_id="t").id
    assert oak not in found(store, "oak desk lamp")  # queued behind the first, both kept
    clear()
    for _ in range(3):  # the same process, no restart
        assert {walnut, oak} <= found(store, "desk lamp")
    assert found(store, "teak bookshelf") == {first}


def test_a_write_is_indexed_before_the_next_read_asks(store: Store) -> None:
    first = store.insert_passage(user_id="alice", text="A teak bookshelf", trace_id="t").id
    assert found(store, "teak bookshelf") == {first}  # reconciled: later writes are queued
    chest = store.insert_passage(user_id="alice", text="A cedar chest", trace_id="t").id
    store.index.settle()  # embedded and appended on the embed-ahead thread, no read yet
    assert chest in store.index.index.ids(MEMORY_TABLE, user_id="alice")
    assert found(store, "cedar chest") == {chest}


@pytest.mark.duckdb_only  # PostgreSQL indexes a write before it returns
def test_a_read_leaves_the_records_it_drops_to_be_indexed_after_it(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A turn's page-in excludes the message just logged: it need not wait for its append."""
    first = store.insert_passage(user_id="alice", text="A teak bookshelf", trace_id="t").id
    assert found(store, "teak bookshelf") == {first}  # reconciled: later writes are queued
    appended_by: list[str] = []
    real = VectorIndex.add_many

    def noted(self: VectorIndex, table: str, by_user: Any) -> None:
        appended_by.append(threading.current_thread().name)
        real(self, table, by_user)

    monkeypatch.setattr(VectorIndex, "add_many", noted)
    message = store.log_turn(user_id="alice", role="user", content="where is the teak shelf?")
    hits = store.memory_routes(
        "where is the teak shelf?",
        user_id="alice",
        limit=10,
        kinds=("passage", "turn"),
        unwanted={message.id},
    )
    assert first in {h.id for h in hits.fts}
    store.index.settle()
    assert appended_by and threading.current_thread().name not in appended_by
    assert message.id in store.index.index.ids(MEMORY_TABLE, user_id="alice")


@pytest.mark.duckdb_only  # PostgreSQL indexes a write before it returns
def test_a_message_paged_in_next_is_embedded_after_that_read_not_beside_it(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The agent logs the user's message, then pages in without it: embedding it meanwhile
    took the cores from the query's embedding. It is embedded and appended after the read."""
    first = store.insert_passage(user_id="alice", text="A teak bookshelf", trace_id="t").id
    assert found(store, "teak bookshelf") == {first}  # reconciled: later writes are queued
    store.index.settle()
    ahead: list[list[str]] = []
    real_embed = store.index._ahead._embedder.embed

    def noted(texts: list[str]) -> Any:
        if threading.current_thread().name == "memvisor-embed-ahead":
            ahead.append(list(texts))
        return real_embed(texts)

    monkeypatch.setattr(store.index._ahead._embedder, "embed", noted)
    text = "where is the oak shelf?"
    message = store.log_turn(user_id="alice", role="user", content=text, paged_in_next=True)
    store.index.settle()
    assert ahead == []  # nothing embedded ahead of the read
    assert message.id not in store.index.index.ids(MEMORY_TABLE, user_id="alice")
    kinds = ("passage", "turn")
    store.memory_routes(text, user_id="alice", limit=10, kinds=kinds, unwanted={message.id})
    store.index.settle()
    assert any(text in embedded for batch in ahead for embedded in batch)  # after the read
    assert message.id in store.index.index.ids(MEMORY_TABLE, user_id="alice")
    other = store.log_turn(user_id="alice", role="user", content="and the pine box?")
    store.index.settle()  # an ordinary message is embedded and appended ahead, as before
    assert other.id in store.index.index.ids(MEMORY_TABLE, user_id="alice")


@pytest.mark.duckdb_only  # PostgreSQL indexes a write before it returns
def test_the_write_behind_appends_nothing_while_a_search_is_under_way(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An append beside a search held its rows' lock and took its CPU: it waits for the end."""
    first = store.insert_passage(user_id="alice", text="A teak bookshelf", trace_id="t").id
    assert found(store, "teak bookshelf") == {first}  # reconciled: later writes are queued
    appended_by: list[str] = []
    real_add, real_routes = VectorIndex.add_many, VectorIndex.routes
    meanwhile: list[str] = []

    def noted(self: VectorIndex, table: str, by_user: Any) -> None:
        appended_by.append(threading.current_thread().name)
        real_add(self, table, by_user)

    def busy(self: VectorIndex, *args: Any, **kwargs: Any) -> Any:
        if not meanwhile:  # a write lands while the search runs, and is embedded ahead
            pine = store.insert_passage(user_id="alice", text="A pine box", trace_id="t")
            meanwhile.append(pine.id)
            store.index.settle()
            assert meanwhile[0] not in self.ids(MEMORY_TABLE, user_id="alice")
        return real_routes(self, *args, **kwargs)

    monkeypatch.setattr(VectorIndex, "add_many", noted)
    monkeypatch.setattr(VectorIndex, "routes", busy)
    store.memory_routes("teak shelf", user_id="alice", limit=10, kinds=("passage",))
    assert not appended_by
    store.index.settle()
    assert appended_by == ["memvisor-embed-ahead"]  # after the search, off the reader's thread
    assert meanwhile[0] in store.index.index.ids(MEMORY_TABLE, user_id="alice")


@pytest.mark.duckdb_only  # PostgreSQL indexes a write before it returns
def test_writes_past_the_append_burst_share_one_append_and_nobody_waits_for_it(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each append is a fragment every query pays for until a fold: past a burst, the
    write-behind appends at ``APPENDS_PER_S``, what is written meanwhile joins the next
    append, and whoever waits for the write-behind (``settle``, a search's sync) cuts the
    wait short."""
    first = store.insert_passage(user_id="alice", text="A teak bookshelf", trace_id="t").id
    assert found(store, "teak bookshelf") == {first}  # reconciled: later writes are queued
    monkeypatch.setattr(indexing, "APPEND_BURST", 1)  # one append, then one per ten minutes
    monkeypatch.setattr(indexing, "APPENDS_PER_S", 1 / 600)
    appended = appends_recorded(monkeypatch)
    chest = store.insert_passage(user_id="alice", text="A cedar chest", trace_id="t").id
    store.index.settle()  # the burst's append: no wait
    box = store.insert_passage(user_id="alice", text="A pine box", trace_id="t").id
    stool = store.insert_passage(user_id="bob", text="A birch stool", trace_id="t").id
    started = time.monotonic()
    store.index.settle()
    assert time.monotonic() - started < 300  # not the ten minutes
    assert appended == [{chest}, {box, stool}]
    assert found(store, "pine box") == {box}
    assert found(store, "birch stool", user="bob") == {stool}
    assert len(appended) == 2  # both were indexed already: the searches appended nothing


@pytest.mark.duckdb_only  # PostgreSQL indexes a write before it returns
def test_a_search_appends_only_when_its_own_user_has_writes_queued(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Read-your-writes is per user: bob's search does not wait for alice's append; alice's
    search appends what is queued (hers, and with it everyone's) before it reads."""
    first = store.insert_passage(user_id="alice", text="A teak bookshelf", trace_id="t").id
    assert found(store, "teak bookshelf") == {first}  # reconciled: later writes are queued
    store.insert_passage(user_id="bob", text="A birch stool", trace_id="t")
    assert found(store, "birch stool", user="bob")
    appended: list[set[str]] = []
    real_add = VectorIndex.add_many

    def noted(self: VectorIndex, table: str, by_user: Any) -> None:
        appended.append(set(by_user))
        real_add(self, table, by_user)

    monkeypatch.setattr(VectorIndex, "add_many", noted)
    # the write-behind held: what is written next stays queued until a search appends it
    monkeypatch.setattr(store.index._ahead, "_then", lambda: None)
    chest = store.insert_passage(user_id="alice", text="A cedar chest", trace_id="t").id
    stool = store.insert_passage(user_id="carol", text="A cedar stool", trace_id="t").id
    assert found(store, "cedar", user="bob") == set()  # bob's own memory, nothing appended
    assert appended == []
    assert chest not in store.index.index.ids(MEMORY_TABLE, user_id="alice")
    assert found(store, "cedar chest") == {chest}  # alice sees her write
    assert appended == [{"alice", "carol"}]  # one append, every user's queue in it
    assert stool in store.index.index.ids(MEMORY_TABLE, user_id="carol")


def test_a_failed_index_delete_is_redone_from_the_records(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    passage = store.insert_passage(user_id="alice", text="Gate code 4417", trace_id="t").id
    assert found(store, "gate code") == {passage}
    kind = type(store.index.index)
    real = kind.delete
    monkeypatch.setattr(kind, "delete", lambda *a, **k: (_ for _ in ()).throw(OSError()))
    store.forget(passage, user_id="alice", trace_id="t")  # committed; index cleanup failed
    monkeypatch.setattr(kind, "delete", real)
    assert found(store, "gate code") == set()  # the next sync reconciles with the records


# --- 3. threads ---------------------------------------------------------------------------


def test_eight_threads_writing_and_searching_a_fresh_store(store: Store) -> None:
    words = ["amber", "birch", "cedar", "delta", "ember", "fjord", "garnet", "harbor"]
    start = threading.Barrier(len(words))
    errors: list[BaseException] = []
    ids: dict[str, str] = {}

    def work(word: str) -> None:
        try:
            start.wait()
            user = f"user{words.index(word) % 2}"
            ids[word] = store.insert_passage(user_id=user, text=f"{word} notes", trace_id="t").id
            store.search(word, user_id=user)
            ids[word] = store.insert_passage(user_id=user, text=f"{word} plans", trace_id="t").id
            store.search(word, user_id=user)
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(word,)) for word in words]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    for n, word in enumerate(words):  # every record found in the same process
        assert ids[word] in found(store, f"{word} plans", user=f"user{n % 2}")


@pytest.mark.duckdb_only  # PostgreSQL indexes a write before it returns
def test_a_write_committed_as_the_first_reconcile_ends_is_indexed(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first search reconciles the table; a write that commits after it read the records
    and queues just as it ends (here: while it hands back the memory its reads took) is
    indexed in this process. Between "reconciling" and "reconciled", such a write was
    dropped from the queue and stayed unsearchable until a restart (1 of 48 writes of
    six users writing and searching at once, now and then)."""
    late: list[str] = []
    real_release = indexing.release_freed

    def write_then_release() -> None:
        if not late:
            text = "A linden spoon rack"
            late.append(store.insert_passage(user_id="bob", text=text, trace_id="t").id)
        real_release()

    monkeypatch.setattr(indexing, "release_freed", write_then_release)
    first = store.insert_passage(user_id="alice", text="A teak bookshelf", trace_id="t").id
    assert found(store, "teak bookshelf") == {first}  # the reconcile, and the write in it
    assert late and found(store, "linden spoon rack", user="bob") == set(late)


@pytest.mark.duckdb_only  # PostgreSQL opens the index before a write
def test_a_write_that_began_before_the_index_opened_is_indexed(store: Store) -> None:
    """A search opens the index and reconciles it with the records while a write's
    transaction is still open: the write, once committed, is queued, not left to a
    reconcile that read the records without it."""
    searched: list[set[str]] = []
    with store.db.transaction():
        rack = store.insert_passage(user_id="alice", text="A linden spoon rack", trace_id="t").id
        search = threading.Thread(target=lambda: searched.append(found(store, "spoon rack")))
        search.start()
        search.join(timeout=30)
        assert not search.is_alive() and searched == [set()]  # not committed yet
    assert found(store, "linden spoon rack") == {rack}


# --- 4. a text changed in the records is re-indexed ----------------------------------------


def test_a_redaction_committed_before_a_crash_is_indexed_on_the_next_open(
    tmp_path: Path, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = tmp_path / "data"
    with Store.open(data, embedder="hash", clock=clock) as store:
        event = store.log_turn(user_id="u", role="user", content="hint Rosebud", session_id="s")
        fact = store.remember_fact(
            user_id="u", subject="u", predicate="pin_hint", object="Rosebud", trace_id="t",
            source_event_ids=[event.id],
        ).fact  # fmt: skip
        assert fact is not None
        episode = store.episodes.build(
            user_id="u", session_id="s", start_ts=event.ts,
            end_ts=event.ts + timedelta(minutes=1), summary="The PIN hint is Rosebud",
            entities=[], source_event_ids=[event.id], trace_id="t",
        )  # fmt: skip
        store.save_episode(episode)
        assert episode.id in found(store, "PIN hint Rosebud", user="u")
        # The forget commits; the process dies before the index hears of it.
        with monkeypatch.context() as crashed:  # undone alone: the backend's setting stays
            crashed.setattr(IndexSync, "forget", lambda *a, **k: None)
            crashed.setattr(IndexSync, "queue", lambda *a, **k: None)
            store.forget(fact.id, user_id="u", trace_id="t")
    with Store.open(data, embedder="hash", clock=clock) as store:
        hits = store.search("PIN hint Rosebud", user_id="u", kinds=("episode", "fact", "turn"))
        assert {(h.id, h.text) for h in hits} == {
            (episode.id, "The PIN hint is [forgotten]"),
            (event.id, "hint [forgotten]"),
        }


def test_a_reconcile_of_an_index_in_step_writes_nothing(
    tmp_path: Path, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The revisions read by SQL match the indexed texts: nothing is re-indexed for nothing."""
    data = tmp_path / "data"
    with Store.open(data, embedder="hash", clock=clock) as store:
        store.log_turn(user_id="u", role="user", content='Zoë said "héllo" \\ ✓ 中文')
        store.remember_fact(
            user_id="u", subject="Zoë", predicate="lives_in", object="Århus", trace_id="t"
        )
        store.insert_passage(user_id="u", text="Ünïcode ✓ passage", trace_id="t")
        assert store.search("Zoë", user_id="u")
    added: list[int] = []
    for kind in (VectorIndex, PgVectorIndex):

        def counting(self: Any, table: str, items: Any, _real: Any = kind.add, **kw: Any) -> None:
            added.append(len(items))
            _real(self, table, items, **kw)

        monkeypatch.setattr(kind, "add", counting)
    with Store.open(data, embedder="hash", clock=clock) as store:
        assert store.search("Zoë", user_id="u")
    assert added == []


# --- 2. reindex swaps a complete table in; damage is rebuilt --------------------------------


def seeded(tmp_path: Path, clock: ManualClock) -> tuple[Path, dict[str, str]]:
    data = tmp_path / "data"
    with Store.open(data, embedder="hash", clock=clock) as store:
        desk = store.insert_passage(user_id="alice", text="Walnut desk order", trace_id="t")
        tea = store.insert_passage(user_id="bob", text="Bob likes oolong tea", trace_id="t")
        ids = {"desk": desk.id, "tea": tea.id}
        for n in range(30):
            store.log_turn(user_id="alice", role="user", content=f"filler turn {n}")
        assert found(store, "walnut desk") == {ids["desk"]}
        store.index.index.optimize(MEMORY_TABLE)  # more fragments and index files
    return data, ids


@pytest.mark.duckdb_only  # LanceDB's files (test_pg_search rebuilds on PostgreSQL)
def test_a_reindex_failing_halfway_leaves_the_old_index_working(
    tmp_path: Path, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    data, ids = seeded(tmp_path, clock)
    with Store.open(data, embedder="hash", clock=clock) as store:
        assert found(store, "walnut desk") == {ids["desk"]}
        real = LanceTable.add
        calls = []

        def fails_second(self: LanceTable, *args: Any, **kwargs: Any) -> Any:
            calls.append(1)
            if len(calls) == 2:  # alice's rows written, bob's refused
                raise OSError(28, "No space left on device")
            return real(self, *args, **kwargs)

        monkeypatch.setattr(LanceTable, "add", fails_second)
        with pytest.raises(StorageError, match="No space left"):
            store.reindex(trace_id="t")
        monkeypatch.setattr(LanceTable, "add", real)
        assert found(store, "walnut desk") == {ids["desk"]}
        assert found(store, "oolong tea", user="bob") == {ids["tea"]}
        assert sorted(p.name for p in (data / "vectors").glob("*.lance")) == ["memory.lance"]
    with Store.open(data, embedder="hash", clock=clock) as store:
        assert found(store, "oolong tea", user="bob") == {ids["tea"]}
        assert store.reindex(trace_id="t")["items"] == 32
        [table] = [p.name for p in (data / "vectors").glob("*.lance")]
        pointer = json.loads((data / "vectors" / POINTER_FILE).read_text())
        assert table != "memory.lance" and pointer == {MEMORY_TABLE: table[: -len(".lance")]}
        assert found(store, "walnut desk") == {ids["desk"]}
    with Store.open(data, embedder="hash", clock=clock) as store:
        assert found(store, "oolong tea", user="bob") == {ids["tea"]}


def _delete_a_fragment(table: Path) -> None:
    fragments = sorted(glob.glob(str(table / "data" / "*.lance")))
    assert fragments
    Path(fragments[0]).unlink()


def _garbage_manifests(table: Path) -> None:
    for manifest in glob.glob(str(table / "_versions" / "*.manifest")):
        Path(manifest).write_bytes(b"not a manifest" * 4)


def _delete_indices(table: Path) -> None:
    assert (table / "_indices").is_dir()
    shutil.rmtree(table / "_indices")


DAMAGES = {
    "missing fragment": _delete_a_fragment,
    "garbage manifest": _garbage_manifests,
    "deleted indices": _delete_indices,
}


@pytest.mark.duckdb_only  # damaged LanceDB files (test_pg_search: a dropped table)
@pytest.mark.parametrize("damage", list(DAMAGES))
def test_a_damaged_index_is_rebuilt_with_one_line(
    damage: str, tmp_path: Path, clock: ManualClock, capsys: pytest.CaptureFixture[str]
) -> None:
    data, ids = seeded(tmp_path, clock)
    DAMAGES[damage](data / "vectors" / "memory.lance")

    result = run_cli(
        capsys, "memory", "search", "walnut desk", "--data-dir", str(data), "--user", "alice"
    )
    assert result.code == 0, result.err
    assert ids["desk"] in result.out and "Traceback" not in result.err
    [line] = result.err.splitlines()
    assert "damaged" in line and "rebuilding it from the records" in line
    bob = run_cli(
        capsys, "memory", "search", "oolong", "--json", "--data-dir", str(data), "--user", "bob"
    )
    assert bob.code == 0 and bob.err == "" and ids["tea"] in bob.out
    with Store.open(data, embedder="hash", clock=clock) as store:
        [event] = store.events.list(user_id="alice", kinds=["index_rebuilt"])
        assert event.payload["items"] == 31 and "damaged" in event.payload["damage"]
        assert found(store, "filler turn 7") >= set()  # reopens and searches, no rebuild
        assert len(store.events.list(user_id="alice", kinds=["index_rebuilt"])) == 1


@pytest.mark.duckdb_only  # LanceDB's files and pointer
def test_reindex_replaces_a_damaged_index_and_what_earlier_builds_left(
    tmp_path: Path, clock: ManualClock
) -> None:
    data, ids = seeded(tmp_path, clock)
    vectors = data / "vectors"
    _garbage_manifests(vectors / "memory.lance")
    shutil.copytree(vectors / "memory.lance", vectors / "memory_0badf00d.lance")  # a crash's
    with Store.open(data, embedder="hash", clock=clock) as store:
        assert store.reindex(trace_id="t")["items"] == 32
        assert found(store, "walnut desk") == {ids["desk"]}
    [left] = [p.name for p in vectors.glob("*.lance")]
    assert left == json.loads((vectors / POINTER_FILE).read_text())[MEMORY_TABLE] + ".lance"


@pytest.mark.duckdb_only  # PostgreSQL indexes a write before it returns
def test_a_message_left_out_of_its_read_is_appended_with_the_turns_next_writes(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One append a turn, not two: the message a page-in left out is embedded after the
    read and appended with the answer that follows it, or alone once the linger ends."""
    first = store.insert_passage(user_id="alice", text="A teak bookshelf", trace_id="t").id
    assert found(store, "teak bookshelf") == {first}  # reconciled: later writes are queued
    store.index.settle()
    appended = appends_recorded(monkeypatch)
    monkeypatch.setattr(indexing, "DEFERRED_LINGER", 600.0)
    text = "where is the oak shelf?"
    message = store.log_turn(user_id="alice", role="user", content=text, paged_in_next=True)
    kinds = ("passage", "turn")
    store.memory_routes(text, user_id="alice", limit=10, kinds=kinds, unwanted={message.id})
    time.sleep(0.2)
    assert appended == []  # lingering for the turn's answer
    answer = store.log_turn(user_id="alice", role="assistant", content="In the hall.").id
    store.index.settle()
    assert appended == [{message.id, answer}]
    assert {message.id, answer} <= store.index.index.ids(MEMORY_TABLE, user_id="alice")

    monkeypatch.setattr(indexing, "DEFERRED_LINGER", 0.05)  # no answer comes: alone, later
    again = store.log_turn(user_id="alice", role="user", content="and the box?", paged_in_next=True)
    store.memory_routes("and the box?", user_id="alice", limit=10, kinds=kinds, unwanted={again.id})
    deadline = time.monotonic() + 30
    while again.id not in store.index.index.ids(MEMORY_TABLE, user_id="alice"):
        assert time.monotonic() < deadline, "the lingering message was never appended"
        time.sleep(0.05)
    assert appended[-1] == {again.id}
