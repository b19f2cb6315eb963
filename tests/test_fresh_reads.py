"""A read right after writes it cannot find by words scores them in memory and appends them
after (``storage/fts_reach.py``, ``storage/fresh_hits.py``, ``IndexSync.routes``): the hits are
those the read would give with the writes appended first, without waiting for the append."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import lancedb
import pyarrow as pa
import pytest

from memvisor.storage import Store
from memvisor.storage.fts_reach import _STOP_WORDS, may_share_words
from memvisor.storage.lance_queries import fts_words
from memvisor.storage.lance_upkeep import _FTS
from memvisor.storage.store import MEMORY_TABLE
from memvisor.storage.vectors import IndexedText, RouteHits
from tests.test_index_heal import appends_recorded

KINDS = ("passage", "turn")
# Words as the index reads them: stems, accents, apostrophes, marks, numbers, scripts without
# spaces, and words the stemmer begins differently ("dying" -> "die", "using" -> "use").
CORPUS = [
    "The cats were going home after studies of flies",
    "dying plants on the lying couch, tying knots",
    "Time flies when you fly to Oslo",
    "She was using the new app and used it daily",
    "don't forget Pavel's keys at the café",
    "kofi@example.com wrote about invoice E68741",
    "Pi is 3.14 and the room is 2967",
    "naïve approach to über cool straße",
    "live_note_3: a snake_case key",
    "用户住在北京，喜欢吃饺子。",
    "東京で寿司を食べた",
    "서울에서 회의가 있어요",
    "Ich wohne in München und fahre Rad",
    "The hiking trip in the Alps was amazing",
    "A teak bookshelf in the study",
    "Bought running shoes; ran five miles",
]
QUERIES = [
    "cat", "go", "study", "fly", "die", "lie", "tie", "use", "using", "forget", "pavel",
    "cafe", "example.com", "E68741", "2967", "naive", "uber", "strasse", "note", "snake",
    "北京", "寿司", "서울", "München", "muenchen", "hike", "hiking trips", "run", "running",
    "teak bookshelves", "what did she use", "knot", "plant", "oslo time",
]  # fmt: skip


@pytest.fixture(scope="module")
def fts_table(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """A LanceDB table of ``CORPUS`` with the index's own full-text settings."""
    db = lancedb.connect(tmp_path_factory.mktemp("fts"))
    words = sorted(_STOP_WORDS)
    texts = CORPUS + [f"zzq {word} yyq" for word in words]
    table = db.create_table("t", pa.table({"id": list(range(len(texts))), "text": texts}))
    table.create_index("text", config=_FTS, replace=True)
    return table, texts


def _fts_hits(table: Any, words: str) -> list[int]:
    found = table.search(words, query_type="fts").limit(10_000).select(["id", "_score"])
    return [row["id"] for row in found.to_list()]


def test_every_stop_word_left_out_is_one_the_index_drops(fts_table: Any) -> None:
    """A word the check leaves out but LanceDB keeps would let a read skip a write LanceDB
    finds by it."""
    table, _ = fts_table
    kept = [word for word in sorted(_STOP_WORDS) if _fts_hits(table, word)]
    assert kept == []


def test_whatever_the_index_finds_by_words_the_check_says_it_may(fts_table: Any) -> None:
    table, texts = fts_table
    missed = [
        (query, texts[hit])
        for query in QUERIES
        for hit in _fts_hits(table, fts_words(query))
        if not may_share_words(fts_words(query), texts[hit])
    ]
    assert missed == []
    # the cases the check widens for are real: the stemmer meets them
    assert all(_fts_hits(table, fts_words(q)) for q in ("fly", "use", "北京"))


def test_texts_with_no_word_of_the_query_are_told_apart() -> None:
    """The check is not always yes: a write about something else is scored in memory."""
    assert not may_share_words("car insurance", "A birthday party in Montreal with Kofi")
    assert not may_share_words("the hiking trip", "Bought new shoes for the wedding")
    assert not may_share_words("北京", "寿司を食べた")
    assert may_share_words("hiking", "The hike was long")  # "hik": a stem may be shared
    assert not may_share_words("", "anything at all")


def _routes(store: Store, query: str) -> RouteHits:
    return store.memory_routes(query, user_id="alice", limit=10, kinds=KINDS)


def _appends(store: Store, monkeypatch: pytest.MonkeyPatch) -> list[set[str]]:
    """Hold the write-behind (queued items wait for a read) and note each append's ids."""
    monkeypatch.setattr(store.index._ahead, "_then", lambda: None)
    return appends_recorded(monkeypatch)


