"""README's examples run: its Python blocks, and its memory commands against a scratch store."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path
from typing import Any

import pytest

from tests.cli_helpers import run_cli

README = Path(__file__).resolve().parent.parent / "README.md"


def blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", README.read_text(), flags=re.S)


@pytest.mark.parametrize("index", range(len(blocks("python"))))
def test_python_examples_run(
    index: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    exec(compile(blocks("python")[index], f"README python block {index + 1}", "exec"), {})
    if "print(" in blocks("python")[index]:
        assert capsys.readouterr().out.strip()


def test_the_memory_api_example_prints_what_it_says(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (example,) = [b for b in blocks("python") if "Memory.open" in b]
    exec(compile(example, "README memory example", "exec"), {})
    found, fits = capsys.readouterr().out.splitlines()
    assert found == "turn True True"
    assert fits.startswith("True ## Long-term memory")


# Every command line of README's sh blocks runs, in README order, against a scratch store;
# these are the only ones that do not, and why.
NEEDS_A_MODEL_SERVER = (
    "ollama pull",
    "vllm serve",
    "memvisor chat",  # every chat example talks to Ollama or an OpenAI-compatible server
    'echo "I live in Oslo" | memvisor chat',
    "--model ollama:",
    "--model openai:",
    "--answer-model",
)
RUNS_UNTIL_STOPPED = (  # tests/test_mcp.py, test_rest.py, test_local_postgres.py drive these
    "memvisor mcp",
    "memvisor serve",
    "memvisor postgres",
    "curl ",
)
WRAPS_THE_OTHERS = ("make demo", "make test")  # the demo's replays run here; test is this suite
# The benchmarks, scaled down to seconds: the same commands with smaller numbers.
SCALED: dict[tuple[str, ...], dict[str, str]] = {
    ("bench", "storage"): {"--sizes": "200", "--queries": "2", "--writes": "5", "--turns": "20",
                           "--embedder": "hash"},
    ("bench", "paging"): {"--memories": "200", "--queries": "2", "--embedder": "hash"},
    ("bench", "startup"): {"--memories": "40", "--runs": "1", "--embedder": "hash"},
    ("bench", "text"): {"--sizes": "800,1600", "--limit": "3200"},
    ("bench", "serve"): {"--clients": "1", "--seconds": "0.5", "--users": "2"},
    ("bench", "chaos"): {"--trials": "1", "--fuzz": "30", "--fault": "fuzzed tool calls"},
}  # fmt: skip
# Scaled only where README gives them: one server process on PostgreSQL, not 2 and 4.
SCALED_IF_GIVEN: dict[tuple[str, ...], dict[str, str]] = {("bench", "serve"): {"--workers": "1"}}
ROOT = README.parent
TRANSCRIPT = str(ROOT / "evals" / "data" / "demo_long_session.jsonl")


def command_lines() -> list[str]:
    """Each command of README's sh blocks, comments dropped."""
    lines = []
    for block in blocks("sh"):
        for line in block.splitlines():
            line = re.sub(r"\s+#.*$", "", line).strip()
            if line and not line.startswith("#"):
                lines.append(line)
    return lines


def skip_reason(line: str) -> str | None:
    for reason, needles in (
        ("needs a live model server", NEEDS_A_MODEL_SERVER),
        ("runs a server until stopped", RUNS_UNTIL_STOPPED),
        ("wraps commands tested here", WRAPS_THE_OTHERS),
    ):
        if any(needle in line for needle in needles):
            return reason
    return None


def expand_optional(line: str) -> str:
    """``[--a X | --b]`` -> ``--a X``; ``--kind fact|passage`` -> ``--kind fact``."""
    line = re.sub(r"\[([^\]]*)\]", lambda m: m.group(1).split(" | ")[0], line)
    return " ".join(t.split("|")[0] if t.startswith(("fact|", "ranked|")) else t
                    for t in line.split(" "))  # fmt: skip


