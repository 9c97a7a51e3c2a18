"""Muzicando (the Romanian musical card game): the team game for 4 and the individual game for
2–8 players, on the four layouts Sarabanda, Glissando, Parada and Muzicando."""

from .bots import easy, greedy
from .declarations import DECLARATIONS
from .rules import Muzicando
from .search import hard

#: the bots by level (``random`` and ``greedy`` are the older names)
MUZICANDO = Muzicando({"easy": easy, "medium": greedy, "hard": hard}, DECLARATIONS,
                      aliases={"random": "easy", "greedy": "medium"})

__all__ = ["MUZICANDO", "Muzicando"]
