"""End of game: casting and scoring — every director, sex and favourite roles, stage elements,
ties, the 2-player Puccini penalty and the dummy."""

from __future__ import annotations

import itertools
import random

import pytest

from impresario_rules.turandot import TURANDOT as T
from impresario_rules.turandot.cards import CATEGORIES, DIRECTORS, ROLES
from impresario_rules.turandot.scoring import LINES, best_arrangement, score_cast

from turandot_helpers import CAT, new, refused, scenario

# A cast with 3 dark, 1 comic, 2 alternative, 0 classic; 1 undefined; 3 in their favourite role
X = ["S34", "S31", "S36", "S25", "S15", "S13"]
# A cast with one singer of each of the 6 categories, 3 in their favourite role
Y = ["S04", "S07", "S16", "S19", "S25", "S32"]


def test_the_example_casts_are_what_the_tests_say():
    assert [CAT[i].category for i in X] == ["dark", "dark", "dark", "comic", "alternative",
                                            "alternative"]
    assert sorted(CAT[i].category for i in Y) == sorted(CATEGORIES)


@pytest.mark.parametrize("director, bonus", [
    ("dark_over_comic", 3 - 1),
    ("comic_over_dark", 1 - 3),
    ("alternative_over_classic", 2 - 0),
    ("classic_over_alternative", 0 - 2),
    ("favourite_roles", 3),
    ("stagecraft", 2),
    ("full_spectrum", 0),
    ("undefined_sex", 1),
    ("neutral", 0),
    (None, 0),
])
def test_every_directors_effect(director, bonus):
    lines = score_cast(X, director, stage_elements=2)
    assert lines == {"stars": 13, "stage_elements": 2, "favourite_roles": 3, "wrong_sex": 0,
                     "director": bonus, "puccini": 0, "total": 13 + 2 + 3 + bonus}


def test_full_spectrum_gives_3_with_all_six_categories():
    assert score_cast(Y, "full_spectrum")["director"] == 3
    five = ["S04", "S07", "S16", "S19", "S25", "S01"]  # two professionals, no dark
    assert score_cast(five, "full_spectrum")["director"] == 0


def test_favourite_roles_director_counts_only_singers_in_their_favourite_role():
    moved = ["S36", "S31", "S34", "S25", "S15", "S13"]  # S34 (Turandot) and S36 (Liù) swapped
    lines = score_cast(moved, "favourite_roles")
    assert lines["favourite_roles"] == 1 and lines["director"] == 1


def test_stagecraft_counts_stage_elements():
    for k in range(4):
        assert score_cast(X, "stagecraft", stage_elements=k)["director"] == k


def test_undefined_sex_is_never_in_the_wrong_role():
    undefined = [i for i, s in CAT.items() if s.sex == "undefined"]
    assert len(undefined) == 6
    for perm in itertools.permutations(undefined):
        assert score_cast(list(perm), "undefined_sex")["wrong_sex"] == 0
        assert score_cast(list(perm), "undefined_sex")["director"] == 6


def test_a_singer_in_a_role_of_the_other_sex_costs_1():
    # Turandot: male; Calaf: female; Liù: female (right); Ping, Pong: female; Pang: male (right)
    cast = ["S01", "S04", "S05", "S22", "S23", "S03"]
    lines = score_cast(cast, "neutral")
    assert lines["wrong_sex"] == -4
    assert lines["favourite_roles"] == 0  # S04, S22 like Turandot, S23 Liù: not where they are
    assert lines["total"] == lines["stars"] - 4


def test_favourite_roles_exist_only_for_turandot_calaf_and_liu():
    favs = {s.favourite_role for s in CAT.values()}
    assert favs == {None, "turandot", "calaf", "liu"}
    for sid, s in CAT.items():
        if s.favourite_role:
            r = ROLES.index(s.favourite_role)
            others = [o for o in CAT if o != sid][:5]
            cast = others[:r] + [sid] + others[r:]
            other_role = (r + 3) % 6
            cast2 = others[:other_role] + [sid] + others[other_role:]
            gain = (score_cast(cast, "neutral")["favourite_roles"]
                    - sum(1 for o, role in zip(cast, ROLES) if o != sid
                          and CAT[o].favourite_role == role))
            assert gain == 1
            assert score_cast(cast2, "neutral")["favourite_roles"] == sum(
                1 for o, role in zip(cast2, ROLES) if CAT[o].favourite_role == role)


