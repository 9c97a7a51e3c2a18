"""Bots playing games against the engine's rules in this process, without a server: for fast
studies (``impresario tournament --in-process``). Needs the engine package (``impresario_engine``)
installed beside the SDK; the SDK itself never requires it.

Each bot gets what it would get over HTTP: the seat's view of the game (the rules' view with the
players' names and the game's envelope) and its action space with the default move. Seats that
must act move in seat order, as :func:`impresario.tournament.play_game` does, so a seeded game
plays out exactly as it does through a server with no deadline passing.
"""

from __future__ import annotations

from typing import Any

from .bots import Bot, with_round
from .errors import IllegalMove


class EngineMissing(RuntimeError):
    """The engine package is not installed in this environment."""


def rulesets() -> dict[str, Any]:
    try:
        from impresario_engine.games import RULESETS
    except ImportError as exc:
        raise EngineMissing(
            "playing in process needs the engine package (impresario_engine) in this Python "
            "environment: install it with 'pip install ./services/engine' from the repository, "
            "or play over HTTP against a running engine (leave out --in-process)") from exc
    return dict(RULESETS)


def play_game_in_process(bots: list[Bot], seed: int, options: dict[str, Any] | None = None,
                         ruleset: str = "turandot") -> dict[str, Any]:
    """Play one seeded game with ``bots`` in seats 0..n-1; returns the score (as the API's)."""
    from impresario_engine.games import RulesError

    rules = rulesets()[ruleset]
    try:
        state, _ = rules.new_game(len(bots), dict(options or {}), seed)
    except RulesError as err:  # as the service would answer: 422 with the rules' code
        raise IllegalMove(f"422 {err.code}: {err.message}", status=422, code=err.code,
                          detail=err.message) from None
    names = [f"{bot.name}-{i}" for i, bot in enumerate(bots)]
    version = 1
    while not rules.is_finished(state):
        for seat in sorted(rules.pending(state)):
            kinds = rules.pending(state).get(seat)
            if not kinds:
                continue  # an earlier seat's move ended this seat's turn
            view = _view(rules, state, seat, names, version)
            actions = {"seat": seat, "pending": kinds, "moves": rules.action_space(state, seat),
                       "default": rules.default_action(state, seat)}
            move = with_round(bots[seat].choose(view, actions), view)
            state, _ = rules.apply(state, seat, move)
            version += 1
    return rules.score(state)


def _view(rules: Any, state: Any, seat: int, names: list[str], version: int) -> dict[str, Any]:
    core = rules.view(state, seat)
    for player in core.get("players", ()):
        player["name"] = names[player["seat"]]
        player["bot"] = None
    out: dict[str, Any] = {"id": "in-process", "ruleset": rules.name, "version": version,
                           "status": "playing", "seats_taken": len(names),
                           "seats_total": len(names), "private": False, "move_seconds": None}
    out.update(core)
    return out
