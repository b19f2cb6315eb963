"""Tools from typed functions: schemas, refusals, validation messages, errors, plugins."""

from __future__ import annotations

import importlib.metadata
import json
import sys
import types
from typing import Annotated, Any, Literal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, Field

from memvisor.errors import ToolControl, ToolDefinitionError, ToolError, UserError, WriteRefused
from memvisor.tools import ToolContext, ToolRegistry, ToolResult, tool
from memvisor.tools.turn_log import TurnLog


def make_ctx(max_writes: int = 8) -> ToolContext:
    # These tools never reach memory: the registry is under test, not the memory API.
    return ToolContext(
        "u1",
        "s1",
        "t1",
        memory=None,  # type: ignore[arg-type]
        source_event_ids=["e1"],
        turn=TurnLog(max_writes=max_writes),
    )


@tool
def fact_remember(
    ctx: ToolContext,
    subject: Annotated[str, "who or what the fact is about, e.g. 'user'"],
    predicate: Annotated[str, Field(description="the relation, e.g. 'lives_in'")],
    object: Annotated[str, "the value, e.g. 'Lisbon'"],
    confidence: Annotated[float, Field(description="0..1", ge=0, le=1)] = 0.8,
    kind: Annotated[Literal["preference", "fact", "plan"], "what sort of statement"] = "fact",
    tags: Annotated[list[str] | None, "labels"] = None,
) -> dict[str, Any]:
    """Remember one fact about the user.

    Good: fact_remember(subject="user", predicate="lives_in", object="Lisbon")
    Bad: fact_remember(subject="the user said they live in Lisbon")
    """
    try:
        ctx.turn.count_write()
    except WriteRefused as exc:
        raise ToolError(str(exc)) from None
    return {"subject": subject, "object": object, "confidence": confidence, "kind": kind}


class Place(BaseModel):
    city: Annotated[str, Field(description="city name")]
    country: str = "PT"


class Node(BaseModel):
    label: str
    children: list[Node] = []


@tool(name="place_save")
def save_place(ctx: ToolContext, place: Annotated[Place, "where"]) -> Place:
    """Save a place. Good: {"place": {"city": "Porto"}}. Bad: {"place": "Porto"}."""
    return place


@tool
def tree_save(ctx: ToolContext, root: Annotated[Node, "a tree of labels"]) -> str:
    """Save a tree. Good: {"root": {"label": "a"}}. Bad: {"root": "a"}."""
    return f"saved {root.label} with {len(root.children)} children"


@tool
def echo(ctx: ToolContext, text: Annotated[str, "text to echo"] = "") -> str:
    """Echo text back. Good: {"text": "hi"}. Bad: {"message": "hi"}."""
    return text


class EndTurn(ToolControl):
    pass


_FAILURES = {
    "tool": lambda: ToolError("no fact with id f_9; list facts first"),
    "value": lambda: ValueError("bad number"),
    "key": lambda: KeyError("x"),
    "empty": lambda: RuntimeError(),
    "end": lambda: EndTurn(),
}


@tool
def boom(
    ctx: ToolContext, what: Annotated[str, "which failure: tool, value, key, empty, end"]
) -> str:
    """Fail on purpose. Good: {"what": "tool"}. Bad: {}."""
    if what in _FAILURES:
        raise _FAILURES[what]()
    return "fine"


@pytest.fixture
def registry() -> ToolRegistry:
    return ToolRegistry([fact_remember, save_place, tree_save, echo, boom])


# --- schemas ---------------------------------------------------------------------------------


def test_schema_from_signature(registry: ToolRegistry) -> None:
    schema = registry.get("fact_remember").parameters
    assert list(schema) == ["type", "properties", "required", "additionalProperties"]
    assert schema["additionalProperties"] is False
    assert schema["required"] == ["subject", "predicate", "object"]
    props = schema["properties"]
    assert list(props) == ["subject", "predicate", "object", "confidence", "kind", "tags"]
    assert "ctx" not in props
    assert props["subject"] == {
        "type": "string",
        "description": "who or what the fact is about, e.g. 'user'",
    }
    assert props["predicate"]["description"] == "the relation, e.g. 'lives_in'"
    assert props["confidence"] == {
        "type": "number",
        "description": "0..1",
        "default": 0.8,
        "maximum": 1,
        "minimum": 0,
    }
    assert props["kind"]["enum"] == ["preference", "fact", "plan"]
    assert props["kind"]["default"] == "fact"
    assert props["tags"]["anyOf"] == [
        {"type": "array", "items": {"type": "string"}},
        {"type": "null"},
    ]
    assert '"title"' not in json.dumps(schema)  # pydantic's titles are noise


