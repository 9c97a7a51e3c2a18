"""Player names: normalised, refused when they hide something, and compared by their looks.

- :func:`normalise`: NFKC (fullwidth and other compatibility forms become the ordinary
  characters), white space trimmed and every run of it made one space. Refused with 422:
  ``name_invisible_characters`` for control, format (zero-width, bidirectional overrides and
  isolates, the soft hyphen...), private-use, unassigned and separator characters and the
  letters that draw nothing (Hangul fillers, the Braille blank); ``name_blank`` when nothing is
  left; ``name_too_long`` past ``NAME_MAX`` characters once normalised.
- :func:`likeness`: the key two names of one game may not share: the name's confusable
  skeleton (Unicode Technical Standard #39: the characters that draw nothing, such as variation
  selectors, removed, and every character replaced by its prototype, so a Cyrillic "а" counts
  as a Latin "a", "0" as "O", "rn" as "m"), taken of the name in upper case, then case-folded,
  then skeletonised again. Upper case first, because a capital looks like more than its small
  letter does ("I" like "l" and "1"): "Iris", "iris", "lris" and "1ris" have one likeness, and
  so have "Anna", "ANNA", "Annа" (Cyrillic a) and "Anna" with a variation selector.

The skeleton table is Unicode's confusables data, shipped in ``data/confusables.txt`` (see
``services/engine/tools/confusables.py``) and read once per process on first use.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from importlib import resources

from .errors import INVALID, Refused

#: the longest name, in characters once normalised
NAME_MAX = 40
#: categories that never belong in a name: controls, format characters (zero-width, bidi),
#: surrogates, private use, unassigned, line and paragraph separators
_REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
#: letters and marks that draw nothing (default-ignorable, or blank by design)
_BLANK_CHARACTERS = frozenset("\u034f\u115f\u1160\u17b4\u17b5\u180b\u180c\u180d\u180e"
                              "\u2800\u3164\uffa0")


def normalise(name: str) -> str:
    """The name as it is stored and shown (see the module's doc); refused (``INVALID``) when it
    hides something."""
    text = unicodedata.normalize("NFKC", name)
    for char in text:
        if char.isspace():
            continue
        if unicodedata.category(char) in _REFUSED_CATEGORIES or char in _BLANK_CHARACTERS:
            raise Refused("name_invisible_characters", INVALID,
                          f"names may not contain invisible or control characters such as "
                          f"U+{ord(char):04X} ({unicodedata.name(char, 'unnamed')})",
                          errors={"name": ["invisible or control character"]})
    text = " ".join(text.split())
    if not text:
        raise Refused("name_blank", INVALID, "a name needs at least one visible character",
                      errors={"name": ["blank"]})
    if len(text) > NAME_MAX:
        raise Refused("name_too_long", INVALID, f"names are at most {NAME_MAX} characters",
                      errors={"name": ["too long"]})
    return text


@lru_cache(maxsize=1)
def _prototypes() -> dict[int, str]:
    table: dict[int, str] = {}
    text = resources.files(__package__).joinpath("data/confusables.txt").read_text("ascii")
    for line in text.splitlines():
        if line and not line.startswith("#"):
            source, target = line.split(";")
            table[int(source, 16)] = "".join(chr(int(cp, 16)) for cp in target.split())
    return table


#: Default_Ignorable_Code_Point (Unicode's DerivedCoreProperties): characters that draw
#: nothing, which a skeleton removes (UTS #39). Most are refused in names anyway; variation
#: selectors (marks, so an emoji's presentation) are allowed, and count for nothing here
_IGNORABLE_RANGES = ((0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160),
                     (0x17B4, 0x17B5), (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E),
                     (0x2060, 0x206F), (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF),
                     (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3),
                     (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF))


@lru_cache(maxsize=1)
def _table() -> dict[int, str | None]:
    """The prototypes, and None (removal) for every default-ignorable code point."""
    table: dict[int, str | None] = dict(_prototypes())
    for first, last in _IGNORABLE_RANGES:
        table.update(dict.fromkeys(range(first, last + 1)))
    return table


def skeleton(text: str) -> str:
    """UTS #39 skeleton: NFD, default-ignorable characters removed, each character mapped to
    its prototype, NFD again."""
    return unicodedata.normalize("NFD", unicodedata.normalize("NFD", text).translate(_table()))


def likeness(name: str) -> str:
    """What a name looks like, regardless of case and of characters that look alike (see the
    module's doc)."""
    return skeleton(skeleton(name.upper()).casefold())