@pytest.fixture
def shelf(tmp_path: Path) -> Any:
    """An embedded store whose index is reconciled (later writes are queued), with one
    passage and one turn."""
    with Store.open(tmp_path / "store", embedder="hash") as store:
        store.insert_passage(user_id="alice", text="A teak bookshelf in the study", trace_id="t")
        store.log_turn(user_id="alice", role="user", content="We painted the hallway green")
        assert _routes(store, "teak bookshelf").fts
        store.index.settle()
        yield store


def test_writes_no_words_route_can_find_are_scored_without_an_append_first(
    shelf: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    appended = _appends(shelf, monkeypatch)
    chest = shelf.insert_passage(
        user_id="alice", text="A cedar chest under the window", trace_id="t"
    ).id
    turn = shelf.log_turn(user_id="alice", role="assistant", content="Noted: cedar, by the window")
    query = "where is the teak bookshelf?"
    fresh = _routes(shelf, query)
    assert appended == []  # nothing appended before (or during) the read
    assert {chest, turn.id} <= {hit.id for hit in fresh.vector}
    shelf.index.sync(MEMORY_TABLE, user_id="alice")
    assert appended == [{chest, turn.id}]
    after = _routes(shelf, query)  # the same read with both appended
    assert [(h.id, h.kind, h.text, h.ts, h.meta) for h in fresh.vector] == [
        (h.id, h.kind, h.text, h.ts, h.meta) for h in after.vector
    ]
    assert [h.score for h in fresh.vector] == pytest.approx([h.score for h in after.vector])
    assert [(h.id, h.score) for h in fresh.fts] == [(h.id, h.score) for h in after.fts]


def test_a_write_that_shares_a_word_with_the_query_is_appended_first(
    shelf: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    appended = _appends(shelf, monkeypatch)
    chest = shelf.insert_passage(user_id="alice", text="A cedar chest of books", trace_id="t").id
    hits = _routes(shelf, "books by the shelf")  # "books": the words route must see it
    assert appended == [{chest}]
    assert chest in {hit.id for hit in hits.fts}


def test_a_read_embeds_its_query_beside_the_writes_still_being_embedded_ahead(
    shelf: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A read right after a write waited for the embed-ahead thread to embed the write, then
    embedded its query: the query is embedded first, beside it (bench paging's page-in right
    after a turn's writes, p50 23.6 -> 18.7 ms at 10k)."""
    embedder = shelf.index.index.embedder
    embed = embedder.embed
    query = "books by the shelf"
    read_embedded = threading.Event()
    order: list[str] = []

    def gated(texts: Sequence[str]) -> Any:
        if threading.current_thread().name == "memvisor-embed-ahead":
            read_embedded.wait(timeout=2)  # the write's embedding outlasts the read's start
            order.append("write")
        elif query in texts:
            order.append("query")
            read_embedded.set()
        return embed(texts)

    monkeypatch.setattr(embedder, "embed", gated)
    chest = shelf.insert_passage(user_id="alice", text="A cedar chest of books", trace_id="t").id
    hits = _routes(shelf, query)  # shares "books": the write is appended before the read
    assert order[:2] == ["query", "write"]
    assert chest in {hit.id for hit in hits.fts}


def test_a_write_that_replaces_an_indexed_row_is_appended_first(
    shelf: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The old row would still be found by its old text: the new one must replace it."""
    appended = _appends(shelf, monkeypatch)
    old = _routes(shelf, "teak bookshelf").fts[0]
    renewed = IndexedText(
        id=old.id, user_id="alice", text="A walnut cabinet", kind=old.kind, ts=datetime.now(UTC)
    )
    shelf.index.queue(MEMORY_TABLE, renewed)
    hits = _routes(shelf, "painted hallway")
    assert appended == [{old.id}]
    assert [h.text for h in hits.vector if h.id == old.id] == ["A walnut cabinet"]


def test_a_kind_the_read_does_not_ask_for_stays_out_of_its_hits(
    shelf: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    appended = _appends(shelf, monkeypatch)
    turn = shelf.log_turn(user_id="alice", role="user", content="A cedar chest arrived").id
    hits = shelf.memory_routes("teak bookshelf", user_id="alice", limit=10, kinds=("passage",))
    assert appended == []
    assert turn not in {hit.id for hit in hits.vector}


def test_a_reproducible_store_appends_first_as_before(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Replays rank the same every run: whether a write is appended before a read may not
    depend on a thread's timing, nor the score of a row on who computed it."""
    with Store.open(tmp_path / "store", embedder="hash", reproducible=True) as store:
        store.insert_passage(user_id="alice", text="A teak bookshelf in the study", trace_id="t")
        assert _routes(store, "teak bookshelf").fts
        store.index.settle()
        appended = _appends(store, monkeypatch)
        chest = store.insert_passage(user_id="alice", text="A cedar chest", trace_id="t").id
        _routes(store, "teak bookshelf")
        assert appended == [{chest}]
