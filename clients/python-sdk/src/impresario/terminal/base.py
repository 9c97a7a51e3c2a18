"""What every ruleset's screen shares: names, choices with a default, the final score."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Callable, Sequence, TypeVar

from .._generated import models
from .._generated.operations import JSONObject
from .console import Console

#: what a screen's question answers: a move to send (the spec's, or the same as a plain dict)
Move = models.Move | JSONObject
T = TypeVar("T")


class Screen:
    """How one ruleset shows a game in the terminal and asks the player for moves.

    ``me`` is the player's seat (``None`` when watching). ``show`` draws the state when it changed
    in a way that matters (a new round or phase), ``events`` narrates what happened, ``ask``
    returns the player's move (``None``: the question no longer stands, ask again)."""

    ruleset = ""

    def __init__(self, console: Console, names: dict[int, str], me: int | None = None) -> None:
        self.console = console
        self.names = names
        self.me = me
        #: what the screen last drew (round and phase, turn...): drawn again when it changes
        self.shown: tuple[object, ...] | None = None
        self.told: set[str] = set()

    # -- helpers
    def out(self, line: str = "") -> None:
        self.console.out(line)

    def name(self, seat: int | None) -> str:
        if seat is None:
            return "nobody"
        if seat == self.me:
            return "you"
        return self.names.get(seat, f"seat {seat}")

    def once(self, key: str, text: str) -> None:
        """Explain something the first time it comes up only."""
        if key not in self.told:
            self.told.add(key)
            for line in text.splitlines():
                self.out(line)

    def remember(self, view: models.Game) -> None:
        for p in view["players"]:
            if p["name"]:
                self.names.setdefault(p["seat"], p["name"])

    def choose(self, prompt: str, options: Sequence[tuple[str, str, T]], default: T | None,
               deadline: float | None = None, changed: Callable[[], bool] | None = None
               ) -> T | None:
        """A choice among ``(key, label, value)`` options, typed by key (or by the label's
        first word); Enter takes ``default``. Returns ``None`` when the question lapsed."""
        shown = ", ".join(f"{key}) {label}" for key, label, _ in options)
        default_label = next((label for _k, label, v in options if v == default), None)
        suffix = f" [Enter: {default_label}] " if default_label else " "
        while True:
            raw = self.console.ask(f"{prompt} — {shown}{suffix}", deadline, changed)
            if raw is None:
                return None
            raw = raw.strip().lower()
            if not raw:
                return default
            for key, label, value in options:
                if raw == key.lower() or raw == label.lower() or raw == label.split()[0].lower():
                    return value
            self.out(f"  '{raw}' is not one of the choices; type its key.")

    # -- the screen proper
    def show(self, view: models.Game, actions: models.Actions | None = None,
             force: bool = False) -> None:
        raise NotImplementedError

    def events(self, events: Sequence[Mapping[str, Any]]) -> None:
        """Narrate what happened: a missed deadline alike in every ruleset, the rest by
        ``event``."""
        for e in events:
            who = self.name(e.get("seat"))
            if e["type"] == "deadline_passed":
                self.out(f"  {who} ran out of time: the engine plays the default")
            else:
                self.event(e["type"], e, who, "" if who == "you" else "s")

    def event(self, kind: str, e: Mapping[str, Any], who: str, s: str) -> None:
        """One event of the ruleset's own; ``who`` is the seat's name ("you" for the player),
        ``s`` the verb's ending that goes with it ("" for "you", "s" otherwise)."""
        raise NotImplementedError

    def ask(self, view: models.Game, actions: models.Actions, deadline: float | None,
            changed: Callable[[], bool] | None) -> Move | None:
        raise NotImplementedError

    def waiting(self, view: models.Game) -> str:
        """One line saying whom the game waits for."""
        pending = [p for p in view["pending"] if p["seat"] != self.me]
        if not pending:
            return ""
        who = ", ".join(self.name(p["seat"]) for p in pending)
        return f"  waiting for {who}…"

    def score(self, score: models.Score, lines: Sequence[str] | None = None) -> None:
        players = score["players"]
        keys = list(lines or (players[0]["lines"] if players else ()))
        width = max([9] + [len(k) + 2 for k in keys])
        self.out("\nFinal score:")
        self.out(f"  {'player':<16}" + "".join(f"{k:>{width}}" for k in keys) + f"{'total':>8}")
        for p in players:
            self.out(self.score_row(self.label(p["seat"]), p["lines"], p["total"], keys, width))
        self.extra_score(score, keys, width)
        winners = score["winners"]
        self.out("Winners: " + (", ".join(self.label(w) for w in winners) or "nobody"))

    def score_row(self, who: str, lines: Mapping[str, object], total: float, keys: Sequence[str],
                  width: int) -> str:
        """One row of the score table: the name, each line's points (0 if missing), the total."""
        return f"  {who:<16}" + "".join(f"{lines.get(k, 0):>{width}}" for k in keys) + f"{total:>8}"

    def extra_score(self, score: models.Score, keys: list[str], width: int) -> None:
        """Ruleset-specific lines under the score table."""

    def label(self, seat: int) -> str:
        name = self.names.get(seat, f"seat {seat}")
        return f"{name} (you)" if seat == self.me and name.lower() != "you" else name
