"""Creating a game: an open game with every seat free and nothing dealt, its host token (and for a private game
its spectator and join tokens), each shown once and stored hashed."""

from __future__ import annotations

import logging
import secrets
from typing import Any


from impresario_rules import RULESETS

from ..store import StoreError
from ..table.access import HOST, new_token, token_hash
from ..table.clock import split_options
from ..table.errors import INVALID, NOT_FOUND, Refused
from ..table.views import game_view
from . import upkeep
from .unit import Engine, insert

log = logging.getLogger("impresario_engine.create")


def create_game(engine: Engine, ruleset_name: str, players: int, seed: int | None,
                options: dict[str, Any] | None, private: bool = False
                ) -> tuple[dict[str, Any], str, str | None, str | None]:
    """A new open game: ``(its view, the host token, the spectator token, the join token)``;
    the last two only for a private game (each shown once, stored hashed)."""
    ruleset = RULESETS.get(ruleset_name)
    if ruleset is None:
        raise Refused("ruleset_not_found", NOT_FOUND,
                      f"there is no ruleset {ruleset_name!r}; available: "
                      f"{', '.join(sorted(RULESETS))}")
    if not ruleset.min_players <= players <= ruleset.max_players:
        raise Refused("invalid_players", INVALID,
                      f"{ruleset.title} is for {ruleset.min_players} to {ruleset.max_players} "
                      f"players, not {players}")
    core_options, settings = split_options(options, ruleset)
    settings["private"] = bool(private)
    seeded = seed is not None
    if seed is None:
        seed = secrets.randbits(63)
    # the game as its seats are taken: nothing hidden is drawn until it starts (record.start)
    state, events = ruleset.setup(players, core_options, seed)
    host_token = new_token()
    spectator_token = new_token() if private else None
    join_token = new_token() if private else None
    version, doc = insert(engine, {
        "ruleset": ruleset.name, "players": players, "seed": seed, "seeded": seeded,
        "options": core_options, "settings": settings,
        "host": token_hash(host_token),
        "spectator": token_hash(spectator_token) if spectator_token else None,
        "joiner": token_hash(join_token) if join_token else None,
        "seats": [], "state": state}, events)
    _sweep_a_little(engine)
    return (game_view(doc, version, None, HOST.viewer, engine.clock()), host_token,
            spectator_token, join_token)


def _sweep_a_little(engine: Engine) -> None:
    """Where the list of games grows, a creation drops a couple of expired games from it, so it
    stays bounded even without the reaper (which does the rest)."""
    try:
        upkeep.sweep(engine, upkeep.SWEEP_ON_CREATE, abandon=False)
    except (StoreError, Refused) as exc:  # the game is created all the same
        log.warning("sweeping the list of games failed: %s", exc)
