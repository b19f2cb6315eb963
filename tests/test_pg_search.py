"""The search index on PostgreSQL (``PgVectorIndex``): what only that backend has.

The contract both indices keep is ``test_vectors.py``; here: the fusion of pgvector's and
tsvector's routes, the user filter inside the query, CJK text, the model check, row-level
security on the search tables, rebuilds and a dropped table, and pgvector's extension.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import quote

import psycopg
import pytest

from memvisor.errors import StorageError
from memvisor.storage import ManualClock, Store
from memvisor.storage.embedders import HashEmbedder
from memvisor.storage.pg_term_counts import TermCounts, any_of, lexemes
from memvisor.storage.pg_vectors import POINTERS, PgVectorIndex
from memvisor.storage.postgres import PostgresDatabase
from memvisor.storage.store import MEMORY_TABLE
from memvisor.storage.vectors import RRF_K, IndexedText
from tests.postgres_server import PostgresCluster

T0 = datetime(2026, 5, 1, 9, 0, tzinfo=UTC)


def item(id: str, text: str, user: str = "alice", kind: str = "passage") -> IndexedText:
    return IndexedText(id=id, user_id=user, text=text, kind=kind, ts=T0)


@pytest.fixture
def db(postgres_url: str) -> Iterator[PostgresDatabase]:
    opened = PostgresDatabase(postgres_url)
    yield opened
    opened.close()


@pytest.fixture
def index(db: PostgresDatabase) -> PgVectorIndex:
    return PgVectorIndex(db, HashEmbedder())


def tables(db: PostgresDatabase, table: str = "m") -> list[str]:
    """The PostgreSQL tables holding index table ``table`` (and builds of it)."""
    rows = db.query(
        "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY 1"
    )
    held = re.compile(rf"memvisor_search_{table}(_[0-9a-f]{{8}})?")
    return [r[0] for r in rows if held.fullmatch(r[0])]


def current(db: PostgresDatabase, table: str = "m") -> str:
    """The PostgreSQL table the pointer names for ``table``."""
    [(name,)] = db.query(f"SELECT physical FROM {POINTERS} WHERE name = ?", [table])
    return str(name)


def run(db: PostgresDatabase, sql: str) -> None:
    with db.transaction() as conn:
        conn.execute(sql)


def test_hybrid_fuses_the_vector_and_the_full_text_route(index: PgVectorIndex) -> None:
    rows = {
        "both": "standing desk order from the Oslo shop",
        "words": "an oak desk",
        "near": "standing desk order from the Oslo shop, delivered",
        "other": "flights to Lisbon",
    }
    index.add("m", [item(i, t) for i, t in rows.items()], user_id="alice")
    query = "standing desk order from the Oslo shop"
    routes = index.routes("m", query, user_id="alice", limit=20)
    assert routes.vector[0].id == "both" and routes.vector[0].score == pytest.approx(1.0)
    assert {h.id for h in routes.fts} == {"both", "words", "near"}  # by words: not "other"
    assert all(h.route == "fts" and h.score > 0 for h in routes.fts)
    expected: dict[str, float] = {}
    for hits in (routes.vector, routes.fts):
        for rank, hit in enumerate(hits, start=1):
            expected[hit.id] = expected.get(hit.id, 0.0) + 1 / (RRF_K + rank)
    fused = index.search("m", query, user_id="alice", limit=10)
    assert [h.route for h in fused] == ["hybrid"] * len(expected)
    assert {h.id: h.score for h in fused} == pytest.approx(expected)
    assert fused[0].id == "both" and fused[0].score == pytest.approx(2 / (RRF_K + 1))
    assert "other" in {h.id for h in fused}  # found by the vector route alone


def test_another_users_row_is_never_returned_even_with_the_same_text(
    index: PgVectorIndex,
) -> None:
    text = "I drink black coffee every morning"
    index.add("m", [item("a1", text), item("a2", "the team meeting moved")], user_id="alice")
    bob = [item(f"b{n}", text, "bob") for n in range(300)] + [item("a1", text, "bob")]
    index.add("m", bob, user_id="bob")
    index.optimize("m")  # planner statistics: bob's rows are most of the table
    for mode in ("vector", "fts", "hybrid"):
        hits = index.search("m", text, user_id="alice", mode=mode, limit=1)
        assert [(h.id, h.text) for h in hits] == [("a1", text)]
        many = index.search("m", "coffee morning meeting", user_id="alice", mode=mode, limit=50)
        assert {h.id for h in many} <= {"a1", "a2"}
    exact = index.routes("m", "", user_id="alice", vector=False, needles=["black coffee"]).exact
    assert [h.id for h in exact] == ["a1"]
    assert index.search("m", text, user_id="carol") == []
    assert index.count("m", user_id="bob") == 301 and index.count("m", user_id="alice") == 2


def test_the_vector_query_filters_by_user_inside_the_hnsw_scan(
    index: PgVectorIndex, db: PostgresDatabase
) -> None:
    """Where the planner takes the HNSW index (the user holds much of the table), the user
    filter runs in the scan, which goes on (pgvector's iterative scan) until ``limit`` rows
    pass it, so bob's nearer rows never crowd out alice's."""
    index.add("m", [item(f"a{n}", f"alice note {n}") for n in range(600)], user_id="alice")
    index.add("m", [item(f"b{n}", f"note {n}", "bob") for n in range(600)], user_id="bob")
    index.optimize("m")
    # At 1,200 rows a scan of alice's rows and a sort is cheaper; make the planner take HNSW.
    run(db, f'DROP INDEX "{current(db)}_user_id_kind_idx"')
    run(db, "SET enable_seqscan = off")
    run(db, "SET enable_bitmapscan = off")
    run(db, "SET enable_sort = off")
    vector = "[" + ",".join(str(x) for x in HashEmbedder().embed(["note 7"])[0]) + "]"
    with db.transaction(reading=True) as conn:
        rows = conn.execute(
            f"EXPLAIN SELECT id FROM \"{current(db)}\" WHERE user_id = 'alice' "
            f"ORDER BY embedding <=> '{vector}'::vector LIMIT 40"
        ).fetchall()
    plan = "\n".join(r[0] for r in rows)
    assert "embedding_idx" in plan and "Filter: (user_id = 'alice'::text)" in plan
    # 40 of alice's among ef_search (40) candidates, half of them bob's: the scan went on
    hits = index.search("m", "note 7", user_id="alice", mode="vector", limit=40)
    assert len(hits) == 40 and all(h.id.startswith("a") for h in hits)
    scores = [h.score for h in hits]
    assert scores == sorted(scores, reverse=True)  # the relaxed order put back in order


def test_words_most_of_a_users_texts_hold_neither_rank_nor_widen_the_full_text_route(
    index: PgVectorIndex, db: PostgresDatabase
) -> None:
    """ts_rank has no weight for rarity: "went" in 60 of alice's texts used to rank them with
    the one about her kayak. Her own counts decide; bob's texts full of "kayak" do not."""
    filler = [item(f"w{n}", f"we went out on day {n} and went home") for n in range(60)]
    kayak = item("k", "I went to buy a kayak")
    index.add("m", [*filler, kayak, item("p", "a paddle for the kayak")], user_id="alice")
    index.add("m", [item(f"b{n}", "kayak kayak", "bob") for n in range(200)], user_id="bob")
    asked: list[str] = []
    with db.transaction(reading=True) as conn:
        words = index._terms.selective(conn, current(db), "alice", "'went' | 'kayak'", wanted=10)
        asked.append(words)
    assert asked == ["'kayak'"]  # 61 of 62 texts hold "went"; 2 hold "kayak" (bob's: 200)
    fts = index.routes("m", "went kayak", user_id="alice", vector=False, limit=10).fts
    assert {h.id for h in fts} == {"k", "p"}
    with db.transaction(reading=True) as conn:  # all common: the rarest one is kept
        rarest = index._terms.selective(conn, current(db), "alice", "'went' | 'day'", wanted=5)
    assert rarest == "'day'"


def test_term_counts_are_read_again_once_old(db: PostgresDatabase) -> None:
    now = [0.0]
    index = PgVectorIndex(db, HashEmbedder())
    index._terms = TermCounts(keep_seconds=60, clock=lambda: now[0])
    index.add("m", [item(f"t{n}", f"tea note {n}") for n in range(30)], user_id="alice")
    index.add("m", [item("c", "coffee with tea")], user_id="alice")

    def kept() -> str:
        with db.transaction(reading=True) as conn:
            return index._terms.selective(conn, current(db), "alice", "'tea' | 'coffe'", wanted=1)

    assert kept() == "'coffe'"
    index.add("m", [item(f"c{n}", f"coffee {n}") for n in range(60)], user_id="alice")
    assert kept() == "'coffe'"  # counted 30 s ago: still kept
    now[0] = 61.0
    assert kept() == "'tea'"  # read again: coffee is now in 61 of 91 texts, tea in 31


def test_cjk_text_is_found_by_its_words(index: PgVectorIndex) -> None:
    rows = {
        "zh": "我喜欢在周末喝咖啡",
        "tea": "我每天早上喝茶",
        "ja": "東京で寿司を食べました",
        "ko": "서울에서 비빔밥을 먹었어요",
        "mixed": "Order ORD-58213: 咖啡机 shipped",
        "en": "I drink black coffee",
    }
    index.add("m", [item(i, t) for i, t in rows.items()], user_id="alice")

    def fts(query: str) -> list[str]:
        return [h.id for h in index.search("m", query, user_id="alice", mode="fts")]

    assert fts("咖啡")[:2] == ["zh", "mixed"] or fts("咖啡")[:2] == ["mixed", "zh"]
    assert set(fts("咖啡")) == {"zh", "mixed"}  # the bigram: not every text with a 喝
    assert fts("周末") == ["zh"]
    assert fts("茶") == ["tea"]  # one character finds it too
    assert fts("寿司") == ["ja"] and fts("東京の寿司") == ["ja"]
    assert fts("비빔밥") == ["ko"]
    assert fts("咖啡机 ORD-58213")[0] == "mixed"
    assert fts("coffees") == ["en"]  # English words are stemmed
    assert fts("58213") == ["mixed"]  # not read as the signed number -58213


def test_an_index_of_another_embedding_model_is_detected(db: PostgresDatabase) -> None:
    built = PgVectorIndex(db, HashEmbedder())
    built.add("m", [item("p1", "black coffee")], user_id="alice")
    assert db.query(f"SELECT model_id, dim FROM {POINTERS} WHERE name = 'm'") == [
        ("hash-v1-256", 256)
    ]
    other = PgVectorIndex(db, HashEmbedder(dim=128))
    message = r"built with embedding model 'hash-v1-256', not 'hash-v1-128'.*reindex"
    with pytest.raises(StorageError, match=message):
        other.add("m", [item("p2", "green tea")], user_id="alice")
    for mode in ("vector", "hybrid"):
        with pytest.raises(StorageError, match="reindex"):
            other.search("m", "coffee", user_id="alice", mode=mode)
    assert [h.id for h in other.search("m", "coffee", user_id="alice", mode="fts")] == ["p1"]
    other.replace("m", [("alice", other.items("m", user_id="alice"))])  # a reindex
    assert other.search("m", "coffee", user_id="alice", mode="vector")[0].id == "p1"
    with pytest.raises(StorageError, match="hash-v1-128"):
        PgVectorIndex(db, HashEmbedder()).search("m", "coffee", user_id="alice")


def test_search_tables_have_row_level_security(
    index: PgVectorIndex, db: PostgresDatabase, postgres_url: str
) -> None:
    index.add("m", [item("a1", "alice's coffee")], user_id="alice")
    index.add("m", [item("b1", "bob's coffee", "bob")], user_id="bob")
    name = current(db)
    member = PostgresDatabase(postgres_url, user_id="alice")
    try:
        assert member.query(f'SELECT user_id, id FROM "{name}"') == [("alice", "a1")]
        assert member.query(f"SELECT name FROM {POINTERS}") == [("m",)]
        with pytest.raises(StorageError, match="row-level security"):
            member.query(f"UPDATE \"{name}\" SET user_id = 'bob' WHERE id = 'a1' RETURNING id")
        with member.transaction() as conn:
            gone = conn.execute(f"DELETE FROM \"{name}\" WHERE id = 'b1'").fetchone()
        assert gone == (0,)
        # The index on a member connection: whatever user it is asked for, alice's rows only.
        door = PgVectorIndex(member, HashEmbedder())
        assert [h.id for h in door.search("m", "coffee", user_id="alice")] == ["a1"]
        assert door.search("m", "coffee", user_id="bob") == []
    finally:
        member.close()
    assert index.ids("m", user_id="bob") == {"b1"}


def test_search_tables_are_not_record_tables(
    index: PgVectorIndex, db: PostgresDatabase, postgres_url: str
) -> None:
    """No revision trigger (an index write takes no writers' lock), and a reopen of the
    record store finds its guard current: it does not redo it."""
    index.add("m", [item("a1", "coffee")], user_id="alice")
    name = current(db)
    triggers = db.query(
        "SELECT count(*) FROM information_schema.triggers WHERE event_object_table = ?", [name]
    )
    assert triggers == [(0,)]
    reopened = PostgresDatabase(postgres_url)
    try:
        assert reopened._guarded() and name not in reopened._record_tables()
    finally:
        reopened.close()


def test_a_rebuild_swaps_in_a_new_table_and_drops_the_old_ones(
    index: PgVectorIndex, db: PostgresDatabase
) -> None:
    index.add("m", [item("a1", "walnut desk")], user_id="alice")
    index.replace("m", [("alice", [item("a1", "walnut desk")])])
    [first] = tables(db)
    run(db, f'CREATE TABLE "{first[:-8]}0badf00d" (user_id TEXT)')  # a crashed build's
    index.replace("m", [("alice", [item("a2", "oak desk")]), ("bob", [item("b1", "desk", "bob")])])
    [table] = tables(db)
    assert table not in (first, "memvisor_search_m")
    assert db.query(f"SELECT physical FROM {POINTERS} WHERE name = 'm'") == [(table,)]
    assert index.ids("m", user_id="alice") == {"a2"} and index.ids("m", user_id="bob") == {"b1"}
    index.replace("m", [])  # nothing to index: no table at all
    assert tables(db) == [] and index.search("m", "desk", user_id="alice") == []


def test_a_dropped_search_table_is_rebuilt_from_the_records(
    postgres_url: str, tmp_path: Path, clock: ManualClock
) -> None:
    data = tmp_path / "data"
    with Store.open(data, embedder="hash", clock=clock, store=postgres_url) as store:
        desk = store.insert_passage(user_id="alice", text="Walnut desk order", trace_id="t").id
        assert [h.id for h in store.search("walnut desk", user_id="alice")] == [desk]
        db = store.db
        assert isinstance(db, PostgresDatabase)
        name = current(db, MEMORY_TABLE)
        run(db, f'DROP TABLE "{name}"')  # by hand, or a restore that left it out
        assert [h.id for h in store.search("walnut desk", user_id="alice")] == [desk]
        [event] = store.events.list(user_id="alice", kinds=["index_rebuilt"])
        assert "damaged" in event.payload["damage"]
        assert store.index.index.ids(MEMORY_TABLE, user_id="alice") == {desk}


def test_a_rebuild_by_another_process_is_followed(db: PostgresDatabase, postgres_url: str) -> None:
    first = PgVectorIndex(db, HashEmbedder())
    first.add("m", [item("a1", "walnut desk")], user_id="alice")
    assert first.ids("m", user_id="alice") == {"a1"}
    other_db = PostgresDatabase(postgres_url)
    try:
        PgVectorIndex(other_db, HashEmbedder()).replace("m", [("alice", [item("a2", "oak desk")])])
    finally:
        other_db.close()
    assert first.ids("m", user_id="alice") == {"a2"}  # its table went: the pointer is read again
    first.add("m", [item("a3", "teak desk")], user_id="alice")
    assert first.ids("m", user_id="alice") == {"a2", "a3"}


def test_without_pgvector_a_role_that_cannot_create_it_is_told_how(
    postgres_cluster: PostgresCluster,
) -> None:
    name = "memvisor_plain_owner"
    with postgres_cluster.admin() as admin:
        admin.execute(f"DROP DATABASE IF EXISTS {name}")
        admin.execute("DROP ROLE IF EXISTS memvisor_plain")
        admin.execute("CREATE ROLE memvisor_plain LOGIN")
        admin.execute(f"CREATE DATABASE {name} OWNER memvisor_plain")
    url = f"postgresql://memvisor_plain@/{name}?host={quote(postgres_cluster.socket_dir)}"
    plain = PostgresDatabase(url)  # a database owner: it migrates the records
    try:
        with pytest.raises(StorageError) as refused:
            PgVectorIndex(plain, HashEmbedder()).add("m", [item("a1", "coffee")], user_id="alice")
        assert "no pgvector extension" in str(refused.value)
        assert "CREATE EXTENSION vector;" in str(refused.value) and "superuser" in str(
            refused.value
        )
        with psycopg.connect(postgres_cluster.url(name), autocommit=True) as admin:
            admin.execute("CREATE EXTENSION vector")  # what the message says to do
        PgVectorIndex(plain, HashEmbedder()).add("m", [item("a1", "coffee")], user_id="alice")
    finally:
        plain.close()


def test_pgvector_in_another_schema_than_the_stores_is_found(
    postgres_cluster: PostgresCluster, tmp_path: Path
) -> None:
    """A DBA installed pgvector in `public`; the store's URL names a schema of its own (as
    `memvisor bench serve` does): its type and operators must still be found."""
    url = postgres_cluster.create_database()
    with psycopg.connect(url, autocommit=True) as admin:
        admin.execute("CREATE EXTENSION vector SCHEMA public")
        admin.execute("CREATE SCHEMA team_memory")
    own = f"{url}&options={quote('-c search_path=team_memory')}"
    with Store.open(tmp_path / "d", embedder="hash", store=own) as store:
        store.insert_passage(user_id="alice", text="the oak desk by the window", trace_id="t")
        hits = store.search("oak desk", user_id="alice", kinds=["passage"])
        assert [h.text for h in hits] == ["the oak desk by the window"]
        schemas = store.db.query("SELECT table_schema FROM information_schema.tables "
                                 "WHERE table_name = 'passages'")  # fmt: skip
    assert schemas == [("team_memory",)]  # the records went where the URL said


def test_a_tsquerys_lexemes_are_read_and_said_again_as_any_of() -> None:
    assert lexemes("'went' | 'kayak' & 'went' | ( 'it''s' )") == ["went", "kayak", "it's"]
    assert any_of(["kayak", "it's"]) == "'kayak' | 'it''s'"
    assert lexemes("") == [] and any_of([]) == ""
