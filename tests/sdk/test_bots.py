"""The SDK's Turandot greedy bot values a cast by the best placement of its singers: the fast
search gives what trying every order of the roles gives."""

from __future__ import annotations

import itertools
import random

from impresario.bots import CATEGORIES, ROLE_SEX, ROLES, _director_bonus, cast_value

DIRECTORS = (None, "neutral", "dark_over_comic", "comic_over_dark", "alternative_over_classic",
             "classic_over_alternative", "favourite_roles", "stagecraft", "full_spectrum",
             "undefined_sex")


def every_order(cards: list[dict], director: str | None, stage: int) -> int:
    best = None
    for roles in itertools.permutations(range(6), len(cards)):
        fav = sum(1 for c, r in zip(cards, roles) if c["favourite_role"] == ROLES[r])
        wrong = sum(1 for c, r in zip(cards, roles)
                    if c["sex"] != "undefined" and c["sex"] != ROLE_SEX[r])
        score = sum(c["stars"] for c in cards) + stage + fav - wrong
        score += _director_bonus(director, cards, fav, stage)
        best = score if best is None else max(best, score)
    return stage if best is None else best


def test_cast_value_is_the_best_of_every_order():
    rng = random.Random(16)
    for i in range(400):
        cards = [{"id": f"S{i}-{k}", "category": rng.choice(CATEGORIES),
                  "sex": rng.choice(("male", "female", "undefined")),
                  "stars": rng.randint(1, 3),
                  "favourite_role": rng.choice((None, None, "turandot", "calaf", "liu"))}
                 for k in range(rng.randint(0, 6))]
        director, stage = rng.choice(DIRECTORS), rng.randint(0, 3)
        assert cast_value(cards, director, stage) == every_order(cards, director, stage)
