"""``memvisor chat`` on a terminal, driven through the CLI with prompt_toolkit's pipe input."""

from __future__ import annotations

import importlib
import io
import json
import os
import signal
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from memvisor.agent.cli.chat_stream import Spinner, TerminalAnswer
from memvisor.agent.models.base import AssistantTurn, ReplyStream
from memvisor.agent.turn import Turn
from memvisor.errors import TurnCancelled
from memvisor.storage import Store
from tests.cli_helpers import Result, run_cli
from tests.fake_ollama import FakeOllama

# The module, not the ``chat`` command the package re-exports under the same name.
chat_module = importlib.import_module("memvisor.agent.cli.chat")
DEMO = Path(__file__).resolve().parents[1] / "evals" / "data" / "demo_long_session.jsonl"
CTRL_C, CTRL_D, UP, LEFT = "\x03", "\x04", "\x1b[A", "\x1b[D"


@pytest.fixture
def terminal(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Any]:
    """Run ``memvisor chat`` as if typed at a terminal: keys in, the CLI's output captured."""
    monkeypatch.setattr(chat_module, "stdin_is_terminal", lambda: True)

    def typed(capsys: pytest.CaptureFixture[str], keys: str, *args: str) -> Result:
        with create_pipe_input() as pipe, create_app_session(input=pipe, output=DummyOutput()):
            pipe.send_text(keys)
            return run_cli(
                capsys, "chat", "--data-dir", str(tmp_path / "d"), "--user", "maya",
                "--num-ctx", "4096", *args,
            )  # fmt: skip

    return typed


def ollama(fake: FakeOllama, monkeypatch: pytest.MonkeyPatch) -> tuple[str, str]:
    monkeypatch.setenv("OLLAMA_HOST", fake.host)
    return "--model", "ollama:qwen2.5:7b"


def last_user_message(fake: FakeOllama) -> str:
    return str(fake.chat_bodies()[-1]["messages"][-1]["content"])


def test_an_answer_streams_and_ctrl_d_leaves_cleanly(
    terminal, capsys, fake_ollama: FakeOllama, monkeypatch, tmp_path: Path
) -> None:
    fake_ollama.reply({"content": "Oslo is lovely in spring."})
    result = terminal(capsys, "I live in Oslo\r" + CTRL_D, *ollama(fake_ollama, monkeypatch))
    assert result.code == 0, result.err
    assert result.out == "Oslo is lovely in spring.\n\n"  # the answer, then Ctrl-D's newline
    assert fake_ollama.chat_bodies()[0]["stream"] is True
    assert "/help for commands" in result.err and "error" not in result.err


class ShowsThenReleases(io.TextIOBase):
    """stdout that lets the held server go on once ``needle`` is on screen."""

    def __init__(self, inner: Any, needle: str, release: threading.Event) -> None:
        self.inner, self.needle, self.release = inner, needle, release

    def write(self, text: str) -> int:
        if self.needle in text:
            self.release.set()
        return int(self.inner.write(text))

    def flush(self) -> None:
        self.inner.flush()


def test_pieces_are_on_screen_before_the_model_has_finished(
    terminal, capsys, fake_ollama: FakeOllama, monkeypatch
) -> None:
    release = threading.Event()
    fake_ollama.reply({"content": "Oslo is lovely in spring.", "hold": release})
    monkeypatch.setattr("sys.stdout", ShowsThenReleases(sys.stdout, "Oslo", release))
    result = terminal(capsys, "I live in Oslo\r" + CTRL_D, *ollama(fake_ollama, monkeypatch))
    assert result.code == 0, result.err
    assert fake_ollama.holds == [True]  # the first piece was shown while the server held
    assert result.out == "Oslo is lovely in spring.\n\n"


def test_line_editing_and_ctrl_c_at_the_prompt(
    terminal, capsys, fake_ollama: FakeOllama, monkeypatch
) -> None:
    fake_ollama.reply("Hi.")
    keys = "dropped line" + CTRL_C + "Hllo" + LEFT * 3 + "e\r" + CTRL_D
    result = terminal(capsys, keys, *ollama(fake_ollama, monkeypatch))
    assert result.code == 0, result.err
    assert len(fake_ollama.chat_bodies()) == 1 and last_user_message(fake_ollama) == "Hello"


def test_history_is_kept_across_sessions_per_user_with_secrets_masked(
    terminal, capsys, fake_ollama: FakeOllama, monkeypatch, tmp_path: Path
) -> None:
    secret = "sk-proj-" + "Ab3dE6gH9jK2mN5pQ8sT1vW4yZ7" * 2
    fake_ollama.reply("One.", "Two.", "Three.")
    model = ollama(fake_ollama, monkeypatch)
    first = terminal(capsys, f"where is my desk\rmy key is {secret}\r" + CTRL_D, *model)
    assert first.code == 0, first.err
    again = terminal(capsys, UP + UP + "\r" + CTRL_D, *model)  # two lines back: the desk
    assert again.code == 0, again.err
    assert last_user_message(fake_ollama) == "where is my desk"
    kept = (tmp_path / "d" / "chat_history" / "maya.history").read_text()
    assert "where is my desk" in kept and "my key is" in kept and secret not in kept
    assert oct((tmp_path / "d" / "chat_history" / "maya.history").stat().st_mode)[-3:] == "600"


