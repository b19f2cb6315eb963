"""LoCoMo retrieval eval: ingest each conversation through the agent's write path, then
rank its turns for every question with the agent's page-in and with three baselines.

Only a sample's ``conversation`` and ``qa`` are read: its summaries and observations are
ground-truth annotations, and using them would be cheating. Each conversation gets a
fresh store (``<data_dir>/evals/<run id>/<sample id>``) whose clock follows the session
dates, so the event log looks as if the dialogue had been lived through.
"""

from __future__ import annotations

import json
import re
import shutil
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np

from memvisor.errors import UserError
from memvisor.evals.baselines import Bm25Ranker, DenseRanker, RecencyRanker, TurnRanker
from memvisor.evals.bench_storage import scratch_databases
from memvisor.evals.live_qa import LiveQA
from memvisor.evals.metrics import RankedTurn, SystemScores, score_question, turns_fitting
from memvisor.paging.pagein import MemoryItem, PageIn
from memvisor.paging.tokens import counter_for_model
from memvisor.storage import ManualClock, Store
from memvisor.storage.backends import chosen_store
from memvisor.storage.embedders import Embedder, embedder_from_name
from memvisor.storage.ids import new_id
from memvisor.storage.logger import logger

from .progress import ProgressFn

SYSTEMS = ("memvisor", "bm25", "dense", "recency")
DEFAULT_KS = (5, 10, 25)
DEFAULT_BUDGET = 1_000
TURN_GAP = timedelta(seconds=30)
INGEST_REPORT_EVERY = 25  # turns logged between two progress reports
_DIA_ID = re.compile(r"^D\d+:\d+$")
_SESSION = re.compile(r"^session_(\d+)$")
_UNSAFE_USER_CHARS = re.compile(r"[^A-Za-z0-9_.@-]")
_DATE_FORMAT = "%I:%M %p on %d %B, %Y"  # "1:56 pm on 8 May, 2023"


@dataclass(frozen=True)
class LocomoTurn:
    dia_id: str
    speaker: str
    text: str
    session: int
    ts: datetime
    caption: str | None = None

    @property
    def content(self) -> str:
        """What is logged and indexed: the speaker first, so "what did X say" can match."""
        image = f" [image: {self.caption}]" if self.caption else ""
        return f"{self.speaker}: {self.text}{image}"


@dataclass(frozen=True)
class LocomoQuestion:
    question: str
    answer: str | None  # adversarial questions may carry only ``adversarial_answer``
    category: str
    evidence: tuple[str, ...]  # well-formed dia ids present in the conversation


@dataclass
class LocomoConversation:
    sample_id: str
    turns: list[LocomoTurn]
    questions: list[LocomoQuestion]
    skipped_evidence: int = 0
    skipped_questions: int = 0


def parse_session_date(text: str) -> datetime:
    """``"1:56 pm on 8 May, 2023"`` to a naive datetime (taken as UTC by the clock)."""
    return datetime.strptime(" ".join(text.split()), _DATE_FORMAT)


def user_id_for(sample_id: str) -> str:
    """The sample id as a valid user id (``[A-Za-z0-9_.@-]``, starting alphanumeric)."""
    cleaned = _UNSAFE_USER_CHARS.sub("_", str(sample_id))[:120]
    return cleaned if cleaned[:1].isalnum() else f"s{cleaned}"


def load_locomo(path: str | Path) -> list[LocomoConversation]:
    """Read a LoCoMo file (a list of samples); malformed evidence ids are counted, not fatal."""
    try:
        samples = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise UserError(f"cannot read LoCoMo data {path}: {exc.strerror or exc}") from exc
    except ValueError as exc:
        raise UserError(f"LoCoMo data {path} is not valid JSON: {exc}") from exc
    if not isinstance(samples, list) or not all(isinstance(s, dict) for s in samples):
        raise UserError(f"LoCoMo data {path} must be a JSON list of samples (like locomo10.json)")
    return [_conversation(sample, n) for n, sample in enumerate(samples)]


