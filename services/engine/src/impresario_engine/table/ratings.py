"""Ratings: what a finished game says of its players' skill, per ruleset, with OpenSkill's
Plackett–Luce model (the ``openskill`` package): free-for-all for Turandot and Word Jam, teams
for a Muzicando game played in teams. A player's displayed rating is μ − 3σ (OpenSkill's
ordinal: a newcomer starts at 0 and climbs as games make the engine surer).

Which games are rated (``rated``): a game whose ``rated`` option is not false, public or
created with ``rated: true``, where every seat is a player's (a seat taken with a player's
credential or a platform's token: joining such a game is agreeing to be rated) or a bot's, and
at least one is a player's. Bots' levels are rated players too (one per level, the same id on
every pod), so a newcomer's first games against ``medium`` mean something. A player who left
is rated by the place their seat finished in.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any, Sequence

from openskill.models import PlackettLuce

from .players import BOT, _id_of

MODEL = PlackettLuce()
#: a new player's (μ, σ): OpenSkill's defaults
START = (MODEL.mu, MODEL.sigma)


def bot_player_id(level: str) -> str:
    """The rated player a bot level is (the same id for every ruleset, pod and day)."""
    return _id_of(hashlib.sha256(b"bot\0" + level.encode()).digest())


def bot_player_name(level: str) -> str:
    return f"{level} bot"


def seat_player(entry: dict[str, Any], aliases: dict[str, str] | None = None) -> str | None:
    """The player a seat is rated as: its player's id, else its bot level's (``aliases``: a
    ruleset's older bot names, by the level each is), else None (a seat taken with a seat token
    alone: nobody to rate)."""
    if entry.get("player"):
        return entry["player"]
    if entry.get("bot") and not entry.get("left"):
        return bot_player_id((aliases or {}).get(entry["bot"], entry["bot"]))
    return None


def rateable(doc: dict[str, Any]) -> bool:
    """Whether the game is rated when it finishes (see the module's docstring)."""
    rated = doc["settings"].get("rated")
    if rated is False or (rated is None and doc["settings"].get("private")):
        return False
    if doc["settings"].get("guided"):
        return False  # a guided game is a lesson on everyone's same first deal: it rates nobody
    seats = doc["seats"]
    if not any(s.get("player") for s in seats):
        return False
    return all(seat_player(s) is not None for s in seats)


def placings(score: dict[str, Any]) -> tuple[list[list[int]], list[int]]:
    """The sides of a finished game (lists of seats: one seat each, or Muzicando's teams) and
    each side's rank (1 best; a tie shares a rank), from the ruleset's final score: the
    ruleset's own places when it ranks its players (Turandot breaks a tie on points by stars),
    else by total."""
    teams = score.get("teams") or []
    if teams:
        sides = [list(t["seats"]) for t in teams]
        keys: list[tuple[Any, ...]] = [(t["total"],) for t in teams]
    else:
        players = score["players"]
        sides = [[p["seat"]] for p in players]
        if "places" in score:
            return sides, list(score["places"])
        keys = [(p["total"],) for p in players]
    order = sorted(set(keys), reverse=True)
    ranks = [1 + sum(1 for k in order if k > key) for key in keys]
    return sides, ranks


def shown(stored: dict[str, str]) -> float | None:
    """The displayed rating (μ − 3σ) of a stored rating (None: not rated yet)."""
    return float(stored["mu"]) - 3 * float(stored["sigma"]) if stored else None


@dataclass(frozen=True)
class Change:
    player: str
    seat: int
    rank: int
    before: tuple[float, float]
    after: tuple[float, float]

    @staticmethod
    def displayed(mu_sigma: tuple[float, float]) -> float:
        return mu_sigma[0] - 3 * mu_sigma[1]


def rate(sides: Sequence[Sequence[int]], ranks: Sequence[int], players: dict[int, str],
         current: dict[str, tuple[float, float]]) -> list[Change]:
    """Each seat's player's new (μ, σ) after a game: ``players`` by seat, ``current`` their
    ratings before (a player not in it starts at :data:`START`). Every seat plays its side as
    the game had it; a player at several seats (a bot level twice) is updated once, by the mean
    of its seats' updates, at its best seat's place."""
    teams = [[MODEL.rating(*current.get(players[seat], START)) for seat in side]
             for side in sides]
    if len(teams) < 2:
        return []
    rated = MODEL.rate(teams, ranks=list(ranks))
    updates: dict[str, list[tuple[int, int, float, float]]] = {}
    for side, rank, after in zip(sides, ranks, rated):
        for seat, r in zip(side, after):
            updates.setdefault(players[seat], []).append((rank, seat, r.mu, r.sigma))
    out = []
    for player, seen in updates.items():
        rank, seat = min((rank, seat) for rank, seat, _m, _s in seen)
        mu = sum(m for _r, _s, m, _x in seen) / len(seen)
        sigma = sum(x for _r, _s, _m, x in seen) / len(seen)
        out.append(Change(player, seat, rank, current.get(player, START), (mu, sigma)))
    return out
