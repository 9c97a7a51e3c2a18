"""Impresario's games, pure: every ruleset's cards, table state, moves, views, action spaces,
events, default moves, scoring and bots, and the registry of rulesets by name.

Nothing in this package touches a clock, a global random generator, a network, Flask, Redis or
marshmallow: it is the standard library only (Word Jam's lexicon needs the optional
``wordfreq`` extra). The engine service and the SDK both build on it.
"""

from __future__ import annotations

from .base import (GAME_OVER, ILLEGAL, KINDS, NOT_NOW, PACE_AGAINST_BOTS, PACES, STALE,
                   IllegalMove, InvalidOptions, MalformedMove, OutOfTurn, Refusal, Ruleset)
from .muzicando import MUZICANDO
from .turandot import TURANDOT
from .wordjam import WORDJAM

RULESETS: dict[str, Ruleset] = {r.name: r for r in (TURANDOT, WORDJAM, MUZICANDO)}


def get_ruleset(name: str) -> Ruleset | None:
    return RULESETS.get(name)


__all__ = ["RULESETS", "get_ruleset", "Ruleset", "Refusal", "IllegalMove", "MalformedMove",
           "OutOfTurn",
           "InvalidOptions", "KINDS", "ILLEGAL", "NOT_NOW", "STALE", "GAME_OVER", "PACES",
           "PACE_AGAINST_BOTS"]
