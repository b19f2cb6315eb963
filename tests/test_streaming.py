"""A turn's answer streamed as it is written: what is shown, what is logged, cancelling."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memvisor.agent.loop import Agent
from memvisor.agent.models.base import AssistantTurn, ToolCall
from memvisor.agent.streaming import AnswerStream, ShownText
from memvisor.agent.toolcalls import turn_from_text
from memvisor.errors import TurnCancelled
from memvisor.storage import ManualClock, Store
from tests.streamed import StreamedScript

REMEMBER = ToolCall(
    id="c1",
    name="fact_remember",
    arguments={"subject": "Maya", "predicate": "lives_in", "object": "Oslo"},
)


class Collected(AnswerStream):
    def __init__(self) -> None:
        self.events: list[str] = []

    def text(self, piece: str) -> None:
        self.events.append(piece)

    def discard(self) -> None:
        self.events.append("<discard>")


def shown(*pieces: str) -> str:
    text = ShownText()
    return "".join(text.feed(p) for p in pieces)


def test_plain_text_shows_as_it_comes() -> None:
    text = ShownText()
    assert [text.feed(p) for p in ("Hel", "lo ", "there")] == ["Hel", "lo", " there"]


def test_thinking_and_tool_markup_never_show() -> None:
    assert shown("<thi", "nk>plan it</th", "ink>", "The answer.") == "The answer."
    assert shown("Sure. <tool", '_call>{"name": "x"}</tool_call>', " more") == "Sure."
    assert shown('{"name": "fact_search", ', '"arguments": {}}') == ""
    assert shown("``", "`json\n{}```") == ""
    assert shown("I <3 ", "tea") == "I <3 tea"


@given(st.lists(st.text(alphabet=st.characters(blacklist_characters="<{[`"), max_size=12),
                max_size=12))  # fmt: skip
def test_plain_pieces_show_exactly_the_answer(pieces: list[str]) -> None:
    assert shown(*pieces) == turn_from_text("".join(pieces), set()).content


def run(tmp_path: Path, clock: ManualClock, stream: AnswerStream | None) -> list[tuple]:
    model = StreamedScript([AssistantTurn(content="Let me note that.", tool_calls=[REMEMBER]),
                            "Noted: you live in Oslo."])  # fmt: skip
    with Store.open(tmp_path / ("streamed" if stream else "whole"), embedder="hash",
                    clock=clock) as store:  # fmt: skip
        turn = Agent(user_id="maya", session_id="s1", model=model, store=store).step(
            "I live in Oslo", stream=stream
        )
        assert turn.answer == "Noted: you live in Oslo." and turn.writes == 1
        events = store.events.list(user_id="maya", trace_id=turn.trace_id)
        # Ids are random, and token counts of text holding them vary by a token or two.
        logged = [re.sub(r"\b[a-z]{3}_[0-9a-z]{26}\b", "ID", json.dumps(e.payload)) for e in events]
        return [(e.kind, re.sub(r"\d+", "N", text) if e.kind == "model_request" else text)
                for e, text in zip(events, logged, strict=True)]  # fmt: skip


def test_streaming_changes_nothing_that_is_logged(tmp_path: Path, clock: ManualClock) -> None:
    stream = Collected()
    logged = run(tmp_path, clock, stream)
    assert logged == run(tmp_path, clock, None)
    assert stream.events == ["Let", " me", " note", " that.", "<discard>", "Noted:", " you",
                             " live", " in", " Oslo."]  # fmt: skip


class CancelOnWait(AnswerStream):
    @contextmanager
    def waiting(self) -> Iterator[None]:
        raise TurnCancelled("cancelled with Ctrl-C")
        yield


def test_a_cancelled_turn_is_logged_as_cancelled_and_the_session_goes_on(
    store: Store,
) -> None:
    agent = Agent(user_id="maya", session_id="s1", model=StreamedScript(["Hello again."]),
                  store=store)  # fmt: skip
    cancelled = agent.step("Tell me a long story", stream=CancelOnWait())
    assert cancelled.cancelled and cancelled.answer == "(cancelled)"
    events = store.events.list(user_id="maya", trace_id=cancelled.trace_id)
    assert [e.kind for e in events][-2:] == ["error", "assistant_message"]
    assert events[-2].payload["kind"] == "TurnCancelled"
    assert events[-1].payload["content"] == "(cancelled)"
    after = agent.step("Hi", stream=Collected())
    assert after.answer == "Hello again." and not after.cancelled


@pytest.mark.parametrize("reply", ["Just text.", AssistantTurn(content="Whole.")])
def test_a_model_that_cannot_stream_answers_whole(store: Store, reply) -> None:
    from memvisor.agent.models.scripted import ScriptedModel

    stream = Collected()
    agent = Agent(user_id="u", session_id="s", model=ScriptedModel([reply]), store=store)
    turn = agent.step("hi", stream=stream)
    assert turn.answer in ("Just text.", "Whole.") and stream.events == []
