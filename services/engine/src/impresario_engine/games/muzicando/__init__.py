"""Muzicando (the Romanian musical card game): the team game for 4 and the individual game for
2–8 players, on the four layouts Sarabanda, Glissando, Parada and Muzicando."""

from .rules import MUZICANDO, Muzicando

__all__ = ["MUZICANDO", "Muzicando"]
