"""The Muzicando auction and the choice of the layout: bids and passes (a bid needs the
layout's opening card, R7), the auction's end (``PASSES_TO_END``), the dealer who must bid, and
the chooser's layout (individual game)."""

from __future__ import annotations

from ..base import Action, Event, IllegalMove, State
from . import layouts as L
from .hands import deal
from .state import (AUCTION, CHOOSE, CONTRACT_RANK, CONTRACTS, OPENING_PASSES, PASSES_TO_END,
                    PLAY, layout_of, level_of, my_turn)


def auction_bid(state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
    """A bid in the auction: strictly higher than the last, for a layout whose opening card
    the bidder holds (R7)."""
    contract = action["contract"]
    my_turn(state, seat, AUCTION, "a bid")
    if contract not in CONTRACT_RANK:
        raise IllegalMove("unknown_contract",
                          f"unknown contract {contract!r}: a level 1–4 and a layout S, G, P "
                          f"or M, e.g. '1S' or '3P'")
    bid = state["bid"]
    if bid is not None and CONTRACT_RANK[contract] <= CONTRACT_RANK[bid[1]]:
        raise IllegalMove("bid_too_low",
                          f"a bid must be higher than the last bid {bid[1]} (order: "
                          f"{' '.join(CONTRACTS)})", last_bid=bid[1])
    layout = layout_of(contract)
    needs_opener(state, seat, layout, "bid")
    new = dict(state)
    new["calls"] = state["calls"] + [[seat, contract]]
    new["bid"] = [seat, contract]
    new["forced"] = False
    new["turn"] = (seat + 1) % state["n"]
    return new, [{"type": "auction_bid", "hand": state["hand"], "seat": seat,
                  "contract": contract}]


def auction_pass(state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
    """A pass in the auction: three passes in a row after a bid end it (``PASSES_TO_END``, with
    8 players too, R11); if the first four calls are passes the dealer must bid, and if he can
    open no layout the next dealer deals again (R7)."""
    my_turn(state, seat, AUCTION, "a pass in the auction")
    if state["forced"]:
        raise IllegalMove("dealer_must_bid",
                          f"the first {OPENING_PASSES} calls were passes: the dealer must bid "
                          f"(any contract he can open)")
    n = state["n"]
    calls = state["calls"] + [[seat, "pass"]]
    new = dict(state)
    new["calls"] = calls
    events: list[Event] = [{"type": "auction_pass", "hand": state["hand"], "seat": seat}]
    bid = state["bid"]
    if bid is not None:
        # three passes in a row after a bid (the last bid is before them), with 8 players
        # too (R11 plays the team game's auction as written)
        if all(c == "pass" for _, c in calls[-PASSES_TO_END:]):
            return auction_won(new, events), events
    elif len(calls) == OPENING_PASSES:  # no bid yet: every call so far was a pass
        dealer = state["dealer"]
        if L.can_open("S", state["held"][dealer]) or L.can_open("G", state["held"][dealer]):
            new["forced"] = True
            new["turn"] = dealer
            events.append({"type": "dealer_must_bid", "hand": state["hand"], "seat": dealer})
            return new, events
        events.append({"type": "redeal", "hand": state["hand"], "dealer": (dealer + 1) % n,
                       "reason": "R7: everyone passed and the dealer can open no layout; "
                                 "the next dealer deals again"})
        new["dealer"] = (dealer + 1) % n
        new["redeals"] = state["redeals"] + 1
        return deal(new, events), events
    new["turn"] = (seat + 1) % n
    return new, events


def auction_won(state: State, events: list[Event]) -> State:
    seat, contract = state["bid"]
    new = dict(state)
    new.update({"phase": PLAY, "declarer": seat, "contract": contract,
                "layout": layout_of(contract), "table": L.new_table(layout_of(contract)),
                "turn": seat})
    events.append({"type": "auction_won", "hand": state["hand"], "seat": seat,
                   "contract": contract, "level": level_of(contract),
                   "layout": layout_of(contract)})
    return new


def choose_layout(state: State, seat: int, action: Action
                   ) -> tuple[State, list[Event]]:
    layout = action["layout"]
    my_turn(state, seat, CHOOSE, "choosing the layout")
    if layout not in L.LAYOUTS:
        raise IllegalMove("unknown_layout",
                          f"unknown layout {layout!r}: S (Sarabanda), G (Glissando), "
                          f"P (Parada) or M (Muzicando)")
    needs_opener(state, seat, layout, "choose")
    new = dict(state)
    new.update({"phase": PLAY, "layout": layout, "table": L.new_table(layout), "turn": seat})
    return new, [{"type": "layout_chosen", "hand": state["hand"], "seat": seat,
                  "layout": layout}]


def needs_opener(state: State, seat: int, layout: str, what: str) -> None:
    """R7: a seat may bid or choose only a layout whose opening card it holds (a Do for
    Sarabanda and Muzicando, an oval for Glissando and Parada)."""
    if not L.can_open(layout, state["held"][seat]):
        need = "a Do" if layout in ("S", "M") else "an oval card"
        raise IllegalMove("cannot_open", f"R7: you cannot {what} {L.LAYOUT_NAMES[layout]} "
                          f"without its opening card ({need})")
