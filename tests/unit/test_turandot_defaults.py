"""R7 — the move the engine makes for a player who lets a deadline pass, for each decision."""

from __future__ import annotations

import pytest

from impresario_rules.turandot import TURANDOT as T
from impresario_rules.turandot.cards import DIRECTORS
from impresario_rules.turandot.scoring import best_arrangement

from turandot_helpers import bids, new, scenario


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_R7_default_bid_is_the_lowest_number_card_no_money_no_bluff(n):
    state = new(n)
    for seat in range(n):
        assert T.default_action(state, seat) == {"type": "bid", "slot": 1, "money": 0,
                                                 "bluff": False}
    state = scenario(state, money=[0] * n)  # even with no money left
    assert T.default_action(state, 0)["slot"] == 1
    T.apply(state, 0, T.default_action(state, 0))


def test_R7_default_office_hires_go_clockwise_from_the_maestros_left_in_slot_order():
    state = new(5, first_maestro=3)
    table = list(state["table"])
    # seat 2 wins slot 2; everyone else ties on slot 4
    state, _ = bids(state, {0: (4,), 1: (4,), 2: (2, 1), 3: (4,), 4: (4,)})
    assert state["waiting"] == [4, 0, 1, 3]
    action = T.default_action(state, 3)
    assert action == {"type": "assign_office", "assignments": [
        {"seat": 4, "slot": 1}, {"seat": 0, "slot": 3}, {"seat": 1, "slot": 4},
        {"seat": 3, "slot": 5}]}
    state, _ = T.apply(state, 3, action)
    assert [s[0] for s in state["singers"]] == [table[2], table[3], table[1], table[4], table[0]]


@pytest.mark.parametrize("maestro", [0, 1, 2, 3])
def test_R7_default_nomination_names_the_next_player_clockwise(maestro):
    state = new(4, first_maestro=maestro)
    state, _ = bids(state, {s: (s + 1,) for s in range(4)})
    assert T.default_action(state, maestro) == {"type": "nominate", "seat": (maestro + 1) % 4}


def test_R7_default_firing_removes_neutral_if_in_the_pile_else_the_first_in_catalogue_order():
    state = new(3, first_maestro=0)
    state, _ = bids(state, {s: (s + 1,) for s in range(3)})
    state, _ = T.apply(state, 0, {"type": "nominate", "seat": 2})
    assert T.default_action(state, 2) == {"type": "fire_director", "director": "neutral"}
    state2 = scenario(state, pile=["undefined_sex", "stagecraft", "comic_over_dark"])
    assert T.default_action(state2, 2) == {"type": "fire_director",
                                           "director": "comic_over_dark"}
    state3 = scenario(state, pile=list(reversed([d for d in DIRECTORS if d != "neutral"])))
    assert T.default_action(state3, 2)["director"] == "dark_over_comic"


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_R7_default_cast_is_the_R6_optimum(n):
    state = new(n, seed=3)
    while state["phase"] != "casting":
        seat = min(T.pending(state))
        state, _ = T.apply(state, seat, T.default_action(state, seat))
    for seat in range(n):
        action = T.default_action(state, seat)
        assert action == {"type": "cast", "roles": None}
        after, _ = T.apply(state, seat, action)
        assert after["casts"][seat] == list(best_arrangement(state["singers"][seat],
                                                             state["director"][seat]))


def test_R7_no_default_for_a_seat_that_has_nothing_to_do():
    state = new(3)
    state, _ = T.apply(state, 0, {"type": "bid", "slot": 1})
    from impresario_rules.base import OutOfTurn
    with pytest.raises(OutOfTurn):
        T.default_action(state, 0)


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_R7_a_game_played_entirely_by_defaults_finishes(n):
    state = new(n, seed=8)
    kinds = set()
    while not T.is_finished(state):
        seat = min(T.pending(state))
        action = T.default_action(state, seat)
        kinds.add(action["type"])
        state, _ = T.apply(state, seat, action)
    expected = {"bid", "assign_office", "fire_director", "cast"}
    if n > 2:
        expected.add("nominate")  # with 2 players the nomination is forced
    assert kinds == expected
    assert T.score(state)["players"]
