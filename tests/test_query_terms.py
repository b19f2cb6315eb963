"""What page-in adds to a query: the named speaker's form for the vector route, and
expansion words from the best hits (pseudo-relevance feedback), on conversations made here."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from pathlib import Path

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from memvisor.paging.pagein import PageIn, RankingConfig
from memvisor.paging.query_terms import (
    as_said_by,
    content_words,
    expansion_words,
    named_speaker,
    without_speakers,
    words_held,
)
from memvisor.storage import ManualClock, Store
from memvisor.storage.embedders import embedder_from_name


def test_named_speaker_is_the_one_known_name_the_query_holds() -> None:
    speakers = {"Ilse", "Tomas"}
    assert named_speaker("What does Ilse grow in her garden?", speakers) == "Ilse"
    assert named_speaker("what does ilse's brother do?", speakers) == "Ilse"
    assert named_speaker("What do Ilse and Tomas share?", speakers) is None  # one subject
    assert named_speaker("Where did Ilse's and Tomas's paths cross?", speakers) is None
    assert named_speaker("What did Tomas tell Ilse about the lake?", speakers) == "Tomas"
    assert named_speaker("Why did Ilse thank Tomas?", speakers) == "Ilse"  # the first named
    assert named_speaker("What does Ilsebill grow?", speakers) is None  # whole words only
    assert named_speaker("What grows in the garden?", speakers) is None
    assert named_speaker("anything", set()) is None


def test_without_speakers_leaves_the_words_of_the_question() -> None:
    speakers = {"Ilse", "Tomas", "Ilsebill"}
    assert without_speakers("What did Ilse's mum tell TOMAS?", speakers) == "What did mum tell ?"
    assert without_speakers("Where does Ilsebill live?", speakers) == "Where does live?"
    assert without_speakers("What is Ilsen?", speakers) == "What is Ilsen?"  # whole names only
    assert without_speakers("Who paints?", set()) == "Who paints?"


def test_the_words_route_looks_for_the_question_not_the_speakers_name(
    store: Store, clock: ManualClock
) -> None:
    ids = _conversation(
        store,
        clock,
        [("Maren", "I paint herons by the lake"), ("Maren", "Thanks!")]
        + [("Tomas", f"The bus was late again, day {n}") for n in range(8)],
    )

    def by_words(names_out: bool) -> set[str]:
        pagein = PageIn(store, ranking=RankingConfig(names_out_of_words=names_out), floor=0.0)
        items = pagein.rank_turns("What does Maren paint?", user_id="u", limit=10)
        return {i.id for i in items if "fts" in i.routes}

    # every turn of Maren starts with her name: BM25 found her "Thanks!" for the name alone
    # (and ranked it above her painting, being shorter)
    assert by_words(names_out=False) >= {ids[0], ids[1]}
    assert by_words(names_out=True) == {ids[0]}


def test_as_said_by_writes_the_question_in_the_speakers_turn_form() -> None:
    assert as_said_by("What did Ilse paint for her mother?", "Ilse") == (
        "Ilse: What did I paint for my mother?"
    )
    assert as_said_by("Where is Ilse's studio?", "Ilse") == "Ilse: Where is my studio?"


def test_expansion_words_are_shared_by_several_hits_and_new_to_the_query() -> None:
    hits = [
        "Ilse: we went camping by the lake with the kids",
        "Ilse: the kids loved camping, we roasted marshmallows",
        "Tomas: sounds great, the lake must have been cold",
        "Ilse: marshmallows again tonight",
    ]
    words = expansion_words(
        hits, query="What does Ilse do with her kids?", exclude={"Ilse"}, limit=5, min_hits=2
    )
    # "camping" (2 hits) first, then the other words of two hits in the order first met
    assert words == ["camping", "lake", "marshmallows"]
    assert "kids" not in words  # the query has it
    assert "sounds" not in words and "great" not in words  # small talk says nothing
    assert expansion_words(hits, query="kids", exclude={"Ilse"}, limit=1, min_hits=2) == ["camping"]
    assert expansion_words(hits, query="kids", limit=5, min_hits=5) == []


@given(st.text(max_size=200), st.text(max_size=30))
def test_query_forms_take_any_text(query: str, speaker: str) -> None:
    said = as_said_by(query, speaker) if speaker.strip() else query
    assert isinstance(said, str)
    words = expansion_words([query, said], query="", limit=5, min_hits=1)
    assert set(words) <= content_words(query) | content_words(said)


@given(st.lists(st.text(alphabet="abcé Ü_1-'\n", max_size=40), max_size=8))
def test_words_held_finds_the_whole_words_content_words_reads(texts: list[str]) -> None:
    words = sorted({w for t in texts for w in content_words(t)})[:6] + ["camping"]
    assert words_held(words, texts) == [{w for w in words if w in content_words(t)} for t in texts]


def test_words_held_skips_words_inside_longer_ones() -> None:
    texts = ["Lakeside camping", "the LAKE, camping!", "flake lakes", ""]
    assert words_held(["lake", "camping"], texts) == [
        {"camping"},
        {"lake", "camping"},
        set(),
        set(),
    ]


class RecordingEmbedder:
    """The hash embedder, remembering every batch it was asked to embed."""

    def __init__(self) -> None:
        self.inner = embedder_from_name("hash")
        self.batches: list[list[str]] = []

    @property
    def model_id(self) -> str:
        return self.inner.model_id

    @property
    def dim(self) -> int:
        return self.inner.dim

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.batches.append(list(texts))
        return self.inner.embed(texts)


def _conversation(store: Store, clock: ManualClock, turns: list[tuple[str, str]]) -> list[str]:
    ids = []
    for speaker, text in turns:
        clock.advance(timedelta(minutes=1))
        event = store.log_turn(
            user_id="u",
            role="user",
            content=f"{speaker}: {text}",
            session_id="s1",
            payload={"speaker": speaker},
        )
        ids.append(event.id)
    return ids


def test_a_named_speaker_adds_their_form_to_the_query_vector(
    tmp_path: Path, clock: ManualClock
) -> None:
    embedder = RecordingEmbedder()
    with Store.open(tmp_path / "store", embedder=embedder, clock=clock) as store:
        _conversation(store, clock, [("Ilse", "I paint every morning"), ("Tomas", "nice!")])
        pagein = PageIn(store)
        pagein.rank_turns("warm up", user_id="u", limit=5)  # the index embeds the turns
        embedder.batches.clear()
        pagein.rank_turns("What does Ilse paint?", user_id="u", limit=5)
        assert embedder.batches == [["What does Ilse paint?", "Ilse: What does I paint?"]]
        embedder.batches.clear()
        pagein.rank_turns("What does anyone paint?", user_id="u", limit=5)
        assert embedder.batches == [["What does anyone paint?"]]  # no name: one embedding
        embedder.batches.clear()
        off = PageIn(store, ranking=RankingConfig(speaker_form=0.0))
        off.rank_turns("What does Ilse paint?", user_id="u", limit=5)
        assert embedder.batches == [["What does Ilse paint?"]]


def test_expansion_lifts_a_turn_holding_the_best_hits_shared_words(
    store: Store, clock: ManualClock
) -> None:
    ids = _conversation(
        store,
        clock,
        [
            ("Ilse", "Our family trip: camping at the lake, the family loved it"),
            ("Tomas", "Did the family go camping by the lake again?"),
            ("Ilse", "Yes, camping by the lake, kayaks and a bonfire"),
            ("Tomas", "Kayaks at the lake are my favourite part of camping"),
            ("Ilse", "My cat knocked over a plant this morning"),
            ("Tomas", "Groceries are expensive this week"),
        ],
    )
    question = "What did the family do on their trip?"

    def rank(expansion: float) -> dict[str, float]:
        # no neighbours, session prior, coverage or floor: the expansion alone moves the turns
        ranking = RankingConfig(
            expansion=expansion, neighbour=0.0, reply=0.0, session=0.0, coverage=0.0
        )
        pagein = PageIn(store, ranking=ranking, floor=0.0)
        return {i.id: i.similarity for i in pagein.rank_turns(question, user_id="u", limit=10)}

    with_words, without = rank(0.3), rank(0.0)
    # turns 2 and 3 share no word with the question, but the best hits' "camping" and "lake"
    assert with_words[ids[2]] > without[ids[2]] and with_words[ids[3]] > without[ids[3]]
    assert with_words[ids[4]] == without[ids[4]] and with_words[ids[5]] == without[ids[5]]
    ranked = sorted(with_words, key=lambda i: -with_words[i])
    assert set(ranked[:4]) == set(ids[:4])
