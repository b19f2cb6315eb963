"""The chat's two ways to read the user: prompt_toolkit on a terminal, lines from a pipe.

Both hand each line to one ``Conversation``: a slash command, or a turn of the agent.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

import click
from prompt_toolkit import PromptSession
from prompt_toolkit.history import FileHistory

from memvisor.agent.loop import Agent
from memvisor.agent.streaming import AnswerStream
from memvisor.agent.turn import Turn
from memvisor.errors import MemvisorError, UserError
from memvisor.evals.transcripts import TranscriptWriter

from .chat_commands import context_table, run_command
from .chat_stream import Spinner, TerminalAnswer
from .common import emit_error

PROMPT = "you> "
LEAVE = ("/quit", "/exit")


@dataclass
class Conversation:
    """One chat session: the agent, what is recorded, and how each turn went."""

    agent: Agent
    writer: TranscriptWriter | None = None
    show_context: bool = False
    as_json: bool = False
    answered: int = 0
    failed: int = 0
    last_report: dict[str, Any] | None = None

    def command(self, line: str) -> None:
        try:
            said = run_command(line, self.agent, self.last_report)
        except MemvisorError as exc:
            emit_error(str(exc))
            return
        if self.as_json:  # stdout holds JSON only
            said = json.dumps({"command": line, "output": said}, ensure_ascii=False)
        click.echo(said)

    def turn(self, message: str, stream: AnswerStream | None = None) -> Turn:
        try:
            turn = self.agent.step(message, stream=stream)
        except UserError as exc:  # a message the agent cannot take (too long): the session goes on
            turn = Turn(answer="", trace_id="", user_event_id="", error=str(exc))
        self.answered += 1
        self.failed += turn.error is not None and not turn.cancelled
        if turn.context_reports:
            self.last_report = turn.context_reports[-1]
        # A transcript holds whole turns only: none cancelled, none refused before it began.
        if self.writer and not turn.cancelled and turn.user_event_id:
            self.writer.write({"type": "user", "content": message})
            for response in turn.responses:
                self.writer.write({"type": "assistant", **response})
        return turn

    def show_context_of(self, turn: Turn) -> None:
        """With --show-context, the budget table of each of the turn's requests, on stderr."""
        if self.show_context:
            for n, report in enumerate(turn.context_reports, 1):
                title = f"request {n} of {len(turn.context_reports)} of this turn"
                click.echo(context_table(report, title=title), err=True)

    def logged_message(self, turn: Turn) -> str | None:
        """The user's message as the event log keeps it (secrets sealed or masked)."""
        if not turn.user_event_id:  # refused before it was logged
            return None
        event = self.agent.store.events.get(turn.user_event_id, user_id=self.agent.user_id)
        return str(event.payload.get("content", "")) if event else None


class ChatHistory(FileHistory):
    """The lines typed, kept across sessions as the event log keeps them: a secret typed
    in a message is written sealed or masked, never in clear."""

    def store_string(self, string: str) -> None:
        """Nothing is written as typed; ``keep`` writes what the turn logged."""

    def keep(self, text: str) -> None:
        super().store_string(text)


def history_file(data_dir: str, user_id: str) -> Path:
    """The user's chat history in the data directory (user ids never hold a path separator)."""
    folder = Path(data_dir) / "chat_history"
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    path = folder / f"{user_id}.history"
    if not path.exists():
        os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))
    return path


def run_terminal(conversation: Conversation, *, history: Path) -> None:
    """The REPL: line editing and history; Ctrl-C stops a turn, Ctrl-D leaves."""
    kept = ChatHistory(str(history))
    session: PromptSession[str] = PromptSession(history=kept)
    while True:
        try:
            line = session.prompt(PROMPT).strip()
        except KeyboardInterrupt:  # at the prompt: the line is dropped, the session stays
            continue
        except EOFError:
            click.echo()  # the shell's prompt starts on a line of its own
            return
        if not line:
            continue
        if line in LEAVE:
            return
        if line.startswith("/"):
            kept.keep(line)
            with _ctrl_c_ignored():  # /forget writes: it runs whole or not at all
                conversation.command(line)
            continue
        _terminal_turn(conversation, line, kept)


@contextmanager
def _ctrl_c_ignored() -> Iterator[None]:
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.SIG_DFL if previous is None else previous)


def _terminal_turn(conversation: Conversation, line: str, kept: ChatHistory) -> None:
    out: TextIO = sys.stdout
    spinner = Spinner(sys.stderr) if sys.stderr.isatty() else None
    answer = TerminalAnswer(out, spinner)
    with answer.running():
        turn = conversation.turn(line, stream=answer)
    answer.finish(turn)
    conversation.show_context_of(turn)  # after the answer's last line, never inside it
    if turn.cancelled:
        click.echo("(cancelled: the session goes on)", err=True)
    elif turn.error:
        emit_error(turn.error)
    logged = conversation.logged_message(turn)
    if logged:
        kept.keep(logged)


def run_lines(conversation: Conversation, lines: TextIO) -> None:
    """One message (or slash command) per line, answers on stdout, errors on stderr."""
    for raw in lines:
        line = raw.strip()
        if not line:
            continue
        if line in LEAVE:
            return
        if line.startswith("/"):
            conversation.command(line)
            continue
        turn = conversation.turn(line)
        conversation.show_context_of(turn)
        _show(turn, conversation.as_json)


def _show(turn: Turn, as_json: bool) -> None:
    if turn.error:  # said once, on stderr; the answer text would only repeat it
        emit_error(turn.error)
    if as_json:
        click.echo(
            json.dumps(
                {
                    "answer": turn.answer,
                    "trace_id": turn.trace_id,
                    "tool_calls": [c.name for c in turn.tool_calls],
                    "memory_ids": turn.memory_ids,
                    "prompt_tokens": turn.prompt_tokens,
                    "error": turn.error,
                },
                ensure_ascii=False,
            )
        )
    elif not turn.error:
        click.echo(turn.answer)
