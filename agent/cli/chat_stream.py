"""One turn on the terminal: a spinner until the first piece of the answer, the pieces
printed as they arrive, and Ctrl-C stopping the turn (never the session)."""

from __future__ import annotations

import itertools
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import TextIO

from memvisor.agent.streaming import AnswerStream
from memvisor.agent.turn import Turn
from memvisor.errors import TurnCancelled

CANCELLED = "cancelled with Ctrl-C"
_FRAMES = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"


class Spinner:
    """A turning mark on one line of ``out`` until ``stop`` (which erases it)."""

    def __init__(self, out: TextIO, label: str = "thinking", *, interval: float = 0.1) -> None:
        self._out = out
        self._label = label
        self._interval = interval
        self._done = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._thread = threading.Thread(target=self._turn, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        if self._thread is None or self._done.is_set():
            return
        self._done.set()
        self._thread.join()
        self._out.write("\r\x1b[K")
        self._out.flush()

    def _turn(self) -> None:
        for frame in itertools.cycle(_FRAMES):
            self._out.write(f"\r{frame} {self._label}")
            self._out.flush()
            if self._done.wait(self._interval):
                return


class TerminalAnswer(AnswerStream):
    """Shows one turn's answer as it is written and turns Ctrl-C into ``TurnCancelled``.

    Ctrl-C while the model is being waited for cuts the wait at once (no store write runs
    there); pressed while tools run, it stops the turn before the next model request, so a
    write is never cut halfway.
    """

    def __init__(self, out: TextIO, spinner: Spinner | None = None) -> None:
        self._out = out
        self._spinner = spinner
        self._shown = ""
        self._requested = False
        self._interruptible = False

    def text(self, piece: str) -> None:
        self._stop_spinner()
        self._out.write(piece)
        self._out.flush()
        self._shown += piece

    def discard(self) -> None:
        if self._shown:
            self._out.write("\n")  # what the model said while calling tools stays above
            self._shown = ""

    @contextmanager
    def waiting(self) -> Iterator[None]:
        if self._requested:
            raise TurnCancelled(CANCELLED)
        self._interruptible = True
        try:
            yield
        except KeyboardInterrupt:
            raise TurnCancelled(CANCELLED) from None
        finally:
            self._interruptible = False

    def interrupt(self, _signum: int, _frame: FrameType | None) -> None:
        """The SIGINT handler while the turn runs."""
        self._requested = True
        if self._interruptible:
            self._interruptible = False  # a second Ctrl-C is not a second exception
            raise KeyboardInterrupt

    @contextmanager
    def running(self) -> Iterator[None]:
        """The turn's time: the spinner turns and Ctrl-C cancels the turn only."""
        if self._spinner:
            self._spinner.start()
        main = threading.current_thread() is threading.main_thread()
        previous = signal.signal(signal.SIGINT, self.interrupt) if main else None
        try:
            yield
        finally:
            if main:
                signal.signal(signal.SIGINT, signal.SIG_DFL if previous is None else previous)
            self._stop_spinner()

    def finish(self, turn: Turn) -> None:
        """Settle on the turn's answer: print what of it the pieces did not show."""
        if turn.error:  # said on stderr by the caller; end a line the pieces began
            if self._shown:
                self._out.write("\n")
        elif self._shown and turn.answer.startswith(self._shown):
            self._out.write(turn.answer[len(self._shown) :] + "\n")
        else:
            self._out.write(("\n" if self._shown else "") + turn.answer + "\n")
        self._out.flush()

    def _stop_spinner(self) -> None:
        if self._spinner:
            self._spinner.stop()
