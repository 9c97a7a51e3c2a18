"""Bots that play a seat through the API, and the loop that plays a seat to the end.

A bot is anything with ``choose(view, actions) -> move``: ``view`` is the seat's view of the game
(``GET /v1/games/{id}``), ``actions`` the seat's legal moves (``GET /v1/games/{id}/actions``).
The bots themselves are the rules package's (``impresario_rules``): the same functions the
engine plays its bot seats with, each with a random stream of its own here.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from impresario_rules.play import SEAT_BOTS, Bot, bot_names
from impresario_rules.play import make_bot as rules_bot
from impresario_rules.bots import THINK_MS, SeatBot
from impresario_rules.turandot.bots import GreedyBot, RandomBot
from impresario_rules.muzicando.search import hard_with as muzicando_hard_with
from impresario_rules.turandot.search import hard_with
from impresario_rules.wordjam.search import hard_with as wordjam_hard_with

from ._generated import models
from .client import Seat
from .errors import Conflict, PreconditionFailed

__all__ = ["Bot", "RandomBot", "GreedyBot", "HardBot", "SEARCHES", "make_bot", "bot_names",
           "with_round", "take_turn", "play_seat", "THINK_MS"]


#: the searching bots with a think budget, per ruleset: ``(think_ms, clock) -> play``
SEARCHES: dict[str, Callable[[float | None, Callable[[], float] | None], Any]] = {
    "turandot": hard_with,
    "wordjam": wordjam_hard_with,
    "muzicando": muzicando_hard_with,
}


class HardBot(SEAT_BOTS["turandot"]["hard"]):  # type: ignore[misc]
    """A ``hard`` bot with a think budget: at most ``think_ms`` milliseconds of this
    process's CPU time a decision (``None``: bounded only by the worlds it samples, and then
    reproducible from its ``seed``). Turandot's unless ``ruleset`` names another ruleset
    with a searching bot (:data:`SEARCHES`)."""

    def __init__(self, *, seed: int | None = None, think_ms: float | None = THINK_MS,
                 ruleset: str = "turandot") -> None:
        super().__init__(seed=seed)
        if ruleset not in SEARCHES:
            raise ValueError(f"no hard bot for {ruleset!r}; rulesets: {', '.join(SEARCHES)}")
        self.ruleset = ruleset
        self.think_ms = think_ms
        self._plain = SEAT_BOTS[ruleset]["hard"].play
        self._search = (SEARCHES[ruleset](think_ms, time.process_time)
                        if think_ms is not None else None)

    def choose(self, view: Any, actions: Any) -> Any:
        if self._search is None:
            return self._plain(view, actions, self.rng)
        return self._search(view, actions, self.rng)


def make_bot(name: str, seed: int | None = None, ruleset: str = "turandot",
             think_ms: float | None = None) -> SeatBot:
    """A bot of ``ruleset`` by level (``easy``, ``medium``, ``hard`` where the ruleset has one)
    or older name, with its own random stream (``seed``: reproducible). ``think_ms``: the think
    budget of a searching bot (a ``hard`` of :data:`SEARCHES`) in milliseconds of CPU a
    decision; without it the bot is bounded by the worlds it samples alone, and reproducible."""
    bot = rules_bot(name, seed=seed, ruleset=ruleset)
    if think_ms is not None and bot.name == "hard" and ruleset in SEARCHES:
        return HardBot(seed=seed, think_ms=think_ms, ruleset=ruleset)
    return bot


# ------------------------------------------------------------------------------ play loop
def with_round(move: dict[str, Any], view: models.Game) -> dict[str, Any]:
    """A bid stamped with the view's round (unless it has one), so it never lands in a later
    round; any other move as it is."""
    if move.get("type") == "bid" and "round" not in move and view["ruleset"] == "turandot" \
            and view["round"]:
        return {**move, "round": view["round"]}
    return move


def take_turn(seat: Seat, bot: Bot, view: models.Game | None = None) -> bool:
    """If the seat must act now, let the bot choose and move. Returns whether it moved.

    The move is sent with the version of the view the bot chose from (``If-Match``), so it
    applies to that situation or not at all: a choice made from an old view never lands in a
    later turn. When the game moved on first (412), the bot chooses again from a fresh view
    (each 412 means someone else's move or a deadline made progress, so this ends)."""
    view = view or seat.view()
    while view["status"] == "playing" and seat.is_my_turn(view):
        actions = seat.actions()
        if not actions["moves"]:
            return False
        # the bot contract is the rules': plain dicts (a bot may keep or change its own copy)
        move = with_round(bot.choose(dict(view), dict(actions)), view)
        try:
            seat.move(move, if_match=view["version"])
        except PreconditionFailed:
            sent, view = view["version"], seat.view()
            if view["version"] == sent:  # refused, yet nothing changed: do not spin
                return False
            continue
        except Conflict:
            return False  # a window closed or the phase changed: the caller re-reads
        return True
    return False


#: events after which the seat's turn cannot have come (someone else's sealed bid or cast)
_QUIET = {"bid_committed", "cast", "seat_taken", "deadline_passed", "helper_hired",
          "helper_missed", "slot_tied", "bids_revealed", "card_discarded", "dummy_received",
          "directors_removed", "round_ended"}


def play_seat(seat: Seat, bot: Bot,
              on_move: Callable[[models.Game], None] | None = None) -> models.Game:
    """Play ``seat`` with ``bot`` until the game is over; returns the final view.

    The seat follows the game's event stream (server-sent events) instead of polling: it reads
    the view again only after an event that can hand it a turn."""
    view = seat.view()
    if take_turn(seat, bot, view) and on_move is not None:
        on_move(seat.last_view or view)
    for event in seat.stream(after=view["last_seq"]):
        if event.type in _QUIET:
            continue
        view = seat.view()
        if view["status"] == "finished":
            break
        while take_turn(seat, bot, view):
            if on_move is not None:
                on_move(seat.last_view or view)
            view = seat.view()
    return seat.view()
