"""The Python API fed generated input: a typed result or one of Memvisor's own errors with a
message, never an exception from a library underneath (DuckDB, LanceDB, pydantic)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memvisor import Memory
from memvisor.errors import MemvisorError

TEXT = st.one_of(
    st.text(max_size=80),
    st.sampled_from(["", " ", "\x00", "fct_nope", "evt_0", "' OR 1=1 --", "x" * 30_000]),
)
ANY = st.one_of(TEXT, st.none(), st.integers(-5, 10**6), st.floats(), st.lists(TEXT, max_size=3))
CALLS = st.sampled_from(["add", "search", "context", "get", "history", "forget"])


@pytest.mark.slow
def test_any_input_gives_a_result_or_memvisors_own_error(tmp_path: Path) -> None:
    with Memory.open(tmp_path / "data", embedder="hash") as memory:
        memory.add("My sister Ingrid moves to Tromsø in March.", user="maya")

        @given(call=CALLS, first=ANY, k=ANY, kinds=ANY, user=st.sampled_from(["maya", "", " "]))
        @settings(max_examples=200, deadline=None, database=None,
                  suppress_health_check=list(HealthCheck))  # fmt: skip
        def exercised(call: str, first: Any, k: Any, kinds: Any, user: str) -> None:
            options: dict[str, Any] = {"user": user}
            if call == "search":
                options |= {"k": k, "kinds": kinds}
            elif call == "context":
                options |= {"budget": k}
            try:
                getattr(memory, call)(first, **options)
            except MemvisorError as exc:
                assert str(exc).strip()
            except (TypeError, ValueError) as exc:  # a wrong type or value, said as such
                assert str(exc).strip() and type(exc).__module__ == "builtins", repr(exc)

        exercised()
