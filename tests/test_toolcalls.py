"""Recovering tool calls written as text (qwen2.5 via Ollama does this)."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from memvisor.agent.toolcalls import extract_tool_calls, split_thinking, turn_from_text

TOOLS = {"memory_search", "core_memory_append"}


def test_tool_call_block_with_text_before():
    content = (
        "Let me look that up.\n"
        '<tool_call>\n{"name": "memory_search", "arguments": {"query": "cats"}}\n</tool_call>'
    )
    result = extract_tool_calls(content, TOOLS)
    assert [(c.id, c.name, c.arguments) for c in result.calls] == [
        ("call_1", "memory_search", {"query": "cats"})
    ]
    assert result.remaining_text == "Let me look that up."
    assert result.errors == []
    assert not result.invented_output
    assert result.raw_text is not None and result.raw_text.startswith("<tool_call>")


def test_several_blocks_missing_close_fences_parameters_and_string_arguments():
    content = (
        '<tool_call>{"name": "memory_search", "parameters": {"query": "a"}}</tool_call>\n'
        '<tool_call>```json\n{"name": "core_memory_append", '
        '"arguments": "{\\"label\\": \\"human\\", \\"content\\": \\"likes tea\\"}"}\n```'
        '</tool_call>\n<tool_call>{"name": "memory_search", "arguments": {"query": "b"}}'
    )
    result = extract_tool_calls(content, TOOLS)
    assert result.errors == []
    assert [c.id for c in result.calls] == ["call_1", "call_2", "call_3"]
    assert result.calls[0].arguments == {"query": "a"}
    assert result.calls[1].arguments == {"label": "human", "content": "likes tea"}
    assert result.calls[2].arguments == {"query": "b"}
    assert result.remaining_text == ""


def test_bad_json_in_block_is_an_error_not_a_crash():
    content = '<tool_call>{"name": "memory_search", "arguments": {"query" "cats"}}</tool_call>'
    result = extract_tool_calls(content, TOOLS)
    assert result.calls == []
    assert result.errors == [
        "tool call 1 is not valid JSON: Expecting ':' delimiter at char 48 "
        '(near \'nts": {"query" "cats"}}\')'
    ]


def test_block_problems_are_named_precisely():
    content = (
        '<tool_call>{"arguments": {}}</tool_call>'
        '<tool_call>{"name": "memory_search", "arguments": [1]}</tool_call>'
        '<tool_call>{"name": "memory_search", "arguments": "{oops"}</tool_call>'
        "<tool_call></tool_call>"
    )
    errors = extract_tool_calls(content, TOOLS).errors
    assert errors[0].startswith('tool call 1 has no "name"')
    assert errors[1] == 'tool call 2 (memory_search) "arguments" must be a JSON object, got list'
    assert errors[2].startswith("tool call 3 (memory_search) arguments is not valid JSON")
    assert errors[3].startswith("tool call 4 is empty")


def test_unknown_tool_in_block_is_returned_not_dropped():
    result = extract_tool_calls('<tool_call>{"name": "rm_rf", "arguments": {}}</tool_call>', TOOLS)
    assert [c.name for c in result.calls] == ["rm_rf"]


def test_surplus_closing_brace_is_tolerated():
    content = '<tool_call>{"name": "memory_search", "arguments": {"query": "x"}}}</tool_call>'
    result = extract_tool_calls(content, TOOLS)
    assert result.errors == [] and result.calls[0].arguments == {"query": "x"}


def test_bare_json_call_fenced_and_listed():
    plain = extract_tool_calls('{"name": "memory_search", "arguments": {"query": "x"}}', TOOLS)
    assert [c.name for c in plain.calls] == ["memory_search"] and plain.remaining_text == ""
    fenced = extract_tool_calls(
        '```json\n{"name": "memory_search", "parameters": {"query": "y"}}\n```', TOOLS
    )
    assert fenced.calls[0].arguments == {"query": "y"}
    listed = extract_tool_calls(
        json.dumps(
            [
                {"name": "memory_search", "arguments": {"query": "a"}},
                {"type": "function", "function": {"name": "memory_search", "arguments": {}}},
            ]
        ),
        TOOLS,
    )
    assert [c.id for c in listed.calls] == ["call_1", "call_2"]


def test_ordinary_json_shown_to_the_user_is_not_a_call():
    for content in (
        '{"name": "Alice", "arguments": {"age": 3}}',
        '{"name": "memory_search"}',
        "[1, 2, 3]",
        '```json\n{"name": "Alice", "age": 3}\n```',
        'Here is a call: {"name": "memory_search", "arguments": {}}',
        '{"name": "memory_search", "arguments": {}} and then some prose',
    ):
        result = extract_tool_calls(content, TOOLS)
        assert result.calls == [] and result.errors == [], content
        assert result.remaining_text == content.strip()


def test_invented_tool_output_is_flagged_and_stripped():
    content = (
        "Checking.\n"
        '<tool_call>{"name": "memory_search", "arguments": {"query": "dog"}}</tool_call>\n'
        "<tool_response>The user's dog is called Rex.</tool_response>\n"
        "Your dog is called Rex!"
    )
    result = extract_tool_calls(content, TOOLS)
    assert result.invented_output
    assert [c.name for c in result.calls] == ["memory_search"]
    assert result.remaining_text == "Checking."
    assert "Rex" not in result.remaining_text


def test_invented_observation_after_bare_call_and_missing_close_tag():
    bare = extract_tool_calls(
        '{"name": "memory_search", "arguments": {"query": "x"}}\nObservation: found 3 items',
        TOOLS,
    )
    assert bare.invented_output and len(bare.calls) == 1 and bare.remaining_text == ""
    unclosed = extract_tool_calls(
        '<tool_call>{"name": "memory_search", "arguments": {}}\nTool result: nothing', TOOLS
    )
    assert unclosed.invented_output and unclosed.errors == [] and len(unclosed.calls) == 1


def test_calls_after_invented_output_are_ignored_with_an_error():
    content = (
        '<tool_call>{"name": "memory_search", "arguments": {}}</tool_call>'
        "<tool_response>[]</tool_response>"
        '<tool_call>{"name": "core_memory_append", "arguments": {}}</tool_call>'
    )
    result = extract_tool_calls(content, TOOLS)
    assert [c.name for c in result.calls] == ["memory_search"]
    assert result.errors and "ignored" in result.errors[0]


def test_no_call_means_observation_text_is_left_alone():
    result = extract_tool_calls("Observation: the sky is blue.", TOOLS)
    assert not result.invented_output and result.remaining_text == "Observation: the sky is blue."


def test_explicit_ids_are_kept():
    content = '<tool_call>{"id": "abc", "name": "memory_search", "arguments": {}}</tool_call>'
    assert extract_tool_calls(content, TOOLS).calls[0].id == "abc"


def test_think_blocks_become_reasoning():
    assert split_thinking("<think>plan</think>Answer") == ("plan", "Answer")
    assert split_thinking("plan only</think>Answer") == ("plan only", "Answer")
    assert split_thinking("<think>cut off") == ("cut off", "")
    assert split_thinking("no thoughts") == (None, "no thoughts")
    turn = turn_from_text(
        '<think>search first</think><tool_call>{"name": "memory_search", "arguments": {}}',
        TOOLS,
    )
    assert turn.reasoning == "search first" and turn.content == ""
    assert turn.tool_calls[0].name == "memory_search" and turn.raw_tool_text


@given(st.text())
def test_arbitrary_text_never_raises(text):
    result = extract_tool_calls(text, TOOLS)
    assert isinstance(result.remaining_text, str)
    assert len({c.id for c in result.calls}) == len(result.calls)


@given(
    st.sampled_from(
        [
            "<tool_call>",
            "</tool_call>",
            "{",
            "}",
            '"name"',
            ":",
            "```json",
            "\n",
            '"memory_search"',
            '"arguments"',
            "[",
            "]",
            ",",
            "Observation:",
            "x",
        ]
    ),
)
def test_tool_markup_fragments_never_raise(fragment):
    extract_tool_calls(fragment * 3, TOOLS)


@given(
    st.lists(
        st.sampled_from(
            [
                "<tool_call>",
                "</tool_call>",
                "{",
                "}",
                '"name"',
                ":",
                "```json",
                "\n",
                '"memory_search"',
                '"arguments"',
                "[",
                "]",
                ",",
                "Observation:",
                "<tool_response>",
                '"x"',
                "<think>",
            ]
        ),
        max_size=30,
    )
)
def test_markup_soup_never_raises(pieces):
    turn_from_text("".join(pieces), TOOLS)


@given(st.dictionaries(st.text(max_size=10), st.one_of(st.integers(), st.text(max_size=20))))
def test_written_calls_round_trip(arguments):
    call = json.dumps({"name": "memory_search", "arguments": arguments})
    for content in (f"<tool_call>{call}</tool_call>", call):
        result = extract_tool_calls(content, TOOLS)
        assert result.errors == []
        assert [(c.name, c.arguments) for c in result.calls] == [("memory_search", arguments)]


def test_a_call_quoting_a_tool_result_tag_in_its_arguments_is_not_cut() -> None:
    """Found by the round-trip property: ``{"": "<TOOL_RESPONSE>"}`` as an argument."""
    arguments = {"query": "what does <tool_response> mean in qwen's chat format?"}
    call = json.dumps({"name": "memory_search", "arguments": arguments})
    result = extract_tool_calls(f"<tool_call>{call}</tool_call>", TOOLS)
    assert result.errors == [] and not result.invented_output
    assert [c.arguments for c in result.calls] == [arguments]
    made_up = f'<tool_call>{call}</tool_call>\n<tool_response>{{"ok": true}}</tool_response>'
    assert extract_tool_calls(made_up, TOOLS).invented_output  # outside the call it still is


_TAG_SOUP = st.lists(
    st.sampled_from(
        ["<tool_call>", "</tool_call>", "<TOOL_CALL>", "</Tool_Call>", "{", "x", "\n",
         "<tool_response>", "Observation: ok", '{"name": "memory_search"}']
    ),
    max_size=40,
).map("".join)  # fmt: skip


@given(_TAG_SOUP)
def test_closed_calls_are_the_spans_the_lazy_regex_finds(text: str) -> None:
    # One pass over the tags instead of a regex rescanning to the end from every opening
    # tag that is never closed (quadratic: 32,000 characters of '<tool_call>{' took 0.33 s).
    import re

    from memvisor.agent.toolcalls import _closed_calls

    lazy = re.compile(r"<tool_call>.*?</tool_call>", re.DOTALL | re.IGNORECASE)
    assert _closed_calls(text) == [m.span() for m in lazy.finditer(text)]


def test_an_argument_quoting_the_tag_stays_in_its_call() -> None:
    """Hypothesis found it: a value "<TOOL_CALL>" cut the call at the quoted tag."""
    call = json.dumps({"name": "memory_search", "arguments": {"query": "<TOOL_CALL> syntax"}})
    for content in (f"<tool_call>{call}</tool_call>", call):
        result = extract_tool_calls(content, TOOLS)
        assert result.errors == [], (content, result.errors)
        assert [c.arguments for c in result.calls] == [{"query": "<TOOL_CALL> syntax"}]
    # an unclosed call before another is still its own block
    two = f'<tool_call>{{"name": "memory_search"\n<tool_call>{call}</tool_call>'
    assert len(extract_tool_calls(two, TOOLS).calls) == 1
