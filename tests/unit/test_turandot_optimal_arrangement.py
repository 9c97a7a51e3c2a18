"""R6 — the engine's optimal arrangement: the maximum score (director included), and among equal
arrangements the first in order of card ids by role. Checked against brute force over all 720
permutations."""

from __future__ import annotations

import itertools
import random

import pytest

from impresario_rules.turandot.cards import CATEGORIES, DEFAULT, DIRECTORS, parse_catalogue
from impresario_rules.turandot.scoring import best_arrangement, score_cast


def brute_force(singers, director, stage, catalogue):
    """Every permutation scored in full; the best total, ties to the smallest tuple of ids."""
    best = None
    for perm in itertools.permutations(singers):
        total = score_cast(perm, director, stage, False, catalogue)["total"]
        key = (-total, perm)
        if best is None or key < best:
            best = key
    return best[1], -best[0]


def random_catalogue(rng, tie_heavy=False):
    rows = []
    ids = rng.sample(range(100, 1000), 36)
    for i in range(36):
        rows.append({
            "id": f"c{ids[i]}",
            "category": CATEGORIES[i % 6],
            "sex": rng.choice(["male", "female", "undefined"]) if not tie_heavy
            else rng.choice(["male", "male", "female"]),
            "stars": rng.randint(1, 3),
            "favourite_role": rng.choice([None, None, "turandot", "calaf", "liu"]),
        })
    return parse_catalogue(rows)


CATALOGUES = [("default", lambda rng: DEFAULT),
              ("random", lambda rng: random_catalogue(rng)),
              ("ties", lambda rng: random_catalogue(rng, tie_heavy=True))]


@pytest.mark.parametrize("name, make", CATALOGUES, ids=[c[0] for c in CATALOGUES])
@pytest.mark.parametrize("director", DIRECTORS)
def test_R6_the_optimum_matches_brute_force_with_the_lexicographic_tie_rule(name, make, director):
    rng = random.Random(f"{name}-{director}")
    catalogue = make(rng)
    for _ in range(16):
        hand = rng.sample(list(catalogue.ids), 6)
        stage = rng.randrange(4)
        expected, total = brute_force(hand, director, stage, catalogue)
        got = best_arrangement(hand, director, catalogue)
        assert tuple(got) == expected, (hand, director)
        assert score_cast(got, director, stage, False, catalogue)["total"] == total
        # the answer does not depend on the order the hand is given in
        assert best_arrangement(list(reversed(hand)), director, catalogue) == got


def test_R6_among_equal_arrangements_the_first_in_order_of_ids_by_role():
    # six undefined singers without favourite roles: every arrangement scores the same
    rows = [{"id": f"Z{i}", "category": CATEGORIES[i % 6], "sex": "undefined", "stars": 2,
             "favourite_role": None} for i in range(36)]
    catalogue = parse_catalogue(rows)
    hand = ["Z9", "Z3", "Z12", "Z1", "Z30", "Z2"]
    assert best_arrangement(hand, "neutral", catalogue) == tuple(sorted(hand))
    assert sorted(hand) == ["Z1", "Z12", "Z2", "Z3", "Z30", "Z9"]  # string order of ids


def test_R6_the_director_is_included():
    # S04 (female, likes Turandot) and S22 (female, likes Turandot): with favourite_roles the
    # director doubles the favourite bonus, but only one of them can be Turandot either way
    hand = ["S04", "S22", "S02", "S19", "S01", "S03"]
    for director in DIRECTORS:
        got = best_arrangement(hand, director)
        expected, _ = brute_force(hand, director, 0, DEFAULT)
        assert got == expected


def test_R6_a_hand_must_be_six_different_singers():
    from impresario_rules.base import IllegalMove
    with pytest.raises(IllegalMove):
        best_arrangement(["S01"] * 6, "neutral")
    with pytest.raises(IllegalMove):
        best_arrangement(["S01", "S02"], "neutral")
