"""Quick match: who sits with whom. Players wait in a queue per ruleset and table size, each
with their displayed rating for the ruleset (0 before any rated game) and the longest they
chose to wait for people. A table is made of players whose ratings lie within a window that
widens with the wait (:func:`window`); once the player who has waited longest has waited as
long as they chose, the table is made of the people there are, the nearest first, and bots of
a level near the table's ratings fill the empty seats (:func:`bot_level`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

#: the rating window at first (displayed rating points either side), and how fast it widens
WINDOW_START = 3.0
WINDOW_PER_SECOND = 0.5


@dataclass(frozen=True)
class Waiting:
    player: str
    rating: float
    since: float
    wait: float  # the seconds the player chose to wait for people before bots fill seats


@dataclass(frozen=True)
class Table:
    players: tuple[str, ...]
    bots: int  # empty seats the bots fill


def window(waited: float) -> float:
    return WINDOW_START + WINDOW_PER_SECOND * max(0.0, waited)


def tables(queue: Iterable[Waiting], size: int, now: float) -> list[Table]:
    """The tables the queue makes now, longest-waiting players first; everyone else waits."""
    order = sorted(queue, key=lambda w: (w.since, w.player))
    pool = {w.player: w for w in order}
    out: list[Table] = []
    for anchor in order:
        if anchor.player not in pool:
            continue  # seated at a table made for someone who waited longer
        reach = window(now - anchor.since)
        near = sorted((w for w in pool.values() if abs(w.rating - anchor.rating) <= reach),
                      key=lambda w: (abs(w.rating - anchor.rating), w.since, w.player))
        if len(near) >= size:
            chosen = near[:size]
        elif now - anchor.since >= anchor.wait:
            chosen = near  # the wait the anchor chose is over: bots fill the rest
        else:
            continue  # the anchor waits on; the others may still make a table
        for w in chosen:
            del pool[w.player]
        ordered = sorted(chosen, key=lambda w: (w.since, w.player))
        out.append(Table(tuple(w.player for w in ordered), size - len(chosen)))
    return out


def bot_level(mean_rating: float, levels: dict[str, float | None], default: str) -> str:
    """The bot level whose rating is nearest the table's mean (``levels``: each level's
    displayed rating, None when not rated yet); ``default`` when none is rated."""
    rated = {name: r for name, r in levels.items() if r is not None}
    if not rated:
        return default
    return min(sorted(rated), key=lambda name: abs(rated[name] - mean_rating))
