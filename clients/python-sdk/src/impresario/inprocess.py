"""Bots playing games against the rules in this process, without a server: for fast studies
(``impresario tournament --in-process``). The rules are the ``impresario_rules`` package the
SDK depends on (the engine plays with the same), so nothing more is needed.

Each bot gets what it would get over HTTP: the seat's view of the game (the rules' view with the
players' names and the game's envelope) and its actions with the default move. Seats that must
act move in seat order, as :func:`impresario.tournament.play_game` does, so a seeded game plays
out exactly as it does through a server with no deadline passing
(:func:`impresario_rules.play.play_bots`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from impresario_rules import Refusal
from impresario_rules.play import Bot, play_bots

from ._generated import models
from ._generated.operations import as_score
from .errors import IllegalMove


def play_game_in_process(bots: Sequence[Bot], seed: int, options: dict[str, Any] | None = None,
                         ruleset: str = "turandot") -> models.Score:
    """Play one seeded game with ``bots`` in seats 0..n-1; returns the score (as the API's).
    Options the ruleset refuses raise :class:`~impresario.errors.IllegalMove` with the rules'
    code, as the service would answer (422)."""
    try:
        score = play_bots(list(bots), seed, options, ruleset)
    except Refusal as err:
        raise IllegalMove(f"422 {err.code}: {err.message}", status=422, code=err.code,
                          detail=err.message) from None
    # the API's score is the rules' with the ruleset's name first (GET /v1/games/{id}/score)
    return as_score({"ruleset": ruleset, **score})
