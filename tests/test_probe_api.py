"""Outside probes of the Python API's doors the fuzz does not feed: ``Memory.write`` (the one
write pipeline README documents) and ``Memory.open``. A wrong argument is a ``UserError``
naming it, not a pydantic ``ValidationError`` or an ``AttributeError`` from deep inside."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from memvisor import Memory
from memvisor.errors import UserError

FACT = {"subject": "Maya", "predicate": "lives_in", "object": "Oslo"}


@pytest.fixture
def memory(tmp_path: Path):
    with Memory.open(tmp_path / "data", embedder="hash") as opened:
        yield opened


@pytest.mark.parametrize(
    ("arguments", "origin", "named"),
    [
        (None, "user", "arguments"),
        ([FACT], "user", "arguments"),
        ("Maya lives in Oslo", "user", "arguments"),
        (FACT, "god", "origin"),
        (FACT, None, "origin"),
    ],
)
def test_a_bad_write_argument_is_a_user_error_naming_it(
    memory: Memory, arguments: Any, origin: Any, named: str
) -> None:
    with pytest.raises(UserError, match=rf"^Memory\.write: {named}: "):
        memory.write("fact_remember", arguments, user_id="maya", origin=origin)
    assert memory.store.facts.list(user_id="maya") == []


def test_a_good_write_still_passes(memory: Memory) -> None:
    outcome = memory.write("fact_remember", dict(FACT), user_id="maya", origin="user")
    assert outcome.action == "created" and outcome.record_id.startswith("fct_")


@pytest.mark.parametrize("data_dir", [None, 5, ""])
def test_open_without_a_directory_is_a_user_error(data_dir: Any) -> None:
    with pytest.raises(UserError, match="data_dir"):
        Memory.open(data_dir, embedder="hash")
