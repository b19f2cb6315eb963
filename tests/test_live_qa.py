"""Live QA of the LoCoMo eval against the fake Ollama server: F1, judge, failures."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from click.testing import CliRunner

from memvisor.agent.cli.eval import eval_group
from memvisor.evals.live_qa import judge_label, memory_section
from memvisor.evals.metrics import normalize_answer, token_f1

TINY = Path(__file__).parent / "data" / "locomo_tiny.json"
MODEL = "ollama:qwen2.5:7b"
ANSWERS = {
    "What is the name of Avery's greyhound?": "Pixel.",
    "What instrument is Dana learning?": "The cello",
    "How long did Avery take to finish the half marathon?": "1 hour and 58 minutes",
}


def _reply(body: dict[str, Any]) -> dict[str, Any]:
    """Answer from the scripted table; judge CORRECT when F1 is 1, garble one verdict."""
    messages = body["messages"]
    if messages[0]["role"] == "system":  # an answer request
        return {"content": ANSWERS.get(messages[-1]["content"], "not mentioned"), "eval_count": 5}
    prompt = messages[-1]["content"]
    question = re.search(r"^Question: (.*)$", prompt, re.M).group(1)  # type: ignore[union-attr]
    gold = re.search(r"^Gold answer: (.*)$", prompt, re.M).group(1)  # type: ignore[union-attr]
    generated = re.search(r"^Generated answer: (.*)$", prompt, re.M).group(1)  # type: ignore[union-attr]
    if question.startswith("When was Dana"):
        return {"content": "I am not sure what to say."}
    label = "CORRECT" if token_f1(generated, gold) == 1.0 else "WRONG"
    return {"content": f'```json\n{{"label": "{label}"}}\n```'}


def _run(*args: str) -> Any:
    return CliRunner().invoke(eval_group, ["locomo", "--data", str(TINY), *args])


def test_answers_are_scored_by_f1_and_judge(
    fake_ollama: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OLLAMA_HOST", fake_ollama.host)
    fake_ollama.reply(*[_reply] * 40)
    r = _run("--json", "--answer-model", MODEL, "--judge-model", MODEL)
    assert r.exit_code == 0, r.output
    qa = json.loads(r.stdout)["qa"]
    assert qa["model"] == MODEL and qa["judge"] == MODEL
    # 11 scored questions; the two adversarial ones carry no gold answer.
    assert qa["overall"]["no_gold_answer"] == 2
    assert qa["by_category"]["5"]["no_gold_answer"] == 2
    assert qa["by_category"]["5"]["questions"] == 0
    overall = qa["overall"]
    assert overall["questions"] == 9
    # "Pixel." and "The cello" are exact; "1 hour and 58 minutes" against "1 hour 58
    # minutes" has F1 8/9 (judged WRONG by the script); the rest "not mentioned" (F1 0).
    assert overall["f1"] == pytest.approx((1 + 1 + 8 / 9) / 9, abs=1e-4)
    assert overall["judge_accuracy"] == pytest.approx(2 / 9, abs=1e-4)
    assert overall["unparseable_judgements"] == 1
    assert qa["by_category"]["2"]["unparseable_judgements"] == 1
    assert overall["tokens_per_answer"] == 11 + 5  # prompt_eval_count + eval_count
    assert set(overall["latency_ms"]) == {"p50", "p95"}
    answer_bodies = [b for b in fake_ollama.chat_bodies() if b["messages"][0]["role"] == "system"]
    assert len(answer_bodies) == 9
    system = answer_bodies[0]["messages"][0]["content"]
    assert "## Memory" in system and "Avery: " in system and "2023" in system
    assert all(b["options"]["temperature"] == 0 for b in fake_ollama.chat_bodies())


def test_without_a_judge_only_f1_is_reported(
    fake_ollama: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OLLAMA_HOST", fake_ollama.host)
    fake_ollama.reply(*[_reply] * 20)
    r = _run("--json", "--answer-model", MODEL, "--limit-conversations", "1")
    assert r.exit_code == 0, r.output
    qa = json.loads(r.stdout)["qa"]
    assert qa["judge"] is None and qa["overall"]["judge_accuracy"] is None
    assert qa["overall"]["questions"] == 6 and len(fake_ollama.chat_bodies()) == 6


def test_unreachable_ollama_fails_in_one_line_before_ingest(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from tests.fake_ollama import unused_port

    monkeypatch.setenv("OLLAMA_HOST", f"http://127.0.0.1:{unused_port()}")
    r = _run("--answer-model", MODEL, "--data-dir", str(tmp_path / "home"))
    assert r.exit_code != 0
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "not reachable" in lines[0], r.stderr
    assert "Traceback" not in r.output
    assert not any((tmp_path / "home").rglob("memvisor.duckdb"))


@pytest.mark.parametrize(
    ("reply", "label"),
    [
        ('{"label": "CORRECT"}', "CORRECT"),
        ('```json\n{"label": "WRONG"}\n```', "WRONG"),
        ('Reasoning... {"label": "correct"}', "CORRECT"),
        ("The answer is CORRECT.", "CORRECT"),
        ("INCORRECT", None),
        ("CORRECT or WRONG, hard to say", None),
        ('{"verdict": 1}', None),
        ("", None),
    ],
)
def test_judge_label_parsing(reply: str, label: str | None) -> None:
    assert judge_label(reply) == label


def test_f1_normalises_like_squad() -> None:
    assert normalize_answer("The  Cello!") == "cello"
    assert token_f1("a cello", "The cello.") == 1.0
    assert token_f1("", "") == 1.0 and token_f1("x", "") == 0.0
    assert token_f1("7 May 2023", "May 7, 2023") == 1.0
    assert token_f1("blue mugs", "three mugs") == 0.5


def test_memory_section_is_dated_and_chronological() -> None:
    items = [
        SimpleNamespace(text="Bruno: later", ts=datetime(2023, 6, 2, 19, 40, tzinfo=UTC)),
        SimpleNamespace(text="Avery: earlier", ts=datetime(2023, 3, 3, 14, 15, tzinfo=UTC)),
    ]
    assert memory_section(items) == (  # type: ignore[arg-type]
        "## Memory (past conversation turns)\n"
        "[3 March 2023 14:15] Avery: earlier\n"
        "[2 June 2023 19:40] Bruno: later"
    )
    assert "nothing relevant" in memory_section([])
