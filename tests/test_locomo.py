"""LoCoMo retrieval eval on a tiny synthetic dataset in LoCoMo's format (hash embedder)."""

from __future__ import annotations

import json
import re
import sys
import types
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from memvisor.agent.cli.eval import eval_group
from memvisor.errors import UserError
from memvisor.evals import locomo
from memvisor.evals.baselines import Bm25Ranker, DenseRanker, RecencyRanker
from memvisor.evals.locomo import ingest, load_locomo, parse_session_date, run_locomo, user_id_for
from memvisor.evals.metrics import (
    RankedTurn,
    pack_in_rank_order,
    percentiles,
    recall_at_k,
    turns_fitting,
)
from memvisor.storage import ManualClock, Store
from memvisor.storage.embedders import HashEmbedder

TINY = Path(__file__).parent / "data" / "locomo_tiny.json"
SYSTEMS = {"memvisor", "bm25", "dense", "recency"}
M_KEYS = {"recall_at_k", "recall_at_budget", "by_category", "tokens_per_query", "latency_ms"}


@pytest.fixture(scope="module")
def result(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return run_locomo(TINY, data_dir=tmp_path_factory.mktemp("home"), embedder="hash")


def _turns(sample: int = 0) -> list[RankedTurn]:
    conversation = load_locomo(TINY)[sample]
    return [RankedTurn(t.dia_id, t.content, len(t.content.split())) for t in conversation.turns]


def test_result_document_has_the_contract_shape(result: dict[str, Any]) -> None:
    assert set(result) == {
        "dataset",
        "store",
        "questions",
        "skipped_evidence",
        "skipped_questions",
        "conversations",
        "k",
        "budget",
        "systems",
    }
    assert result["dataset"] == "locomo_tiny.json" and result["store"] == "embedded"
    assert (result["conversations"], result["k"], result["budget"]) == (2, [5, 10, 25], 1000)
    assert set(result["systems"]) == SYSTEMS
    for m in result["systems"].values():
        assert set(m) == M_KEYS
        assert set(m["recall_at_k"]) == {"5", "10", "25"}
        assert set(m["latency_ms"]) == {"p50", "p95"}
        assert set(m["by_category"]) == {"1", "2", "3", "4", "5"}
        for figures in m["by_category"].values():
            assert set(figures) == {"recall_at_k", "recall_at_budget", "questions"}
            assert set(figures["recall_at_k"]) == {"5", "10", "25"}
        assert 0 < m["tokens_per_query"] <= 1000
    json.dumps(result, allow_nan=False)


def test_counts_malformed_evidence_and_skipped_questions(result: dict[str, Any]) -> None:
    # "D:3:9", "D", "D9:99" (absent) are skipped; "D1:1; D3:1" splits into two good ids.
    assert result["skipped_evidence"] == 3
    # One question with only malformed evidence, one with none.
    assert result["skipped_questions"] == 2
    assert result["questions"] == 11
    per_category = result["systems"]["bm25"]["by_category"]
    assert {c: f["questions"] for c, f in per_category.items()} == {
        "1": 2,
        "2": 2,
        "3": 1,
        "4": 4,
        "5": 2,
    }


def test_recalls_are_fractions_and_grow_with_k(result: dict[str, Any]) -> None:
    for m in result["systems"].values():
        figures = [m, *m["by_category"].values()]
        for f in figures:
            r5, r10, r25 = (f["recall_at_k"][k] for k in ("5", "10", "25"))
            assert 0.0 <= r5 <= r10 <= r25 <= 1.0
            assert 0.0 <= f["recall_at_budget"] <= 1.0
    # 15 short turns per conversation: the top 25 of a ranker that ranks every turn holds
    # them all (bm25 ranks only turns sharing a word; page-in has a relevance floor).
    for name in ("dense", "recency"):
        assert result["systems"][name]["recall_at_k"]["25"] == 1.0


def test_ingest_logs_turns_with_speaker_caption_and_session_times(tmp_path: Path) -> None:
    conversation = load_locomo(TINY)[0]
    clock = ManualClock(datetime(2020, 1, 1, tzinfo=UTC))
    with Store.open(tmp_path / "s", embedder="hash", clock=clock) as store:
        events = ingest(store, clock, conversation, user_id="synth-a")
        logged = store.events.list(user_id="synth-a", kinds=["user_message"])
    assert len(events) == len(logged) == 15
    by_dia = {e.payload["dia_id"]: e for e in logged}
    assert events["D1:3"] == by_dia["D1:3"].id
    photo = by_dia["D1:3"]
    assert photo.payload["content"] == (
        "Avery: Pixel loves the park by the river. [image: a dog lying on the grass in a park]"
    )
    assert photo.payload["speaker"] == "Avery"
    assert photo.payload["image_caption"] == "a dog lying on the grass in a park"
    assert "image_caption" not in by_dia["D1:1"].payload
    assert photo.session_id == "session_1"
    assert photo.ts == datetime(2023, 3, 3, 14, 16, tzinfo=UTC)  # third turn: +60 s
    assert by_dia["D3:1"].ts == datetime(2023, 6, 2, 19, 40, tzinfo=UTC)
    # Annotations (summaries, observations) are ground truth and never ingested.
    assert not any("ZEPHYRQUARTZ" in e.payload["content"] for e in logged)


def test_ingest_reports_the_turns_logged_as_it_goes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(locomo, "INGEST_REPORT_EVERY", 4)
    conversation = load_locomo(TINY)[0]
    clock = ManualClock(datetime(2020, 1, 1, tzinfo=UTC))
    reports: list[int] = []
    with Store.open(tmp_path / "s", embedder="hash", clock=clock) as store:
        ingest(store, clock, conversation, user_id="synth-a", logged=reports.append)
        assert len(store.events.list(user_id="synth-a", kinds=["user_message"])) == 15
    assert reports == [4, 8, 12]


def test_loader_parses_dates_and_sanitises_user_ids() -> None:
    assert parse_session_date("1:56 pm on 8 May, 2023") == datetime(2023, 5, 8, 13, 56)
    assert parse_session_date("12:09 am on 13 September, 2023") == datetime(2023, 9, 13, 0, 9)
    assert user_id_for("synth b/2") == "synth_b_2"
    assert user_id_for("-x") == "s-x"
    second = load_locomo(TINY)[1]
    cat5 = [q for q in second.questions if q.category == "5"]
    assert cat5 and cat5[0].answer is None and cat5[0].evidence == ("D3:2",)


def test_oracle_question_copying_a_turn_is_found_by_bm25(tmp_path: Path) -> None:
    turns = _turns(0)
    ranked = Bm25Ranker(turns, limit=25).rank(
        "Bruno: Ha! My sister Lucia is visiting from Lisbon next month."
    )
    assert ranked[0].turn_id == "D2:5"
    # And through the whole pipeline (dia id -> event id), on a one-question file.
    sample = json.loads(TINY.read_text())[0]
    sample["qa"] = [q for q in sample["qa"] if q["question"].startswith("Bruno: Ha!")]
    oracle = tmp_path / "oracle.json"
    oracle.write_text(json.dumps([sample]))
    found = run_locomo(oracle, data_dir=tmp_path / "home", embedder="hash", ks=[1, 5])
    assert found["questions"] == 1
    assert found["systems"]["bm25"]["recall_at_k"]["5"] == 1.0
    assert found["systems"]["dense"]["recall_at_k"]["5"] == 1.0


def test_baselines_rank_by_their_own_rules() -> None:
    turns = _turns(0)
    recency = RecencyRanker(turns, limit=5)
    assert [t.turn_id for t in recency.rank("anything")] == ["D3:5", "D3:4", "D3:3", "D3:2", "D3:1"]
    assert recency.rank("Pixel") == recency.rank("the Marigold")
    bm25 = Bm25Ranker(turns, limit=25)
    assert bm25.rank("zzz qqq") == [] and bm25.rank("") == []
    assert {t.turn_id for t in bm25.rank("Marigold")} == {"D1:4", "D2:1", "D3:2"}
    dense = DenseRanker(turns, embedder=HashEmbedder(), limit=3)
    top = dense.rank("Avery finished the half marathon in 1 hour 58 minutes")
    assert len(top) == 3 and top[0].turn_id == "D3:1"


def test_metrics() -> None:
    assert recall_at_k(["a", "b", "c"], ["c", "x"], 2) == 0.0
    assert recall_at_k(["a", "b", "c"], ["c", "x"], 3) == 0.5
    ranked = [RankedTurn("a", "", 6), RankedTurn("b", "", 5), RankedTurn("c", "", 3)]
    assert [t.turn_id for t in pack_in_rank_order(ranked, 9)] == ["a", "c"]
    assert turns_fitting([6, 5, 3], 9) == 2
    assert percentiles([1, 2, 3, 4]) == {"p50": 2.5, "p95": 3.85}
    assert percentiles([]) == {"p50": 0.0, "p95": 0.0}


@given(
    st.lists(st.integers(min_value=0, max_value=50), max_size=30),
    st.integers(min_value=0, max_value=200),
)
def test_rank_order_packing_fits_and_keeps_order(sizes: list[int], budget: int) -> None:
    ranked = [RankedTurn(str(i), "", n) for i, n in enumerate(sizes)]
    packed = pack_in_rank_order(ranked, budget)
    assert sum(t.tokens for t in packed) <= budget
    assert [int(t.turn_id) for t in packed] == sorted(int(t.turn_id) for t in packed)
    assert len(packed) <= turns_fitting(sizes, budget)


def test_cli_json_is_pure_and_stores_are_removed(tmp_path: Path) -> None:
    home = tmp_path / "home"
    r = CliRunner().invoke(
        eval_group,
        [
            "locomo",
            "--data",
            str(TINY),
            "--json",
            "--k",
            "10,1",
            "--budget",
            "40",
            "--limit-conversations",
            "1",
            "--data-dir",
            str(home),
        ],
    )
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert doc["conversations"] == 1 and doc["k"] == [1, 10] and doc["budget"] == 40
    assert all(m["tokens_per_query"] <= 40 for m in doc["systems"].values())
    assert "synth-a" not in r.stderr  # progress bars are for a terminal, not a pipe
    assert list((home / "evals").iterdir()) == []


def test_cli_table_keep_and_html(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    written: list[tuple[dict[str, Any], str]] = []
    fake_report = types.ModuleType("memvisor.evals.report_html")
    fake_report.locomo_report = lambda doc, out: written.append((doc, out))  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "memvisor.evals.report_html", fake_report)
    home = tmp_path / "home"
    out = tmp_path / "report.html"
    r = CliRunner().invoke(
        eval_group,
        ["locomo", "--data", str(TINY), "--keep", "--html", str(out), "--data-dir", str(home)],
    )
    assert r.exit_code == 0, r.output
    for text in ("memvisor", "bm25", "dense", "recency", "R@25", "R@budget", "temporal", "p95"):
        assert text in r.stdout
    summary = " ".join(r.stdout.split())  # rich wraps the line at the terminal's width
    assert re.search(r"page-in latency p50 \d+\.\d ms, p95 \d+\.\d ms", summary), summary
    assert written and written[0][1] == str(out) and written[0][0]["conversations"] == 2
    (run,) = (home / "evals").iterdir()
    assert sorted(p.name for p in run.iterdir()) == ["synth-a", "synth_b_2"]


def test_cli_shows_progress_per_conversation_on_a_terminal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FORCE_COLOR", "1")  # rich takes the captured stderr for a terminal
    r = CliRunner().invoke(
        eval_group, ["locomo", "--data", str(TINY), "--json", "--data-dir", str(tmp_path)]
    )
    assert r.exit_code == 0, r.output
    assert "synth-a" in r.stderr and "22/22" in r.stderr and "19/19" in r.stderr  # 2 bars
    assert "━" not in r.stdout and json.loads(r.stdout)["conversations"] == 2


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--k", "0,5"], "invalid --k"),
        (["--judge-model", "ollama:x"], "needs --answer-model"),
        (["--answer-model", "gpt4"], "unknown model"),
    ],
)
def test_cli_bad_input_is_one_line(args: list[str], message: str, tmp_path: Path) -> None:
    r = CliRunner().invoke(eval_group, ["locomo", "--data", str(TINY), *args])
    assert r.exit_code != 0
    assert message in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_missing_or_broken_data_file_is_one_line(tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    for path in (tmp_path / "absent.json", broken):
        r = CliRunner().invoke(eval_group, ["locomo", "--data", str(path)])
        assert r.exit_code == 1 and str(path) in r.stderr
        assert len(r.stderr.strip().splitlines()) == 1


def test_on_postgres_the_conversations_run_in_a_scratch_database(
    tmp_path: Path, postgres_url: str
) -> None:
    from memvisor.storage.postgres import PostgresDatabase

    doc = run_locomo(TINY, data_dir=tmp_path, embedder="hash", store=postgres_url)
    assert doc["store"] == "postgresql" and doc["conversations"] == 2
    assert set(doc["systems"]) == SYSTEMS
    assert 0 < doc["systems"]["memvisor"]["recall_at_k"]["10"] <= 1
    own = PostgresDatabase(postgres_url)
    try:  # the store's own database is never written; the scratch one is gone
        assert own.query("SELECT count(*) FROM events") == [(0,)]
        left = own.query("SELECT count(*) FROM pg_database WHERE datname LIKE 'memvisor_bench_%'")
        assert left == [(0,)]
    finally:
        own.close()
    with pytest.raises(UserError, match="postgresql://"):
        run_locomo(TINY, data_dir=tmp_path, embedder="hash", store="mysql://x")
