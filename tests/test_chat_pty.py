"""``memvisor chat`` in a real pseudo-terminal: the keys a person presses, the real SIGINT."""

from __future__ import annotations

import os
import pty
import select
import sys
import threading
from pathlib import Path

import pytest

from tests.fake_ollama import FakeOllama

PROMPT = "you>"  # drawn as "you>" and a cursor move, not a space

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pty")


class Terminal:
    """A child process on a pty: type into it, read what it shows."""

    def __init__(self, argv: list[str], env: dict[str, str]) -> None:
        pid, fd = pty.fork()
        if pid == 0:  # the child: the pty is its controlling terminal
            os.execve(argv[0], argv, env)
        self.pid, self.fd = pid, fd
        self.screen = ""

    def type(self, keys: str) -> None:
        os.write(self.fd, keys.encode())

    def shows(self, needle: str, *, after: int = 0) -> int:
        """Read until ``needle`` is on screen past ``after``; its end. The deadline only
        guards against a hang; nothing is timed."""
        while (found := self.screen.find(needle, after)) < 0:
            ready, _, _ = select.select([self.fd], [], [], 60)
            assert ready, f"{needle!r} never showed; the screen: {self.screen[-2000:]!r}"
            try:
                self.screen += os.read(self.fd, 4096).decode(errors="replace")
            except OSError as closed:  # the child closed the terminal
                raise AssertionError(
                    f"exited before {needle!r}: {self.screen[-2000:]!r}"
                ) from closed
        return found + len(needle)

    def exit_code(self) -> int:
        while True:  # drain, so the child never blocks writing its last words
            try:
                rest = os.read(self.fd, 4096)
            except OSError:  # Linux: EIO once the child has closed the terminal
                break
            if not rest:
                break
            self.screen += rest.decode(errors="replace")
        _, status = os.waitpid(self.pid, 0)
        return os.waitstatus_to_exitcode(status)


def test_a_session_at_a_real_terminal(fake_ollama: FakeOllama, tmp_path: Path) -> None:
    held = threading.Event()
    fake_ollama.reply({"content": "Once upon a time", "hold": held}, "Fine, here.", "Again.")
    memvisor = str(Path(sys.executable).with_name("memvisor"))
    env = {**os.environ, "OLLAMA_HOST": fake_ollama.host, "TERM": "xterm",
           "PROMPT_TOOLKIT_NO_CPR": "1"}  # fmt: skip
    argv = [memvisor, "chat", "--model", "ollama:qwen2.5:7b", "--num-ctx", "4096",
            "--data-dir", str(tmp_path / "d"), "--user", "maya"]  # fmt: skip
    term = Terminal(argv, env)
    try:
        at = term.shows(PROMPT)
        term.type("tell me a story\r")
        at = term.shows("Once", after=at)  # streamed while the server still holds the rest
        term.type("\x03")  # Ctrl-C: the tty sends SIGINT, the turn stops, the session stays
        at = term.shows("(cancelled: the session goes on)", after=at)
        at = term.shows(PROMPT, after=at)
        term.type("are you thre" + "\x1b[D" * 2 + "e\x1b[F" + "?\r")  # edit the line
        at = term.shows("Fine, here.", after=at)
        at = term.shows(PROMPT, after=at)
        term.type("\x1b[A\r")  # the last line again, from history
        at = term.shows("Again.", after=at)
        at = term.shows(PROMPT, after=at)
        term.type("\x04")  # Ctrl-D leaves
        code = term.exit_code()
    finally:
        held.set()
    assert code == 0, term.screen[-2000:]
    asked = [b["messages"][-1]["content"] for b in fake_ollama.chat_bodies()]
    assert asked == ["tell me a story", "are you there?", "are you there?"]
    kept = (tmp_path / "d" / "chat_history" / "maya.history").read_text()
    assert "tell me a story" in kept and "are you there?" in kept
    assert term.screen.endswith("\r\n")  # the shell's prompt starts on a fresh line
    assert "thinking" in term.screen  # stderr is the terminal: the spinner turned
