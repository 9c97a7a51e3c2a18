"""Phase 3 — firing a director (rounds 1–3), the round-4 directors, and Puccini passing left."""

from __future__ import annotations

import pytest

from impresario_rules.turandot import TURANDOT as T
from impresario_rules.turandot.cards import DIRECTORS

from turandot_helpers import advance_to_round, bid, bids, events_of, finish_round, new, refused


def to_nominate(n, maestro=0, seed=1):
    state = new(n, first_maestro=maestro, seed=seed)
    state, _ = bids(state, {s: (s + 1,) for s in range(n)})
    return state


@pytest.mark.parametrize("n", [3, 4, 5])
def test_the_maestro_names_another_player_who_fires_a_director(n):
    state = to_nominate(n, maestro=1)
    assert state["phase"] == "nominate" and T.pending(state) == {1: ["nominate"]}
    state, events = T.apply(state, 1, {"type": "nominate", "seat": 0})
    assert events == [{"type": "nominated", "round": 1, "seat": 0}]
    assert state["phase"] == "fire" and T.pending(state) == {0: ["fire_director"]}
    assert T.view(state, None)["nominee"] == 0
    state, events = T.apply(state, 0, {"type": "fire_director", "director": "stagecraft"})
    assert events[0] == {"type": "director_fired", "round": 1, "seat": 0,
                         "director": "stagecraft"}
    assert "stagecraft" not in state["pile"] and len(state["pile"]) == 8
    assert state["fired"] == [[0, "stagecraft"]]
    view = T.view(state, None)  # shown to all
    assert view["fired"] == [{"seat": 0, "director": {"id": "stagecraft", "kind": "director",
                                                      "effect": "+1 per stage element"}}]
    assert state["round"] == 2 and state["phase"] == "bidding"


def test_cannot_nominate_self():
    refused(to_nominate(4, maestro=2), 2, {"type": "nominate", "seat": 2},
            "cannot_nominate_self", "illegal")


@pytest.mark.parametrize("nominee", [4, -1, 9])
def test_nominating_an_unknown_seat(nominee):
    refused(to_nominate(4, maestro=2), 2, {"type": "nominate", "seat": nominee},
            "unknown_seat", "illegal")


@pytest.mark.parametrize("nominee", ["1", None, 1.0, True])
def test_a_nominee_that_is_no_seat_number_is_a_malformed_move(nominee):
    refused(to_nominate(4, maestro=2), 2, {"type": "nominate", "seat": nominee},
            "invalid_move", "illegal")


def test_only_the_maestro_nominates_and_only_in_the_nomination_phase():
    state = to_nominate(4, maestro=2)
    for seat in (0, 1, 3):
        refused(state, seat, {"type": "nominate", "seat": 0}, "not_your_turn", "not_now")
    refused(new(4), 0, {"type": "nominate", "seat": 1}, "not_nominate_phase", "not_now")
    refused(state, 2, {"type": "nominate", "seat": 1, "why": "x"}, "invalid_move", "illegal")


def test_the_nominee_fires_only_from_the_pile():
    state = to_nominate(4, maestro=2)
    state, _ = T.apply(state, 2, {"type": "nominate", "seat": 3})
    for bad in ("tosca", "Neutral"):
        refused(state, 3, {"type": "fire_director", "director": bad}, "director_not_in_pile",
                "illegal")
    for bad in (None, 3, ["neutral"]):  # not a director's name at all
        refused(state, 3, {"type": "fire_director", "director": bad}, "invalid_move", "illegal")
    for seat in (0, 1, 2):
        refused(state, seat, {"type": "fire_director", "director": "neutral"},
                "not_your_turn", "not_now")
    state, _ = T.apply(state, 3, {"type": "fire_director", "director": "neutral"})
    # round 2: fire again; neutral is no longer in the pile
    state, _ = bids(state, {s: (s + 1,) for s in range(4)})
    assert state["maestro"] == 3
    state, _ = T.apply(state, 3, {"type": "nominate", "seat": 0})
    refused(state, 0, {"type": "fire_director", "director": "neutral"}, "director_not_in_pile")
    refused(new(3), 0, {"type": "fire_director", "director": "neutral"}, "not_fire_phase", "not_now")


@pytest.mark.parametrize("maestro", [0, 1])
def test_with_2_players_the_nomination_is_forced(maestro):
    state = new(2, first_maestro=maestro)
    state, events = bids(state, {0: (1,), 1: (2,)})
    assert events_of(events, "nominated") == [
        {"type": "nominated", "round": 1, "seat": 1 - maestro, "forced": True}]
    assert state["phase"] == "fire" and T.pending(state) == {1 - maestro: ["fire_director"]}
    refused(state, maestro, {"type": "nominate", "seat": 1 - maestro}, "not_nominate_phase", "not_now")


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_directors_are_fired_in_rounds_1_to_3_only(n):
    state = new(n, first_maestro=0, seed=4)
    phases = {}
    while state["phase"] != "casting":
        rnd = state["round"]
        state, events = finish_round(state)
        phases[rnd] = [e["type"] for e in events]
    for rnd in (1, 2, 3):
        assert "director_fired" in phases[rnd]
    for rnd in (4, 5, 6, 7):
        assert "director_fired" not in phases[rnd] and "nominated" not in phases[rnd]
    assert len(state["fired"]) == 3


