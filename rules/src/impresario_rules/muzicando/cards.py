"""The 56 Muzicando cards as data.

Seven colours, each with the notes Do Re Mi Fa Sol La Si (values 1–7) and one sign card.

Card ids: ``"<colour>-<value>"`` for a note (``"red-1"`` is the red Do, ``"violet-7"`` the violet
Si) and ``"<colour>-sign"`` for a sign (``"violet-sign"`` is the rest). Colours in deck order:
red, orange, yellow, green, blue, indigo, violet (colour index 0–6).

Each colour has one **oval** note (the opening card of Glissando and Parada): red Do, orange Re,
yellow Mi, green Fa, blue Sol, indigo La, violet Si — colour index ``i`` has its oval on value
``i + 1``. Signs: red and orange sharp, yellow and green natural, blue and indigo flat, violet rest.
"""

from __future__ import annotations

from typing import Any

COLOURS = ("red", "orange", "yellow", "green", "blue", "indigo", "violet")
NOTES = ("Do", "Re", "Mi", "Fa", "Sol", "La", "Si")
SHARP, NATURAL, FLAT, REST = "sharp", "natural", "flat", "rest"
SIGN_OF = {"red": SHARP, "orange": SHARP, "yellow": NATURAL, "green": NATURAL,
           "blue": FLAT, "indigo": FLAT, "violet": REST}
COLOUR_INDEX = {c: i for i, c in enumerate(COLOURS)}

#: every card id in deck order: per colour Do..Si then the sign
DECK: tuple[str, ...] = tuple(
    card for colour in COLOURS
    for card in [f"{colour}-{v}" for v in range(1, 8)] + [f"{colour}-sign"])
DECK_ORDER = {c: i for i, c in enumerate(DECK)}
SIGNS: tuple[str, ...] = tuple(f"{c}-sign" for c in COLOURS)
DOS: tuple[str, ...] = tuple(f"{c}-1" for c in COLOURS)
OVALS: tuple[str, ...] = tuple(f"{c}-{i + 1}" for i, c in enumerate(COLOURS))


_COLOUR = {c: c.split("-", 1)[0] for c in DECK}
#: each card's note value, 1 (Do) to 7 (Si), 0 for a sign: :func:`value_of` as a table
VALUE = {c: 0 if c.endswith("-sign") else int(c.split("-", 1)[1]) for c in DECK}
_CINDEX = {c: COLOUR_INDEX[_COLOUR[c]] for c in DECK}


def colour_of(card: str) -> str:
    return _COLOUR[card]


def colour_index(card: str) -> int:
    return _CINDEX[card]


def is_sign(card: str) -> bool:
    return VALUE[card] == 0


def value_of(card: str) -> int:
    """The note value 1 (Do) .. 7 (Si); 0 for a sign."""
    return VALUE[card]


def is_oval(card: str) -> bool:
    return not is_sign(card) and value_of(card) == colour_index(card) + 1


def is_do(card: str) -> bool:
    return not is_sign(card) and value_of(card) == 1


def sign_kind(card: str) -> str:
    """sharp, natural, flat or rest (only for a sign card)."""
    return SIGN_OF[colour_of(card)]


def oval_of(colour: str) -> str:
    return f"{colour}-{COLOUR_INDEX[colour] + 1}"


def describe(card: str) -> dict[str, Any]:
    """A card as a small object (for documentation and UIs)."""
    colour = colour_of(card)
    if is_sign(card):
        return {"id": card, "colour": colour, "sign": sign_kind(card), "value": 0, "note": None,
                "oval": False}
    v = value_of(card)
    return {"id": card, "colour": colour, "sign": None, "value": v, "note": NOTES[v - 1],
            "oval": is_oval(card)}


def step(a: int, b: int) -> bool:
    """Cyclic one step apart (Si and Do touch)."""
    return (a - b) % 7 in (1, 6)


def sort_cards(cards: list[str]) -> list[str]:
    return sorted(cards, key=DECK_ORDER.__getitem__)
