"""Seats: taken, free or held, and how a game's list of seats changes.

A game's ``seats`` is a list, one entry per seat number, each ``{"name", "token", "bot"}``
(``token`` the hash of the seat's bearer token). Besides taken seats it may hold:

- a **free** seat (``name`` None): left by a player before the start; the next player who joins
  takes the lowest free seat, so nobody's seat number changes when someone leaves;
- a **held** seat (``"from"``: the hash of a player's token in the finished game, ``"until"``):
  a rematch's seat kept for that player until ``until``; after that, if still unclaimed, it is a
  free seat for anyone (and its player can still claim it until someone else takes it).

Leaving after the start is not resigning (no ruleset has it): the seat stays in the game, played
by the ruleset's ``leave_bot`` (a bot, or the seat's deadline defaults), and its token stops
working.
"""

from __future__ import annotations

from typing import Any

FREE: dict[str, Any] = {"name": None, "token": None, "bot": None}


# ---------------------------------------------------------------------------- seat states
def claimed(entry: dict[str, Any]) -> bool:
    """A player (with a token) or a bot sits there."""
    return bool(entry.get("token") or entry.get("bot"))


def held(entry: dict[str, Any], now: float) -> bool:
    return not claimed(entry) and entry.get("until", 0) > now


def occupied(entry: dict[str, Any], now: float) -> bool:
    return claimed(entry) or held(entry, now)


def seats_taken(seats: list[dict[str, Any]], now: float) -> int:
    return sum(occupied(s, now) for s in seats)


def free_seat(seats: list[dict[str, Any]], players: int, now: float) -> int | None:
    """The seat the next player to join takes: the lowest free one (None: no seat is free)."""
    for i, entry in enumerate(seats):
        if not occupied(entry, now):
            return i
    return len(seats) if len(seats) < players else None


def put(seats: list[dict[str, Any]], seat: int, entry: dict[str, Any]) -> list[dict[str, Any]]:
    """A copy of ``seats`` with ``entry`` at ``seat``; free seats at the end are dropped."""
    out = list(seats)
    if seat == len(out):
        out.append(entry)
    else:
        out[seat] = entry
    while out and out[-1] == FREE:
        out.pop()
    return out


def all_claimed(seats: list[dict[str, Any]], players: int) -> bool:
    return len(seats) == players and all(claimed(s) for s in seats)
