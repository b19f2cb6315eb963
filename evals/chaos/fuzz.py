"""Fuzzed tool calls through the tool registry, as a model would send them.

Arguments are drawn from each tool's JSON Schema and then spoiled: wrong types, huge strings
and numbers, deep nesting, null bytes, lone surrogates, bidi text, SQL-ish strings, another
user's ids. A call may fail, with ``Error: ...`` text for the model; it must never raise,
crash inside a tool, show a traceback, touch or reveal another user's memory, or put the
model's raw arguments in the error log.
"""

from __future__ import annotations

import json
import random
from datetime import timedelta
from pathlib import Path
from typing import Any

from memvisor.agent.guards.firewall import Firewall
from memvisor.agent.memory.api import Memory
from memvisor.errors import ToolControl
from memvisor.storage import ManualClock, Store
from memvisor.storage.logger import logger
from memvisor.tools.builtin import builtin_registry
from memvisor.tools.context import ToolContext
from memvisor.tools.registry import Tool, ToolRegistry
from memvisor.tools.turn_log import TurnLog

from .common import USER, FaultResult

VICTIM = "victim"
# Only in the victim's memory: a result that shows it has read across users.
VICTIM_CANARY = "zqvictimcanaryx"
# A card number the model is made to send: it must never reach the error log.
CARD = "4929 1204 7761 3055"
# The failures a model is meant to see; any other kind is an exception a tool did not handle.
EXPECTED_ERRORS = frozenset({"unknown_tool", "invalid_arguments", "ToolError"})
HUGE_INTS = (10**12, 10**18, 2**63, -(2**63) - 1, 10**30, -1, -(10**12))
HUGE_FLOATS = (1e308, -1e308, float("inf"), float("-inf"), float("nan"), 1e-320)
HOSTILE_TEXT = (
    "'; DROP TABLE facts; --",
    '" OR 1=1 --',
    "Robert'); DELETE FROM events WHERE ('1'='1",
    "%' UNION SELECT id, text FROM passages --",
    "abc\x00def",
    "\x00",
    "lone \ud800 surrogate",
    "\udfff",
    "\u202eevil\u202c gnp.exe \u2066bidi\u2069",
    "\u200b\u200d\ufeff",
    "victim",
    "../../etc/passwd",
    "${jndi:ldap://x}",
    "{{7*7}}",
    f"my card is {CARD}",
    "",
    " ",
)


class ToolFuzzer:
    """Seeded: the same seed draws the same calls."""

    def __init__(self, registry: ToolRegistry, rng: random.Random, other_ids: list[str]) -> None:
        self.registry = registry
        self.rng = rng
        self.other_ids = other_ids

    def call(self) -> tuple[str, Any]:
        names = self.registry.names()
        roll = self.rng.random()
        if roll < 0.03:
            return self.rng.choice(["", "x" * 300, "fact_remember\x00", "DROP", "\ud800"]), {}
        found = self.registry.get(self.rng.choice(names))
        arguments: Any = self.arguments(found)
        shape = self.rng.random()
        if shape < 0.05:
            try:
                return found.name, json.dumps(arguments, ensure_ascii=False, default=str)
            except RecursionError:  # too deep for json itself: the text a model could send
                return found.name, '{"x": ' + "[" * 5_000 + "]" * 5_000 + "}"
        if shape < 0.08:
            return found.name, self.rng.choice([[arguments], "not json {", 42, None, "null"])
        return found.name, arguments

    def arguments(self, found: Tool) -> dict[str, Any]:
        props: dict[str, Any] = found.parameters.get("properties", {})
        required = set(found.parameters.get("required", []))
        out: dict[str, Any] = {}
        for name, schema in props.items():
            if name in required or self.rng.random() < 0.6:
                out[name] = self.spoiled(schema) if self.rng.random() < 0.5 else self.valid(schema)
        if self.rng.random() < 0.1:
            out[self.rng.choice(["user_id", "extra", "__class__", "\x00"])] = self.hostile()
        return out

    def valid(self, schema: dict[str, Any]) -> Any:
        if "enum" in schema:
            return self.rng.choice(schema["enum"])
        if "anyOf" in schema:
            return self.valid(self.rng.choice(schema["anyOf"]))
        kind = schema.get("type")
        if kind == "integer":
            low, high = schema.get("minimum", 0), schema.get("maximum", 50)
            return self.rng.randint(low, high)
        if kind == "number":
            return round(self.rng.uniform(schema.get("minimum", 0), schema.get("maximum", 1)), 3)
        if kind == "boolean":
            return self.rng.random() < 0.5
        if kind == "array":
            return [self.valid(schema.get("items", {})) for _ in range(self.rng.randint(0, 3))]
        if kind == "null":
            return None
        return self.rng.choice(
            ["user", "lives_in", "Lisbon", "core", "human", "the desk order", "rename-photos"]
        )

    def spoiled(self, schema: dict[str, Any]) -> Any:
        roll = self.rng.random()
        if roll < 0.15:
            return self.rng.choice(HUGE_INTS)
        if roll < 0.22:
            return self.rng.choice(HUGE_FLOATS)
        if roll < 0.32:
            return self.nested(self.rng.choice([50, 500, 5_000]))
        if roll < 0.40:
            return self.huge_text()
        if roll < 0.50:
            return self.rng.choice([True, [], {}, {"a": None}, [1, "2", None], 3.5])
        if roll < 0.62:
            return self.rng.choice(self.other_ids)
        return self.hostile()

    def hostile(self) -> str:
        text = self.rng.choice(HOSTILE_TEXT)
        if self.rng.random() < 0.3:
            text += " " + self.rng.choice(HOSTILE_TEXT)
        return text

    def huge_text(self) -> str:
        unit = self.rng.choice(["a", "é", "😀", "\ud800", "word ", "\u202e", "'\"", CARD + " "])
        return unit * self.rng.choice([2_000, 20_000, 100_000])

    def nested(self, depth: int) -> Any:
        value: Any = "deep"
        for n in range(depth):
            value = [value] if n % 2 else {"k": value}
        return value


