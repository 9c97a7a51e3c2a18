"""Bots playing games against the rules in this process, without a server: for fast studies
(``impresario tournament --in-process``) and for trying a bot before it meets the engine. The
rules are the ``impresario_rules`` package the SDK depends on (the engine plays with the same),
so nothing more is needed.

Each bot gets what it would get over HTTP: the seat's view of the game (the rules' view with the
players' names and the game's envelope) and its actions with the default move. Seats that must
act move in seat order, as :func:`impresario.tournament.play_game` does, so a seeded game plays
out exactly as it does through a server with no deadline passing
(:func:`impresario_rules.play.play_bots`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from impresario_rules import RULESETS, Refusal
from impresario_rules.play import play_bots

from ._generated import models
from ._generated.operations import as_actions, as_event, as_score
from .bots import AnyBot, hook
from .errors import IllegalMove
from .events import Event


class _Seated:
    """A bot as the rules' loop calls it: plain dicts in, a plain dict out; the actions are
    checked and typed as the API's (``models.Actions``) on the way in."""

    def __init__(self, bot: AnyBot) -> None:
        self.bot = bot
        self.name = bot.name

    def choose(self, view: dict[str, Any], actions: dict[str, Any]) -> dict[str, Any]:
        return dict(self.bot.choose(view, as_actions(actions)))


class _Hooks:
    """Calls the bots' hooks from the rules' loop: ``on_start`` after the deal, ``on_event``
    with each event as the seat may see it (numbered from 1), ``on_end`` with the last view."""

    def __init__(self, bots: Sequence[AnyBot], ruleset: str) -> None:
        self.rules = RULESETS[ruleset]
        self.start = [hook(bot, "on_start") for bot in bots]
        self.seen = [hook(bot, "on_event") for bot in bots]
        self.end = [hook(bot, "on_end") for bot in bots]
        self.seq = 0
        self.view_of: Callable[[int], dict[str, Any]] | None = None

    def wanted(self) -> bool:
        return any(h is not None for h in (*self.start, *self.seen, *self.end))

    def __call__(self, events: list[dict[str, Any]],
                 view_of: Callable[[int], dict[str, Any]]) -> None:
        if self.view_of is None:
            for seat, start in enumerate(self.start):
                if start is not None:
                    start(view_of(seat))
        self.view_of = view_of
        for event in events:
            self.seq += 1
            for seat, seen in enumerate(self.seen):
                if seen is not None:
                    data = as_event({"seq": self.seq, **self.rules.redact_event(event, seat)})
                    seen(Event(self.seq, data["type"], data))

    def finish(self, score: models.Score) -> None:
        for seat, end in enumerate(self.end):
            if end is not None and self.view_of is not None:
                end(self.view_of(seat), score)


def play_game_in_process(bots: Sequence[AnyBot], seed: int,
                         options: dict[str, Any] | None = None,
                         ruleset: str = "turandot") -> models.Score:
    """Play one seeded game with ``bots`` in seats 0..n-1, here, against the rules; returns
    the score (as the API's ``GET /v1/games/{id}/score``). The same seed and bots play the same
    game as :func:`impresario.play_game` through a server. The bots' hooks
    (:class:`~impresario.BaseBot`) are called as the play loops over HTTP call them. Options
    the ruleset refuses raise :class:`~impresario.errors.IllegalMove` with the rules' code, as
    the service would answer (422)."""
    hooks = _Hooks(bots, ruleset)
    try:
        score = play_bots([_Seated(bot) for bot in bots], seed, options, ruleset,
                          watch=hooks if hooks.wanted() else None)
    except Refusal as err:
        raise IllegalMove(f"422 {err.code}: {err.message}", status=422, code=err.code,
                          detail=err.message) from None
    # the API's score is the rules' with the ruleset's name first (GET /v1/games/{id}/score)
    final = as_score({"ruleset": ruleset, **score})
    hooks.finish(final)
    return final
