"""Turandot's moves, one function each (``(state, seat, move) -> (state, events)``): a sealed
bid, the maestro's office hires, the nomination, the firing of a director, the cast. Each
checks what the move's declaration cannot (the phase, the seat, the rules' own limits: R4, R5)
and hands on to the round (``round.py``)."""

from __future__ import annotations

from ..base import STALE, Action, Event, IllegalMove, OutOfTurn, State
from .round import after_hiring, do_nominate, end_round, hire, resolve
from .scoring import best_arrangement, game_score
from .state import (BIDDING, CASTING, DIRECTOR_ROUND, OVER, FIRE, NOMINATE, OFFICE,
                    SEAT_KEYS, catalogue, sealed_bid)


def bid(state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
    """A sealed bid (phase 1). R5, a committed bid is final: the identical bid again changes
    nothing, another is refused. The last bid reveals them all and resolves the round."""
    if "round" in action:  # the move is prepared: "round" is there only when it was sent
        expected = action["round"]
        if expected is not None and expected != state["round"]:
            raise OutOfTurn("stale_round",
                            f"this bid is for round {expected!r}, but the game is in round "
                            f"{state['round']}", kind=STALE)
    slot = action["slot"]
    money = action["money"]
    bluff = action["bluff"]
    if state["phase"] != BIDDING:
        raise OutOfTurn("not_bidding_phase",
                        f"bids are made in the bidding phase; the game is in the "
                        f"{state['phase']} phase")
    bids = state["bids"]
    committed = bids[seat]
    if committed is not None:
        if committed == sealed_bid(slot, money, bluff):
            return state, []  # R5: re-sending the identical bid changes nothing
        raise OutOfTurn("bid_already_committed",
                        "you have already committed a different bid this round; a committed "
                        "bid is final")
    # check_bid()'s checks of a bid for a card written out, in its order: most moves of a
    # game are such bids
    if slot is None or not 1 <= slot <= state["n"] + 1 or money > state["money"][seat]:
        check_bid(state, seat, slot, money)
    bids = list(bids)
    bids[seat] = sealed_bid(slot, money, bluff)
    new = state.copy()
    new["bids"] = bids
    # face_down() and bid_dict() written out: this runs for most moves of a game
    events: list[Event] = [{
        "type": "bid_committed", "round": state["round"], "seat": seat,
        "face_down": (slot is not None) + money + bluff,
        "_private": {SEAT_KEYS[seat]: {"bid": {"slot": slot, "money": money, "bluff": bluff}}},
    }]
    if None not in bids:  # every seat has bid (a bid is a list, never equal to None)
        new = resolve(new, events)
    return new, events


def check_bid(state: State, seat: int, slot: int | None, money: int) -> None:
    """R4, illegal bids are refused and change nothing: a bid of nothing or of the bluff alone,
    a slot outside 1..players+1, more money than held, and a money-only bid by the maestro, in
    round 4, or with more than one money card."""
    n = state["n"]
    if slot is None and money == 0:
        raise IllegalMove("empty_bid",
                          "a bid needs a number card, or exactly one money card for a helper "
                          "(the bluff alone is not a bid)")
    if slot is not None and not 1 <= slot <= n + 1:
        raise IllegalMove("slot_out_of_range", f"slot must be from 1 to {n + 1}")
    if money > state["money"][seat]:
        raise IllegalMove("not_enough_money",
                          f"you bid {money} money but hold only {state['money'][seat]}")
    if slot is None:
        if seat == state["maestro"]:
            raise IllegalMove("maestro_cannot_hire_helper",
                              "the maestro may not bid for a helper (money-only bid)")
        if state["round"] == DIRECTOR_ROUND:
            raise IllegalMove("no_helpers_in_director_round",
                              "no helper can be hired in round 4 (the director round)")
        if money != 1:
            raise IllegalMove("helper_bid_one_money",
                              "a bid for a helper is exactly one money card and no number card")


def assign_office(state: State, seat: int, action: Action
                   ) -> tuple[State, list[Event]]:
    if state["phase"] != OFFICE:
        raise OutOfTurn("not_office_phase", "there are no office hires to assign now")
    if seat != state["maestro"]:
        raise OutOfTurn("not_your_turn", "only the maestro assigns the office hires")
    assignments = action["assignments"]
    waiting = state["waiting"]
    seats = []
    slots = []
    for a in assignments:
        seats.append(a["seat"])
        slots.append(a["slot"])
    if sorted(seats) != sorted(waiting):
        raise IllegalMove("office_seats_mismatch",
                          f"assign exactly one card to each waiting seat: {sorted(waiting)}",
                          waiting=list(waiting))
    if len(set(slots)) != len(slots):
        raise IllegalMove("duplicate_slot", "each card can go to one seat only")
    table = state["table"]
    for slot in slots:
        if not 1 <= slot <= len(table):
            raise IllegalMove("slot_out_of_range", f"slot must be from 1 to {len(table)}")
        if table[slot - 1] is None:
            raise IllegalMove("slot_empty", f"slot {slot} has no card left")
    rnd = state["round"]
    new = state.copy()
    table = list(table)
    events: list[Event] = []
    by_seat = dict(zip(seats, slots))
    hires: list[tuple[int, str]] = []
    for s in waiting:
        slot = by_seat[s]
        card = table[slot - 1]
        table[slot - 1] = None
        hires.append((s, card))
        events.append({"type": "hired", "round": rnd, "seat": s, "slot": slot,
                       "card": card, "money_spent": 0, "by": "office"})
    hire(new, hires, rnd)
    new["table"] = table
    new["waiting"] = []
    return after_hiring(new, events), events


def nominate(state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
    if state["phase"] != NOMINATE:
        raise OutOfTurn("not_nominate_phase", "there is no director firing to nominate for now")
    if seat != state["maestro"]:
        raise OutOfTurn("not_your_turn", "only the maestro names who fires a director")
    nominee = action["seat"]
    if not 0 <= nominee < state["n"]:
        raise IllegalMove("unknown_seat", f"there is no seat {nominee!r} at this table")
    if nominee == seat:
        raise IllegalMove("cannot_nominate_self",
                          "the maestro must name another player to fire a director")
    events: list[Event] = []
    return do_nominate(state.copy(), nominee, events), events


def fire_director(state: State, seat: int, action: Action
                   ) -> tuple[State, list[Event]]:
    if state["phase"] != FIRE:
        raise OutOfTurn("not_fire_phase", "no director is to be fired now")
    if seat != state["nominee"]:
        raise OutOfTurn("not_your_turn", "only the named player fires a director")
    director = action["director"]
    if director not in state["pile"]:
        raise IllegalMove("director_not_in_pile",
                          f"{director!r} is not in the director pile; the pile holds "
                          f"{', '.join(state['pile'])}")
    new = state.copy()
    new["pile"] = [d for d in state["pile"] if d != director]
    new["fired"] = state["fired"] + [[seat, director]]
    new["nominee"] = None
    events: list[Event] = [{"type": "director_fired", "round": state["round"], "seat": seat,
                            "director": director}]
    return end_round(new, events), events


def cast(state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
    if state["phase"] != CASTING:
        raise OutOfTurn("not_casting_phase", "casting comes after round 7")
    roles = action["roles"]
    singers = state["singers"][seat]
    if roles is None:
        roles = list(best_arrangement(singers, state["director"][seat], catalogue(state)))
    elif sorted(roles) != sorted(singers):
        raise IllegalMove("not_a_permutation",
                          "cast each of your 6 singers in exactly one role; your singers are "
                          + ", ".join(singers), singers=list(singers))
    committed = state["casts"][seat]
    if committed is not None:
        if committed == roles:
            return state, []
        raise OutOfTurn("already_cast", "you have already cast your singers")
    casts = list(state["casts"])
    casts[seat] = list(roles)
    new = state.copy()
    new["casts"] = casts
    events: list[Event] = [{"type": "cast", "seat": seat, "roles": list(roles)}]
    if None not in casts:  # every seat has cast (a cast is a list, never equal to None)
        new["phase"] = OVER
        result = game_score(new)
        events.append({
            "type": "game_finished", "winners": result["winners"],
            "dummy_wins": result["dummy_wins"],
            "totals": [p["total"] for p in result["players"]],
        })
    return new, events


#: the function of each move type
HANDLERS = {
    "bid": bid,
    "assign_office": assign_office,
    "nominate": nominate,
    "fire_director": fire_director,
    "cast": cast,
}
