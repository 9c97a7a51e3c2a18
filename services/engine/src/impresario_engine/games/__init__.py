"""The pure rules of every game Impresario plays, and the registry of rulesets by name.

Nothing under this package touches Flask, Redis, a clock or a global random generator.
"""

from __future__ import annotations

from .base import IllegalMove, InvalidOptions, OutOfTurn, RulesError, Ruleset
from .turandot import TURANDOT

RULESETS: dict[str, Ruleset] = {TURANDOT.name: TURANDOT}


def get_ruleset(name: str) -> Ruleset | None:
    return RULESETS.get(name)


__all__ = ["RULESETS", "get_ruleset", "Ruleset", "RulesError", "IllegalMove", "OutOfTurn",
           "InvalidOptions"]