# ---------------------------------------------------------------- round 4

@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_round_4_the_remaining_six_directors_are_shuffled_n_plus_1_laid_rest_removed(n):
    state = advance_to_round(new(n, seed=11), 3)
    deck_before = list(state["deck"])
    state, events = finish_round(state)
    assert state["round"] == 4
    fired = [d for _, d in state["fired"]]
    remaining = [d for d in DIRECTORS if d not in fired]
    assert len(remaining) == 6
    assert len(state["table"]) == n + 1
    assert sorted(state["table"] + state["removed"]) == sorted(remaining)
    assert len(state["removed"]) == 5 - n
    assert state["pile"] == []
    assert state["deck"] == deck_before  # no singer is laid in round 4
    (started,) = events_of(events, "round_started")
    assert started["table"] == state["table"]
    if n < 5:
        assert events_of(events, "directors_removed")[0]["directors"] == state["removed"]
    view = T.view(state, None)
    assert [s["card"]["kind"] for s in view["table"]] == ["director"] * (n + 1)


def test_round_4_the_shuffle_depends_on_the_seed():
    layouts = set()
    for seed in range(30):
        state = new(3, seed=seed)
        # fire the same three directors in every game so only the shuffle differs
        for d in ("neutral", "stagecraft", "undefined_sex"):
            state, _ = bids(state, {s: (s + 1,) for s in range(3)})
            m = state["maestro"]
            state, _ = T.apply(state, m, {"type": "nominate", "seat": (m + 1) % 3})
            state, _ = T.apply(state, (m + 1) % 3, {"type": "fire_director", "director": d})
        assert state["round"] == 4
        layouts.add(tuple(state["table"]))
    assert len(layouts) > 10


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_round_4_every_player_hires_a_director_and_no_helper(n):
    state = advance_to_round(new(n, seed=2), 4)
    table = list(state["table"])
    assert T.view(state, (state["maestro"] + 1) % n)["players"]  # sanity
    for seat in range(n):
        assert not T.action_space(state, seat)[0]["helper"]
    state, _ = finish_round(state)
    assert state["round"] == 5
    assert all(d in table for d in state["director"])
    assert len(set(state["director"])) == n
    assert all(len(s) == 3 for s in state["singers"])


# ---------------------------------------------------------------- Puccini and the end of a round

@pytest.mark.parametrize("n", [2, 3, 4, 5])
@pytest.mark.parametrize("first", [0, 1])
def test_puccini_passes_left_after_rounds_1_to_6_and_stays_after_7(n, first):
    state = new(n, first_maestro=first)
    maestros = []
    while state["phase"] != "casting":
        maestros.append((state["round"], state["maestro"]))
        state, events = finish_round(state)
        ended = events_of(events, "round_ended")[0]
        if ended["round"] < 7:
            assert ended["next_maestro"] == state["maestro"]
        else:
            assert ended["next_maestro"] is None
    assert maestros == [(r, (first + r - 1) % n) for r in range(1, 8)]
    assert state["maestro"] == (first + 6) % n  # stays with the round-7 maestro
    if n == 2:
        assert state["maestro"] == first  # the round-1 maestro ends with Puccini


def test_number_cards_and_bluff_return_to_hand_unspent_money_returns():
    state = new(3, first_maestro=0)
    state, _ = bids(state, {0: (1, 1, True), 1: (1, 2, True), 2: (None, 1, True)})
    # 1 wins slot 1 for 2; 0 takes back 1; 2 gets the costume designer
    state, _ = finish_round(state)
    assert state["round"] == 2
    assert state["money"] == [3, 1, 2]
    for seat in range(3):
        hand = T.view(state, seat)["you"]["hand"]
        assert hand == {"numbers": [1, 2, 3, 4], "money": state["money"][seat], "bluff": True}


def test_after_round_7_everyone_has_6_singers_and_1_director_and_casts():
    state = advance_to_round(new(4), 7)
    state, _ = finish_round(state)
    assert state["phase"] == "casting"
    assert T.pending(state) == {s: ["cast"] for s in range(4)}
    assert all(len(s) == 6 for s in state["singers"])
    assert all(d in DIRECTORS for d in state["director"])
    refused(state, 0, bid(1), "not_bidding_phase", "not_now")
