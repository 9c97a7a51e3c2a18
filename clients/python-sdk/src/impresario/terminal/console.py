"""Line input with a deadline for the terminal client.

Standard input is read straight from its file descriptor (never through Python's buffered
``sys.stdin``), so ``select`` tells the truth about a line being ready; that lets a prompt time
out when the game's window closes and give way when the game moves on while the player thinks.
A pipe works like a terminal: scripted input is read one line per prompt.
"""

from __future__ import annotations

import os
import select
import sys
import time
from typing import Callable, TextIO

from ..i18n import _

#: seconds left at which a prompt with a deadline says how long is left
REMINDERS = (60, 30, 10, 5)


def duration(seconds: float) -> str:
    """A time left as a player reads it: days and hours, hours and minutes, minutes, seconds."""
    s = max(0, int(seconds))
    d, h, m = s // 86400, s % 86400 // 3600, s % 3600 // 60
    if d:
        return _("{d} d {h} h").format(d=d, h=h)
    if h:
        return _("{h} h {m} min").format(h=h, m=m)
    if m:
        return _("{m} min").format(m=m)
    return _("{seconds} s").format(seconds=s)


class EndOfInput(Exception):
    """Standard input ended (Ctrl-D, or the end of a script) at a prompt."""


class Console:
    """Prompts and output. ``ask`` returns the line typed (without its newline), or ``None`` when
    the deadline passed or ``changed()`` said the question no longer stands.

    A line starting with ``?`` is not an answer when ``help`` is set: ``help`` gets the rest of
    the line (the rules, terminal/rules.py) and the question is asked again, its deadline
    unchanged."""

    #: what ``?`` at a prompt shows (``help(rest_of_the_line)``); ``None``: ``?`` is an answer
    help: Callable[[str], None] | None = None

    def __init__(self, stdin: int | None = None, stdout: TextIO | None = None,
                 clock: Callable[[], float] = time.time) -> None:
        self.fd = sys.stdin.fileno() if stdin is None else stdin
        self.stdout = stdout or sys.stdout
        self.clock = clock
        self._buffer = b""
        self._eof = False

    def out(self, line: str = "") -> None:
        self.stdout.write(line + "\n")
        self.stdout.flush()

    def _line(self) -> str | None:
        if b"\n" in self._buffer:
            line, self._buffer = self._buffer.split(b"\n", 1)
            return line.decode("utf-8", "replace").rstrip("\r")
        if self._eof:
            if self._buffer:
                line, self._buffer = self._buffer, b""
                return line.decode("utf-8", "replace")
            raise EndOfInput
        return None

    def _fill(self, timeout: float | None) -> None:
        try:
            ready, _, _ = select.select([self.fd], [], [], timeout)
        except (OSError, ValueError):  # no select on this stream (Windows): wait for the line;
            ready = [self.fd]          # the engine still plays the default when time runs out
        if ready:
            chunk = os.read(self.fd, 4096)
            if chunk:
                self._buffer += chunk
            else:
                self._eof = True

    def ask(self, prompt: str, deadline: float | None = None,
            changed: Callable[[], bool] | None = None, poll: float = 1.0) -> str | None:
        while True:
            line = self.read(prompt, deadline, changed, poll)
            if line is None or self.help is None or not line.strip().startswith("?"):
                return line
            self.help(line.strip()[1:])

    def read(self, prompt: str, deadline: float | None = None,
             changed: Callable[[], bool] | None = None, poll: float = 1.0) -> str | None:
        """One line typed at ``prompt`` (``ask`` without the rules)."""
        if deadline is not None:
            seconds = int(max(0, deadline - self.clock()))
            # a turn-based game's hours and days, as a player reads them
            shown = _("[{seconds} s]").format(seconds=seconds) if seconds < 120 else \
                "[" + duration(seconds) + "]"
            prompt = prompt + shown + " "
        self.stdout.write(prompt)
        self.stdout.flush()
        said = {r for r in REMINDERS if deadline is not None and deadline - self.clock() <= r}
        while True:
            line = self._line()
            if line is not None:
                return line
            timeout = None
            if deadline is not None:
                timeout = max(0.0, min(poll, deadline - self.clock()))
            elif changed is not None:
                timeout = poll
            self._fill(timeout)
            if self._buffer or self._eof:
                continue
            now = self.clock()
            if deadline is not None:
                left = deadline - now
                if left <= 0:
                    self.out("\n  " + _("time is up."))
                    return None
                due = [r for r in REMINDERS if left <= r and r not in said]
                if due:
                    said.update(due)
                    self.out("\n  " + _("{seconds} s left").format(seconds=int(left + 0.5)))
                    self.stdout.write(prompt.rsplit("[", 1)[0] if deadline else prompt)
                    self.stdout.flush()
            if changed is not None and changed():
                return None


class ScriptedConsole(Console):
    """A console fed by a function (tests, embedding): ``ask`` calls it with the prompt."""

    def __init__(self, answer: Callable[[str], str], out: Callable[[str], None]) -> None:
        self.answer = answer
        self.write = out
        self.clock = time.time

    def out(self, line: str = "") -> None:
        self.write(line)

    def read(self, prompt: str, deadline: float | None = None,
             changed: Callable[[], bool] | None = None, poll: float = 1.0) -> str | None:
        self.write(prompt)
        try:
            return self.answer(prompt)
        except EOFError:
            raise EndOfInput from None