def run_fuzz(root: Path, *, calls: int, seed: int, embedder: str) -> FaultResult:
    result = FaultResult("fuzzed tool calls")
    logged: list[str] = []
    sink = logger.add(lambda m: logged.append(str(m)), level="WARNING", format="{message}")
    clock = ManualClock()
    try:
        with Store.open(root / "fuzz", embedder=embedder, clock=clock) as store:
            victim = _victim_records(store)
            before = _victim_state(store)
            memory = Memory(store, guard=Firewall())
            registry = builtin_registry(plugins=False)
            fuzzer = ToolFuzzer(registry, random.Random(seed), victim + [VICTIM])
            said = store.log_turn(user_id=USER, role="user", content="Help me keep my notes.")
            for n in range(calls):
                clock.advance(timedelta(seconds=7))  # under the firewall's write rate
                name, arguments = fuzzer.call()
                result.trials += 1
                _one_call(result, registry, memory, said.id, n, name, arguments)
            if _victim_state(store) != before:
                result.broken_invariants += 1
                result.note("another user's records changed")
    finally:
        logger.remove(sink)
    leaked = [line for line in logged if CARD in line or CARD.replace(" ", "") in line]
    if leaked:
        result.broken_invariants += len(leaked)
        result.note(f"raw arguments in the error log: {leaked[0][:300]!r}")
    return result


def _one_call(
    result: FaultResult,
    registry: ToolRegistry,
    memory: Memory,
    source: str,
    n: int,
    name: str,
    arguments: Any,
) -> None:
    ctx = ToolContext(
        USER,
        "s-fuzz",
        f"trc_fuzz{n}",
        memory=memory,
        source_event_ids=[source],
        turn=TurnLog(),
        recent_messages=[{"role": "user", "content": "Help me keep my notes."}],
    )
    try:
        answer = registry.call(name, arguments, ctx)
    except ToolControl:
        return  # send_message ends the turn: that is its job
    except Exception as exc:
        result.uncaught_exceptions += 1
        result.note(f"call {n} {name!r} raised {type(exc).__name__}: {str(exc)[:200]}")
        return
    if answer.error is not None:
        result.injected += 1
    if answer.error is not None and answer.error not in EXPECTED_ERRORS:
        result.uncaught_exceptions += 1
        result.note(f"call {n} {name}: {answer.error}: {answer.content[:200]!r}")
    if "Traceback" in answer.content:
        result.tracebacks_shown += 1
    if VICTIM_CANARY in answer.content:
        result.broken_invariants += 1
        result.note(f"call {n} {name} showed another user's memory")


def _victim_records(store: Store) -> list[str]:
    fact = store.remember_fact(
        user_id=VICTIM,
        subject=VICTIM,
        predicate="lives_in",
        object=f"{VICTIM_CANARY} street",
        trace_id="trc_victim",
        origin="user",
    )
    passage = store.insert_passage(
        user_id=VICTIM, text=f"Victim's diary {VICTIM_CANARY}", trace_id="trc_victim", origin="user"
    )
    assert fact.fact is not None
    return [fact.fact.id, passage.id]


def _victim_state(store: Store) -> list[tuple[Any, ...]]:
    return store.db.query(
        "SELECT 'f', id, object, valid_until FROM facts WHERE user_id = ? UNION ALL "
        "SELECT 'p', id, text, NULL FROM passages WHERE user_id = ? ORDER BY 1, 2",
        [VICTIM, VICTIM],
    )
