"""Live question answering over the paged-in memory, scored by token F1 and an LLM judge.

The answer model sees what the agent would page in for the question (the packed raw
turns, with dates and speakers) and answers in a few words. The judge, if any, labels
the answer CORRECT or WRONG against the gold answer, as LoCoMo-style evals do; a
judgement it cannot parse counts as WRONG and is counted.
"""

from __future__ import annotations

import json
import re
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

from memvisor.agent.models.base import ChatModel
from memvisor.evals.metrics import OVERALL_CATEGORIES, mean, percentiles, token_f1

ANSWER_SYSTEM = (
    "You answer questions about past conversations between two people, using only the "
    "memory below. Answer in a few words (a name, a date, a short phrase), with no "
    "explanation. Turn dates are when each message was said: resolve relative dates "
    '("yesterday", "last week") against them. If the memory does not say, answer '
    '"not mentioned".'
)
JUDGE_PROMPT = """Label a generated answer to a question CORRECT or WRONG against the gold answer.

Be generous about wording: an answer that refers to the same thing as the gold answer is
CORRECT even when it is longer or phrased differently. For questions about time, a date or
period that means the same as the gold one (another format, or a relative date that
resolves to it) is CORRECT. An answer that is missing, says it does not know, or
contradicts the gold answer is WRONG.

Question: {question}
Gold answer: {gold}
Generated answer: {generated}

Reply with one JSON object and nothing else: {{"label": "CORRECT"}} or {{"label": "WRONG"}}."""
_OPTIONS = {"temperature": 0, "num_predict": 512}  # a runaway reply cannot stall the run
_JSON_OBJECT = re.compile(r"\{[^{}]*\}", re.DOTALL)
_LABEL = re.compile(r"\b(CORRECT|WRONG)\b")


class MemoryTurn(Protocol):
    """What the memory section needs of a paged-in item (``paging.pagein.MemoryItem``)."""

    text: str
    ts: datetime


def memory_section(items: Sequence[MemoryTurn]) -> str:
    """The paged-in turns, oldest first, one line each: ``[8 May 2023 13:56] Name: text``."""
    lines = [f"[{i.ts.day} {i.ts:%B %Y %H:%M}] {i.text}" for i in sorted(items, key=lambda i: i.ts)]
    body = "\n".join(lines) if lines else "(nothing relevant was found)"
    return f"## Memory (past conversation turns)\n{body}"


def answer_messages(question: str, items: Sequence[MemoryTurn]) -> list[dict[str, Any]]:
    return [
        {"role": "system", "content": f"{ANSWER_SYSTEM}\n\n{memory_section(items)}"},
        {"role": "user", "content": question},
    ]


def judge_label(text: str) -> str | None:
    """``CORRECT`` or ``WRONG`` from a judge's reply (JSON, fenced JSON or a bare word)."""
    for block in _JSON_OBJECT.findall(text or ""):
        try:
            value = json.loads(block)
        except ValueError:
            continue
        if isinstance(value, dict):
            label = str(value.get("label", value.get("LABEL", ""))).strip().upper()
            if label in ("CORRECT", "WRONG"):
                return label
    found = set(_LABEL.findall((text or "").upper()))
    return found.pop() if len(found) == 1 else None


@dataclass
class AnswerScore:
    category: str
    f1: float
    correct: bool | None  # None without a judge
    unparseable: bool
    tokens: int
    latency_ms: float


@dataclass
class LiveQA:
    """Asks ``answer_model`` each question and scores the answers; one per eval run."""

    answer_model: ChatModel
    answer_name: str
    judge_model: ChatModel | None = None
    judge_name: str | None = None
    scores: list[AnswerScore] = field(default_factory=list)
    no_gold_answer: dict[str, int] = field(default_factory=lambda: defaultdict(int))

    def check(self) -> None:
        """Fail before any ingest when a model server is unreachable (asks /api/show)."""
        for model in (self.answer_model, self.judge_model):
            if model is not None:
                _ = model.context_length

    def ask(
        self, question: str, gold: str | None, *, category: str, items: Sequence[MemoryTurn]
    ) -> AnswerScore | None:
        """Answer one question from ``items`` and score it; ``None`` without a gold answer."""
        if gold is None:  # adversarial questions often carry only ``adversarial_answer``
            self.no_gold_answer[category] += 1
            return None
        started = time.perf_counter()
        turn = self.answer_model.chat(answer_messages(question, items), [], dict(_OPTIONS))
        latency_ms = (time.perf_counter() - started) * 1000
        generated = turn.content.strip()
        correct: bool | None = None
        unparseable = False
        if self.judge_model is not None:
            prompt = JUDGE_PROMPT.format(question=question, gold=gold, generated=generated)
            verdict = self.judge_model.chat(
                [{"role": "user", "content": prompt}], [], dict(_OPTIONS)
            )
            label = judge_label(verdict.content)
            unparseable = label is None
            correct = label == "CORRECT"
        score = AnswerScore(
            category=category,
            f1=token_f1(generated, gold),
            correct=correct,
            unparseable=unparseable,
            tokens=turn.usage.prompt_tokens + turn.usage.completion_tokens,
            latency_ms=latency_ms,
        )
        self.scores.append(score)
        return score

    def summary(self) -> dict[str, Any]:
        """``{"model", "judge", "overall", "by_category"}``; overall is over categories 1-4."""
        by_category: dict[str, list[AnswerScore]] = defaultdict(list)
        for score in self.scores:
            by_category[score.category].append(score)
        categories = sorted(set(by_category) | set(self.no_gold_answer))
        overall = [s for s in self.scores if s.category in OVERALL_CATEGORIES]
        return {
            "model": self.answer_name,
            "judge": self.judge_name,
            "overall": {
                **self._figures(overall),
                "no_gold_answer": sum(self.no_gold_answer.values()),
            },
            "by_category": {
                cat: {**self._figures(by_category[cat]), "no_gold_answer": self.no_gold_answer[cat]}
                for cat in categories
            },
        }

    def _figures(self, scores: Sequence[AnswerScore]) -> dict[str, Any]:
        judged = [s.correct for s in scores if s.correct is not None]
        f1 = mean([s.f1 for s in scores])
        accuracy = mean([float(c) for c in judged])
        tokens = mean([s.tokens for s in scores])
        return {
            "questions": len(scores),
            "f1": None if f1 is None else round(f1, 4),
            "judge_accuracy": None if accuracy is None else round(accuracy, 4),
            "unparseable_judgements": sum(s.unparseable for s in scores),
            "tokens_per_answer": None if tokens is None else round(tokens, 1),
            "latency_ms": percentiles([s.latency_ms for s in scores]),
        }
