"""A turn's vector is made of its text and the turn before it in its session
(``storage/index_items.turn_items``); its words and its hit keep its own text."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np
import pytest

from memvisor.storage import ManualClock, Store
from memvisor.storage.embedders import Embedder, embedder_from_name

# A storage contract: every test runs on DuckDB and on PostgreSQL (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("backend")


class Recording:
    """The hash stand-in embedder, keeping every text the index asked it to embed."""

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner
        self.texts: list[str] = []

    @property
    def model_id(self) -> str:
        return self.inner.model_id

    @property
    def dim(self) -> int:
        return self.inner.dim

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.texts.extend(texts)
        return self.inner.embed(texts)


@pytest.fixture
def recorder() -> Recording:
    return Recording(embedder_from_name("hash"))


@pytest.fixture
def store(tmp_path: Path, clock: ManualClock, recorder: Recording) -> Iterator[Store]:
    with Store.open(tmp_path / "store", embedder=recorder, clock=clock) as s:
        yield s


def say(store: Store, text: str, session: str, role: str = "user") -> str:
    return store.log_turn(user_id="u", role=role, content=text, session_id=session).id  # type: ignore[arg-type]


def test_each_turn_is_embedded_after_the_turn_before_it_in_its_session(
    store: Store, recorder: Recording
) -> None:
    say(store, "I adopted a puppy called Coco.", "s1")
    reply = say(store, "Yes, she is so sweet!", "s1", role="assistant")
    say(store, "Started pottery classes today.", "s2")
    store.log_turns(
        [
            {"role": "assistant", "content": "How did it go?", "session_id": "s2"},
            {"role": "user", "content": "Messy but fun.", "session_id": "s2"},
        ],
        user_id="u",
    )
    hits = store.memory_routes("sweet", user_id="u", limit=10, kinds=["turn"])
    assert {
        "I adopted a puppy called Coco.",
        "Yes, she is so sweet!\nI adopted a puppy called Coco.",
        "Started pottery classes today.",  # the first of its session: nothing before it
        "How did it go?\nStarted pottery classes today.",  # read from the store
        "Messy but fun.\nHow did it go?",  # from its own batch
    } <= set(recorder.texts)
    # the words route and the hit hold the turn's own text
    assert [h.text for h in hits.fts if h.id == reply] == ["Yes, she is so sweet!"]


def test_a_reindex_gives_every_turn_the_same_context(store: Store, recorder: Recording) -> None:
    say(store, "I adopted a puppy called Coco.", "s1")
    say(store, "Yes, she is so sweet!", "s1", role="assistant")
    say(store, "Started pottery classes today.", "s2")
    store.memory_routes("sweet", user_id="u", limit=10, kinds=["turn"])
    not_turns = {"sweet", "memvisor index rebuild"}  # the query, the rebuild's probe
    logged = sorted(set(recorder.texts) - not_turns)
    recorder.texts.clear()
    store.reindex(trace_id="t")
    assert sorted(set(recorder.texts) - not_turns) == logged
    assert "Yes, she is so sweet!\nI adopted a puppy called Coco." in logged


def test_a_forget_makes_the_next_turn_again_without_the_value(
    store: Store, recorder: Recording
) -> None:
    said = store.log_turn(user_id="u", role="user", content="My partner is Jonas.", session_id="s")
    say(store, "That is lovely to hear.", "s", role="assistant")
    fact = store.remember_fact(
        user_id="u", subject="u", predicate="has_partner", object="Jonas", trace_id="t",
        source_event_ids=[said.id],
    ).fact  # fmt: skip
    assert fact is not None
    store.memory_routes("partner", user_id="u", limit=5, kinds=["turn"])
    assert "That is lovely to hear.\nMy partner is Jonas." in recorder.texts
    recorder.texts.clear()
    store.forget(fact.id, user_id="u", trace_id="t")
    store.memory_routes("partner", user_id="u", limit=5, kinds=["turn"])
    assert "That is lovely to hear.\nMy partner is [forgotten]." in recorder.texts
    assert not [t for t in recorder.texts if "Jonas" in t]


class Failing(Recording):
    """Embeds until ``fail`` is set: a process that dies before its index catches up."""

    fail = False

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if self.fail:
            raise RuntimeError("the embedder went away")
        return super().embed(texts)


def test_a_forget_the_index_missed_is_mended_with_the_next_turn_at_the_next_start(
    tmp_path: Path, clock: ManualClock
) -> None:
    """The turn after a redacted one was embedded with the value as its context; its own
    text did not change, so only its context's change tells the reconcile to embed it again."""
    failing = Failing(embedder_from_name("hash"))
    with Store.open(tmp_path / "store", embedder=failing, clock=clock) as store:
        said = store.log_turn(
            user_id="u", role="user", content="My partner is Jonas.", session_id="s"
        )
        say(store, "That is lovely to hear.", "s", role="assistant")
        fact = store.remember_fact(
            user_id="u", subject="u", predicate="has_partner", object="Jonas", trace_id="t",
            source_event_ids=[said.id],
        ).fact  # fmt: skip
        assert fact is not None
        store.memory_routes("partner", user_id="u", limit=5, kinds=["turn"])
        failing.fail = True  # nothing of the forget reaches the index
        store.forget(fact.id, user_id="u", trace_id="t")
    again = Recording(embedder_from_name("hash"))
    with Store.open(tmp_path / "store", embedder=again, clock=clock) as store:
        store.memory_routes("partner", user_id="u", limit=5, kinds=["turn"])
    assert "My partner is [forgotten]." in again.texts
    assert "That is lovely to hear.\nMy partner is [forgotten]." in again.texts
    assert not [t for t in again.texts if "Jonas" in t]
