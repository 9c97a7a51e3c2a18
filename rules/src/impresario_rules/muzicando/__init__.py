"""Muzicando (the Romanian musical card game): the team game for 4 and the individual game for
2–8 players, on the four layouts Sarabanda, Glissando, Parada and Muzicando."""

from .bots import BOTS
from .declarations import DECLARATIONS
from .rules import Muzicando

MUZICANDO = Muzicando(BOTS, DECLARATIONS)

__all__ = ["MUZICANDO", "Muzicando"]
