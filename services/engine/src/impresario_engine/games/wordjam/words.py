"""Word values and the checks the engine makes itself (R2, R9, R10), and the shipped data.

A word is *folded* before anything is compared or counted: accents are removed (È → E), letters
are upper-cased, and spaces and punctuation (apostrophes, hyphens, dots…) are ignored. What is left
must be letters A–Z; anything else (digits, symbols, letters outside the Latin alphabet) makes the
word invalid. Every occurrence of a coin consonant earns that card's coins.
"""

from __future__ import annotations

import json
import unicodedata
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable, Mapping

from ..base import IllegalMove

DATA = Path(__file__).with_name("data")

#: R0: the 21 consonants of the Latin alphabet
CONSONANTS = tuple("BCDFGHJKLMNPQRSTVWXYZ")
#: the coin cards, left to right; the fifth, the scimitar, is worth nothing and forbids its letter
COIN_VALUES = (1, 2, 3, 3)
MAX_WORD_CHARS = 64

#: letters NFKD does not decompose, spelled out
_SPELLED = {"Æ": "AE", "Œ": "OE", "Ø": "O", "Ð": "D", "Þ": "TH", "Ł": "L", "ß": "SS", "ẞ": "SS",
            "æ": "AE", "œ": "OE", "ø": "O", "ð": "D", "þ": "TH", "ł": "L"}

# reasons a word is invalid (stable: they are also the suffixes of the refusal codes)
EMPTY = "empty"
TOO_LONG = "too_long"
INVALID_CHARACTERS = "invalid_characters"
FORBIDDEN_CONSONANT = "forbidden_consonant"
ALREADY_USED = "already_used"
NOT_EIGHT_LETTERS = "not_eight_letters"
WRONG_FIRST_LETTER = "wrong_first_letter"

REASON_TEXT = {
    EMPTY: "the word has no letters",
    TOO_LONG: f"a word may have at most {MAX_WORD_CHARS} characters",
    INVALID_CHARACTERS: "a word may contain only letters, spaces and punctuation",
    FORBIDDEN_CONSONANT: "the word contains the forbidden consonant",
    ALREADY_USED: "the word has already been used in this game",
    NOT_EIGHT_LETTERS: "the theme asks for a word of exactly 8 letters",
    WRONG_FIRST_LETTER: "the theme asks for a word starting with the 1-coin consonant",
}


def fold(word: str) -> str:
    """``word`` without accents, case, spaces or punctuation (``"Arsène Lupin"`` →
    ``"ARSENELUPIN"``). Characters that are not letters are kept (upper-cased) so that
    :func:`check_letters` can refuse them."""
    out: list[str] = []
    for ch in unicodedata.normalize("NFKD", word):
        if ch in _SPELLED:
            out.append(_SPELLED[ch])
            continue
        cat = unicodedata.category(ch)
        if cat[0] in "PZ" or cat in ("Mn", "Mc", "Me", "Sk", "Cf"):
            continue  # punctuation, spaces, combining accents, spacing accents, format marks
        out.append(ch)
    return "".join(out).upper()


def letters_reason(word: str) -> str | None:
    """Why ``word`` is not a well-formed word (``None`` when it is)."""
    if not isinstance(word, str) or not word.strip():
        return EMPTY
    if len(word) > MAX_WORD_CHARS:
        return TOO_LONG
    folded = fold(word)
    if not folded:
        return EMPTY
    if not all("A" <= c <= "Z" for c in folded):
        return INVALID_CHARACTERS
    return None


def value_of(folded: str, coins: Mapping[str, int]) -> int:
    """Coins earned by a folded word: every occurrence of a coin consonant counts."""
    return sum(coins.get(c, 0) for c in folded)


