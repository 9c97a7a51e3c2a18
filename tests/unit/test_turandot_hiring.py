"""Phase 2 — hiring: clear winners, ties, helpers, office hires chosen by the maestro, and the
leftover card (discarded; with 2 players it goes to the dummy)."""

from __future__ import annotations

import pytest

from impresario_rules.turandot import TURANDOT as T

from turandot_helpers import bids, events_of, finish_round, new, refused

A, B, C, D = 0, 1, 2, 3


def hired(events):
    return {e["seat"]: e for e in events_of(events, "hired")}


# ---------------------------------------------------------------- the rulebook's four examples
# Four players, the maestro is D (seat 3), so that A, B and C may bid freely.

def test_example_1_only_A_plays_slot_3_with_1_money():
    state = new(4, first_maestro=D)
    singer3 = state["table"][2]
    state, events = bids(state, {A: (3, 1), B: (1,), C: (2,), D: (4,)})
    assert hired(events)[A] == {"type": "hired", "round": 1, "seat": A, "slot": 3,
                                "card": singer3, "money_spent": 1, "by": "bid"}
    assert state["singers"][A] == [singer3]
    assert state["money"][A] == 2


def test_example_2_A_and_B_play_slot_4_B_adds_2_money_A_1():
    state = new(4, first_maestro=D)
    singer4 = state["table"][3]
    state, events = bids(state, {A: (4, 1), B: (4, 2), C: (1,), D: (2,)})
    assert hired(events)[B]["card"] == singer4 and hired(events)[B]["money_spent"] == 2
    assert state["money"][B] == 1
    assert state["money"][A] == 3  # A keeps his money
    assert state["phase"] == "office" and state["waiting"] == [A]  # and gets an office hire
    assert state["table"][3] is None


def test_example_3_A_B_C_play_slot_2_with_1_money_each():
    state = new(4, first_maestro=D)
    singer2 = state["table"][1]
    state, events = bids(state, {A: (2, 1), B: (2, 1), C: (2, 1), D: (1,)})
    assert events_of(events, "slot_tied") == [{"type": "slot_tied", "round": 1, "slot": 2,
                                              "seats": [A, B, C]}]
    assert state["table"][1] == singer2  # nobody takes it: it stays on the table
    assert state["money"] == [3, 3, 3, 3]  # all keep their money
    assert state["phase"] == "office" and sorted(state["waiting"]) == [A, B, C]


def test_example_4_A_and_B_play_2_with_2_money_C_plays_2_with_1():
    state = new(4, first_maestro=D)
    state, events = bids(state, {A: (2, 2), B: (2, 2), C: (2, 1), D: (1,)})
    assert set(hired(events)) == {D}
    assert events_of(events, "slot_tied")[0]["seats"] == [A, B, C]
    assert state["money"] == [3, 3, 3, 3]
    assert sorted(state["waiting"]) == [A, B, C]


def test_a_tie_at_zero_money_is_a_tie():
    state = new(3, first_maestro=0)
    state, events = bids(state, {0: (1,), 1: (1,), 2: (2,)})
    assert set(hired(events)) == {2}
    assert sorted(state["waiting"]) == [0, 1]


def test_a_tie_below_a_clear_leader_does_not_stop_the_leader():
    state = new(5, first_maestro=4)
    card = state["table"][0]
    state, events = bids(state, {0: (1, 1), 1: (1, 1), 2: (1, 3), 3: (2,), 4: (3,)})
    assert hired(events)[2]["card"] == card and state["money"][2] == 0
    assert state["money"][0] == state["money"][1] == 3


def test_money_on_a_won_card_is_spent_and_gone_for_the_rest_of_the_game():
    state = new(3, first_maestro=0)
    state, _ = bids(state, {0: (1,), 1: (2, 3), 2: (3, 2)})
    assert state["money"] == [3, 0, 1]
    state, _ = finish_round(state)
    assert state["round"] == 2 and state["money"] == [3, 0, 1]
    refused(state, 1, {"type": "bid", "slot": 1, "money": 1, "bluff": False}, "not_enough_money")


# ---------------------------------------------------------------- helpers

@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_a_lone_helper_bidder_gets_the_costume_designer_and_a_stage_element(n):
    state = new(n, first_maestro=0)
    moves = {s: (s + 1,) for s in range(n)}
    moves[1] = (None, 1)
    state, events = bids(state, moves)
    assert events_of(events, "helper_hired") == [{"type": "helper_hired", "round": 1, "seat": 1,
                                                  "helper": "costume_designer"}]
    assert state["stage"][1] == 1 and state["money"][1] == 2
    assert state["waiting"] == [1]  # a helper bidder always gets an office hire


def test_with_4_players_two_helper_bidders_each_get_one():
    state = new(4, first_maestro=0)
    state, events = bids(state, {0: (1,), 1: (None, 1), 2: (None, 1, True), 3: (2,)})
    got = {e["seat"]: e["helper"] for e in events_of(events, "helper_hired")}
    assert got == {1: "costume_designer", 2: "carpenter"}
    assert state["stage"] == [0, 1, 1, 0] and state["money"] == [3, 2, 2, 3]


