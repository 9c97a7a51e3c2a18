"""Turandot's cards: the singer catalogue (data, replaceable), the nine directors and the six roles.

The default catalogue (``data/singers.csv``) is a balanced design, not a transcription of the
printed cards: the rulebooks do not list the faces. A table that owns the physical game can create
a game with its own catalogue (:func:`parse_catalogue`).
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import re
from dataclasses import dataclass
from importlib import resources
from typing import Any, Iterable

from ..base import InvalidOptions

CATEGORIES = ("professional", "amateur", "alternative", "classic", "comic", "dark")
SEXES = ("male", "female", "undefined")
ROLES = ("turandot", "calaf", "liu", "ping", "pong", "pang")
ROLE_SEX = ("female", "male", "female", "male", "male", "male")
FAVOURITE_ROLES = ("turandot", "calaf", "liu")

#: a singer's id: 1 to 32 letters A–Z, digits, "_" or "-" (S01…S36 in the default catalogue)
SINGER_ID = r"^[A-Za-z0-9_-]{1,32}$"
_SINGER_ID = re.compile(SINGER_ID)

#: the directors in catalogue order (the order of the rules page); the effect of each is in scoring
DIRECTORS = (
    "dark_over_comic",
    "comic_over_dark",
    "alternative_over_classic",
    "classic_over_alternative",
    "favourite_roles",
    "stagecraft",
    "full_spectrum",
    "undefined_sex",
    "neutral",
)
DIRECTOR_TEXT = {
    "dark_over_comic": "+1 per dark singer, -1 per comic singer",
    "comic_over_dark": "+1 per comic singer, -1 per dark singer",
    "alternative_over_classic": "+1 per alternative singer, -1 per classic singer",
    "classic_over_alternative": "+1 per classic singer, -1 per alternative singer",
    "favourite_roles": "+1 per singer cast in their favourite role",
    "stagecraft": "+1 per stage element",
    "full_spectrum": "+3 if the cast has a singer of each of the 6 categories",
    "undefined_sex": "+1 per singer of undefined sex",
    "neutral": "no bonus, no penalty",
}
DIRECTOR_CARDS = {
    key: {"id": key, "kind": "director", "effect": text} for key, text in DIRECTOR_TEXT.items()
}
HELPERS = ("costume_designer", "carpenter")


@dataclass(frozen=True)
class Singer:
    id: str
    category: str
    sex: str
    stars: int
    favourite_role: str | None

    def card(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": "singer",
            "category": self.category,
            "sex": self.sex,
            "stars": self.stars,
            "favourite_role": self.favourite_role,
        }


class Catalogue:
    """36 singers keyed by id, with their public card objects precomputed."""

    def __init__(self, singers: Iterable[Singer], key: str) -> None:
        self.singers: dict[str, Singer] = {s.id: s for s in singers}
        self.ids: tuple[str, ...] = tuple(self.singers)
        self.key = key
        self.cards: dict[str, dict[str, Any]] = {i: s.card() for i, s in self.singers.items()}
        self.cards.update(DIRECTOR_CARDS)

    def rows(self) -> list[dict[str, Any]]:
        return [dict(c) for i, c in self.cards.items() if i in self.singers]


def _fail(message: str, **details: Any) -> InvalidOptions:
    return InvalidOptions("invalid_catalogue", message, **details)


def parse_catalogue(rows: Any) -> Catalogue:
    """R1, the catalogue: validate a catalogue given as a list of 36 objects ``{id, category,
    sex, stars, favourite_role}`` (unique ids, 6 per category, stars 1–3, favourite role empty or
    one of Turandot, Calaf, Liù). Raises :class:`InvalidOptions` (code ``invalid_catalogue``)
    naming the first problem found."""
    if not isinstance(rows, list):
        raise _fail("the catalogue must be a list of 36 singers")
    if len(rows) != 36:
        raise _fail(f"the catalogue must have 36 singers, not {len(rows)}")
    singers: list[Singer] = []
    seen: set[str] = set()
    per_category = {c: 0 for c in CATEGORIES}
    for i, row in enumerate(rows):
        where = f"singer {i}"
        if not isinstance(row, dict):
            raise _fail(f"{where}: must be an object", index=i)
        extra = set(row) - {"id", "category", "sex", "stars", "favourite_role", "kind"}
        if extra:
            raise _fail(f"{where}: unknown fields {sorted(extra)}", index=i)
        if row.get("kind", "singer") != "singer":
            raise _fail(f"{where}: kind must be 'singer'", index=i)
        sid = row.get("id")
        if not isinstance(sid, str) or not _SINGER_ID.fullmatch(sid):
            raise _fail(f"{where}: id must be 1 to 32 letters A-Z, digits, '_' or '-'", index=i)
        if sid in seen:
            raise _fail(f"{where}: duplicate id {sid!r}", index=i)
        if sid in DIRECTOR_TEXT:
            raise _fail(f"{where}: id {sid!r} is a director's name", index=i)
        seen.add(sid)
        category = row.get("category")
        if category not in CATEGORIES:
            raise _fail(f"{where} ({sid}): category must be one of {list(CATEGORIES)}", index=i)
        sex = row.get("sex")
        if sex not in SEXES:
            raise _fail(f"{where} ({sid}): sex must be one of {list(SEXES)}", index=i)
        stars = row.get("stars")
        if type(stars) is not int or not 1 <= stars <= 3:
            raise _fail(f"{where} ({sid}): stars must be an integer from 1 to 3", index=i)
        favourite = row.get("favourite_role")
        if favourite == "":
            favourite = None
        if favourite is not None and (type(favourite) is not str
                                      or favourite not in FAVOURITE_ROLES):
            raise _fail(
                f"{where} ({sid}): favourite_role must be empty or one of {list(FAVOURITE_ROLES)}",
                index=i,
            )
        per_category[category] += 1
        singers.append(Singer(sid, category, sex, stars, favourite))
    for category, count in per_category.items():
        if count != 6:
            raise _fail(f"the catalogue must have 6 {category} singers, not {count}")
    return Catalogue(singers, fingerprint(singers))


def fingerprint(singers: Iterable[Singer]) -> str:
    data = json.dumps([s.card() for s in singers], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(data.encode()).hexdigest()[:16]


def _load_default() -> Catalogue:
    text = resources.files(__package__).joinpath("data/singers.csv").read_text(encoding="utf-8")
    rows = []
    for row in csv.DictReader(io.StringIO(text)):
        rows.append({
            "id": row["id"],
            "category": row["category"],
            "sex": row["sex"],
            "stars": int(row["stars"]),
            "favourite_role": row["favourite_role"] or None,
        })
    cat = parse_catalogue(rows)
    return Catalogue(cat.singers.values(), "default")


DEFAULT = _load_default()
_CUSTOM: dict[str, Catalogue] = {}


def catalogue_for(custom: dict[str, Any] | None) -> Catalogue:
    """The catalogue a game state refers to: ``None`` for the default, else ``{"key", "singers"}``."""
    if custom is None:
        return DEFAULT
    key = custom["key"]
    cat = _CUSTOM.get(key)
    if cat is None:
        if len(_CUSTOM) > 256:
            _CUSTOM.clear()
        cat = _CUSTOM[key] = parse_catalogue(custom["singers"])
    return cat
