"""In-process faults through the library API: an index that cannot be written, an embedder
that fails. Turns run while the part fails; once it works again, every write acknowledged
meanwhile must be found, in the same process and after reopening."""

from __future__ import annotations

import errno
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from memvisor.agent.loop import Agent
from memvisor.agent.models.base import AssistantTurn, ToolCall
from memvisor.agent.models.scripted import ScriptedModel
from memvisor.storage import Store
from memvisor.storage.embedders import Embedder, embedder_from_name
from memvisor.tools.builtin import builtin_registry

from .common import USER, Ack, FaultResult, check_acknowledged, search_ids, stored_id
from .seed import note_message, note_text

FAILING_PARTS = ("index unwritable", "embedder fails")


class Switch:
    """A fault that is on or off, counting the calls it failed."""

    def __init__(self) -> None:
        self.on = False
        self.failed = 0

    def trip(self, error: Exception) -> None:
        if self.on:
            self.failed += 1
            raise error


class FailingEmbedder:
    """An embedder that raises while its switch is on (a crashed ONNX session, a dead server)."""

    def __init__(self, inner: Embedder, switch: Switch) -> None:
        self.inner = inner
        self.switch = switch
        self.model_id = inner.model_id
        self.dim = inner.dim

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.switch.trip(RuntimeError("embedding session failed (chaos)"))
        return self.inner.embed(texts)


def run_failing_part(
    fault: str, root: Path, *, trials: int, embedder: str, rng: random.Random
) -> FaultResult:
    result = FaultResult(fault)
    for n in range(trials):
        result.trials += 1
        data_dir = root / f"{fault.replace(' ', '-')}-{n}"
        switch = Switch()
        inner = embedder_from_name(embedder)
        used: Any = FailingEmbedder(inner, switch) if fault == "embedder fails" else inner
        words = [f"zqpart{n}w{k}x" for k in range(3 + rng.randrange(3))]
        acks: list[Ack] = []
        with Store.open(data_dir, embedder=used) as store:
            if fault == "index unwritable":
                _fail_index_writes(store, switch)
            agent = _agent(store, words)
            for k, word in enumerate(words):
                switch.on = 0 < k < len(words) - 1  # the first and the last turn work
                acks += _turn(result, agent, word)
                # the turn's writes reach the index (appended behind it, at a bounded rate)
                # while the part is as it was during the turn
                store.index.settle()
            result.injected += switch.failed
            for ack in acks:  # the same process, the part working again
                record_id = stored_id(store, ack)
                hits = search_ids(store, ack.needle, USER, result) or set()
                if record_id and record_id not in hits:
                    result.missing_searches += 1
                    result.note(
                        f"{record_id} not found in the same process, the part working again"
                    )
        reopened = check_acknowledged(result, data_dir, acks, embedder=embedder)
        if reopened is not None:
            reopened.close()
    return result


def _fail_index_writes(store: Store, switch: Switch) -> None:
    vectors = store.index.index
    for name in ("add", "add_many", "delete"):
        original = getattr(vectors, name)

        def failing(*args: Any, _original: Any = original, **kwargs: Any) -> Any:
            switch.trip(OSError(errno.EROFS, "Read-only file system (chaos)", "vectors"))
            return _original(*args, **kwargs)

        setattr(vectors, name, failing)


def _agent(store: Store, words: list[str]) -> Agent:
    script: list[AssistantTurn | str] = []
    for k, word in enumerate(words):
        call = ToolCall(
            id=f"c{k}", name="archival_memory_insert", arguments={"content": note_text(word)}
        )
        script += [AssistantTurn(tool_calls=[call]), f"Saved the note about {word}."]
    return Agent(
        user_id=USER,
        session_id="s-parts",
        model=ScriptedModel(script),
        store=store,
        registry=builtin_registry(plugins=False),
    )


def _turn(result: FaultResult, agent: Agent, word: str) -> list[Ack]:
    """One turn; acknowledged when it answered and its write succeeded."""
    try:
        turn = agent.step(note_message(word))
    except Exception as exc:
        result.uncaught_exceptions += 1
        result.note(f"turn raised {type(exc).__name__}: {exc}")
        return []
    shown = f"{turn.answer}\n{turn.error or ''}"
    if "Traceback" in shown:
        result.tracebacks_shown += 1
    if turn.error is not None or not all(call.ok for call in turn.tool_calls):
        result.note(f"turn not acknowledged: {turn.error or turn.tool_calls}")
        return []
    return [Ack(word, table="passages"), Ack(word, table="events")]
