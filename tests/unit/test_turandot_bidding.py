"""Phase 1 — audition and secret bids: what a bid may be (R4), what others see of it (R3), and
that a committed bid is final (R5)."""

from __future__ import annotations

import copy

import pytest

from impresario_rules.base import redact_event
from impresario_rules.turandot import TURANDOT as T

from turandot_helpers import advance_to_round, bid, bids, new, refused, scenario


# ---------------------------------------------------------------- the three kinds of bid

@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_a_bid_is_a_number_card_or_number_and_money_or_one_money_card(n):
    state = new(n, first_maestro=0)
    for slot in range(1, n + 2):
        for money in range(0, 4):
            for bluff in (False, True):
                T.apply(state, 0, bid(slot, money, bluff))
    T.apply(state, 1, bid(None, 1))
    T.apply(state, 1, bid(None, 1, True))


def test_the_bluff_card_never_counts():
    state = new(3)
    state, events = bids(state, {0: (2, 0, True), 1: (2, 1, False), 2: (1, 0, True)})
    hired = {e["seat"]: e for e in events if e["type"] == "hired" and e["by"] == "bid"}
    assert hired[1]["slot"] == 2 and hired[1]["money_spent"] == 1  # bluff did not beat money
    assert hired[2]["slot"] == 1 and hired[2]["money_spent"] == 0
    assert state["money"] == [3, 2, 3]


def test_the_reveal_happens_when_the_last_bid_arrives_for_everyone_at_once():
    state = new(3)
    state, events = bids(state, {0: (1, 0, True), 1: (2, 2)})
    assert state["phase"] == "bidding" and state["reveal"] is None
    assert not [e for e in events if e["type"] == "bids_revealed"]
    state, events = bids(state, {2: (None, 1, True)})
    (reveal,) = [e for e in events if e["type"] == "bids_revealed"]
    assert "_private" not in reveal  # public: every seat and spectators see the same event
    assert reveal["bids"] == [
        {"seat": 0, "slot": 1, "money": 0, "bluff": True},
        {"seat": 1, "slot": 2, "money": 2, "bluff": False},
        {"seat": 2, "slot": None, "money": 1, "bluff": True},
    ]
    for viewer in (None, 0, 1, 2):
        assert T.view(state, viewer)["reveal"] == reveal["bids"]
        assert T.view(state, viewer)["reveal_round"] == 1


def test_the_last_reveal_is_labelled_with_its_round_while_the_next_round_is_bid():
    state = new(4, first_maestro=0)
    state = advance_to_round(state, 2)
    view = T.view(state, None)
    assert view["round"] == 2 and view["phase"] == "bidding"
    assert view["reveal"] is not None and view["reveal_round"] == 1


# ---------------------------------------------------------------- R3: the public count

def test_R3_everyone_sees_the_count_of_face_down_cards_and_who_has_bid():
    state = new(4, first_maestro=0)
    state, events = T.apply(state, 1, bid(3, 2, True))  # 1 number + 2 money + bluff = 4
    (ev,) = [e for e in events if e["type"] == "bid_committed"]
    for viewer in (None, 0, 2, 3, 1):
        view = T.view(state, viewer)
        counts = [p["face_down"] for p in view["players"]]
        assert counts == [0, 4, 0, 0]
        assert [p["has_bid"] for p in view["players"]] == [False, True, False, False]
        assert {p["seat"] for p in view["pending"]} == {0, 2, 3}
        assert redact_event(ev, viewer)["face_down"] == 4
    state, _ = T.apply(state, 2, bid(None, 1))  # 1 money = 1 card
    state, _ = T.apply(state, 3, bid(2, 0, True))  # 2 cards
    assert [p["face_down"] for p in T.view(state, None)["players"]] == [0, 4, 1, 2]


