"""Creating a game: an open game with every seat free and nothing dealt, its host token (and for a private game
its spectator and join tokens), each shown once and stored hashed."""

from __future__ import annotations

import logging
import secrets
from typing import Any


from impresario_rules import RULESETS

from ..store import StoreError
from ..table.access import HOST, new_game_id, new_token, token_hash
from ..table.clock import PACE, split_options, with_pace
from ..table.errors import BUSY, INVALID, NOT_FOUND, Refused
from ..table.views import game_view
from . import idempotency, upkeep
from .unit import Answer, Engine, insert, load

log = logging.getLogger("impresario_engine.create")


def create_game(engine: Engine, ruleset_name: str, players: int, seed: int | None,
                options: dict[str, Any] | None, private: bool = False,
                idempotency_key: str | None = None, fingerprint: str = "", client: str = "",
                host_player: str | None = None, rated: bool | None = None,
                platform: str | None = None) -> Answer:
    """A new open game: ``{"game", "host_token", "spectator_token", "spectator_link",
    "join_token", "join_link"}`` (the game as its host sees it; the spectator's and the
    joiner's credentials only for a private game, each shown once and stored hashed). With an
    ``idempotency_key`` (``client``: the caller's address), the creation is planned first
    (:func:`~.idempotency.planned_create`): a retry gets the same game and credentials, the
    game as it is then. Created by a player (``host_player``: its id), the game is among the
    player's games, and the host's seat is the player's. ``rated`` (None: the default, rated
    when public) is kept only when given. ``platform``: the trusted issuer whose user created
    it (its operator webhooks then cover the game); the game notifies (its writes fill the
    outbox) when an operator's webhook covers it from the start."""
    ruleset = RULESETS.get(ruleset_name)
    if ruleset is None:
        raise Refused("ruleset_not_found", NOT_FOUND,
                      f"there is no ruleset {ruleset_name!r}; available: "
                      f"{', '.join(sorted(RULESETS))}")
    if not ruleset.min_players <= players <= ruleset.max_players:
        raise Refused("invalid_players", INVALID,
                      f"{ruleset.title} is for {ruleset.min_players} to {ruleset.max_players} "
                      f"players, not {players}")
    options, pace = with_pace(options, ruleset)
    core_options, settings = split_options(options, ruleset)
    settings["private"] = bool(private)
    if pace is not None:
        settings[PACE] = pace
    if rated is not None:
        settings["rated"] = rated
    seeded = seed is not None
    if seed is None:
        seed = secrets.randbits(63)
    # the game as its seats are taken: nothing hidden is drawn until it starts (record.start)
    state, events = ruleset.setup(players, core_options, seed)
    fields = {"ruleset": ruleset.name, "players": players, "seed": seed, "seeded": seeded,
              "options": core_options, "settings": settings}
    if host_player is not None:
        fields["host_player"] = host_player
    if platform is not None:
        fields["platform"] = platform
    if idempotency_key is None and host_player is None:
        plan, before = _plan(private, None), False
        made = insert(engine, {**fields, **_hashes(plan), "seats": [], "state": state}, events)
    elif idempotency_key is None:
        made = None
        for _ in range(5):  # the id picked here: the player's games name it before it exists
            plan, before = _plan(private, new_game_id()), False
            engine.store.players.note_game(host_player, plan["game"], engine.clock())
            made = insert(engine, {**fields, **_hashes(plan), "seats": [], "state": state},
                          events, game_id=plan["game"])
            if made is not None:
                break
        if made is None:
            raise Refused("id_collision", BUSY, "could not allocate a game id; try again")
    else:
        planned = idempotency.planned_create(engine, idempotency_key, fingerprint, client,
                                             lambda: _plan(private, new_game_id()))
        if isinstance(planned, Answer):
            return planned
        plan, before = planned
        if host_player is not None:
            engine.store.players.note_game(host_player, plan["game"], engine.clock())
        made = insert(engine, {**fields, **_hashes(plan), "seats": [], "state": state}, events,
                      game_id=plan["game"])
        if made is None:  # made already, by this key's first request
            loaded = load(engine, plan["game"])
            if loaded.doc.get("host") != token_hash(plan["host_token"]):
                raise Refused("id_collision", BUSY, "could not allocate a game id; try again "
                              "with a new Idempotency-Key")
            made, before = (loaded.version, loaded.doc), True
    assert made is not None
    version, doc = made
    _sweep_a_little(engine)
    view = game_view(doc, version, None, HOST.viewer, engine.clock())
    return Answer({"game": view, **_credentials(plan, doc["id"])}, replayed=before)


def _plan(private: bool, game_id: str | None) -> dict[str, Any]:
    """A creation's id (None: the store picks one) and credentials: the host's token, and for
    a private game the spectator's and the joiner's, and the links that carry them."""
    plan = {"game": game_id, "host_token": new_token(),
            "spectator_token": new_token() if private else None,
            "join_token": new_token() if private else None}
    return {**plan, **_credentials(plan, game_id)} if game_id else plan


def _hashes(plan: dict[str, Any]) -> dict[str, Any]:
    """What the game keeps of a plan's credentials: their hashes."""
    return {"host": token_hash(plan["host_token"]),
            "spectator": token_hash(plan["spectator_token"]) if plan["spectator_token"] else None,
            "joiner": token_hash(plan["join_token"]) if plan["join_token"] else None}


def _credentials(plan: dict[str, Any], game_id: str) -> dict[str, Any]:
    """The answer's credentials, and the links that carry them."""
    spectator, join = plan["spectator_token"], plan["join_token"]
    return {"host_token": plan["host_token"], "spectator_token": spectator,
            "spectator_link": f"/v1/games/{game_id}?spectator={spectator}" if spectator else None,
            "join_token": join,
            "join_link": f"/v1/games/{game_id}/seats?join={join}" if join else None}


def _sweep_a_little(engine: Engine) -> None:
    """Where the list of games grows, a creation drops a couple of expired games from it, so it
    stays bounded even without the reaper (which does the rest)."""
    try:
        upkeep.sweep(engine, upkeep.SWEEP_ON_CREATE, abandon=False)
    except (StoreError, Refused) as exc:  # the game is created all the same
        log.warning("sweeping the list of games failed: %s", exc)
