"""Every regex-based text step takes long and adversarial strings, and every text door has a
maximum size with a clear error past it.

How long each takes is measured by `memvisor bench text` (a benchmark, not a unit-test timer).
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memvisor.agent.loop import Agent
from memvisor.agent.models.scripted import ScriptedModel
from memvisor.agent.toolcalls import turn_from_text
from memvisor.errors import UserError
from memvisor.evals.bench_text import HEADED, STEPS, run_text_bench
from memvisor.paging import topic_text
from memvisor.paging.pagein import PageIn
from memvisor.paging.summarize import identifiers
from memvisor.paging.text_limits import MAX_MESSAGE_CHARS
from memvisor.paging.timeparse import resolve_time
from memvisor.storage import Store
from memvisor.tools.builtin import builtin_registry
from memvisor.tools.context import ToolContext
from memvisor.tools.registry import MAX_ARGUMENT_CHARS
from tests.cli_helpers import run_cli

_PIECES = st.sampled_from(
    [
        "a",
        "a-",
        "A.",
        "1",
        "1 ",
        "@",
        "://",
        "我",
        "ー",
        "天前",
        "\u202e",
        " ",
        ". ",
        '{"a":',
        "<tool_call>{",
        "#",
        "a :",
        "(",
        "\n",
    ]
)
# ... after a label, whose value some patterns read from its end (a run of spaces after
# "Security question:" cost 7 s at 8,000 characters when each space was a new start)
_HEADS = st.sampled_from(
    [
        "",
        "Security question: pet's name",
        "door code",
        "password is",
        "Note from the bank:",
        "For the AI assistant:",
        "| a | b |",
        "系统：",
    ]
)
ADVERSARIAL = st.builds(
    lambda head, parts, times: head + "".join(parts) * times, _HEADS,
    st.lists(_PIECES, min_size=1, max_size=4), st.integers(1, 3000),
)  # fmt: skip


@settings(max_examples=40, deadline=None)
@given(ADVERSARIAL)
def test_every_step_takes_adversarial_text(text: str) -> None:
    for step in STEPS.values():
        step(text)
    assert all(found in text for found in identifiers(text))
    lowered = text.lower()
    shared = topic_text.shared_identifiers(text, [text])
    assert all(found in lowered for found in shared)
    turn = turn_from_text(text, {"fact_search"})
    assert turn.tool_calls == []  # no known tool is named: never a call, never a crash
    window = resolve_time(text, datetime(2026, 5, 1, tzinfo=UTC))
    assert window is None or window.start <= window.end


def test_nested_json_from_a_model_is_a_parse_error_not_a_crash() -> None:
    turn = turn_from_text("<tool_call>" + '{"a":' * 5000 + "</tool_call>", {"fact_search"})
    assert turn.tool_calls == [] and "nested too deeply" in " ".join(turn.parse_errors)


def test_an_email_in_a_topic_is_one_identifier() -> None:
    shared = topic_text.shared_identifiers(
        "mail maya.k@example.com about ORD-58213", ["maya.k@example.com, ORD-58213"]
    )
    assert shared == {"maya.k@example.com", "ord-58213"}


def test_a_message_past_the_maximum_is_refused_before_anything_is_logged(store: Store) -> None:
    agent = Agent(user_id="u", session_id="s", store=store, model=ScriptedModel(["ok"]))
    with pytest.raises(UserError, match=r"the message is 100,001 characters; the limit is 100,000"):
        agent.step("a" * (MAX_MESSAGE_CHARS + 1))
    assert store.events.list(user_id="u") == []
    assert agent.step("a" * 2000).error is None  # long but within it


def test_a_search_query_past_the_maximum_is_refused(store: Store) -> None:
    with pytest.raises(UserError, match="the search query is 100,001 characters"):
        PageIn(store).retrieve("a" * (MAX_MESSAGE_CHARS + 1), user_id="u")


def test_tool_arguments_past_their_maximum_are_refused_with_the_sizes() -> None:
    registry = builtin_registry()
    # refused before any tool runs, so memory is never reached
    ctx = ToolContext("u", "s", "t", memory=None, source_event_ids=[])  # type: ignore[arg-type]
    huge = registry.call("archival_memory_insert", {"content": "a" * MAX_ARGUMENT_CHARS}, ctx)
    assert huge.error == "invalid_arguments"
    assert f"the limit is {MAX_ARGUMENT_CHARS:,}" in huge.content
    query = registry.call("fact_search", {"query": "a" * 2001}, ctx)
    assert query.error == "invalid_arguments"
    assert "query: a string of 2,001 characters is too long" in query.content


def test_identifiers_and_offsets_still_mean_what_they_did() -> None:
    found = identifiers("Order ORD-58213 for maya@example.com, call +47 912 34 567, ref AB1234.")
    assert found == ["ORD-58213", "maya@example.com", "+47 912 34 567", "AB1234"]
    now = datetime(2026, 5, 1, tzinfo=UTC)
    window = resolve_time("三天前", now)
    assert window is not None and window.start == datetime(2026, 4, 28, tzinfo=UTC)
    assert resolve_time("999999 days ago", now) is None  # past what a date can hold
    assert resolve_time("1" * 9000 + "天前", now) is None  # a digit run is no count


def test_the_bench_reports_each_step_at_both_sizes_and_at_its_limit() -> None:
    result = run_text_bench(sizes=(200, 800), limit=1600)
    assert set(result["steps"]) == set(STEPS) and result["size_ratio"] == 4
    for step in result["steps"].values():
        assert len(step["ms"]) == 2 and step["piece"] and step["growth"] >= 0
        assert step["head"] == "" or (step["head"], step["piece"]) in HEADED
        assert step["at_limit"]["chars"] == 1600 and step["at_limit"]["ms"] >= 0


def test_the_cli_measures_at_the_limit_it_is_given_and_prints_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    table = run_cli(capsys, "bench", "text", "--sizes", "100,300", "--limit", "600")
    assert table.code == 0, table.err
    rows = [line for line in table.out.splitlines() if " worst " in line]
    assert len(rows) == len(STEPS) and all(line.endswith(" at 600") for line in rows)
    refused = run_cli(capsys, "bench", "text", "--sizes", "100,300", "--limit", "0")
    assert refused.code == 2 and "--limit" in refused.err
