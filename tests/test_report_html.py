"""HTML reports: one self-contained file, plotly.js inline, text from data escaped."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from memvisor.evals.report_html import locomo_report, replay_report

EVIL = "<script>alert(1)</script>"


def _system(scale: float, *, latencies: bool = False) -> dict[str, Any]:
    metrics: dict[str, Any] = {
        "recall_at_k": {"5": 0.4 * scale, "10": 0.55 * scale, "25": 0.7 * scale},
        "recall_at_budget": 0.6 * scale,
        "by_category": {
            str(c): {
                "recall_at_k": {"5": 0.3 * scale, "10": 0.1 * c * scale, "25": 0.8 * scale},
                "recall_at_budget": 0.5 * scale,
                "questions": 10 * c,
            }
            for c in range(1, 6)
        },
        "tokens_per_query": 900 * scale,
        "latency_ms": {"p50": 12.5 * scale, "p95": 40.0 * scale},
    }
    if latencies:
        metrics["latencies_ms"] = [10.0, 12.0, 15.0, 40.0]
    return metrics


def locomo_result() -> dict[str, Any]:
    return {
        "dataset": "locomo10.json",
        "questions": 150,
        "skipped_evidence": 3,
        "systems": {
            "memvisor": _system(1.0, latencies=True),
            "bm25": _system(0.8),
            "dense": {"recall_at_k": {"5": 0.3, "10": 0.5}},  # sparse: other fields missing
            "recency": {},
            EVIL: _system(0.5),
        },
        "k": [5, 10, 25],
        "budget": 1000,
        "qa": {"accuracy": 0.42, "judge": "exact"},
    }


def replay_document(*, paging: bool = True) -> dict[str, Any]:
    turns: list[dict[str, Any]] = [
        {
            "trace_id": f"trc_{i}",
            "answer": f"answer {i} & more",
            "tools": ["core_memory_append", "fact_remember"][: i % 3],
            "prompt_tokens": [800 + 100 * i, 900 + 120 * i],
        }
        for i in range(1, 6)
    ]
    turns[2]["tools"] = [EVIL]
    if paging:
        for i, turn in enumerate(turns):
            turn.update(window=2048, evictions=int(i == 3), paged_in=i)
    return {
        "transcript": "evals/data/demo.jsonl",
        "user_id": "alice",
        "passed": False,
        "metrics": {"turns": 5, "prompt_tokens": {"mean": 1100.5, "max": 1600}},
        "probes": [
            {"line": 4, "probe": "memory_contains", "label": "remembers tea", "passed": True,
             "detail": "found fct_1"},
            {"line": 9, "probe": "answer_mentions", "label": f"mentions {EVIL}", "passed": False,
             "detail": "answer was <b>Berlin</b>"},
        ],
        "turns": turns,
    }  # fmt: skip


def _check_self_contained(path: Path) -> str:
    assert path.is_file()
    assert [p.name for p in path.parent.iterdir()] == [path.name]
    text = path.read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>")
    assert '<meta charset="utf-8">' in text
    assert "plotly" in text.lower()
    assert re.search(r"<script[^>]*\bsrc=", text) is None
    assert '<script src="http' not in text
    # plotly.js is inlined exactly once however many figures there are
    assert text.count("* plotly.js v") == 1
    return text


def _page_text(text: str) -> str:
    """The page outside <script> elements (the plotly.js bundle holds arbitrary strings)."""
    return re.sub(r"<script\b.*?</script>", "", text, flags=re.DOTALL)


def test_locomo_report(tmp_path: Path) -> None:
    out = tmp_path / "report" / "locomo.html"
    path = locomo_report(locomo_result(), out)
    assert path == out
    text = _check_self_contained(path)
    page = _page_text(text)
    for name in ("memvisor", "bm25", "dense", "recency"):
        assert f"<td>{name}</td>" in page
    for title in (
        "Recall@k",
        "Recall@10 by category",
        "Page-in latency",
        "Latency distribution",
        "Tokens per query",
        "Question answering",
    ):
        assert f"<h2>{title}</h2>" in page
    assert "<td>&lt;script&gt;alert(1)&lt;/script&gt;</td>" in page
    assert EVIL not in text
    assert text.count('class="plotly-graph-div"') == 5
    assert "locomo10.json" in page and "3 malformed evidence ids skipped" in page
    assert '<td class="num">0.550</td>' in page  # memvisor recall@10


def test_locomo_report_tolerates_missing_fields(tmp_path: Path) -> None:
    path = locomo_report({"systems": {"recency": {}}}, tmp_path / "r.html")
    page = _page_text(path.read_text(encoding="utf-8"))
    assert "No recall@k figures in the result." in page
    assert "No latency figures in the result." in page
    assert "<td>recency</td>" in page


def test_replay_report(tmp_path: Path) -> None:
    path = replay_report(replay_document(), tmp_path / "replay.html")
    text = _check_self_contained(path)
    page = _page_text(text)
    assert "remembers tea" in page
    assert f"mentions {EVIL}" not in text
    assert "mentions &lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "answer was &lt;b&gt;Berlin&lt;/b&gt;" in page
    assert '<td class="pass">PASS</td>' in page
    assert '<td class="fail">FAIL</td>' in page
    assert "<h2>Evictions and page-ins along the session</h2>" in page
    assert "<h2>Tool calls per turn</h2>" in page
    assert "window 2048" in text
    assert "answer 1 &amp; more" in page
    assert text.count('class="plotly-graph-div"') == 3


def test_replay_report_without_paging_fields(tmp_path: Path) -> None:
    path = replay_report(replay_document(paging=False), tmp_path / "replay.html")
    text = path.read_text(encoding="utf-8")
    page = _page_text(text)
    assert "Omitted: the report has no per-turn" in page
    assert "window 2048" not in text
    assert text.count('class="plotly-graph-div"') == 2


def test_replay_report_empty(tmp_path: Path) -> None:
    path = replay_report({"transcript": "t.jsonl", "probes": [], "turns": []}, tmp_path / "e.html")
    page = path.read_text(encoding="utf-8")
    assert "The transcript has no probes." in page
    assert "No turns were replayed." in page


def test_locomo_report_says_what_it_covers_and_labels_empty_series(tmp_path: Path) -> None:
    result = {**locomo_result(), "skipped_questions": 4}
    text = locomo_report(result, tmp_path / "r.html").read_text(encoding="utf-8")
    page = _page_text(text)
    assert "150 questions scored · 4 questions skipped (no question text" in page
    assert "Recall covers categories 1-4 (multi-hop, temporal, open-domain, single-hop)" in page
    assert "category 5 (adversarial) is shown per category only" in page
    # recency has no figures at all, dense only recall@k: each figure names what it lacks
    assert "top k retrieved turns (categories 1-4). No data for: recency." in page
    assert "5 adversarial. No data for: dense, recency." in page
    assert "Per-query page-in latency, overlaid by system. No data for: bm25, dense" in page
    # a 0.0 ms bar carries its value, so it is not an empty slot
    assert '"textposition":"outside","texttemplate":"%{y:.1f}"' in text


def test_legends_sit_under_the_plot_clear_of_the_toolbar(tmp_path: Path) -> None:
    text = locomo_report(locomo_result(), tmp_path / "r.html").read_text(encoding="utf-8")
    layouts = re.findall(r'"legend":\{[^}]*\}', text)
    assert len(layouts) == 5
    assert all('"yanchor":"top"' in legend and '"y":-0.28' in legend for legend in layouts)


def test_replay_report_labels_a_series_that_is_all_zero(tmp_path: Path) -> None:
    document = replay_document()
    for turn in document["turns"]:
        turn["evictions"] = 0
    text = replay_report(document, tmp_path / "r.html").read_text(encoding="utf-8")
    assert '"name":"evictions (none)"' in text
    assert "No evictions in this replay." in _page_text(text)
