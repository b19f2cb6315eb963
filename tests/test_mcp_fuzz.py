"""Every MCP tool fed generated arguments through the SDK's own client: a result or a tool
error that says what is wrong, never the SDK's bare crash reply."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp import Client

from memvisor.agent.memory.api import Memory
from memvisor.agent.servers.mcp import build_server

VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=60),
    st.sampled_from(["fct_nope", "evt_0", "qtn_x", "human", "persona", "", " ", "x" * 3000]),
    st.lists(st.text(max_size=8), max_size=3),
    st.dictionaries(st.text(max_size=5), st.text(max_size=5), max_size=2),
)


@pytest.mark.slow
def test_any_arguments_to_any_tool_end_in_a_result_or_a_reason(tmp_path: Path) -> None:
    with Memory.open(tmp_path / "data", embedder="hash") as memory:
        server = build_server(memory, user="maya")

        async def session() -> None:
            async with Client(server) as client:
                tools = {t.name: t.input_schema for t in (await client.list_tools()).tools}
                seen: set[bool] = set()

                @st.composite
                def calls(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
                    name = draw(st.sampled_from(sorted(tools)))
                    names = list(tools[name].get("properties", {})) + ["extra"]
                    chosen = draw(st.lists(st.sampled_from(names), unique=True, max_size=5))
                    return name, {n: draw(VALUES) for n in chosen}

                @given(call=calls())
                @settings(max_examples=150, deadline=None, database=None,
                          suppress_health_check=list(HealthCheck))  # fmt: skip
                def exercised(call: tuple[str, dict[str, Any]]) -> None:
                    name, arguments = call
                    result = asyncio.run_coroutine_threadsafe(
                        client.call_tool(name, arguments), loop
                    ).result(timeout=60)
                    said = "\n".join(getattr(part, "text", "") for part in result.content)
                    seen.add(bool(result.is_error))
                    assert said.strip(), (name, arguments)
                    # the SDK's reply to a crash in a tool: its name and nothing else
                    assert said.strip() != f"Error executing tool {name}", (name, arguments)

                await asyncio.to_thread(exercised)
                assert seen == {True, False}  # some calls worked, some were refused

        loop = asyncio.new_event_loop()
        try:
            loop.run_until_complete(session())
        finally:
            loop.close()
