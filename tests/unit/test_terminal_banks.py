"""The terminal client in a turn-based game: hours and days at a prompt, and each player's time
bank beside whom the game waits for (a pending seat's drawn down past its move's own time)."""

from __future__ import annotations

from impresario import i18n
from impresario.terminal.console import ScriptedConsole, duration
from impresario.terminal.turandot import TurandotScreen

HOUR, DAY = 3600, 86400


def test_durations_read_as_days_hours_and_minutes():
    i18n.use("en")
    assert [duration(s) for s in (5, 59, 60, 3599, 3600, 3 * HOUR + 20 * 60, DAY,
                                  2 * DAY + 5 * HOUR + 59, -3)] == [
        "5 s", "59 s", "1 min", "59 min", "1 h 0 min", "3 h 20 min", "1 d 0 h", "2 d 5 h", "0 s"]
    i18n.use("it")
    try:
        assert duration(2 * DAY + 5 * HOUR) == "2 g 5 h"
    finally:
        i18n.use("en")


def test_the_waiting_line_shows_each_players_bank():
    lines: list[str] = []
    screen = TurandotScreen(ScriptedConsole(lambda prompt: "", lines.append),
                            {0: "you", 1: "Ada", 2: "Bruno"}, me=0)
    now = 1_000_000.0
    # Ada's turn began an hour and a half ago with a day in her bank and an hour a move:
    # half an hour of her bank is gone; Bruno is not to move: his bank stands as it was
    view = {"pending": [{"seat": 1, "kinds": ["bid"], "deadline": now - 1.5 * HOUR + HOUR + DAY}],
            "banks": [DAY, DAY, 2 * HOUR]}
    line = screen.waiting(view)  # type: ignore[arg-type]
    assert line.splitlines()[0] == "  waiting for Ada…"
    assert screen.banks(view, now) == "  time banks: you 1 d 0 h, Ada 23 h 30 min, Bruno 2 h 0 min"  # type: ignore[arg-type]
    assert screen.banks({"pending": [], "banks": None}, now) == ""  # type: ignore[arg-type]
