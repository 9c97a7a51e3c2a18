"""Turandot (daVinci, 2009): 2–5 players and the 2-player dummy variant."""

from .rules import TURANDOT, Turandot

__all__ = ["TURANDOT", "Turandot"]