def test_slash_commands_help_memory_context_and_forget(
    terminal, capsys, fake_ollama: FakeOllama, monkeypatch, tmp_path: Path
) -> None:
    remember = {"subject": "Maya", "predicate": "lives_in", "object": "Oslo"}
    fake_ollama.reply({"tool_calls": [{"name": "fact_remember", "arguments": remember}]}, "Noted.")
    model = ollama(fake_ollama, monkeypatch)
    before = terminal(capsys, "/context\rI live in Oslo\r/help\r/memory\r/context\r" + CTRL_D,
                      *model)  # fmt: skip
    assert before.code == 0, before.err
    out = before.out
    assert "no model request yet" in out and "Noted." in out and "/forget ID" in out
    assert "1 fact(s)" in out and "Maya | lives_in | Oslo" in out
    table = out[out.rindex("context of the last model request") :]
    assert "window 4096" in table and "section" in table and "total" in table
    assert "{" not in table  # a table, not JSON
    with Store.open(tmp_path / "d", embedder="hash") as store:
        (fact,) = store.facts.list(user_id="maya")
    keys = f"/forget {fact.id}\r/memory\r/forget\r/nope\r/forget fct_nope\r" + CTRL_D
    after = terminal(capsys, keys, *model)
    assert after.code == 0, after.err
    assert len(after.err.splitlines()) == 4  # the banner, then one line per bad command
    assert f"forgot {fact.id}: removed" in after.out and "0 fact(s)" in after.out
    assert "error: /forget takes one record id" in after.err
    assert "error: unknown command /nope: /help lists them" in after.err
    with Store.open(tmp_path / "d", embedder="hash") as store:
        assert store.facts.list(user_id="maya") == []
        commands = store.events.list(user_id="maya", kinds=["user_command"])
        assert [e.payload.get("command") for e in commands][-1] == "chat /forget"


class BlocksUntilCancelled:
    """A model whose first reply never comes: it waits until Ctrl-C cuts the wait."""

    name = "blocking"
    context_length = 4096

    def __init__(self) -> None:
        self.started = threading.Event()
        self.calls = 0

    def chat(self, messages: Any, tools: Any, options: Any = None) -> AssistantTurn:
        raise AssertionError("the REPL streams")

    def stream(self, messages: Any, tools: Any, options: Any = None) -> ReplyStream:
        self.calls += 1
        if self.calls == 1:
            yield "Once upon"
            self.started.set()
            never = threading.Event()
            never.wait(timeout=60)  # SIGINT ends this wait long before
            raise AssertionError("Ctrl-C did not cancel the turn")
        yield "Still here."
        return AssistantTurn(content="Still here.")


def test_ctrl_c_cancels_the_running_turn_only(
    terminal, capsys, monkeypatch, tmp_path: Path
) -> None:
    model = BlocksUntilCancelled()
    monkeypatch.setattr(chat_module, "model_from_name", lambda *a, **k: model)

    def press_ctrl_c() -> None:
        if model.started.wait(timeout=60):
            os.kill(os.getpid(), signal.SIGINT)

    presser = threading.Thread(target=press_ctrl_c, daemon=True)
    presser.start()
    result = terminal(capsys, "tell me a story\rare you there?\r" + CTRL_D)
    presser.join()
    assert result.code == 0, result.err
    assert result.out == "Once upon\nStill here.\n\n"
    assert "(cancelled: the session goes on)" in result.err
    with Store.open(tmp_path / "d", embedder="hash") as store:
        answers = store.events.list(user_id="maya", kinds=["assistant_message"])
        assert [a.payload["content"] for a in answers] == ["(cancelled)", "Still here."]
        errors = store.events.list(user_id="maya", kinds=["error"])
        assert [e.payload["kind"] for e in errors] == ["TurnCancelled"]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_show_context_prints_tables_on_stderr(
    capsys, fake_ollama: FakeOllama, monkeypatch, tmp_path: Path
) -> None:
    fake_ollama.reply("Hi.")
    monkeypatch.setenv("OLLAMA_HOST", fake_ollama.host)
    monkeypatch.setattr("sys.stdin", io.StringIO("hello\n"))
    result = run_cli(capsys, "chat", "--model", "ollama:qwen2.5:7b", "--num-ctx", "4096",
                     "--show-context", "--data-dir", str(tmp_path / "d"))  # fmt: skip
    assert result.code == 0 and result.out == "Hi.\n"
    assert "[context]" not in result.err
    assert "context of request 1 of 1 of this turn: window 4096" in result.err
    assert any(line.startswith("total ") for line in result.err.splitlines())


