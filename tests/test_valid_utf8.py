"""Text that is not valid UTF-8 (lone surrogates) is repaired at the door, never a crash."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memvisor.agent.loop import Agent
from memvisor.agent.models.base import AssistantTurn, ToolCall
from memvisor.agent.models.scripted import ScriptedModel
from memvisor.storage import Store
from memvisor.storage.text import valid_utf8
from tests.cli_helpers import run_cli


@given(st.recursive(st.text() | st.integers() | st.none(), lambda inner: st.lists(inner)
                    | st.dictionaries(st.text(), inner), max_leaves=20))  # fmt: skip
def test_valid_utf8_always_encodes_and_keeps_valid_text(value: object) -> None:
    repaired = valid_utf8(value)
    str(repaired).encode("utf-8")  # never raises
    if str(value).isascii():
        assert repaired == value


def test_a_turn_with_lone_surrogates_everywhere_completes(store: Store) -> None:
    call = ToolCall(id="1", name="archival_memory_insert", arguments={"content": "Order \ud800 42"})
    model = ScriptedModel([AssistantTurn(tool_calls=[call]), "Saved \udfff."])
    turn = Agent(user_id="u", session_id="s", model=model, store=store).step("save \ud83d it")
    assert turn.tool_calls[0].ok and turn.answer == "Saved \ufffd."
    (passage,) = store.passages.list(user_id="u")
    assert passage.text == "Order \ufffd 42"
    (write,) = store.events.list(user_id="u", kinds=["memory_write"])
    assert write.payload["text_repaired"] == "invalid UTF-8 replaced"
    assert store.search("order", user_id="u", kinds=("passage",))[0].id == passage.id
    for event in store.events.list(user_id="u"):
        str(event.payload).encode("utf-8")


def test_the_cli_repairs_undecodable_arguments(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # An argument with a byte that is not UTF-8 reaches Python as a lone surrogate.
    result = run_cli(
        capsys, "memory", "add", "--text", "Locker \udcff code hint: blue door",
        "--data-dir", str(tmp_path / "d"), "--user", "u", "--json",
    )  # fmt: skip
    assert result.code == 0, result.err
    assert "\ufffd" in result.json()["text"]