def test_spec_and_description(registry: ToolRegistry) -> None:
    spec = registry.specs()[0]
    assert spec["type"] == "function"
    assert spec["function"]["name"] == "fact_remember"
    description = spec["function"]["description"]
    assert description.startswith("Remember one fact about the user.\n\n")
    assert "\nGood: fact_remember(" in description and "\nBad: fact_remember(" in description
    assert registry.names() == ["fact_remember", "place_save", "tree_save", "echo", "boom"]
    assert "place_save" in registry and "save_place" not in registry
    json.dumps(registry.specs())  # what `memvisor tools list --json` prints


def test_nested_model_is_inlined_and_recursive_model_keeps_defs(registry: ToolRegistry) -> None:
    place = registry.get("place_save").parameters
    assert "$defs" not in place and "$ref" not in json.dumps(place)
    assert place["properties"]["place"]["properties"]["city"]["description"] == "city name"
    assert place["properties"]["place"]["description"] == "where"
    tree = registry.get("tree_save").parameters
    assert "Node" in tree["$defs"] and '"title"' not in json.dumps(tree)
    ok = registry.call(
        "tree_save", {"root": {"label": "a", "children": [{"label": "b"}]}}, make_ctx()
    )
    assert ok.content == "saved a with 1 children"


def test_a_parameter_named_title_survives_title_stripping() -> None:
    @tool
    def note(ctx: ToolContext, title: Annotated[str, "the note's title"]) -> str:
        """Write a note. Good: {"title": "x"}. Bad: {}."""
        return title

    schema = ToolRegistry([note]).get("note").parameters
    assert schema["properties"] == {"title": {"type": "string", "description": "the note's title"}}


# --- refusals --------------------------------------------------------------------------------


def lookup(ctx: ToolContext, query: str) -> str:
    """Look something up."""
    return query


def silent(ctx: ToolContext, q: Annotated[str, "query"]) -> str:
    return q


def no_ctx(q: Annotated[str, "query"]) -> str:
    """Doc."""
    return q


def no_params() -> str:
    """Doc."""
    return ""


def star(ctx: ToolContext, *items: Annotated[str, "items"]) -> str:
    """Doc."""
    return ""


def shadow(ctx: ToolContext, json: Annotated[str, "payload"]) -> str:
    """Doc."""
    return json


def unresolved(ctx: ToolContext, q: Annotated[Missing, "q"]) -> str:  # type: ignore[name-defined]  # noqa: F821
    """Doc."""
    return ""


@pytest.mark.parametrize(
    ("fn", "message"),
    [
        (lookup, "tool 'lookup': parameter 'query' has no description; annotate it as Annotated"),
        (silent, "tool 'silent' has no docstring"),
        (no_ctx, "tool 'no_ctx': the first parameter must be annotated `ToolContext`"),
        (no_params, "tool 'no_params': the first parameter must be annotated `ToolContext`"),
        (star, "tool 'star': parameter 'items' must be a named parameter"),
        (shadow, "tool 'shadow': parameter name 'json' clashes with pydantic internals"),
        (unresolved, "tool 'unresolved': cannot resolve its parameter annotations"),
    ],
)
def test_bad_tools_are_refused(fn: Any, message: str) -> None:
    with pytest.raises(ToolDefinitionError) as refused:
        ToolRegistry().register(fn)
    assert str(refused.value).startswith(message)
    assert isinstance(refused.value, UserError) and isinstance(refused.value, TypeError)


def test_invalid_tool_name_is_refused() -> None:
    with pytest.raises(ToolDefinitionError, match="tool name 'two words' is invalid"):
        ToolRegistry().register(echo, name="two words")


def test_duplicate_name_is_refused(registry: ToolRegistry) -> None:
    with pytest.raises(ToolDefinitionError, match="'echo' is already registered"):
        registry.register(echo)
    assert registry.register(echo, name="echo2").name == "echo2"


# --- calls -----------------------------------------------------------------------------------


