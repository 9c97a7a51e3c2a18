"""Word Jam (Walter Obert, daVinci 2004): 5–12 players, eight turns of coins, consonants and bets
on who found the best word."""

from .bots import uniform, wordsmith
from .declarations import DECLARATIONS
from .rules import WordJam
from .search import hard
from .words import word_value

#: the bots by level (``random`` and ``wordsmith`` are the older names)
WORDJAM = WordJam({"easy": uniform, "medium": wordsmith, "hard": hard}, DECLARATIONS,
                  aliases={"random": "easy", "wordsmith": "medium"})

__all__ = ["WORDJAM", "WordJam", "word_value"]