@pytest.mark.parametrize("maestro, winner, loser", [(0, 1, 2), (1, 2, 0), (2, 0, 1)])
def test_with_3_players_the_costume_designer_goes_to_the_first_bidder_after_the_maestro(
        maestro, winner, loser):
    state = new(3, first_maestro=maestro)
    state, events = bids(state, {maestro: (1,), winner: (None, 1), loser: (None, 1)})
    assert [e["seat"] for e in events_of(events, "helper_hired")] == [winner]
    assert [e["seat"] for e in events_of(events, "helper_missed")] == [loser]
    assert state["money"][winner] == 2 and state["stage"][winner] == 1
    assert state["money"][loser] == 3 and state["stage"][loser] == 0  # takes the money back
    assert state["waiting"] == [s for s in ((maestro + 1) % 3, (maestro + 2) % 3)]


def test_with_5_players_the_two_helpers_go_clockwise_starting_after_the_maestro():
    state = new(5, first_maestro=2)
    state, events = bids(state, {0: (None, 1), 1: (None, 1), 2: (1,), 3: (2,), 4: (None, 1)})
    # clockwise after seat 2: 3, 4, 0, 1 → the helper bidders in order are 4, 0, 1
    assert [(e["seat"], e["helper"]) for e in events_of(events, "helper_hired")] == [
        (4, "costume_designer"), (0, "carpenter")]
    assert [e["seat"] for e in events_of(events, "helper_missed")] == [1]
    assert state["stage"] == [1, 0, 0, 0, 1]
    assert state["money"] == [2, 3, 3, 3, 2]


def test_with_2_players_the_only_helper_goes_to_the_non_maestro():
    state = new(2, first_maestro=1)
    state, events = bids(state, {0: (None, 1), 1: (3,)})
    assert [e["seat"] for e in events_of(events, "helper_hired")] == [0]
    assert state["stage"] == [1, 0]


def test_helpers_come_back_at_the_end_of_the_round():
    state = new(3, first_maestro=0)
    state, _ = bids(state, {0: (1,), 1: (None, 1), 2: (2,)})
    state, _ = finish_round(state)
    assert state["round"] == 2 and state["maestro"] == 1
    state, events = bids(state, {0: (None, 1), 1: (1,), 2: (None, 1)})
    # clockwise after the new maestro (1): 2 first
    assert [e["seat"] for e in events_of(events, "helper_hired")] == [2]
    state, _ = finish_round(state)
    state, events = bids(state, {0: (None, 1), 1: (None, 1), 2: (1,)})
    assert [e["seat"] for e in events_of(events, "helper_hired")] == [0]
    assert state["stage"] == [1, 1, 1]


def test_stage_elements_count_at_the_end():
    state = new(3, first_maestro=0)
    state, _ = bids(state, {0: (1,), 1: (None, 1), 2: (2,)})
    while not T.is_finished(state):
        seat = min(T.pending(state))
        state, _ = T.apply(state, seat, T.default_action(state, seat))
    assert T.score(state)["players"][1]["lines"]["stage_elements"] == 1


# ---------------------------------------------------------------- office hires

def test_office_hires_are_chosen_by_the_maestro_in_one_decision():
    state = new(4, first_maestro=1)
    table = list(state["table"])
    state, events = bids(state, {0: (2,), 1: (2,), 2: (None, 1), 3: (5, 1)})
    assert state["phase"] == "office"
    assert T.pending(state) == {1: ["assign_office"]}
    # waiting: clockwise from the maestro's left, the maestro himself last
    assert state["waiting"] == [2, 0, 1]
    assert events_of(events, "office_pending")[0]["seats"] == [2, 0, 1]
    choice = [{"seat": 0, "slot": 4}, {"seat": 1, "slot": 1}, {"seat": 2, "slot": 3}]
    state, events = T.apply(state, 1, {"type": "assign_office", "assignments": choice})
    assert state["singers"] == [[table[3]], [table[0]], [table[2]], [table[4]]]
    assert {e["seat"]: (e["slot"], e["by"], e["money_spent"]) for e in events_of(events, "hired")
            } == {0: (4, "office", 0), 1: (1, "office", 0), 2: (3, "office", 0)}
    # the one card left (slot 2) is discarded
    assert events_of(events, "card_discarded") == [
        {"type": "card_discarded", "round": 1, "card": table[1]}]
    assert state["phase"] == "nominate"


def test_with_nobody_waiting_the_office_phase_is_skipped():
    state = new(3, first_maestro=0)
    table = list(state["table"])
    state, events = bids(state, {0: (1,), 1: (2,), 2: (4,)})
    assert not events_of(events, "office_pending")
    assert state["phase"] == "nominate"
    assert events_of(events, "card_discarded")[0]["card"] == table[2]


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_k_players_waiting_always_leave_k_plus_1_cards(n):
    state = new(n, first_maestro=0)
    state, _ = bids(state, {s: (1,) for s in range(n)})
    assert len(state["waiting"]) == n
    assert sum(c is not None for c in state["table"]) == n + 1


