"""What every ruleset's screen shares: names, choices with a default, the final score."""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any, Callable, Sequence, TypeVar

from .._generated import models
from .._generated.operations import JSONObject
from ..i18n import N_, _, pgettext
from .console import Console, duration

#: what a screen's question answers: a move to send (the spec's, or the same as a plain dict)
Move = models.Move | JSONObject
T = TypeVar("T")
#: the engine's bot levels, as the table names them
BOT_LEVELS = {"easy": N_("easy"), "medium": N_("medium"), "hard": N_("hard")}


def indented(text: str) -> str:
    """Each line of ``text`` two spaces in, as the screen's explanations are."""
    return "\n".join("  " + line for line in text.splitlines())


def named(names: Mapping[str, str], key: str | None) -> str:
    """``key``'s name from ``names`` in the player's language (the key itself if unknown)."""
    return _(names[key]) if key is not None and key in names else str(key)


def and_list(items: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``: a list as the player's language says it."""
    if len(items) < 2:
        return "".join(items)
    return _("{first} and {last}").format(first=", ".join(items[:-1]), last=items[-1])


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
        #: the form the last prompt expects, said again when the engine refuses the answer
        self.hint = ""

    # -- helpers
    def out(self, line: str = "") -> None:
        self.console.out(line)

    def name(self, seat: int | None) -> str:
        if seat is None:
            return _("nobody")
        if seat == self.me:
            return _("you")
        return self.names.get(seat, _("seat {n}").format(n=seat))

    def object_name(self, seat: int | None) -> str:
        """A seat's name after a preposition ("between you and Ada": Italian "te", German
        "dir"), where the language's "you" changes."""
        if seat is not None and seat == self.me:
            return pgettext("after a preposition", "you")
        return self.name(seat)

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
        suffix = " " + _("[Enter: {choice}]").format(choice=default_label) + " " \
            if default_label else " "
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
            self.out("  " + _("'{typed}' is not one of the choices; type its key.").format(
                typed=raw))

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
                self.says(e, _("you ran out of time: the engine plays the default"),
                          _("{who} ran out of time: the engine plays the default"))
            else:
                self.event(e["type"], e, who, "" if self.mine(e) else "s")

    def mine(self, e: Mapping[str, Any]) -> bool:
        """Whether event ``e`` is the player's own (its seat is the player's)."""
        return self.me is not None and e.get("seat") == self.me

    def says(self, e: Mapping[str, Any], mine: str, theirs: str, **values: object) -> None:
        """Narrate ``e``: ``mine`` when it is the player's own, else ``theirs``, whose ``{who}``
        is the seat's name (each language words the two its own way)."""
        text = mine if self.mine(e) else theirs
        self.out("  " + text.format(who=self.name(e.get("seat")), **values))

    def event(self, kind: str, e: Mapping[str, Any], who: str, s: str) -> None:
        """One event of the ruleset's own; ``who`` is the seat's name ("you" for the player),
        ``s`` the English verb's ending that goes with it ("" for "you", "s" otherwise): a
        translated sentence says the two apart with :meth:`says`."""
        raise NotImplementedError

    def ask(self, view: models.Game, actions: models.Actions, deadline: float | None,
            changed: Callable[[], bool] | None) -> Move | None:
        raise NotImplementedError

    def waiting(self, view: models.Game) -> str:
        """One line saying whom the game waits for (and, in a turn-based game, each player's
        time bank)."""
        pending = [p for p in view["pending"] if p["seat"] != self.me]
        if not pending:
            return ""
        who = ", ".join(self.name(p["seat"]) for p in pending)
        line = "  " + _("waiting for {who}…").format(who=who)
        banks = self.banks(view)
        return f"{line}\n{banks}" if banks else line

    def banks(self, view: models.Game, now: float | None = None) -> str:
        """A turn-based game's time banks, one line: each player's now (a pending seat's drawn
        down once its move's own time is over); empty for a game without them."""
        banks: Sequence[float] | None = view.get("banks")  # type: ignore[assignment]
        if not banks:
            return ""
        now = time.time() if now is None else now
        due = {p["seat"]: p["deadline"] for p in view["pending"]}
        left = []
        for s, bank in enumerate(banks):
            deadline = due.get(s)
            left.append(bank if deadline is None else min(bank, max(0.0, deadline - now)))
        return "  " + _("time banks: {banks}").format(banks=", ".join(
            f"{self.name(s)} {duration(b)}" for s, b in enumerate(left)))

    def score(self, score: models.Score, lines: Sequence[str] | None = None) -> None:
        players = score["players"]
        keys = list(lines or (players[0]["lines"] if players else ()))
        heads = [self.line_name(k) for k in keys]
        width = max([9] + [len(h) + 2 for h in heads])
        self.out("\n" + _("Final score:"))
        player, total = _("player"), _("total")
        self.out(f"  {player:<16}" + "".join(f"{h:>{width}}" for h in heads) + f"{total:>8}")
        for p in players:
            self.out(self.score_row(self.label(p["seat"]), p["lines"], p["total"], keys, width))
        self.extra_score(score, keys, width)
        winners = score["winners"]
        self.out(_("Winners:") + " " + (", ".join(self.label(w) for w in winners)
                                        or _("nobody")))

    def score_row(self, who: str, lines: Mapping[str, object], total: float, keys: Sequence[str],
                  width: int) -> str:
        """One row of the score table: the name, each line's points (0 if missing), the total."""
        return f"  {who:<16}" + "".join(f"{lines.get(k, 0):>{width}}" for k in keys) + f"{total:>8}"

    def line_name(self, key: str) -> str:
        """A score line's heading in the player's language (the ruleset's screen knows its
        lines; the key itself otherwise)."""
        return key

    def extra_score(self, score: models.Score, keys: list[str], width: int) -> None:
        """Ruleset-specific lines under the score table."""

    def label(self, seat: int) -> str:
        name = self.names.get(seat, _("seat {n}").format(n=seat))
        if seat == self.me and name.lower() != _("you").lower():
            return _("{name} (you)").format(name=name)
        return name