@pytest.mark.parametrize("a, b", [
    ((3, 1, True), (1, 2, False)),        # 3 cards each
    ((None, 1, True), (2, 0, True)),      # 2 cards each: a helper bid looks like a slot bid
    ((4, 0, False), (None, 1, False)),    # 1 card each
    ((2, 3, False), (5, 2, True)),        # 4 cards each
])
def test_R3_nothing_else_of_a_bid_is_visible_before_the_reveal(a, b):
    """Two bids with the same number of face-down cards look the same to every other viewer
    (spectators included), in the view and in the events."""
    state = new(4, first_maestro=0)
    sa, ea = T.apply(state, 1, bid(*a))
    sb, eb = T.apply(state, 1, bid(*b))
    for viewer in (None, 0, 2, 3):
        assert T.view(sa, viewer) == T.view(sb, viewer)
        assert [redact_event(e, viewer) for e in ea] == [redact_event(e, viewer) for e in eb]
    # the bidder sees their own bid, and what is left in their hand
    mine = T.view(sa, 1)["you"]
    assert mine["bid"] == {"slot": a[0], "money": a[1], "bluff": a[2]}
    assert mine["hand"]["money"] == 3 - a[1]
    assert mine["hand"]["bluff"] is (not a[2])
    assert a[0] not in mine["hand"]["numbers"]
    assert redact_event(ea[0], 1)["bid"] == mine["bid"]


def test_R3_the_money_shown_is_not_reduced_by_a_sealed_bid():
    state = new(3)
    state, _ = T.apply(state, 2, bid(1, 3))
    for viewer in (None, 0, 1):
        assert T.view(state, viewer)["players"][2]["money"] == 3


# ---------------------------------------------------------------- R4: illegal bids

def test_R4_the_maestro_may_not_bid_for_a_helper():
    state = new(4, first_maestro=2)
    refused(state, 2, bid(None, 1), "maestro_cannot_hire_helper", "illegal")
    refused(state, 2, bid(None, 1, True), "maestro_cannot_hire_helper", "illegal")
    T.apply(state, 1, bid(None, 1))  # anyone else may


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_R4_no_helper_bid_in_round_4(n):
    state = advance_to_round(new(n), 4)
    assert state["round"] == 4 and state["phase"] == "bidding"
    other = (state["maestro"] + 1) % n
    refused(state, other, bid(None, 1), "no_helpers_in_director_round", "illegal")
    refused(state, other, bid(None, 1, True), "no_helpers_in_director_round", "illegal")


def test_R4_a_helper_bid_is_exactly_one_money_card():
    state = new(4)
    refused(state, 1, bid(None, 2), "helper_bid_one_money", "illegal")
    refused(state, 1, bid(None, 3, True), "helper_bid_one_money", "illegal")


@pytest.mark.parametrize("action", [
    {"type": "bid", "slot": None},
    {"type": "bid", "slot": None, "money": 0, "bluff": False},
    {"type": "bid", "slot": None, "money": 0, "bluff": True},
])
def test_R4_a_bid_of_nothing_or_of_the_bluff_alone_is_refused(action):
    refused(new(3), 1, action, "empty_bid", "illegal")


@pytest.mark.parametrize("action", [{"type": "bid"}, {"type": "bid", "bluff": True}])
def test_a_bid_must_say_its_slot_even_when_it_is_none(action):
    """``slot`` is required, null for a helper (the move's declaration, as the API says)."""
    refused(new(3), 1, action, "invalid_move", "illegal")


def test_R4_no_more_money_than_the_player_holds():
    state = new(3)
    refused(state, 1, bid(2, 4), "invalid_move", "illegal")  # nobody ever holds 4
    state = scenario(state, money=[3, 1, 0])
    refused(state, 1, bid(2, 2), "not_enough_money", "illegal")
    refused(state, 2, bid(2, 1), "not_enough_money", "illegal")
    refused(state, 2, bid(None, 1), "not_enough_money", "illegal")
    T.apply(state, 1, bid(2, 1))
    T.apply(state, 2, bid(2, 0))


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_R4_a_slot_outside_1_to_players_plus_one_is_refused(n):
    state = new(n)
    for slot in (0, -1, n + 2, 7, 100):
        refused(state, 1, bid(slot), "slot_out_of_range", "illegal")
    T.apply(state, 1, bid(n + 1))


def test_R4_a_bid_outside_the_bidding_phase_is_refused():
    state = new(3)
    state, _ = bids(state, {0: (1,), 1: (1,), 2: (1,)})  # a three-way tie: office hires
    assert state["phase"] == "office"
    for seat in range(3):
        refused(state, seat, bid(2), "not_bidding_phase", "not_now")
        refused(state, seat, bid(1), "not_bidding_phase", "not_now")  # even the same bid


