"""The greedy bot values a hand by the best placement of its singers: the search over role sets
gives what trying every order of the roles gives, for singers read off a view (their faces)."""

from __future__ import annotations

import itertools
import random

from impresario_rules.turandot.cards import CATEGORIES, ROLE_SEX, ROLES, Singer
from impresario_rules.turandot.scoring import best_points_of, director_bonus

DIRECTORS = (None, "neutral", "dark_over_comic", "comic_over_dark", "alternative_over_classic",
             "classic_over_alternative", "favourite_roles", "stagecraft", "full_spectrum",
             "undefined_sex")


def every_order(cards: list[Singer], director: str | None, stage: int) -> int:
    best = None
    for roles in itertools.permutations(range(6), len(cards)):
        fav = sum(1 for c, r in zip(cards, roles) if c.favourite_role == ROLES[r])
        wrong = sum(1 for c, r in zip(cards, roles)
                    if c.sex != "undefined" and c.sex != ROLE_SEX[r])
        score = sum(c.stars for c in cards) + stage + fav - wrong
        score += director_bonus(director, [c.category for c in cards], [c.sex for c in cards],
                                fav, stage)
        best = score if best is None else max(best, score)
    return stage if best is None else best


def test_the_value_of_a_hand_is_the_best_of_every_order():
    rng = random.Random(16)
    for i in range(400):
        cards = [Singer(f"S{i}-{k}", rng.choice(CATEGORIES),
                        rng.choice(("male", "female", "undefined")), rng.randint(1, 3),
                        rng.choice((None, None, "turandot", "calaf", "liu")))
                 for k in range(rng.randint(0, 6))]
        director, stage = rng.choice(DIRECTORS), rng.randint(0, 3)
        assert best_points_of(tuple(cards), director, stage) == every_order(cards, director,
                                                                            stage)
