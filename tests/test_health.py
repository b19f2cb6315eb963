"""``memvisor health``: every figure checked exactly on a small hand-built store."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from memvisor.agent.cli.health import health
from memvisor.errors import UserError
from memvisor.evals.health import AMNESIA_PATTERN, health_report, prometheus_text
from memvisor.storage import ManualClock, Store

T0 = datetime(2026, 5, 1, 9, 0, tzinfo=UTC)
USER = "u1"

_LABEL = r'[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\[\\"n])*"'
_SAMPLE = re.compile(
    rf"^[a-zA-Z_:][a-zA-Z0-9_:]*\{{{_LABEL}(?:,{_LABEL})*\}} "
    r"(?:[-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?|NaN|[-+]Inf)$"
)


def _fact(store: Store, predicate: str, obj: str, **kw: Any) -> str:
    write = store.remember_fact(
        user_id=USER, subject="user", predicate=predicate, object=obj, trace_id="trc_w", **kw
    )
    assert write.fact is not None
    return write.fact.id


def _turn(
    store: Store, trace: str, answer: str, pages: list[list[str]], cited: list[str] | None
) -> None:
    for ids in pages:
        store.events.append(
            user_id=USER,
            kind="page_in",
            trace_id=trace,
            payload={"ids": ids, "query": "q", "scores": [0.5] * len(ids)},
        )
    payload: dict[str, Any] = {"content": answer, "memory_ids": []}
    if cited is not None:
        payload["cited_ids"] = cited
    store.events.append(user_id=USER, kind="assistant_message", trace_id=trace, payload=payload)


def build(data_dir: Path) -> tuple[ManualClock, dict[str, str]]:
    clock = ManualClock(T0)
    with Store.open(data_dir, embedder="hash", clock=clock) as store:
        ids = {
            "tea": _fact(store, "likes", "tea"),
            "paris": _fact(store, "lives_in", "Paris"),
            "berlin": _fact(store, "lives_in", "Berlin"),  # supersedes Paris
            "gate": _fact(store, "gate_code", "4411", valid_until=T0 + timedelta(hours=1)),
        }
        ids["psg"] = store.insert_passage(user_id=USER, text="notes", trace_id="trc_w").id
        clock.advance(timedelta(hours=2))  # the gate code expires
        _turn(store, "t1", "You like tea.", [[ids["tea"], ids["berlin"], ids["psg"]]], None)
        # a second page-in of the same id in the same trace counts once
        store.events.append(
            user_id=USER, kind="page_in", trace_id="t1", payload={"ids": [ids["tea"]]}
        )
        store.events.append(
            user_id=USER,
            kind="assistant_message",
            trace_id="t1",
            payload={"content": "Tea it is.", "cited_ids": [ids["tea"]]},
        )
        clock.advance(timedelta(minutes=1))
        _fact(store, "lives_in", "Berlin")  # confirms what t1 paged in
        clock.advance(timedelta(minutes=1))
        # cited in t1 does not make t2's page-in a hit; ids present: no amnesia alert
        _turn(store, "t2", "I don't remember that.", [[ids["tea"]]], None)
        # paged in after the confirmation: not a hit
        _turn(store, "t3", "Berlin.", [[ids["berlin"]]], [])
        _turn(store, "t4", "I don't know where you parked.", [[]], [])
        _turn(store, "t5", "I\u2019m not sure,\n  sorry.", [], None)  # no page-in at all
        _turn(store, "t6", "Your tea is ready.", [[]], [])
        for n in range(2):
            store.quarantine.hold(
                user_id=USER,
                tool="fact_remember",
                arguments={"n": n},
                reasons=["low"],
                trace_id="q",
            )
        store.events.append(user_id="other", kind="page_in", trace_id="t9", payload={"ids": ["x"]})
    return clock, ids


def test_health_report_figures(tmp_path: Path) -> None:
    clock, _ = build(tmp_path / "data")
    with Store.open(tmp_path / "data", embedder="hash", clock=clock) as store:
        report = health_report(store, user_id=USER)
    assert report["user_id"] == USER
    assert report["as_of"] == "2026-05-01T11:02:00Z"
    assert report["freshness"] == {
        "ratio": 0.6,
        "active": 2,
        "archived": 0,
        "expired": 1,
        "superseded": 1,
        "other": 0,
        "passages": 1,
    }
    assert report["facts"] == {
        "active": 2,
        "archived": 0,
        "expired": 1,
        "superseded": 1,
        "retracted": 0,
        "quarantined": 0,
    }
    assert report["page_in"] == {
        "hit_rate": 0.4,
        "paged_in": 5,
        "hits": 2,
        "cited": 1,
        "confirmed": 1,
        "page_in_events": 6,
    }
    assert report["quarantine_held"] == 2
    assert report["amnesia"] == {
        "count": 2,
        "alerts": [
            {
                "trace_id": "t4",
                "ts": "2026-05-01T11:02:00Z",
                "answer": "I don't know where you parked.",
            },
            {"trace_id": "t5", "ts": "2026-05-01T11:02:00Z", "answer": "I\u2019m not sure, sorry."},
        ],
    }
    assert report["events"] == {
        "count": 19,
        "last_activity": "2026-05-01T11:02:00Z",
        "by_kind": {"assistant_message": 7, "memory_write": 6, "page_in": 6},
    }
    assert report["records"] == {"facts": 4, "passages": 1, "quarantine_held": 2, "events": 19}


def test_empty_user_has_null_ratios(store: Store) -> None:
    report = health_report(store, user_id="nobody")
    assert report["freshness"]["ratio"] is None
    assert report["page_in"]["hit_rate"] is None
    assert report["events"]["last_activity"] is None
    text = prometheus_text(report)
    assert "memvisor_memory_freshness_ratio" not in text
    assert "memvisor_page_in_hit_ratio" not in text
    assert 'memvisor_amnesia_alerts_total{user="nobody"} 0' in text


def test_prometheus_format(tmp_path: Path) -> None:
    clock, _ = build(tmp_path / "data")
    with Store.open(tmp_path / "data", embedder="hash", clock=clock) as store:
        text = prometheus_text(health_report(store, user_id=USER))
    lines = text.splitlines()
    assert text.endswith("\n")
    for line in lines:
        if line.startswith("#"):
            assert re.match(r"^# (HELP|TYPE) [a-zA-Z_:][a-zA-Z0-9_:]* \S", line), line
        else:
            assert _SAMPLE.match(line), line
    for expected in (
        'memvisor_memory_freshness_ratio{user="u1"} 0.6',
        'memvisor_quarantine_held{user="u1"} 2',
        'memvisor_amnesia_alerts_total{user="u1"} 2',
        'memvisor_page_in_hit_ratio{user="u1"} 0.4',
        'memvisor_facts{user="u1",status="active"} 2',
        'memvisor_facts{user="u1",status="expired"} 1',
        'memvisor_records{user="u1",kind="events"} 19',
        "# TYPE memvisor_amnesia_alerts_total counter",
        "# TYPE memvisor_memory_freshness_ratio gauge",
    ):
        assert expected in lines
    # every family's samples follow its own HELP/TYPE lines
    names = [line.split()[2] for line in lines if line.startswith("# TYPE")]
    assert len(names) == len(set(names))


def test_prometheus_escapes_label_values() -> None:
    report = {
        "user_id": 'a"b\\c\nd',
        "freshness": {"ratio": None, "passages": 0},
        "facts": {'we"ird': 1},
        "page_in": {"hit_rate": None, "paged_in": 0, "hits": 0},
        "quarantine_held": 0,
        "amnesia": {"count": 0},
        "events": {"count": 0, "last_activity": None},
        "records": {},
    }
    text = prometheus_text(report)
    assert 'memvisor_facts{user="a\\"b\\\\c\\nd",status="we\\"ird"} 1' in text.splitlines()
    for line in text.splitlines():
        assert line.startswith("#") or _SAMPLE.match(line), line


@pytest.mark.parametrize(
    "answer",
    [
        "I don't know.",
        "Sorry, I do not remember that.",
        "I'm not sure what you mean",
        "I don\u2019t have any information about it",
        "There is no record of that order.",
        "我不知道",
        "我不记得了",
    ],
)
def test_amnesia_pattern_matches(answer: str) -> None:
    assert AMNESIA_PATTERN.search(answer)


@pytest.mark.parametrize("answer", ["You live in Berlin.", "I know you like tea.", "Sure!"])
def test_amnesia_pattern_ignores_answers(answer: str) -> None:
    assert not AMNESIA_PATTERN.search(answer)


def test_cli_json_prometheus_and_plain(tmp_path: Path) -> None:
    build(tmp_path / "data")
    runner = CliRunner()
    base = ["--data-dir", str(tmp_path / "data"), "--user", USER]
    result = runner.invoke(health, [*base, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["page_in"]["hit_rate"] == 0.4
    assert data["quarantine_held"] == 2
    assert data["amnesia"]["count"] == 2

    result = runner.invoke(health, [*base, "--prometheus"])
    assert result.exit_code == 0, result.output
    assert 'memvisor_page_in_hit_ratio{user="u1"} 0.4' in result.output.splitlines()

    result = runner.invoke(health, base)
    assert result.exit_code == 0, result.output
    assert "memory health for user u1" in result.output
    assert "page-in hits   40.0% (2 of 5" in result.output
    assert "quarantine     2 held" in result.output
    assert "t4  I don't know where you parked." in result.output


def test_cli_rejects_both_formats(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        health, ["--data-dir", str(tmp_path / "d"), "--json", "--prometheus"]
    )
    assert result.exit_code != 0
    assert isinstance(result.exception, UserError)
    assert "pass only one" in str(result.exception)


def test_expired_facts_are_listed_and_archived_records_counted(tmp_path: Path) -> None:
    clock, ids = build(tmp_path / "data")
    with Store.open(tmp_path / "data", embedder="hash", clock=clock) as store:
        report = health_report(store, user_id=USER)
        assert report["expired"] == [
            {
                "id": ids["gate"],
                "subject": "user",
                "predicate": "gate_code",
                "object": "4411",
                "valid_until": "2026-05-01T10:00:00Z",
            }
        ]
        assert report["archived"] == 0
        assert 'memvisor_archived_records{user="u1"} 0' in prometheus_text(report).splitlines()
        clock.advance(timedelta(days=100))
        pruned = store.prune(user_id=USER, older_than=timedelta(days=90), unused=True, trace_id="p")
        after = health_report(store, user_id=USER)
        # tea, Berlin and the passage; the expired gate code is no candidate and stays listed
        assert len(pruned.archived) == after["archived"] == 3
        assert [f["id"] for f in after["expired"]] == [ids["gate"]]
        # archived records are still stored, counted apart from the active ones
        assert after["records"] == {**report["records"], "events": after["records"]["events"]}
        assert after["facts"]["active"] == report["facts"]["active"] - 2
        assert after["facts"]["archived"] == 2 and after["freshness"]["archived"] == 3
        assert after["freshness"]["passages"] == 0 and after["records"]["passages"] == 1
        assert 'memvisor_archived_records{user="u1"} 3' in prometheus_text(after).splitlines()
        assert health_report(store, user_id="other")["archived"] == 0


def test_cli_plain_lists_expired_facts(tmp_path: Path) -> None:
    _, ids = build(tmp_path / "data")
    result = CliRunner().invoke(health, ["--data-dir", str(tmp_path / "data"), "--user", USER])
    assert result.exit_code == 0, result.output
    assert "expired        1 fact, never paged in" in result.output
    assert f"{ids['gate']}  user | gate_code | 4411  (until 2026-05-01T10:00:00Z)" in result.output
    assert "archived       0 records kept out of page-in" in result.output
