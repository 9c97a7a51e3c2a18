"""Word Jam (Walter Obert, daVinci 2004): 5–12 players, eight turns of coins, consonants and bets
on who found the best word."""

from .rules import WORDJAM, WordJam
from .words import word_value

__all__ = ["WORDJAM", "WordJam", "word_value"]
