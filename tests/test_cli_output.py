"""What the CLI prints for people: progress on a terminal only, one line per record."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli_helpers import run_cli

DEMO = str(Path(__file__).resolve().parent.parent / "evals" / "data" / "multiday_task.jsonl")


@pytest.fixture
def terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make rich treat the captured stderr as a terminal."""
    monkeypatch.setenv("FORCE_COLOR", "1")


def test_replay_shows_progress_on_a_terminal_only(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    piped = run_cli(capsys, "replay", DEMO, "--into", str(tmp_path / "a"))
    assert piped.code == 0 and piped.err == ""
    monkeypatch.setenv("FORCE_COLOR", "1")
    shown = run_cli(capsys, "replay", DEMO, "--into", str(tmp_path / "b"))
    assert "replaying multiday_task.jsonl" in shown.err and "14/14" in shown.err
    assert "━" not in shown.out and "14/14" not in shown.out  # stdout holds no bar


@pytest.mark.usefixtures("terminal")
def test_import_and_prune_show_that_they_work(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    data = ["--data-dir", str(tmp_path / "d"), "--user", "maya"]
    assert run_cli(capsys, "memory", "add", "--text", "Order ORD-7: a lamp", *data).code == 0
    exported = tmp_path / "maya.json"
    exported.write_text(run_cli(capsys, "memory", "export", *data).out)
    other = ["--data-dir", str(tmp_path / "e"), "--user", "maya"]
    imported = run_cli(capsys, "memory", "import", str(exported), *other)
    assert imported.code == 0 and "importing maya.json" in imported.err
    pruned = run_cli(capsys, "memory", "prune", "--older-than", "1y", *data)
    assert pruned.code == 0 and "pruning" in pruned.err and "nothing to prune" in pruned.out
    rebuilt = run_cli(capsys, "memory", "reindex", "--embedder", "hash", *data)
    assert rebuilt.code == 0 and "rebuilding the search index" in rebuilt.err
    assert "rebuilt the search index: 1 item for 1 user" in rebuilt.out


def test_reindex_shows_no_spinner_on_a_pipe(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    data = ["--data-dir", str(tmp_path / "d"), "--user", "maya"]
    assert run_cli(capsys, "memory", "add", "--text", "Order ORD-7: a lamp", *data).code == 0
    rebuilt = run_cli(capsys, "memory", "reindex", "--embedder", "hash", *data)
    assert rebuilt.code == 0 and rebuilt.err == ""


def test_search_trace_list_and_prune_print_one_line_per_record(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    data = ["--data-dir", str(tmp_path / "d"), "--user", "maya"]
    long = "Order ORD-9 notes:\nline two of the note\n" + "more detail " * 40
    added = run_cli(capsys, "memory", "add", "--text", long, *data, "--json").json()
    hits = run_cli(capsys, "memory", "search", "ORD-9 notes", *data).out.splitlines()
    assert len(hits) == 1 and hits[0].endswith("…") and "line two of the note" in hits[0]
    listed = run_cli(capsys, "memory", "list", *data).out
    (passage,) = [line for line in listed.splitlines() if line.startswith("  psg_")]
    assert passage.endswith("…") and len(passage) < 160
    trace = run_cli(capsys, "trace", added["trace_id"], *data).out.splitlines()
    assert trace[-2:] == ["memory in context:", "  (none)"]  # a command, not an answer
    (command,) = [line for line in trace if "user_command" in line]
    assert command.endswith("…") and len(command) < 260
    pruned = run_cli(capsys, "memory", "prune", "--older-than", "1h", "--dry-run", *data)
    assert pruned.out.startswith("nothing to prune")


def test_prune_rows_fit_one_line_with_the_whole_id(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    run = tmp_path / "run"
    assert run_cli(capsys, "replay", DEMO, "--into", str(run)).code == 0
    data = ["--data-dir", str(run), "--user", "sam"]
    out = run_cli(capsys, "memory", "prune", "--older-than", "1d", "--dry-run", *data).out
    rows = [line for line in out.splitlines() if line.startswith(("  fct_", "  eps_", "  psg_"))]
    assert rows and all(len(row) <= 100 for row in rows)
    assert all(len(row.split()[0]) == 30 for row in rows)  # ids are never cut
    assert any(row.endswith("…") for row in rows)


def test_health_counts_archived_records_apart_from_active_ones(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    run = tmp_path / "run"
    assert run_cli(capsys, "replay", DEMO, "--into", str(run)).code == 0
    data = ["--data-dir", str(run), "--user", "sam"]
    before = run_cli(capsys, "health", *data, "--json").json()
    assert run_cli(capsys, "memory", "prune", "--older-than", "1d", *data).code == 0
    after = run_cli(capsys, "health", *data, "--json").json()
    assert after["facts"]["active"] == 0
    assert after["facts"]["archived"] == before["facts"]["active"] > 0
    assert after["freshness"]["archived"] == after["facts"]["archived"]  # no passages here
    assert after["archived"] > after["facts"]["archived"]  # the episodes too
    assert after["records"]["facts"] == before["records"]["facts"]  # still stored
    shown = run_cli(capsys, "health", *data).out
    assert f"archived       {after['archived']} records kept out of page-in" in shown
    assert f"{after['facts']['archived']} archived" in shown


LONG = str(Path(__file__).resolve().parent.parent / "evals" / "data" / "demo_long_session.jsonl")


def test_replay_says_what_it_replays_and_how_to_read_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = run_cli(capsys, "replay", DEMO, "--into", str(tmp_path / "r")).out.splitlines()
    assert out[0].startswith(f"replaying {DEMO}: Sam Okafor: a week-long contact migration")
    assert out[1] == (
        "  14 user turns in 4 sessions, answered by the recorded model turns (no model, no "
        "network), checked by 23 probes"
    )
    assert "the transcript line the probe is written on" in out[2]
    summary = next(line for line in out if line.startswith("probes "))
    assert "(3 restarts, 1 crash)" in summary and "11 tool calls" in summary
    assert out[-1].endswith(f"`memvisor memory list --data-dir {tmp_path / 'r'} --user sam`")


def test_probe_details_say_what_was_expected_and_mark_cuts(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = run_cli(capsys, "replay", LONG, "--into", str(tmp_path / "r")).out.splitlines()
    probes = [line for line in out if line.startswith(("PASS", "FAIL"))]
    assert probes and all(line.startswith("PASS") for line in probes)
    assert not any(line.endswith("no match") for line in probes)
    assert any(line.endswith("nothing matches, as expected") for line in probes)
    assert all(len(line) < 260 for line in probes)
    answers = [line.split('answer: "', 1)[1] for line in probes if 'answer: "' in line]
    cut = [a for a in answers if len(a) >= 140]  # the longest a detail quotes
    assert cut and all(a.endswith('…"') for a in cut)
    assert all(a.endswith('…"') == (a in cut) for a in answers)
    assert "['" not in "\n".join(probes)  # no Python lists


def test_memory_list_explains_the_fact_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    data = ["--data-dir", str(tmp_path / "d"), "--user", "maya"]
    run_cli(capsys, "memory", "add", "--subject", "maya", "--predicate", "lives_in",
            "--object", "Oslo", *data)  # fmt: skip
    lines = run_cli(capsys, "memory", "list", *data).out.splitlines()
    at = lines.index("facts (1):")
    assert "c=CONFIDENCE 0-1 xTIMES-CONFIRMED" in lines[at + 1]
    assert "[active v1 c=0.90 x0]  maya | lives_in | Oslo" in lines[at + 2]


def test_make_demo_ends_saying_how_to_run_the_cli() -> None:
    makefile = (Path(__file__).resolve().parent.parent / "Makefile").read_text()
    demo = makefile.split("\ndemo:")[1].split("\n\n")[0]
    assert "source .venv/bin/activate" in demo and '@echo "  .venv/bin/memvisor ' in demo


def test_replay_stores_as_the_transcript_user_unless_told_otherwise(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MEMVISOR_USER", "someone")  # the environment does not apply
    own = run_cli(capsys, "replay", DEMO, "--into", str(tmp_path / "a"), "--json").json()
    assert own["user_id"] == "sam" and own["passed"]
    other = run_cli(capsys, "replay", DEMO, "--into", str(tmp_path / "b"), "--user", "zoë")
    assert other.code == 0 and "--user zoë`" in other.out
    listed = run_cli(capsys, "memory", "list", "--data-dir", str(tmp_path / "b"), "--user", "zoë")
    assert "Sam | name | Sam Okafor" in listed.out


def test_a_second_replay_into_the_same_store_fails_only_first_run_probes(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """README: the week already happened in that store, so the probes of a first run's state
    fail (the forgotten workplace stays forgotten, the task is done, the recipe exists)."""
    run = str(tmp_path / "run")
    assert run_cli(capsys, "replay", DEMO, "--into", run).code == 0
    again = run_cli(capsys, "replay", DEMO, "--into", run, "--reuse-store", "--json")
    assert again.code == 1
    failed = {p["line"]: p for p in again.json()["probes"] if not p["passed"]}
    assert sorted(failed) == [6, 7, 28, 38, 39, 45, 79]
    assert failed[6]["detail"] == "no match"  # "workplace saved": its tombstone refuses it
    assert failed[7]["detail"].endswith("done")  # the task finished in the first run
    assert "recipe confirmed (same steps)" in failed[28]["detail"]  # saved once already
    passed = {p["line"] for p in again.json()["probes"] if p["passed"]}
    assert {66, 67, 80} <= passed  # forgotten stays forgotten, the name kept, within budget


def test_a_printed_next_step_names_the_command_as_it_was_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from memvisor.agent.cli.common import program

    venv = tmp_path / ".venv" / "bin"
    venv.mkdir(parents=True)
    (venv / "memvisor").write_text("#!/bin/sh\n")
    (venv / "memvisor").chmod(0o755)
    monkeypatch.setattr("sys.argv", [str(venv / "memvisor")])
    monkeypatch.setenv("PATH", str(tmp_path))
    assert program() == str(venv / "memvisor")  # not on PATH: the path that works
    monkeypatch.setenv("PATH", str(venv))
    assert program() == "memvisor"
    monkeypatch.setattr("sys.argv", ["/somewhere/__main__.py"])
    assert program() == "memvisor"


def test_eval_shows_its_bars_on_a_terminal(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tiny = str(Path(__file__).resolve().parent / "data" / "locomo_tiny.json")
    args = ["eval", "locomo", "--data", tiny, "--limit-conversations", "1", "--json"]
    piped = run_cli(capsys, *args, "--data-dir", str(tmp_path / "a"))
    assert piped.code == 0 and piped.err == ""
    monkeypatch.setenv("FORCE_COLOR", "1")
    shown = run_cli(capsys, *args, "--data-dir", str(tmp_path / "b"))
    assert shown.code == 0 and "synth-a" in shown.err and "synth-a" not in shown.out


def test_a_bench_table_piped_to_a_file_is_printed_whole(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from rich.table import Table

    from memvisor.agent.cli.tables import print_table

    monkeypatch.setenv("COLUMNS", "80")
    table = Table()
    cells = [f"{n:,.2f} / {n * 3:,.2f} ms" for n in (1234.5, 2345.6, 3456.7, 4567.8)]
    for name in ("measure", "embedded", "PostgreSQL", "target", "status"):
        table.add_column(name, no_wrap=True)
    table.add_row("hybrid search at 100,000 memories", *cells[:2], "p95 ≤ 50 ms", "missed")
    table.add_row("turn ingest at the target's size", *cells[2:], "≥ 1000 turns/s", "missed")
    print_table(table)
    out = capsys.readouterr().out
    assert all(cell in out for cell in cells) and "≥ 1000 turns/s" in out and "…" not in out
    assert max(len(line) for line in out.splitlines()) > 80