@pytest.fixture
def office():
    """Four players, maestro 1; seats 0 and 1 tied on slot 2, seat 3 won slot 5, seat 2 bid for a
    helper: 2, 0 and 1 are waiting; slots 1, 2, 3 and 4 still hold cards."""
    state = new(4, first_maestro=1)
    state, _ = bids(state, {0: (2,), 1: (2,), 2: (None, 1), 3: (5, 1)})
    return state


def assign(*pairs):
    return {"type": "assign_office", "assignments": [{"seat": s, "slot": p} for s, p in pairs]}


def test_office_only_the_maestro_assigns(office):
    for seat in (0, 2, 3):
        refused(office, seat, assign((2, 1), (0, 2), (1, 3)), "not_your_turn", "not_now")


@pytest.mark.parametrize("pairs", [
    [(2, 1), (0, 2)],                      # a waiting seat left out
    [(2, 1), (0, 2), (1, 3), (3, 4)],      # a seat that is not waiting
    [(2, 1), (0, 2), (3, 3)],              # the winner instead of the maestro
    [(2, 1), (2, 2), (1, 3)],              # one seat twice
])
def test_office_seats_mismatch(office, pairs):
    err = refused(office, 1, assign(*pairs), "office_seats_mismatch", "illegal")
    assert sorted(err.details["waiting"]) == [0, 1, 2]


def test_office_duplicate_slot(office):
    refused(office, 1, assign((2, 1), (0, 1), (1, 3)), "duplicate_slot", "illegal")


def test_office_slot_empty(office):
    refused(office, 1, assign((2, 5), (0, 2), (1, 3)), "slot_empty", "illegal")  # won by seat 3


@pytest.mark.parametrize("slot", [0, 6, -1, 99])
def test_office_slot_out_of_range(office, slot):
    refused(office, 1, assign((2, slot), (0, 2), (1, 3)), "slot_out_of_range", "illegal")


@pytest.mark.parametrize("assignments", [
    None, "2:1", {"seat": 2, "slot": 1}, [[2, 1]], [{"seat": "2", "slot": 1}],
    [{"seat": 2, "slot": 1.0}], [{"seat": 2, "slot": 1, "card": "S01"}], [{"seat": 2}], [],
])
def test_office_wrong_types_are_invalid_move(office, assignments):
    refused(office, 1, {"type": "assign_office", "assignments": assignments}, "invalid_move", "illegal")


def test_office_outside_the_office_phase():
    state = new(3)
    refused(state, 0, assign((1, 1)), "not_office_phase", "not_now")


def test_the_maestro_picks_his_own_office_hire_too(office):
    state, _ = T.apply(office, 1, assign((2, 4), (0, 3), (1, 1)))
    assert state["singers"][1] == [office["table"][0]]


# ---------------------------------------------------------------- the leftover card

@pytest.mark.parametrize("n", [3, 4, 5])
def test_the_leftover_card_is_discarded(n):
    state = new(n, first_maestro=0)
    table = list(state["table"])
    state, events = bids(state, {s: (s + 1,) for s in range(n)})
    assert events_of(events, "card_discarded") == [
        {"type": "card_discarded", "round": 1, "card": table[n]}]
    assert state["table"] == [None] * (n + 1)
    held = [c for hand in state["singers"] for c in hand]
    assert table[n] not in held and sorted(held) == sorted(table[:n])


def test_with_2_players_the_leftover_card_goes_to_the_dummy_in_order():
    state = new(2, first_maestro=0)
    received = []
    for rnd in range(1, 8):
        assert state["round"] == rnd
        leftover = state["table"][2]
        state, events = bids(state, {0: (1,), 1: (2,)})
        assert events_of(events, "dummy_received") == [
            {"type": "dummy_received", "round": rnd, "card": leftover}]
        assert not events_of(events, "card_discarded")
        if rnd == 4:
            assert state["dummy"]["director"] == leftover
        else:
            received.append(leftover)
        assert state["dummy"]["singers"] == received
        while state["round"] == rnd and state["phase"] not in ("bidding", "casting"):
            seat = min(T.pending(state))
            state, _ = T.apply(state, seat, T.default_action(state, seat))
    assert state["phase"] == "casting"
    assert len(state["dummy"]["singers"]) == 6
    view = T.view(state, None)
    assert [c["id"] for c in view["dummy"]["singers"]] == received


def test_2_player_office_hire_then_dummy():
    state = new(2, first_maestro=0)
    table = list(state["table"])
    state, _ = bids(state, {0: (2,), 1: (2,)})
    assert state["waiting"] == [1, 0]
    state, events = T.apply(state, 0, assign((1, 2), (0, 3)))
    assert state["singers"] == [[table[2]], [table[1]]]
    assert state["dummy"]["singers"] == [table[0]]
