"""Players' use cases: an anonymous player made, a platform's user met, who a player credential
stands for, a player moved to another device by a one-time code."""

from __future__ import annotations

from typing import Callable

from ..store import GameStore
from ..table import names
from ..table.errors import UNAUTHENTICATED, Refused
from ..table.players import (ANONYMOUS, DEVICE_CODE_SECONDS, PLATFORM, Player, digest,
                             new_credential, new_device_code, new_player_id,
                             platform_player_id)


def _issue(store: GameStore, player: Player) -> str:
    token = new_credential()
    store.players.put_credential(digest(token), player.id)
    return token


def create(store: GameStore, name: str, clock: Callable[[], float]) -> tuple[Player, str]:
    """A new anonymous player named ``name`` and its credential (shown once)."""
    player = Player(new_player_id(), names.normalise(name), ANONYMOUS, round(clock(), 3))
    store.players.put(player.id, {"name": player.name, "kind": ANONYMOUS,
                                  "created": repr(player.created)})
    return player, _issue(store, player)


def of_credential(store: GameStore, token: str) -> Player:
    """The player a player credential stands for (401 ``invalid_player_token`` otherwise)."""
    player_id = store.players.holder(digest(token))
    record = store.players.get(player_id) if player_id else None
    if record is None:
        raise Refused("invalid_player_token", UNAUTHENTICATED,
                      "the bearer token is not a player's credential")
    return Player.of(player_id, record)


def of_platform(store: GameStore, issuer: str, subject: str, name: str | None,
                clock: Callable[[], float]) -> Player:
    """The player a host platform's user is; made the first time the user is seen, named by
    the token's name claim (else "Player"), and kept as it was made afterwards."""
    player_id = platform_player_id(issuer, subject)
    record = store.players.get(player_id)
    if record is None:
        try:
            shown = names.normalise(name or "Player")
        except Refused:
            shown = "Player"  # a platform's name the engine would refuse: the player renames
        store.players.put_new_fields(player_id, {
            "name": shown, "kind": PLATFORM, "issuer": issuer, "subject": subject,
            "created": repr(round(clock(), 3))})
        record = store.players.get(player_id) or {}
    return Player.of(player_id, record)


def device_code(store: GameStore, player: Player, clock: Callable[[], float]
                ) -> tuple[str, float]:
    """A one-time code that gives ``player`` to another device, and when it stops working."""
    while True:
        code = new_device_code()
        if store.players.put_code(digest(code), player.id, DEVICE_CODE_SECONDS):
            return code, round(clock() + DEVICE_CODE_SECONDS, 3)


def claim(store: GameStore, code: str) -> tuple[Player, str]:
    """The player a device code gives, with a credential of this device's own; the code is
    used up (401 ``invalid_device_code`` when unknown, used or expired)."""
    player_id = store.players.take_code(digest(code.strip().upper()))
    record = store.players.get(player_id) if player_id else None
    if record is None:
        raise Refused("invalid_device_code", UNAUTHENTICATED,
                      "the code is unknown, used already or expired")
    player = Player.of(player_id, record)
    return player, _issue(store, player)