def test_successful_call_returns_json_for_non_strings(registry: ToolRegistry) -> None:
    ctx = make_ctx()
    args = {"subject": "user", "predicate": "lives_in", "object": "里斯本", "confidence": 1}
    result = registry.call("fact_remember", args, ctx)
    assert result == ToolResult(name="fact_remember", ok=True, content=result.content)
    assert json.loads(result.content) == {
        "subject": "user",
        "object": "里斯本",
        "confidence": 1.0,
        "kind": "fact",
    }
    assert "里斯本" in result.content  # ensure_ascii=False
    assert ctx.turn.writes == 1
    place = registry.call("place_save", {"place": {"city": "Porto"}}, ctx)
    assert json.loads(place.content) == {"city": "Porto", "country": "PT"}


def test_json_string_arguments(registry: ToolRegistry) -> None:
    ctx = make_ctx()
    text = '{"subject": "user", "predicate": "likes", "object": "tea"}'
    assert registry.call("fact_remember", text, ctx).ok
    assert registry.call("fact_remember", json.dumps(text), ctx).ok  # encoded twice
    assert registry.call("echo", "", ctx).content == ""
    assert registry.call("echo", None, ctx).ok
    assert registry.call("echo", b'{"text": "hi"}', ctx).content == "hi"


def test_missing_required_property_message(registry: ToolRegistry) -> None:
    result = registry.call("fact_remember", {"predicate": "likes", "object": "tea"}, make_ctx())
    assert not result.ok and result.error == "invalid_arguments"
    assert result.content.startswith(
        "Error: invalid arguments for fact_remember: 'subject' is a required property; expected {"
    )
    assert '"subject": string, "predicate": string, "object": string' in result.content
    assert '"kind"?: "preference"|"fact"|"plan" = "fact"' in result.content


def test_wrong_type_and_extra_property_messages(registry: ToolRegistry) -> None:
    ctx = make_ctx()
    base = {"subject": "user", "predicate": "likes", "object": "tea"}
    wrong = registry.call("fact_remember", base | {"confidence": "high"}, ctx)
    assert "confidence: 'high' is not of type 'number'" in wrong.content
    extra = registry.call("fact_remember", base | {"colour": "red"}, ctx)
    assert "Additional properties are not allowed ('colour' was unexpected)" in extra.content
    enum = registry.call("fact_remember", base | {"kind": "rumour"}, ctx)
    assert "kind: 'rumour' is not one of ['preference', 'fact', 'plan']" in enum.content
    nested = registry.call("place_save", {"place": {"country": "PT"}}, ctx)
    assert "place: 'city' is a required property" in nested.content
    huge = registry.call("echo", {"text": ["x" * 10_000]}, ctx)
    assert len(huge.content) < 600
    assert ctx.turn.writes == 0  # nothing ran


def test_unreadable_arguments(registry: ToolRegistry) -> None:
    ctx = make_ctx()
    bad_json = registry.call("echo", '{"text": "hi"', ctx)
    assert bad_json.content.startswith(
        "Error: invalid arguments for echo: arguments are not valid JSON"
    )
    assert "line 1 column" in bad_json.content
    array = registry.call("echo", "[1, 2]", ctx)
    assert "arguments must be a JSON object, got array" in array.content


def test_exceptions_become_error_text(registry: ToolRegistry) -> None:
    ctx = make_ctx()
    cases = {
        "tool": ("Error: no fact with id f_9; list facts first", "ToolError"),
        "value": ("Error: ValueError: bad number", "ValueError"),
        "key": ("Error: KeyError: 'x'", "KeyError"),
        "empty": ("Error: RuntimeError", "RuntimeError"),
    }
    for what, (content, kind) in cases.items():
        result = registry.call("boom", {"what": what}, ctx)
        assert (result.ok, result.content, result.error) == (False, content, kind)


def test_control_flow_exceptions_escape(registry: ToolRegistry) -> None:
    with pytest.raises(EndTurn):
        registry.call("boom", {"what": "end"}, make_ctx())


def test_unknown_tool_lists_real_names(registry: ToolRegistry) -> None:
    result = registry.call("fact_forget", {}, make_ctx())
    assert result.error == "unknown_tool" and result.name == "fact_forget"
    assert result.content.startswith(
        "Error: unknown tool 'fact_forget'; available tools: "
        "fact_remember, place_save, tree_save, echo, boom"
    )
    assert registry.call(["not", "a", "name"], {}, make_ctx()).error == "unknown_tool"  # type: ignore[arg-type]
    with pytest.raises(ToolError, match="did you mean 'echo'"):
        registry.get("ecko")