def check(word: str, coins: Mapping[str, int], forbidden: str | None, *,
          used: Iterable[str] = (), theme_check: str | None = None,
          one_coin: str | None = None) -> dict[str, Any]:
    """``{"word", "folded", "value", "valid", "reason"}`` of ``word`` under the engine's checks,
    in this order: letters, forbidden consonant, reuse (R9), the 8-letter theme, the first-letter
    theme. ``value`` is computed whatever the validity (on the letters A–Z of the word)."""
    reason = letters_reason(word)
    folded = fold(word) if reason not in (EMPTY, TOO_LONG) else ""
    value = value_of(folded, coins)
    if reason is None and forbidden and forbidden in folded:
        reason = FORBIDDEN_CONSONANT
    if reason is None and folded in set(used):
        reason = ALREADY_USED
    if reason is None and theme_check == "eight_letters" and len(folded) != 8:
        reason = NOT_EIGHT_LETTERS
    if reason is None and theme_check == "first_letter" and not folded.startswith(one_coin or ""):
        reason = WRONG_FIRST_LETTER
    return {"word": word, "folded": folded, "value": value, "valid": reason is None,
            "reason": reason}


def _consonant(value: Any, what: str) -> str:
    if not isinstance(value, str) or fold(value) not in CONSONANTS or len(value.strip()) != 1:
        raise IllegalMove("invalid_consonant", f"{what} must be one of the 21 consonants "
                          f"{''.join(CONSONANTS)}, not {value!r}")
    return fold(value)


def word_value(word: str, coins: Mapping[str, int], forbidden: str | None = None
               ) -> dict[str, Any]:
    """The calculator (``POST /v1/rulesets/wordjam/value``): what ``word`` is worth with
    ``coins`` (``{consonant: coins}``, e.g. ``{"T": 1, "P": 2, "N": 3, "F": 3}``) and the
    ``forbidden`` consonant. Returns ``{"value", "valid", "reason"}``; ``reason`` is ``None``
    for a valid word, else one of ``empty``, ``too_long``, ``invalid_characters``,
    ``forbidden_consonant``. Reuse and the themes depend on a game: they are not checked here.

    Raises :class:`IllegalMove` (``invalid_consonant``, ``invalid_coins``) for bad inputs."""
    if not isinstance(coins, Mapping) or len(coins) > len(CONSONANTS):
        raise IllegalMove("invalid_coins", "coins must be an object {consonant: coins}")
    table: dict[str, int] = {}
    for key, value in coins.items():
        letter = _consonant(key, "each coin key")
        if type(value) is not int or not 0 <= value <= 99:
            raise IllegalMove("invalid_coins", f"the coins of {key!r} must be an integer from "
                              f"0 to 99")
        if letter in table:
            raise IllegalMove("invalid_coins", f"the consonant {letter} appears twice")
        table[letter] = value
    forbidden_letter = None if forbidden is None else _consonant(forbidden, "forbidden")
    if forbidden_letter is not None and forbidden_letter in table:
        raise IllegalMove("invalid_coins", "the forbidden consonant cannot also earn coins")
    if not isinstance(word, str):
        raise IllegalMove("invalid_word", "the word must be a string")
    result = check(word, table, forbidden_letter)
    return {"value": result["value"], "valid": result["valid"], "reason": result["reason"]}


# ---------------------------------------------------------------------------- shipped data
@lru_cache(maxsize=None)
def styles() -> tuple[dict[str, Any], ...]:
    """The 15 Style cards (``data/styles.json``), in rulebook order."""
    with open(DATA / "styles.json", encoding="utf-8") as f:
        return tuple(json.load(f)["cards"])


@lru_cache(maxsize=None)
def style_by_id() -> dict[str, dict[str, Any]]:
    return {s["id"]: s for s in styles()}


@lru_cache(maxsize=None)
def default_cave() -> dict[str, list[int]]:
    with open(DATA / "cave.json", encoding="utf-8") as f:
        raw = json.load(f)
    return {"red": list(raw["red"]), "yellow": list(raw["yellow"])}


__all__ = ["CONSONANTS", "COIN_VALUES", "fold", "check", "word_value", "value_of",
           "letters_reason", "styles", "style_by_id", "default_cave"]
