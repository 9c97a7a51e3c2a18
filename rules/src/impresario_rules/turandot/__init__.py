"""Turandot (daVinci, 2009): 2–5 players and the 2-player dummy variant."""

from .bots import BOTS
from .declarations import DECLARATIONS
from .rules import Turandot

TURANDOT = Turandot(BOTS, DECLARATIONS)

__all__ = ["TURANDOT", "Turandot"]