@pytest.mark.parametrize("action", [
    {"type": "bid", "slot": "3"},
    {"type": "bid", "slot": 2.0},
    {"type": "bid", "slot": True},
    {"type": "bid", "slot": [1]},
    {"type": "bid", "slot": 1, "money": -1},
    {"type": "bid", "slot": 1, "money": "1"},
    {"type": "bid", "slot": 1, "money": 1.0},
    {"type": "bid", "slot": 1, "money": True},
    {"type": "bid", "slot": 1, "money": None},
    {"type": "bid", "slot": 1, "bluff": 1},
    {"type": "bid", "slot": 1, "bluff": "yes"},
    {"type": "bid", "slot": 1, "bluff": None},
    {"type": "bid", "slot": 1, "seat": 2},
    {"type": "bid", "slot": 1, "cards": [1]},
])
def test_R4_wrong_types_are_refused_as_invalid_move(action):
    refused(new(3), 1, action, "invalid_move", "illegal")


@pytest.mark.parametrize("action", [["bid", 1], "bid", None, 3])
def test_a_move_that_is_not_an_object_is_an_invalid_move(action):
    refused(new(3), 1, action, "invalid_move", "illegal")


def test_unknown_move_types_and_unknown_seats_are_refused():
    state = new(3)
    refused(state, 1, {"slot": 1}, "unknown_move_type", "illegal")
    refused(state, 1, {"type": "pass"}, "unknown_move_type", "illegal")
    for seat in (3, -1, "1", None):
        refused(state, seat, bid(1), "unknown_seat", "illegal")


def test_R4_a_refused_bid_leaves_the_seat_free_to_bid():
    state = new(3)
    refused(state, 1, bid(9), "slot_out_of_range")
    assert 1 in T.pending(state)
    state, events = T.apply(state, 1, bid(2))
    assert events[0]["type"] == "bid_committed"


# ---------------------------------------------------------------- R5: a committed bid is final

@pytest.mark.parametrize("b", [(3, 0, False), (2, 2, True), (None, 1, True), (None, 1, False)])
def test_R5_resending_the_identical_bid_is_a_no_op(b):
    state = new(4, first_maestro=0)
    state, _ = T.apply(state, 1, bid(*b))
    before = copy.deepcopy(state)
    again, events = T.apply(state, 1, bid(*b))
    assert again is state
    assert events == []
    assert state == before


def test_R5_an_identical_bid_with_defaults_left_out_is_the_same_bid():
    state = new(3)
    state, _ = T.apply(state, 1, {"type": "bid", "slot": 2})
    again, events = T.apply(state, 1, bid(2, 0, False))
    assert again is state and events == []


@pytest.mark.parametrize("other", [(3, 0, True), (3, 1, False), (2, 0, False), (None, 1, False),
                                   (9, 0, False), (None, 0, True)])
def test_R5_a_different_bid_is_a_conflict(other):
    state = new(4, first_maestro=0)
    state, _ = T.apply(state, 1, bid(3, 0, False))
    refused(state, 1, bid(*other), "bid_already_committed", "not_now")


def test_a_bid_naming_its_round_is_refused_in_another_round():
    """A late retry of a round-1 bid must not become a round-2 bid."""
    state = new(3, first_maestro=0)
    state = advance_to_round(state, 2)
    before = copy.deepcopy(state)
    with pytest.raises(Exception) as err:
        T.apply(state, 1, {"type": "bid", "slot": 1, "money": 0, "bluff": False, "round": 1})
    assert err.value.code == "stale_round" and err.value.kind == "stale"
    assert state == before
    state, events = T.apply(state, 1, {"type": "bid", "slot": 1, "money": 0, "bluff": False,
                                       "round": 2})
    assert [e["type"] for e in events] == ["bid_committed"]
    with pytest.raises(Exception) as err:
        T.apply(state, 2, {"type": "bid", "slot": 1, "money": 0, "bluff": False, "round": "2"})
    assert err.value.code == "invalid_move"
