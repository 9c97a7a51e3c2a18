"""Word Jam (Walter Obert, daVinci 2004): 5–12 players, eight turns of coins, consonants and bets
on who found the best word."""

from .bots import BOTS
from .declarations import DECLARATIONS
from .rules import WordJam
from .words import word_value

WORDJAM = WordJam(BOTS, DECLARATIONS)

__all__ = ["WORDJAM", "WordJam", "word_value"]