def test_stars_stage_elements_and_the_total_is_the_sum_of_the_lines():
    rng = random.Random(5)
    for _ in range(500):
        cast = rng.sample(list(CAT), 6)
        director = rng.choice(DIRECTORS)
        stage = rng.randrange(4)
        puccini = rng.random() < 0.5
        lines = score_cast(cast, director, stage, puccini)
        assert lines["total"] == sum(lines[k] for k in LINES)
        assert lines["stars"] == sum(CAT[i].stars for i in cast)
        assert lines["stage_elements"] == stage
        assert lines["puccini"] == (-1 if puccini else 0)
        wrong = sum(1 for i, r in zip(cast, ("female", "male", "female", "male", "male", "male"))
                    if CAT[i].sex not in ("undefined", r))
        assert lines["wrong_sex"] == -wrong


def test_scores_may_be_negative():
    # male Turandot and Liù, female Calaf, Ping, Pong and Pang: every role the wrong sex
    cast = ["S08", "S10", "S33", "S11", "S35", "S28"]
    lines = score_cast(cast, "comic_over_dark")
    assert lines == {"stars": 6, "stage_elements": 0, "favourite_roles": 0, "wrong_sex": -6,
                     "director": 1 - 2, "puccini": 0, "total": -1}


# ---------------------------------------------------------------- a game's score