def _conversation(sample: dict[str, Any], n: int) -> LocomoConversation:
    sample_id = str(sample.get("sample_id") or f"sample-{n}")
    dialogue = sample.get("conversation")
    if not isinstance(dialogue, dict):
        raise UserError(f"LoCoMo sample {sample_id!r} has no 'conversation' object")
    turns: list[LocomoTurn] = []
    sessions = sorted((int(m.group(1)), key) for key in dialogue if (m := _SESSION.match(key)))
    for number, key in sessions:
        raw_date = dialogue.get(f"{key}_date_time")
        try:
            start = parse_session_date(str(raw_date))
        except (TypeError, ValueError) as exc:
            raise UserError(
                f"LoCoMo sample {sample_id!r}: {key}_date_time {raw_date!r} is not a date like "
                "'1:56 pm on 8 May, 2023'"
            ) from exc
        for i, turn in enumerate(dialogue[key] or []):
            turns.append(
                LocomoTurn(
                    dia_id=str(turn["dia_id"]),
                    speaker=str(turn.get("speaker", "")),
                    text=str(turn.get("text", "")),
                    session=number,
                    ts=start + i * TURN_GAP,
                    caption=turn.get("blip_caption") or None,
                )
            )
    conversation = LocomoConversation(sample_id=sample_id, turns=turns, questions=[])
    present = {t.dia_id for t in turns}
    for qa in sample.get("qa") or []:
        evidence: list[str] = []
        for raw in qa.get("evidence") or []:
            for part in str(raw).split(";"):
                dia_id = part.strip()
                if _DIA_ID.match(dia_id) and dia_id in present:
                    if dia_id not in evidence:
                        evidence.append(dia_id)
                else:
                    conversation.skipped_evidence += 1
        question = str(qa.get("question") or "").strip()
        if not evidence or not question:
            conversation.skipped_questions += 1
            continue
        answer = qa.get("answer")
        conversation.questions.append(
            LocomoQuestion(
                question=question,
                answer=None if answer is None else str(answer),
                category=str(qa.get("category", "?")),
                evidence=tuple(evidence),
            )
        )
    return conversation


def ingest(
    store: Store,
    clock: ManualClock,
    conversation: LocomoConversation,
    *,
    user_id: str,
    logged: Callable[[int], None] | None = None,
) -> dict[str, str]:
    """Log every turn as the agent would, at its session time; returns dia id -> event id.
    ``logged(n)`` is told every ``INGEST_REPORT_EVERY`` turns, for a progress bar.

    Dia ids are unique in LoCoMo; were one repeated, it would name its last turn.
    """
    events: dict[str, str] = {}
    for n, turn in enumerate(conversation.turns, start=1):
        clock.set(turn.ts)
        payload: dict[str, Any] = {"speaker": turn.speaker, "dia_id": turn.dia_id}
        if turn.caption:
            payload["image_caption"] = turn.caption
        event = store.log_turn(
            user_id=user_id,
            role="user",
            content=turn.content,
            session_id=f"session_{turn.session}",
            payload=payload,
        )
        events[turn.dia_id] = event.id
        if logged is not None and n % INGEST_REPORT_EVERY == 0:
            logged(n)
    return events


class CachedEmbedder:
    """Remembers vectors by text, so the dense baseline reuses what the index embedded."""

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner
        self._cache: dict[str, np.ndarray] = {}

    @property
    def model_id(self) -> str:
        return self.inner.model_id

    @property
    def dim(self) -> int:
        return self.inner.dim

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        missing = list(dict.fromkeys(t for t in texts if t not in self._cache))
        if missing:
            self._cache.update(zip(missing, self.inner.embed(missing), strict=True))
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.stack([self._cache[t] for t in texts])


@dataclass
class MemvisorRanker:
    """The system under test: the agent's page-in over raw turns."""

    pagein: PageIn
    user_id: str
    as_of: datetime
    limit: int
    tokens: dict[str, int]
    name: str = "memvisor"
    last_items: list[MemoryItem] = field(default_factory=list)

    def rank(self, question: str) -> list[RankedTurn]:
        self.last_items = self.pagein.rank_turns(
            question, user_id=self.user_id, as_of=self.as_of, limit=self.limit
        )
        return [RankedTurn(i.id, i.text, self._tokens(i)) for i in self.last_items]

    def _tokens(self, item: MemoryItem) -> int:
        if item.id not in self.tokens:
            self.tokens[item.id] = self.pagein.counter.count(item.text)
        return self.tokens[item.id]


def run_locomo(
    path: str | Path,
    *,
    data_dir: str | Path,
    ks: Sequence[int] = DEFAULT_KS,
    budget: int = DEFAULT_BUDGET,
    embedder: Embedder | str | None = None,
    limit_conversations: int | None = None,
    keep: bool = False,
    run_id: str | None = None,
    live_qa: LiveQA | None = None,
    progress: ProgressFn | None = None,
    store: str | None = None,
) -> dict[str, Any]:
    """Run the eval over the file's conversations and return the result document.

    Stores live in ``<data_dir>/evals/<run_id>/<sample id>`` and are removed at the end
    unless ``keep``; with ``store`` (a PostgreSQL URL) their records and index are in one
    scratch database on that server, dropped at the end whatever ``keep`` says (each
    conversation is a user of its own). Recall figures at the top of each system are over
    categories 1-4; tokens and latency are over every scored question.
    """
    ks = sorted({int(k) for k in ks})
    if not ks or ks[0] < 1 or budget < 1:
        raise UserError("k values and the budget must be positive, e.g. --k 5,10,25 --budget 1000")
    conversations = load_locomo(path)[:limit_conversations]
    if live_qa is not None:
        live_qa.check()
    if embedder is None or isinstance(embedder, str):
        inner = embedder_from_name(embedder or "minilm")
    else:
        inner = embedder
    run_dir = Path(data_dir) / "evals" / (run_id or new_id("run"))
    scores = {name: SystemScores(ks) for name in SYSTEMS}
    url = chosen_store(store) if store is not None else None  # a bad URL: one line, early
    try:
        with scratch_databases(url) as fresh:
            records = fresh(url is not None)
            for conversation in conversations:
                _run_conversation(
                    conversation,
                    directory=_fresh_dir(run_dir / user_id_for(conversation.sample_id)),
                    embedder=inner,
                    ks=ks,
                    budget=budget,
                    scores=scores,
                    live_qa=live_qa,
                    progress=progress or (lambda _name, _done, _total: None),
                    records=records,
                )
    finally:
        if not keep:
            shutil.rmtree(run_dir, ignore_errors=True)
    result: dict[str, Any] = {
        "dataset": Path(path).name,
        "store": "postgresql" if url is not None else "embedded",
        "questions": sum(len(c.questions) for c in conversations),
        "skipped_evidence": sum(c.skipped_evidence for c in conversations),
        "skipped_questions": sum(c.skipped_questions for c in conversations),
        "conversations": len(conversations),
        "k": ks,
        "budget": budget,
        "systems": {name: scores[name].summary() for name in SYSTEMS},
    }
    if live_qa is not None:
        result["qa"] = live_qa.summary()
    return result


