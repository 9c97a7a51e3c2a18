"""The pure rules of every game Impresario plays, and the registry of rulesets by name.

Nothing under this package touches Flask, Redis, a clock or a global random generator.
"""

from __future__ import annotations

from .base import IllegalMove, InvalidOptions, OutOfTurn, RulesError, Ruleset
from .muzicando import MUZICANDO
from .turandot import TURANDOT
from .wordjam import WORDJAM

RULESETS: dict[str, Ruleset] = {r.name: r for r in (TURANDOT, WORDJAM, MUZICANDO)}


def get_ruleset(name: str) -> Ruleset | None:
    return RULESETS.get(name)


__all__ = ["RULESETS", "get_ruleset", "Ruleset", "RulesError", "IllegalMove", "OutOfTurn",
           "InvalidOptions"]
