"""Arguments no tool takes are refused before any tool runs, and a tool's crash is logged
without the model's arguments (issue 19, hostile input at the edges)."""

from __future__ import annotations

from typing import Annotated, Any

import pytest
from loguru import logger

from memvisor.tools import ToolContext, ToolRegistry, tool
from memvisor.tools.registry import MAX_NESTING
from memvisor.tools.tasks import task_update
from memvisor.tools.turn_log import TurnLog

CARD = "4929 1204 7761 3055"
ran: list[Any] = []


def _ctx() -> ToolContext:
    return ToolContext(
        "u1",
        "s1",
        "t1",
        memory=None,
        source_event_ids=["e1"],
        turn=TurnLog(),  # type: ignore[arg-type]
    )


@tool
def keep(ctx: ToolContext, value: Annotated[Any, "any JSON value, e.g. {'a': 1}"]) -> str:
    """Keep a value. Good: {"value": [1, 2]}. Bad: {}."""
    ran.append(value)
    return "kept"


@tool
def charge(ctx: ToolContext, card: Annotated[str, "the card to charge, e.g. '4111...'"]) -> str:
    """Charge a card. Good: {"card": "4111 1111 1111 1111"}. Bad: {"card": 4111}."""
    raise ValueError(f"card {card} declined")


def _nested(depth: int) -> Any:
    value: Any = "leaf"
    for _ in range(depth - 1):
        value = [value]
    return value


@pytest.mark.parametrize(
    ("value", "says"),
    [
        (_nested(MAX_NESTING + 1), f"value: nested more than {MAX_NESTING} levels deep"),
        (_nested(5_000), f"value: nested more than {MAX_NESTING} levels deep"),
        ({"a": [10**30]}, "value/a/0: a 31-digit number is out of range"),
        (-(2**64), "value: a 20-digit number is out of range"),
        (float("nan"), "value: NaN and infinity are not accepted"),
        ([float("inf")], "value/0: NaN and infinity are not accepted"),
    ],
)
def test_nesting_and_numbers_no_tool_takes_are_refused(value: Any, says: str) -> None:
    ran.clear()
    result = ToolRegistry([keep]).call("keep", {"value": value}, _ctx())
    assert result.error == "invalid_arguments" and says in result.content
    assert ran == [] and len(result.content) < 600


def test_values_within_bounds_still_reach_the_tool() -> None:
    ran.clear()
    value = {"deep": _nested(MAX_NESTING - 1), "big": 2**63 - 1, "small": -(2**63), "x": 1.5}
    assert ToolRegistry([keep]).call("keep", {"value": value}, _ctx()).ok
    assert ran == [value]


def test_an_out_of_range_count_is_refused_by_the_tools_schema() -> None:
    registry = ToolRegistry([task_update])
    schema = registry.get("task_update").parameters["properties"]["completed"]
    assert {"type": "integer", "minimum": 0, "maximum": 10**9} in schema["anyOf"]
    result = registry.call("task_update", {"task_id": "t", "completed": 10**12}, _ctx())
    assert result.error == "invalid_arguments"
    assert "completed: 1000000000000 is greater than the maximum of 1000000000" in result.content


def test_a_crashing_tool_logs_its_type_and_place_not_the_arguments() -> None:
    lines: list[str] = []
    sink = logger.add(lines.append, level="WARNING", format="{message}", diagnose=True)
    try:
        result = ToolRegistry([charge]).call("charge", {"card": CARD}, _ctx())
    finally:
        logger.remove(sink)
    assert result.error == "ValueError"
    (line,) = lines
    assert line.startswith("tool charge raised ValueError at test_tool_bounds.py:")
    assert "in charge" in line and CARD not in line and "4929" not in line
