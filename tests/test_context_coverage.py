"""The query words a turn and its neighbours hold between them (``paging.context_coverage``)."""

from __future__ import annotations

import pytest

from memvisor.paging.context_coverage import window_coverage


def test_a_turn_covers_the_words_of_its_neighbours() -> None:
    texts = {
        "ask": "Joanna: Any book you would recommend?",
        "reply": "Nate: Project Hail Mary, a great story",
        "other": "Nate: My turtles love strawberries",
    }
    windows = {"ask": ["reply"], "reply": ["ask"], "other": []}
    shares = window_coverage(["book", "recommend", "story"], texts, windows)
    # the exchange holds all three words; "other" holds none
    assert shares["ask"] == pytest.approx(1.0) and shares["reply"] == pytest.approx(1.0)
    assert shares["other"] == 0.0
    alone = window_coverage(["book", "recommend", "story"], texts, {k: [] for k in texts})
    assert 0.0 < alone["reply"] < alone["ask"] < 1.0


def test_a_word_every_text_holds_counts_for_less_than_a_rare_one() -> None:
    texts = {"a": "trip to the lake", "b": "trip to the hills", "c": "trip with kayaks"}
    shares = window_coverage(["trip", "kayaks"], texts, {k: [] for k in texts})
    assert shares["c"] > shares["a"] == shares["b"] > 0.0


def test_no_words_or_no_texts_cover_nothing() -> None:
    assert window_coverage([], {"a": "text"}, {"a": []}) == {}
    assert window_coverage(["text"], {}, {}) == {}
