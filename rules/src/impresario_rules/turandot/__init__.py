"""Turandot (daVinci, 2009): 2–5 players and the 2-player dummy variant."""

from .bots import easy, greedy
from .declarations import DECLARATIONS
from .rules import Turandot
from .search import hard

#: the bots by level (``random`` and ``greedy`` are the older names of the first two)
TURANDOT = Turandot({"easy": easy, "medium": greedy, "hard": hard}, DECLARATIONS,
                    aliases={"random": "easy", "greedy": "medium"})

__all__ = ["TURANDOT", "Turandot"]
