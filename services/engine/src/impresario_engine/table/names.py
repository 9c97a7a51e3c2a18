"""Player names: normalised, refused when they hide something, and compared by their looks.

- :func:`normalise`: NFKC (fullwidth and other compatibility forms become the ordinary
  characters), white space trimmed and every run of it made one space. Refused with 422:
  ``name_invisible_characters`` for control, format (zero-width, bidirectional overrides and
  isolates, the soft hyphen...), private-use, unassigned and separator characters and the
  letters that draw nothing (Hangul fillers, the Braille blank); ``name_blank`` when nothing is
  left; ``name_too_long`` past ``NAME_MAX`` characters once normalised.
- :func:`likeness`: the key two names of one game may not share: the name case-folded and
  reduced to its confusable skeleton (Unicode Technical Standard #39: every character replaced
  by its prototype, so a Cyrillic "а" counts as a Latin "a", "0" as "O", "rn" as "m"), then
  case-folded again. "Anna", "ANNA" and "Annа" (Cyrillic a) have one likeness.

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


def skeleton(text: str) -> str:
    """UTS #39 skeleton: NFD, each character mapped to its prototype, NFD again."""
    table = _prototypes()
    return unicodedata.normalize("NFD", unicodedata.normalize("NFD", text).translate(table))


def likeness(name: str) -> str:
    """What a name looks like, regardless of case and of characters that look alike."""
    return skeleton(name.casefold()).casefold()