def test_write_cap_reaches_the_model(registry: ToolRegistry) -> None:
    ctx = make_ctx(max_writes=2)
    args = {"subject": "user", "predicate": "likes", "object": "tea"}
    assert [registry.call("fact_remember", args, ctx).ok for _ in range(3)] == [True, True, False]
    last = registry.call("fact_remember", args, ctx)
    assert last.content.startswith("Error: memory write limit reached for this turn (2); ")
    assert ctx.turn.writes == 2


def test_register_module() -> None:
    module = types.ModuleType("memvisor_test_tools")
    module.echo = echo  # type: ignore[attr-defined]
    module.again = echo  # type: ignore[attr-defined]
    module.helper = lambda: None  # type: ignore[attr-defined]
    assert ToolRegistry().register_module(module) == ["echo"]


# --- plugins ---------------------------------------------------------------------------------


@tool
def weather_now(ctx: ToolContext, city: Annotated[str, "a city, e.g. 'Porto'"]) -> str:
    """Current weather. Good: {"city": "Porto"}. Bad: {"city": "here"}."""
    return f"sunny in {city}"


@pytest.fixture
def plugin(monkeypatch: pytest.MonkeyPatch) -> list[importlib.metadata.EntryPoint]:
    module = types.ModuleType("memvisor_weather_plugin")
    module.weather_now = weather_now  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "memvisor_weather_plugin", module)
    points = [importlib.metadata.EntryPoint("weather", "memvisor_weather_plugin", "memvisor.tools")]
    seen: list[str] = []

    def entry_points(*, group: str) -> list[importlib.metadata.EntryPoint]:
        seen.append(group)
        return points if group == "memvisor.tools" else []

    monkeypatch.setattr(importlib.metadata, "entry_points", entry_points)
    return points


def test_plugins_are_skipped_under_pytest(plugin: list[importlib.metadata.EntryPoint]) -> None:
    registry = ToolRegistry()
    assert registry.load_entry_points() == []
    assert registry.names() == []


def test_plugins_load_when_forced(plugin: list[importlib.metadata.EntryPoint]) -> None:
    registry = ToolRegistry([echo])
    assert registry.load_entry_points(force=True) == ["weather_now"]
    assert registry.call("weather_now", {"city": "Porto"}, make_ctx()).content == "sunny in Porto"
    plugin[:] = [importlib.metadata.EntryPoint("one", "memvisor_weather_plugin:weather_now", "g")]
    with pytest.raises(ToolDefinitionError, match="already registered: weather_now"):
        registry.load_entry_points(force=True)


def test_broken_or_clashing_plugins_fail_whole(plugin: list[importlib.metadata.EntryPoint]) -> None:
    plugin[:] = [importlib.metadata.EntryPoint("gone", "memvisor_no_such_module_xyz", "g")]
    with pytest.raises(UserError, match="tool plugin 'gone' .* failed to import"):
        ToolRegistry().load_entry_points(force=True)
    sys.modules["memvisor_weather_plugin"].weather_again = weather_now  # type: ignore[attr-defined]
    sys.modules["memvisor_weather_plugin"].echo = echo  # type: ignore[attr-defined]
    plugin[:] = [importlib.metadata.EntryPoint("weather", "memvisor_weather_plugin", "g")]
    registry = ToolRegistry([echo])
    with pytest.raises(
        ToolDefinitionError, match="tool plugin 'weather' .* already registered: echo"
    ):
        registry.load_entry_points(force=True)
    assert registry.names() == ["echo"]  # nothing of the plugin was added


# --- robustness ------------------------------------------------------------------------------

_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
_KEYS = st.sampled_from(["subject", "predicate", "object", "confidence", "kind", "tags", "x"])
_ARGUMENTS = (
    st.dictionaries(_KEYS | st.text(max_size=8), _JSON, max_size=7)
    | _JSON
    | st.text(max_size=40)
    | st.dictionaries(_KEYS, _JSON, max_size=7).map(json.dumps)
)
_FIXED = ToolRegistry([fact_remember, save_place, tree_save, echo, boom])


@settings(max_examples=300, deadline=None)
@given(name=st.sampled_from([*_FIXED.names(), "nope"]), arguments=_ARGUMENTS)
def test_random_arguments_never_raise(name: str, arguments: Any) -> None:
    try:
        result = _FIXED.call(name, arguments, make_ctx())
    except EndTurn:
        return  # boom(what="end") is the one sanctioned escape
    assert isinstance(result, ToolResult)
    assert result.ok or result.content.startswith("Error: ")
