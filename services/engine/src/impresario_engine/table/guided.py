"""A guided game (option ``guided: true``; docs/api.md): a newcomer's first game against bots,
each step told by the rules package's guide (``impresario_rules.guide``).

What the table does differently, and only in such a game: no deadline ever runs against a
player's seat (a seat without a bot), and the bots wait while a player's seat must act: a bot
whose move could close the window the player is reading (a Word Jam Open Sesame, a Turandot round
resolved by the last bid) moves only once the player has. No deadlock follows: a seat that must
act always has a move (each window has its pass: no_call, no_challenge, thief_pass, a default
bid), and once the player has acted the bots move as in any game.
"""

from __future__ import annotations

from typing import Any

from .errors import INVALID, Refused

GUIDED = "guided"


def take_guided(core: dict[str, Any], settings: dict[str, Any]) -> None:
    """Move the option ``guided`` from the ruleset's options (``core``) to the service's
    ``settings``: kept only when true; anything but a boolean is refused."""
    if GUIDED not in core:
        return
    value = core.pop(GUIDED)
    if type(value) is not bool:
        raise Refused("invalid_guided", INVALID, "guided must be true or false",
                      errors={"options": {GUIDED: ["not a boolean"]}})
    if value:
        settings[GUIDED] = True


def is_guided(doc: dict[str, Any]) -> bool:
    return bool(doc["settings"].get(GUIDED))


def players_pending(doc: dict[str, Any], pending: dict[int, list[str]]) -> bool:
    """Whether a player's seat (not a bot's) must act in ``pending``."""
    seats = doc["seats"]
    return any(not seats[s].get("bot") for s in pending)