def uniform_catalogue():
    """Every singer of undefined sex and no favourite role: a score is stars + stage + director.
    U01..U12 have 1 star, U13..U24 2 stars, U25..U36 3 stars; categories cycle."""
    return [{"id": f"U{i + 1:02d}", "category": CATEGORIES[i % 6], "sex": "undefined",
             "stars": 1 + i // 12, "favourite_role": None} for i in range(36)]


def U(*numbers):
    return [f"U{k:02d}" for k in numbers]


_CASTING: dict = {}


def casting(n, first_maestro=0, catalogue=None, **replace):
    """A game of ``n`` players played to the casting phase with the R7 defaults, then with parts
    of the state replaced (singers, director, stage, dummy...)."""
    key = (n, first_maestro, catalogue is not None)
    if key not in _CASTING:
        options = {"first_maestro": first_maestro}
        if catalogue is not None:
            options["catalogue"] = catalogue
        state, _ = T.new_game(n, options, 9)
        while state["phase"] != "casting":
            seat = min(T.pending(state))
            state, _ = T.apply(state, seat, T.default_action(state, seat))
        _CASTING[key] = state
    return scenario(_CASTING[key], **replace)


def cast_all(state, roles=None):
    for seat in range(state["n"]):
        r = None if roles is None else roles[seat]
        state, events = T.apply(state, seat, {"type": "cast", "roles": r})
    return state, events


def finished(n, singers, directors, stage=None, first_maestro=0, dummy=None, roles=None,
             catalogue=None):
    replace = {"singers": singers, "director": directors, "stage": stage or [0] * n}
    if dummy is not None:
        replace["dummy"] = dummy
    state = casting(n, first_maestro, catalogue, **replace)
    state, events = cast_all(state, roles or singers)
    assert T.is_finished(state)
    return state, events


def test_the_score_has_a_line_by_line_breakdown_and_a_total_per_player():
    state, events = finished(3, [X, Y, ["S01", "S02", "S03", "S05", "S06", "S08"]],
                             ["dark_over_comic", "full_spectrum", "neutral"], stage=[2, 0, 1])
    result = T.score(state)
    for p, cast, d, st in zip(result["players"], [X, Y], ["dark_over_comic", "full_spectrum"],
                              [2, 0]):
        expected = score_cast(cast, d, st)
        assert p["total"] == expected.pop("total") == sum(p["lines"].values())
        assert p["lines"] == expected
        assert p["cast"] == cast
    assert events[-1]["type"] == "game_finished"
    assert events[-1]["totals"] == [p["total"] for p in result["players"]]
    assert T.view(state, None)["score"] == result


def test_highest_score_wins():
    cat = uniform_catalogue()
    state, events = finished(3, [U(1, 2, 3, 4, 5, 6), U(25, 26, 27, 28, 29, 30),
                                 U(13, 14, 15, 16, 17, 18)],
                             ["neutral"] * 3, catalogue=cat)
    assert T.score(state)["winners"] == [1]
    assert events[-1]["winners"] == [1] and events[-1]["dummy_wins"] is False


def test_a_tie_is_broken_by_stars_alone():
    cat = uniform_catalogue()
    # seat 0: 12 stars; seat 1: 11 stars + 1 stage element; both total 12
    state, _ = finished(3, [U(13, 14, 15, 16, 17, 18), U(1, 14, 15, 16, 17, 18),
                            U(2, 3, 4, 5, 6, 7)],
                        ["neutral"] * 3, stage=[0, 1, 0], catalogue=cat)
    result = T.score(state)
    assert [p["total"] for p in result["players"]][:2] == [12, 12]
    assert result["winners"] == [0]


def test_a_tie_in_total_and_stars_is_a_shared_victory():
    cat = uniform_catalogue()
    state, _ = finished(4, [U(13, 14, 15, 16, 17, 18), U(1, 2, 25, 26, 19, 20),
                            U(3, 4, 5, 6, 7, 8), U(9, 10, 27, 21, 22, 11)],
                        ["neutral", "neutral", "neutral", "stagecraft"], stage=[0, 0, 0, 1],
                        catalogue=cat)
    # seat 0: 12 stars; seat 1: 1+1+3+3+2+2 = 12 stars; seat 3: 1+1+3+2+2+1 = 10 + 1 + 1 = 12
    result = T.score(state)
    assert [p["total"] for p in result["players"]] == [12, 12, 6, 12]
    assert result["winners"] == [0, 1]


def test_a_director_can_outweigh_stars():
    cat = uniform_catalogue()
    s0 = U(25, 26, 15, 16, 19, 20)  # 14 stars
    s1 = U(5, 11, 17, 23, 29, 13)  # 11 stars, 5 comic
    assert [c["category"] for c in cat if c["id"] in s1].count("comic") == 5
    state, _ = finished(2, [s0, s1], ["neutral", "comic_over_dark"], first_maestro=1,
                        dummy={"singers": U(1, 2, 3, 4, 7, 8), "director": "neutral"},
                        catalogue=cat)
    result = T.score(state)
    # the round-1 maestro (seat 1) holds Puccini: −1
    assert result["players"][1]["lines"]["puccini"] == -1
    assert [p["total"] for p in result["players"]] == [14, 11 + 5 - 1]
    assert [p["lines"]["stars"] for p in result["players"]] == [14, 11]
    assert result["winners"] == [1]


# ---------------------------------------------------------------- two players

@pytest.mark.parametrize("first", [0, 1])
def test_2_players_the_round_1_maestro_loses_1_point(first):
    cat = uniform_catalogue()
    state, _ = finished(2, [U(13, 14, 15, 16, 17, 18), U(19, 20, 21, 22, 23, 24)],
                        ["neutral", "neutral"], first_maestro=first,
                        dummy={"singers": U(1, 2, 3, 4, 5, 6), "director": "neutral"},
                        catalogue=cat)
    assert state["maestro"] == first
    result = T.score(state)
    assert result["players"][first]["lines"]["puccini"] == -1
    assert result["players"][1 - first]["lines"]["puccini"] == 0
    assert result["players"][first]["total"] == 11
    assert result["winners"] == [1 - first]  # the penalty applies before any comparison


def test_more_than_2_players_no_puccini_penalty():
    state, _ = finished(3, [X, Y, ["S01", "S02", "S03", "S05", "S06", "S08"]], ["neutral"] * 3)
    assert all(p["lines"]["puccini"] == 0 for p in T.score(state)["players"])


def test_the_dummy_is_cast_in_the_order_received_never_rearranged():
    order = ["S01", "S04", "S02", "S05", "S06", "S03"]  # male Turandot, female Calaf...
    state, _ = finished(2, [X, Y], ["neutral", "neutral"],
                        dummy={"singers": order, "director": "dark_over_comic"})
    dummy = T.score(state)["dummy"]
    assert dummy["cast"] == order
    expected = score_cast(order, "dark_over_comic", 0, False)
    assert dummy["total"] == expected.pop("total")
    assert dummy["lines"] == expected
    assert dummy["lines"]["wrong_sex"] == -4
    # the optimum would have been better: the dummy is not rearranged
    best = score_cast(list(best_arrangement(order, "dark_over_comic")), "dark_over_comic")
    assert best["total"] > dummy["total"]


def test_the_dummy_has_no_stage_elements_and_its_director_counts():
    state, _ = finished(2, [X, Y], ["neutral", "neutral"], stage=[1, 1],
                        dummy={"singers": X[::-1], "director": "stagecraft"})
    dummy = T.score(state)["dummy"]
    assert dummy["lines"]["stage_elements"] == 0 and dummy["lines"]["director"] == 0
    state, _ = finished(2, [X, Y], ["neutral", "neutral"],
                        dummy={"singers": X, "director": "dark_over_comic"})
    assert T.score(state)["dummy"]["lines"]["director"] == 2


def _dummy_game(dummy_stars):
    """2 players: seat 0 (the round-1 maestro) 13 stars − 1 = 12; seat 1: 11 stars; the dummy
    has ``dummy_stars`` (neutral directors everywhere)."""
    cat = uniform_catalogue()
    s0 = U(25, 14, 15, 16, 17, 18)
    s1 = U(1, 19, 20, 21, 22, 23)
    pool_1 = U(2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12)
    pool_3 = U(26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36)
    k = (dummy_stars - 6) // 2  # number of 3-star singers among 6 (the others have 1 star)
    singers = pool_3[:k] + pool_1[: 6 - k]
    assert sum(c["stars"] for c in cat if c["id"] in singers) == dummy_stars
    return finished(2, [s0, s1], ["neutral", "neutral"], first_maestro=0,
                    dummy={"singers": singers, "director": "neutral"}, catalogue=cat)


def test_the_dummy_wins_only_strictly_above_both_players():
    state, events = _dummy_game(14)
    result = T.score(state)
    assert [p["total"] for p in result["players"]] == [12, 11]
    assert result["dummy"]["total"] == 14
    assert result["dummy_wins"] is True and result["winners"] == []
    assert events[-1]["dummy_wins"] is True and events[-1]["winners"] == []


def test_a_dummy_equal_to_the_best_player_does_not_win():
    state, _ = _dummy_game(12)
    result = T.score(state)
    assert result["dummy"]["total"] == 12
    assert result["dummy_wins"] is False and result["winners"] == [0]


def test_a_dummy_below_the_players_does_not_win():
    state, _ = _dummy_game(10)
    result = T.score(state)
    assert result["dummy_wins"] is False and result["winners"] == [0]


# ---------------------------------------------------------------- the cast move

def test_cast_moves_are_checked():
    state = casting(3)
    mine = state["singers"][0]
    other = state["singers"][1]
    refused(state, 0, {"type": "cast", "roles": other}, "not_a_permutation", "illegal")
    refused(state, 0, {"type": "cast", "roles": [mine[0]] * 6}, "not_a_permutation", "illegal")
    refused(state, 0, {"type": "cast", "roles": mine[:5]}, "invalid_move", "illegal")
    refused(state, 0, {"type": "cast", "roles": mine + mine[:1]}, "invalid_move", "illegal")
    refused(state, 0, {"type": "cast", "roles": "".join(mine)}, "invalid_move", "illegal")
    refused(state, 0, {"type": "cast", "roles": [1, 2, 3, 4, 5, 6]}, "invalid_move", "illegal")
    refused(state, 0, {"type": "cast", "roles": mine, "x": 1}, "invalid_move", "illegal")
    refused(new(3), 0, {"type": "cast", "roles": None}, "not_casting_phase", "not_now")
    state2, events = T.apply(state, 0, {"type": "cast", "roles": list(reversed(mine))})
    assert events == [{"type": "cast", "seat": 0, "roles": list(reversed(mine))}]
    again, events = T.apply(state2, 0, {"type": "cast", "roles": list(reversed(mine))})
    assert again is state2 and events == []
    refused(state2, 0, {"type": "cast", "roles": mine}, "already_cast", "not_now")
    assert T.pending(state2) == {1: ["cast"], 2: ["cast"]}


def test_a_finished_game_refuses_every_move():
    state, _ = finished(3, [X, Y, ["S01", "S02", "S03", "S05", "S06", "S08"]], ["neutral"] * 3)
    assert T.pending(state) == {}
    for action in ({"type": "cast", "roles": None}, {"type": "bid", "slot": 1}):
        refused(state, 0, action, "game_finished", "finished")


def test_casting_with_roles_null_applies_the_optimal_arrangement():
    state = casting(4)
    for seat in range(4):
        space = T.action_space(state, seat)[0]
        best = list(best_arrangement(state["singers"][seat], state["director"][seat]))
        assert space["optimal"] == best
        new_state, events = T.apply(state, seat, {"type": "cast", "roles": None})
        assert new_state["casts"][seat] == best
        assert events[0]["roles"] == best
        # re-sending "optimal" is idempotent; the explicit optimum too
        assert T.apply(new_state, seat, {"type": "cast", "roles": None})[0] is new_state
        assert T.apply(new_state, seat, {"type": "cast", "roles": best})[0] is new_state
        total = score_cast(best, state["director"][seat], state["stage"][seat])["total"]
        assert space["optimal_total"] == total


def _score(totals_and_stars):
    return {"players": [{"seat": seat, "total": total, "lines": {"stars": stars}}
                        for seat, (total, stars) in enumerate(totals_and_stars)]}


@pytest.mark.parametrize("totals_and_stars, places", [
    # a 15-15 tie for second: broken by stars, as the tie at the top is
    ([(20, 9), (15, 8), (15, 10), (9, 5)], [1, 3, 2, 4]),
    # still tied on stars: they share the place, and the next one is 4th
    ([(20, 9), (15, 8), (15, 8), (9, 5)], [1, 2, 2, 4]),
    ([(13, 9), (13, 9), (10, 7)], [1, 1, 3]),
])
def test_every_player_is_ranked_by_total_then_stars_ties_sharing_the_place(totals_and_stars,
                                                                            places):
    assert T.places(_score(totals_and_stars)) == places
