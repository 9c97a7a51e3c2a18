"""Bots that play a seat through the API, and the loop that plays a seat to the end.

A bot is anything with a ``name`` and ``choose(view, actions) -> move`` (:class:`Bot`): ``view``
is the seat's view of the game (``GET /v1/games/{id}``, a :data:`models.Game
<impresario.models.Game>`), ``actions`` the seat's legal moves (``GET /v1/games/{id}/actions``,
:class:`models.Actions <impresario.models.Actions>`), the move a :data:`models.Move
<impresario.models.Move>` or the same as plain JSON. A bot of one ruleset narrows both: a
:data:`TurandotBase` subclass reads a ``models.TurandotGame`` and returns a
``models.TurandotMove``. :class:`BaseBot` adds hooks for a bot that keeps state between turns:
``on_start``, ``on_event`` and ``on_end``, called by every play loop (:func:`play_seat`,
:func:`impresario.play_game`, :func:`impresario.play_game_in_process`, tournaments).

The shipped bots are the rules package's (``impresario_rules``): the same functions the engine
plays its bot seats with, each with a random stream of its own here; each is a :class:`Bot`
like any other (it reads the view and actions as mappings and returns a move as JSON).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, Generic, Protocol, TypeAlias, TypeVar

from impresario_rules.play import SEAT_BOTS, bot_names
from impresario_rules.play import make_bot as rules_bot
from impresario_rules.bots import THINK_MS, SeatBot
from impresario_rules.turandot.bots import GreedyBot, RandomBot
from impresario_rules.muzicando.search import hard_with as muzicando_hard_with
from impresario_rules.turandot.search import hard_with
from impresario_rules.wordjam.search import hard_with as wordjam_hard_with

from ._generated import models
from ._generated.operations import (JSONObject, as_muzicando_move, as_turandot_move,
                                     as_word_jam_move)
from .client import Seat, with_round
from .errors import Conflict, PreconditionFailed
from .events import Event

__all__ = ["Bot", "AnyBot", "BaseBot", "TurandotBase", "WordJamBase", "MuzicandoBase",
           "RandomBot", "GreedyBot", "HardBot", "SEARCHES", "make_bot", "bot_names",
           "with_round", "take_turn", "play_seat", "THINK_MS"]

#: the view a bot reads (contravariant: a bot of one ruleset reads that ruleset's view)
ViewT = TypeVar("ViewT", contravariant=True)
#: the move a bot returns (covariant: a bot of one ruleset returns that ruleset's moves)
MoveT = TypeVar("MoveT", covariant=True)


class Bot(Protocol[ViewT, MoveT]):
    """What plays a seat: a ``name`` (the tournament's reports say it) and ``choose``, called
    only when the seat must act, with the seat's view and actions as they stand; returning
    ``actions["default"]`` is always legal. ``Bot[models.TurandotGame, models.TurandotMove]``
    is a Turandot bot; the play loops take any :data:`AnyBot`."""

    name: str

    def choose(self, view: ViewT, actions: models.Actions) -> MoveT: ...


#: a bot the play loops take: of any ruleset, on the typed models or on plain JSON
AnyBot: TypeAlias = "Bot[Any, models.Move | JSONObject]"


class BaseBot(Generic[ViewT, MoveT]):
    """A bot to subclass when it keeps state between turns: every play loop calls the hooks
    (each does nothing here), and ``choose`` is the one method to write.

    - ``on_start(view)``: the game has started; the seat's first view.
    - ``on_event(event)``: each event the seat may see (:class:`~impresario.Event`, its
      ``data`` a :data:`models.Event <impresario.models.Event>`), in order, before the
      ``choose`` that follows it. Over HTTP these are the game's events as the seat's stream
      gives them; in process the rules' events as the seat may see them, numbered from 1
      (the table's own ``seat_taken`` and ``game_started`` come over HTTP only).
    - ``on_end(view, score)``: the game is over; the seat's last view and the score.

    A loop reads the events for ``on_event`` only when a subclass defines it."""

    name: str = "bot"

    def choose(self, view: ViewT, actions: models.Actions) -> MoveT:
        raise NotImplementedError(f"{type(self).__name__} must define choose(view, actions)")

    def on_start(self, view: ViewT) -> None:
        """The game has started: the seat's first view."""

    def on_event(self, event: Event) -> None:
        """An event the seat may see, before the decision that follows it."""

    def on_end(self, view: ViewT, score: models.Score) -> None:
        """The game is over: the seat's last view and the score."""


class TurandotBase(BaseBot[models.TurandotGame, models.TurandotMove]):
    """The base of a Turandot bot: ``choose(view: models.TurandotGame, actions) ->
    models.TurandotMove``."""

    def default(self, actions: models.Actions) -> models.TurandotMove:
        """The move the engine would play for the seat now: always legal."""
        return as_turandot_move(actions.get("default"))


class WordJamBase(BaseBot[models.WordJamGame, models.WordJamMove]):
    """The base of a Word Jam bot: ``choose(view: models.WordJamGame, actions) ->
    models.WordJamMove``."""

    def default(self, actions: models.Actions) -> models.WordJamMove:
        """The move the engine would play for the seat now: always legal."""
        return as_word_jam_move(actions.get("default"))


class MuzicandoBase(BaseBot[models.MuzicandoGame, models.MuzicandoMove]):
    """The base of a Muzicando bot: ``choose(view: models.MuzicandoGame, actions) ->
    models.MuzicandoMove``."""

    def default(self, actions: models.Actions) -> models.MuzicandoMove:
        """The move the engine would play for the seat now: always legal."""
        return as_muzicando_move(actions.get("default"))


def hook(bot: object, name: str) -> Callable[..., None] | None:
    """``bot``'s hook ``name`` (``on_start``, ``on_event``, ``on_end``) when it has one of its
    own (a :class:`BaseBot` subclass that defines it, or any bot with such a method), else
    None: a loop does no work for a hook nobody wrote."""
    found = getattr(bot, name, None)
    if not callable(found) or getattr(type(bot), name, None) is getattr(BaseBot, name):
        return None
    own: Callable[..., None] = found
    return own


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
def take_turn(seat: Seat, bot: AnyBot, view: models.Game | None = None) -> bool:
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
        # each decision gets its own copy of the view (a bot may keep or change it)
        move = bot.choose(view.copy(), actions)
        try:
            seat.move(move, if_match=view["version"], view=view)
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


def play_seat(seat: Seat, bot: AnyBot,
              on_move: Callable[[models.Game], None] | None = None) -> models.Game:
    """Play ``seat`` with ``bot`` until the game is over; returns the final view. The bot's
    hooks (:class:`BaseBot`) are called: ``on_start`` first, ``on_event`` for each event of
    the seat's stream, ``on_end`` with the final view and the score.

    The seat follows the game's event stream (server-sent events) instead of polling: it reads
    the view again only after an event that can hand it a turn."""
    view = seat.view()
    start, seen, end = hook(bot, "on_start"), hook(bot, "on_event"), hook(bot, "on_end")
    if start is not None:
        start(view)
    after, told = view["last_seq"], 0

    def tell(upto: int | None) -> int:
        """Give the hook the events it has not had (those up to ``upto``, or all)."""
        if seen is None:
            return told
        last = told
        for missed in seat.events(after=told):
            if upto is not None and missed["seq"] > upto:
                break
            last = missed["seq"]
            seen(Event(missed["seq"], missed["type"], missed))
        return last

    told = tell(after)  # what happened before the loop began, as the stream would give it
    if take_turn(seat, bot, view) and on_move is not None:
        on_move(seat.last_view or view)
    for event in seat.stream(after=after):
        if seen is not None and event.seq > told:
            told = event.seq
            seen(event)
        if event.type in _QUIET:
            continue
        view = seat.view()
        if view["status"] == "finished":
            break
        while take_turn(seat, bot, view):
            if on_move is not None:
                on_move(seat.last_view or view)
            view = seat.view()
    final = seat.view()
    told = tell(None)  # the game may have ended between two events of the stream
    if end is not None:
        end(final, seat.score())
    return final
