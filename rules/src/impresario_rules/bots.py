"""Bots: what chooses a seat's move when no person does.

A bot is a function ``play(view, actions, rng) -> move`` of what its seat sees and nothing
else: ``view`` is the seat's view of the game (``Ruleset.view(state, seat)``, the very dict a
player gets, with or without the service's envelope), ``actions`` the seat's actions as
``GET /v1/games/{id}/actions`` gives them (``{"seat", "pending", "moves", "default"}``, see
:func:`seat_actions`) and ``rng`` the bot's own random stream. It never receives the game's
state, so it cannot read a hand, a sealed bid or the deck.

The engine plays its bot seats with these functions (``Ruleset.bot_action``), drawing ``rng``
from the game's secret (:class:`~impresario_rules.base.BotRandom`); the SDK plays them over
HTTP or in process through :class:`SeatBot`, which carries a random stream of its own.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Callable, ClassVar

from .base import BotRandom

if TYPE_CHECKING:
    from .base import Ruleset

#: what a bot reads (and never changes): the plain dicts of the API, or a client's typed models
View = Mapping[str, Any]
Actions = Mapping[str, Any]
Move = dict[str, Any]
#: a bot: the move of the seat whose ``view`` and ``actions`` these are
Play = Callable[[View, Actions, random.Random], Move]


#: the think budget of a searching bot's decision a client gives by default, in milliseconds of
#: CPU time (the rules read no clock: without one, a search is bounded by the worlds it samples)
THINK_MS = 200


class Budget:
    """A search's think budget: ``think_ms`` milliseconds by ``clock`` (seconds, e.g.
    ``time.process_time``), counted from now. Without a clock (the rules' own bots) it never
    runs out: the search is bounded by the worlds it samples alone, and reproducible."""

    def __init__(self, think_ms: float | None, clock: Callable[[], float] | None) -> None:
        self.think_ms = think_ms
        self.clock = clock
        self.start = clock() if clock is not None else 0.0

    def spent(self, done: int) -> bool:
        """Whether one more world, after ``done`` of them, would most likely overrun it (a
        world costs about what the ones so far cost on average)."""
        return self.clock is not None and self.think_ms is not None \
            and (self.clock() - self.start) * 1000 >= self.think_ms * done / (done + 1)


def budgeted(search: Callable[..., Move], think_ms: float | None,
             clock: Callable[[], float] | None, doc: str | None, **fixed: Any) -> Play:
    """The searching bot ``search(view, actions, rng, think_ms=, clock=, **fixed)`` as a bot
    (``play(view, actions, rng)``) with that think budget."""
    def play(view: View, actions: Actions, rng: random.Random) -> Move:
        return search(view, actions, rng, think_ms=think_ms, clock=clock, **fixed)
    play.__doc__ = doc
    return play


def seat_actions(ruleset: "Ruleset", state: dict[str, Any], seat: int) -> Actions:
    """What ``GET /v1/games/{id}/actions`` answers a seat that must act: the kinds of move it
    must make, their action spaces and the move the engine would make for it."""
    return {"seat": seat, "pending": ruleset.pending(state).get(seat, []),
            "moves": ruleset.action_space(state, seat),
            "default": ruleset.default_action(state, seat)}


class SeatBot:
    """A bot with a random stream of its own, for clients: ``choose(view, actions)``.

    ``seed`` makes its choices reproducible; without one they come from the operating system's
    secure generator, so nothing public predicts them."""

    #: the bot's name among its ruleset's bots
    name: str = ""
    #: what it plays (a function of the seat's view, its actions and the random stream)
    play: ClassVar[Play]

    def __init__(self, *, seed: int | None = None) -> None:
        self.seed = seed
        key = f"seed:{seed}" if seed is not None else secrets.token_hex(16)
        self.rng: random.Random = BotRandom(key, "bot")

    def choose(self, view: View, actions: Actions) -> Move:
        return type(self).play(view, actions, self.rng)

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"{type(self).__name__}(seed={self.seed!r})"


def seat_bot(class_name: str, name: str, play: Play) -> type[SeatBot]:
    """A :class:`SeatBot` class called ``class_name`` that plays ``play`` under ``name``."""
    return type(class_name, (SeatBot,), {"name": name, "play": staticmethod(play),
                                         "__doc__": play.__doc__,
                                         "__module__": play.__module__})