def test_a_piped_turn_whose_prompt_cannot_fit_fails_once_and_exits_1(
    capsys, fake_ollama: FakeOllama, monkeypatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("OLLAMA_HOST", fake_ollama.host)
    monkeypatch.setattr("sys.stdin", io.StringIO("x" * 5000 + "\n"))
    result = run_cli(capsys, "chat", "--model", "ollama:qwen2.5:7b", "--num-ctx", "256",
                     "--data-dir", str(tmp_path / "d"), "--json")  # fmt: skip
    assert result.code == 1
    (line,) = result.out.splitlines()
    said = json.loads(line)["error"]
    assert said and result.err.count(said) == 1
    assert result.err.splitlines()[-1] == "error: 1 of 1 turns failed (each said above)"


def test_an_over_long_message_is_refused_and_the_session_goes_on(
    capsys, fake_ollama: FakeOllama, monkeypatch, tmp_path: Path
) -> None:
    fake_ollama.reply("Fine.")
    monkeypatch.setenv("OLLAMA_HOST", fake_ollama.host)
    monkeypatch.setattr("sys.stdin", io.StringIO("word " * 30_000 + "\nhello\n"))
    result = run_cli(capsys, "chat", "--model", "ollama:qwen2.5:7b",
                     "--data-dir", str(tmp_path / "d"), "--user", "maya")  # fmt: skip
    assert result.out == "Fine.\n"  # the next message was answered
    assert "the message is 149,999 characters; the limit is 100,000" in result.err  # stripped
    assert "Traceback" not in result.err
    assert result.code == 1  # a script still sees that one message went unanswered
    with Store.open(tmp_path / "d", embedder="hash") as store:
        said = store.events.list(user_id="maya", kinds=["user_message"])
    assert [e.payload["content"] for e in said] == ["hello"]


def test_a_piped_stream_error_is_one_line_and_exit_1(
    capsys, fake_ollama: FakeOllama, monkeypatch, tmp_path: Path
) -> None:
    fake_ollama.reply({"status": 500, "error": "llama runner died"}, "Fine.")
    monkeypatch.setenv("OLLAMA_HOST", fake_ollama.host)
    monkeypatch.setattr("sys.stdin", io.StringIO("one\ntwo\n"))
    result = run_cli(capsys, "chat", "--model", "ollama:qwen2.5:7b",
                     "--data-dir", str(tmp_path / "d"))  # fmt: skip
    assert result.code == 1 and result.out == "Fine.\n"
    assert result.err.count("llama runner died") == 1 and len(result.err.splitlines()) == 2


class Recorder(io.StringIO):
    def __init__(self) -> None:
        super().__init__()
        self.wrote = threading.Event()

    def write(self, text: str) -> int:
        self.wrote.set()
        return super().write(text)


def test_the_spinner_turns_until_stopped_and_erases_itself() -> None:
    out = Recorder()
    spinner = Spinner(out, "thinking")
    spinner.start()
    assert out.wrote.wait(timeout=30)
    spinner.stop()
    spinner.stop()  # a second stop is harmless
    text = out.getvalue()
    assert text.startswith("\r") and "thinking" in text and text.endswith("\r\x1b[K")


@pytest.mark.parametrize(
    ("pieces", "answer", "printed"),
    [
        (["Hel", "lo"], "Hello", "Hello\n"),
        (["Hel"], "Hello", "Hello\n"),  # the rest the pieces did not show
        (["plan"], "Answer.", "plan\nAnswer.\n"),  # what showed was not the answer
        ([], "Whole.", "Whole.\n"),  # a model that does not stream
    ],
)
def test_the_terminal_settles_on_the_turns_answer(
    pieces: list[str], answer: str, printed: str
) -> None:
    out = io.StringIO()
    view = TerminalAnswer(out)
    for piece in pieces:
        view.text(piece)
    view.finish(Turn(answer=answer, trace_id="trc_x", user_event_id="evt_x"))
    assert out.getvalue() == printed


def test_ctrl_c_while_tools_run_stops_the_turn_at_the_next_model_request() -> None:
    view = TerminalAnswer(io.StringIO())
    view.interrupt(signal.SIGINT, None)  # outside a wait: nothing is cut, it is noted
    with pytest.raises(TurnCancelled), view.waiting():
        raise AssertionError("the model is not asked again")


def test_piped_slash_commands_keep_stdout_json(capsys, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("/help\n/forget\n"))
    result = run_cli(capsys, "chat", "--model", "replay:" + str(DEMO), "--json",
                     "--data-dir", str(tmp_path / "d"))  # fmt: skip
    assert result.code == 0, result.err
    (said,) = [json.loads(line) for line in result.out.splitlines()]
    assert said["command"] == "/help" and "/forget ID" in said["output"]
    assert result.err.strip() == "error: /forget takes one record id, e.g. /forget fct_…"