class Scratch:
    """The ids and files README's placeholders stand for, made on first use."""

    def __init__(self, tmp: Path, capsys: pytest.CaptureFixture[str]) -> None:
        self.tmp, self.capsys = tmp, capsys
        self.fact_id: str | None = None
        self.replay_dir = tmp / "replay-dir"
        self.url: str | None = None  # the PostgreSQL store, asked for on first use

    def run(self, *args: str) -> Any:
        return run_cli(self.capsys, *args)

    def trace_id(self) -> str:
        where = ["--data-dir", str(self.replay_dir), "--user", "demo", "--json"]
        hits = self.run("memory", "search", "order", "--mode", "fts", *where).json()["hits"]
        return str(hits[0]["trace_id"])

    def secret_id(self) -> str:
        added = self.run("memory", "add", "--text", "Remember the allotment gate code is 4471",
                         "--json").json()  # fmt: skip
        return re.search(r"sec_\w+", added["text"]).group(0)  # type: ignore[union-attr]

    def held_id(self) -> str:
        """A claim the model made that the user never did: held until the user confirms."""
        from memvisor import Memory
        from memvisor.errors import WriteHeld
        from memvisor.storage import resolve_data_dir

        claim = {"subject": "user", "predicate": "health_condition", "object": "diabetes"}
        with Memory.open(resolve_data_dir(None)) as memory, pytest.raises(WriteHeld) as held:
            asked = [{"role": "user", "content": "What should I cook tonight?"}]
            memory.write("fact_remember", claim, user_id="default", origin="model", context=asked)
        return held.value.quarantine_id

    def archived_id(self) -> str:
        from datetime import timedelta

        from memvisor.storage import ManualClock, Store, resolve_data_dir

        passage = self.run("memory", "add", "--text", "Old note: the shed key is blue", "--json")
        home = resolve_data_dir(None)
        with Store.open(home, embedder="hash") as store:
            later = ManualClock(store.clock.now() + timedelta(days=400))
        with Store.open(home, embedder="hash", clock=later) as store:
            store.prune(
                user_id="default", older_than=timedelta(days=90), unused=False, trace_id="trc_r"
            )
        return str(passage.json()["id"])

    def substitute(self, args: list[str]) -> list[str]:
        out: list[str] = []
        for arg in args:
            if arg == "FILE":
                arg = TRANSCRIPT
            elif arg == "DIR":
                arg = str(self.replay_dir)
            elif arg == "trc_…":
                arg = self.trace_id()
            elif arg == "sec_…":
                arg = self.secret_id()
            elif arg == "qtn_…":
                arg = self.held_id()
            elif arg == "ID..." or (arg == "ID" and args[:2] == ["memory", "restore"]):
                arg = self.archived_id()
            elif arg == "ID":
                assert self.fact_id, "README shows a fact id before `memory add` made one"
                arg = self.fact_id
            elif arg.startswith(("evals/", "tests/")):
                arg = str(ROOT / arg)
            out.append(arg)
        return out


def test_every_command_of_the_readme_runs(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    request: pytest.FixtureRequest,
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "locomo10.json").write_text((ROOT / "tests" / "data" / "locomo_tiny.json")
                                            .read_text())  # fmt: skip
    (tmp_path / "writes.jsonl").write_text(json.dumps({"id": "w1", "user_id": "maya",
        "tool": "fact_remember", "source": "user", "arguments": {"subject": "maya",
        "predicate": "lives_in", "object": "Oslo"}}) + "\n")  # fmt: skip
    (tmp_path / "firewall.json").write_text(json.dumps({"semantic_margin_user_words": 0.08}))
    scratch = Scratch(tmp_path, capsys)
    ran, skipped = [], []
    for line in command_lines():
        if skip_reason(line):
            skipped.append(line)
            continue
        command = expand_optional(line)
        inner = re.fullmatch(r'eval "\$\((.*)\)"', command)
        command = inner.group(1) if inner else command
        redirect = None
        if " > " in command:
            command, redirect = command.split(" > ")
        words = shlex.split(command)
        env = {}
        while words and re.fullmatch(r"[A-Z_]+=\S+", words[0]):
            name, value = words.pop(0).split("=", 1)
            env[name] = value
        assert words[0] == "memvisor", f"not a memvisor command, and not listed: {line}"
        args = scratch.substitute(words[1:])
        if "$URL" in args:  # the PostgreSQL store's URL: the test server's, made empty
            url = scratch.url = scratch.url or request.getfixturevalue("postgres_url")
            args = [url if arg == "$URL" else arg for arg in args]
        for key, value in SCALED.get(tuple(args[:2]), {}).items():
            if key in args:
                del args[args.index(key) : args.index(key) + 2]
            args += [key, value]
        for key, value in SCALED_IF_GIVEN.get(tuple(args[:2]), {}).items():
            if key in args:
                args[args.index(key) + 1] = value
        with monkeypatch.context() as scoped:
            for name, value in env.items():
                scoped.setenv(name, value)
            result = run_cli(capsys, *args)
        assert result.code == 0, f"README: {line}\n{result.err}"
        assert result.out.strip() or result.err.strip(), f"README: {line} printed nothing"
        if redirect:
            (tmp_path / Path(redirect).name).write_text(result.out)
        if args[:3] == ["memory", "add", "--subject"]:
            scratch.fact_id = result.out.split()[0]
        ran.append(line)
    assert len(ran) >= 30 and any(line.startswith("memvisor bench serve") for line in ran)
    # what is skipped is only what the lists above name (a new skip is a decision, not a slip)
    reasons = [skip_reason(line) for line in skipped]
    assert reasons.count("needs a live model server") == 9 and len(skipped) == 17
    assert (tmp_path / "maya.json").is_file() and (tmp_path / "report.html").is_file()