def _fresh_dir(wanted: Path) -> Path:
    """``wanted``, or ``wanted-2``... when two sample ids sanitise to the same name."""
    candidate, n = wanted, 1
    while candidate.exists():
        n += 1
        candidate = wanted.with_name(f"{wanted.name}-{n}")
    return candidate


def _run_conversation(
    conversation: LocomoConversation,
    *,
    directory: Path,
    embedder: Embedder,
    ks: Sequence[int],
    budget: int,
    scores: dict[str, SystemScores],
    live_qa: LiveQA | None,
    progress: ProgressFn,
    records: str | None = None,
) -> None:
    name, user_id = conversation.sample_id, user_id_for(conversation.sample_id)
    total = len(conversation.turns) + len(conversation.questions)
    progress(name, 0, total)
    started = time.perf_counter()
    clock = ManualClock(conversation.turns[0].ts if conversation.turns else None)
    cached = CachedEmbedder(embedder)
    with Store.open(
        directory, embedder=cached, clock=clock, store=records, reproducible=True
    ) as store:
        events = ingest(
            store, clock, conversation, user_id=user_id, logged=lambda n: progress(name, n, total)
        )
        progress(name, len(conversation.turns), total)
        memvisor, systems = _systems(store, conversation, events, cached, user_id, ks, budget)
        for n, question in enumerate(conversation.questions, start=1):
            evidence = [events[d] for d in question.evidence]
            for system in systems:
                began = time.perf_counter()
                ranked = system.rank(question.question)
                latency_ms = (time.perf_counter() - began) * 1000
                scores[system.name].add(
                    score_question(
                        ranked,
                        evidence,
                        category=question.category,
                        ks=ks,
                        budget_tokens=budget,
                        latency_ms=latency_ms,
                    )
                )
            if live_qa is not None:
                context = memvisor.pagein.pack(memvisor.last_items, budget_tokens=budget)
                live_qa.ask(
                    question.question, question.answer, category=question.category, items=context
                )
            progress(name, len(conversation.turns) + n, total)
    logger.bind(user_id=user_id).info(
        "locomo {}: {} turns, {} questions in {:.1f} s",
        name,
        len(conversation.turns),
        len(conversation.questions),
        time.perf_counter() - started,
    )


def _systems(
    store: Store,
    conversation: LocomoConversation,
    events: dict[str, str],
    cached: CachedEmbedder,
    user_id: str,
    ks: Sequence[int],
    budget: int,
) -> tuple[MemvisorRanker, list[TurnRanker]]:
    """Memvisor and the baselines over the same logged turns, ready to rank."""
    counter = counter_for_model(None)
    by_id = {
        events[t.dia_id]: RankedTurn(events[t.dia_id], t.content, counter.count(t.content))
        for t in conversation.turns
    }
    turns = list(by_id.values())
    # Deep enough for the largest k and for any packing of the budget.
    limit = min(len(turns), max(max(ks), turns_fitting([t.tokens for t in turns], budget)))
    as_of = store.clock.now()
    pagein = PageIn(store)
    tokens = {t.turn_id: t.tokens for t in turns}
    memvisor = MemvisorRanker(pagein, user_id=user_id, as_of=as_of, limit=limit, tokens=tokens)
    # Untimed: the first search builds the index (embeds every turn).
    pagein.rank_turns("warm up", user_id=user_id, as_of=as_of, limit=1)
    return memvisor, [
        memvisor,
        Bm25Ranker(turns, limit=limit),
        DenseRanker(turns, embedder=cached, query_embedder=cached.inner, limit=limit),
        RecencyRanker(turns, limit=limit),
    ]
