"""Word values and the checks the engine makes itself (R2, R9, R10), and the shipped data.

A word is written in the letters of the Latin alphabet, with or without their accents (È, ñ, ş),
and the spaces, apostrophes and hyphens that names have (D'Artagnan, Jean-Paul, Arsène Lupin).
It is *folded* before anything is compared or counted: accents are removed (È → E), letters are
upper-cased, and the spaces, apostrophes and hyphens are ignored. Anything else (digits, other
punctuation, symbols, other alphabets, and look-alikes such as Ⓟ, Ｐ or ㍱ that only a
compatibility mapping would turn into Latin letters) makes the word invalid. Every occurrence of a
coin consonant earns that card's coins.
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

#: Latin letters that no canonical decomposition splits into a letter A–Z and accents, spelled out
SPELLED = {"Æ": "AE", "Œ": "OE", "Ø": "O", "Ð": "D", "Þ": "TH", "Ł": "L", "ß": "SS", "ẞ": "SS",
            "æ": "AE", "œ": "OE", "ø": "O", "ð": "D", "þ": "TH", "ł": "L",
            "Đ": "D", "đ": "D", "Ħ": "H", "ħ": "H", "ı": "I", "Ĳ": "IJ", "ĳ": "IJ", "Ŧ": "T",
            "ŧ": "T"}
#: what a word may hold besides letters, and folding ignores: spaces (the plain one and the
#: no-break ones), apostrophes (typewriter, typographic, modifier letter) and hyphens (the
#: hyphen-minus, the hyphen, the non-breaking and the soft hyphen)
SEPARATORS = frozenset(" \u00a0\u202f'\u2019\u02bc-\u2010\u2011\u00ad")
#: the accents: combining diacritical marks, as canonical decomposition (NFD) leaves them
_ACCENTS = ("\u0300", "\u036f")

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
    INVALID_CHARACTERS: "a word may contain only Latin letters (accents allowed), spaces, "
                        "apostrophes and hyphens",
    FORBIDDEN_CONSONANT: "the word contains the forbidden consonant",
    ALREADY_USED: "the word has already been used in this game",
    NOT_EIGHT_LETTERS: "the theme asks for a word of exactly 8 letters",
    WRONG_FIRST_LETTER: "the theme asks for a word starting with the 1-coin consonant",
}


def fold(word: str) -> str:
    """``word`` without accents, case, spaces, apostrophes or hyphens (``"Arsène Lupin"`` →
    ``"ARSENELUPIN"``). Any other character is kept as it is, so that :func:`letters_reason`
    refuses the word. The decomposition is the canonical one (NFD), which splits a letter from
    its accents and nothing else: the compatibility forms (NFKD) would also turn Ⓟ, Ｐ or ㍱
    into Latin letters."""
    out: list[str] = []
    for ch in unicodedata.normalize("NFD", word):
        if "a" <= ch <= "z":
            out.append(ch.upper())
        elif "A" <= ch <= "Z":
            out.append(ch)
        elif ch in SPELLED:
            out.append(SPELLED[ch])
        elif ch in SEPARATORS or _ACCENTS[0] <= ch <= _ACCENTS[1]:
            continue
        else:
            out.append(ch)  # str.upper() would make "FI" of "ﬁ" and "I" of "ı": left alone
    return "".join(out)


def word_character(ch: str) -> bool:
    """Whether a word may hold ``ch`` (a Latin letter, accented or not, or a separator)."""
    return all("A" <= c <= "Z" for c in fold(ch)) and ch.isprintable() or ch in SEPARATORS


def word_pattern() -> str:
    """The words the rules accept, as a regular expression (computed from
    :func:`word_character` over the basic multilingual plane): Latin letters, accented or not,
    spaces, apostrophes and hyphens, with at least one letter. :data:`WORD_PATTERN` is its
    value (computing it takes half a second; a test keeps the two equal)."""
    chars = [c for c in range(0x10000) if not 0xD800 <= c < 0xE000
             and word_character(chr(c))]
    letters = [c for c in chars if chr(c) not in SEPARATORS and not 0x300 <= c <= 0x36F]
    any_char = _char_class(chars)
    return f"^{any_char}*{_char_class(letters)}{any_char}*$"


def _char_class(codes: list[int]) -> str:
    """A regular-expression character class of the code points ``codes`` (sorted)."""
    ranges: list[list[int]] = []
    for c in codes:
        if ranges and ranges[-1][1] == c - 1:
            ranges[-1][1] = c
        else:
            ranges.append([c, c])

    def esc(c: int) -> str:  # letters, digits, space and apostrophe as they are
        return chr(c) if chr(c).isascii() and (chr(c).isalnum() or chr(c) in " '") \
            else f"\\u{c:04x}"
    return "[" + "".join(esc(a) if a == b else f"{esc(a)}-{esc(b)}" for a, b in ranges) + "]"


#: :func:`word_pattern`, computed once
WORD_PATTERN = (    "^[ '\\u002dA-Za-z\\u00a0\\u00ad\\u00c0-\\u00d6\\u00d8-\\u00f6\\u00f8-\\u0137\\u0139-\\u013e"
    '\\u0141-\\u0148\\u014c-\\u017e\\u01a0-\\u01a1\\u01af-\\u01b0\\u01cd-\\u01dc\\u01de-\\u01e3\\u'
    '01e6-\\u01ed\\u01f0\\u01f4-\\u01f5\\u01f8-\\u021b\\u021e-\\u021f\\u0226-\\u0233\\u02bc\\u030'
    '0-\\u036f\\u1e00-\\u1e99\\u1e9e\\u1ea0-\\u1ef9\\u2010-\\u2011\\u2019\\u202f\\u212a-\\u212b]*'
    '[A-Za-z\\u00c0-\\u00d6\\u00d8-\\u00f6\\u00f8-\\u0137\\u0139-\\u013e\\u0141-\\u0148\\u014c-\\'
    'u017e\\u01a0-\\u01a1\\u01af-\\u01b0\\u01cd-\\u01dc\\u01de-\\u01e3\\u01e6-\\u01ed\\u01f0\\u01'
    'f4-\\u01f5\\u01f8-\\u021b\\u021e-\\u021f\\u0226-\\u0233\\u1e00-\\u1e99\\u1e9e\\u1ea0-\\u1ef9'
    "\\u212a-\\u212b][ '\\u002dA-Za-z\\u00a0\\u00ad\\u00c0-\\u00d6\\u00d8-\\u00f6\\u00f8-\\u0137"
    '\\u0139-\\u013e\\u0141-\\u0148\\u014c-\\u017e\\u01a0-\\u01a1\\u01af-\\u01b0\\u01cd-\\u01dc\\u'
    '01de-\\u01e3\\u01e6-\\u01ed\\u01f0\\u01f4-\\u01f5\\u01f8-\\u021b\\u021e-\\u021f\\u0226-\\u02'
    '33\\u02bc\\u0300-\\u036f\\u1e00-\\u1e99\\u1e9e\\u1ea0-\\u1ef9\\u2010-\\u2011\\u2019\\u202f\\u'
    '212a-\\u212b]*$')


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


def theme_reason(folded: str, theme_check: str | None, one_coin: str | None) -> str | None:
    """R2, the two themes the engine checks itself (the rest of a theme is the players' call):
    ``not_eight_letters`` for the 8-letter theme, ``wrong_first_letter`` for the one whose word
    starts with the 1-coin consonant; ``None`` when ``folded`` fits (or the theme checks
    nothing)."""
    if theme_check == "eight_letters" and len(folded) != 8:
        return NOT_EIGHT_LETTERS
    if theme_check == "first_letter" and not folded.startswith(one_coin or ""):
        return WRONG_FIRST_LETTER
    return None


def check(word: str, coins: Mapping[str, int], forbidden: str | None, *,
          used: Iterable[str] = (), theme_check: str | None = None,
          one_coin: str | None = None) -> dict[str, Any]:
    """R2, what the engine checks itself: ``{"word", "folded", "value", "valid", "reason"}`` of
    ``word`` under the engine's checks (fit to the theme is the players' call), in this order:
    letters, forbidden consonant, reuse (R9), the 8-letter theme, the first-letter theme.
    ``value`` is computed whatever the validity (on the letters A–Z of the word)."""
    reason = letters_reason(word)
    folded = fold(word) if reason not in (EMPTY, TOO_LONG) else ""
    value = value_of(folded, coins)
    if reason is None and forbidden and forbidden in folded:
        reason = FORBIDDEN_CONSONANT
    if reason is None and folded in set(used):
        reason = ALREADY_USED
    if reason is None:
        reason = theme_reason(folded, theme_check, one_coin)
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
    if not isinstance(coins, Mapping) or not 1 <= len(coins) <= len(CONSONANTS):
        raise IllegalMove("invalid_coins", "coins must be an object {consonant: coins} of 1 to "
                          f"{len(CONSONANTS)} consonants")
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
