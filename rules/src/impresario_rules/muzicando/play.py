"""Muzicando's play: placing a card (signs block, the rest gives a run, R1), passing (drawing
while the pile lasts, R5; a blocked table ends the hand, R6), and the turn moving on."""

from __future__ import annotations

from ..base import Action, Event, IllegalMove, State
from . import layouts as L
from .cards import COLOURS, DECK_ORDER, REST, is_sign, sign_kind, sort_cards
from .hands import end_hand
from .state import PLAY, TEAM, may_pass, my_turn, partner_of


def place(state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
    """A card placed (its cell checked by the layout's rules, ``layouts.py``). A sign blocks its
    targets (queued during a rest's run); the rest gives its player a run, which passes to the
    partner when he empties his hand on it (R1); emptying the hand takes the next place."""
    card, x, y = action["card"], action["x"], action["y"]
    my_turn(state, seat, PLAY, "placing a card")
    if card not in DECK_ORDER:
        raise IllegalMove("unknown_card",
                          f"unknown card {card!r}: cards are '<colour>-<1..7>' or "
                          f"'<colour>-sign' with colours {', '.join(COLOURS)}")
    hand = state["held"][seat]
    if card not in hand:
        raise IllegalMove("card_not_in_hand", f"{card} is not in your hand")
    L.check(state["table"], card, x, y)
    held = list(state["held"])
    held[seat] = [c for c in hand if c != card]
    new = dict(state)
    new["held"] = held
    new["table"] = L.place(state["table"], card, x, y)
    new["passed"] = []
    events: list[Event] = [{"type": "card_placed", "hand": state["hand"], "seat": seat,
                            "card": card, "x": x, "y": y, "cards_left": len(held[seat])}]
    if is_sign(card):
        kind = sign_kind(card)
        if kind == REST:
            new["run"] = seat  # as his last card, R1 hands the run on below
            events.append({"type": "run_started", "seat": seat})
        else:
            blocks = targets(new, seat, kind)
            if blocks:
                if new["run"] is not None:
                    new["queued"] = sorted(set(state["queued"]) | set(blocks))
                    events.append({"type": "block_queued", "seat": seat, "sign": kind,
                                   "seats": blocks})
                else:
                    blocked = list(new["blocked"])
                    for t in blocks:
                        blocked[t] = True
                    new["blocked"] = blocked
                    events.append({"type": "blocked", "seat": seat, "sign": kind,
                                   "seats": blocks})
    if not held[seat]:
        new["out"] = state["out"] + [seat]
        if new["blocked"][seat]:  # a block on a player who goes out lapses
            new["blocked"] = [b and s != seat for s, b in enumerate(new["blocked"])]
        events.append({"type": "player_out", "hand": state["hand"], "seat": seat,
                       "place": len(new["out"])})
        if new["run"] == seat:
            partner = partner_of(seat) if state["mode"] == TEAM else None
            if partner is not None and held[partner]:
                new["run"] = partner
                new["turn"] = partner
                events.append({"type": "run_passed", "seat": seat, "to": partner})
                return new, events
            new = end_run(new, seat, events)
        return advance(new, seat, events), events
    if new["run"] == seat:
        return new, events  # the run goes on
    return advance(new, seat, events), events


def pass_move(state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
    my_turn(state, seat, PLAY, "a pass")
    if not state["table"]["cells"]:
        raise IllegalMove("must_open", "the hand opens with your opening card: you may not "
                                       "pass before it is on the table")
    if not may_pass(state, seat):
        raise IllegalMove("must_play",
                          "R5: with no draw pile you may pass only when you have no note to "
                          "place, and you have one")
    new = dict(state)
    events: list[Event] = []
    if state["pile"]:
        card = state["pile"][0]
        new["pile"] = state["pile"][1:]
        held = list(state["held"])
        held[seat] = sort_cards(held[seat] + [card])
        new["held"] = held
        new["passed"] = [s for s in state["passed"] if s != seat]
        events.append({"type": "passed", "hand": state["hand"], "seat": seat, "drew": True,
                       "pile_size": len(new["pile"]), "_private": {str(seat): {"card": card}}})
    else:
        new["passed"] = sorted(set(state["passed"]) | {seat})
        events.append({"type": "passed", "hand": state["hand"], "seat": seat, "drew": False,
                       "pile_size": 0})
    if state["run"] == seat:
        new = end_run(new, seat, events)
    holding = [s for s in range(state["n"]) if new["held"][s]]
    if not new["pile"] and set(holding) <= set(new["passed"]):
        events.append({"type": "table_blocked", "hand": state["hand"], "seats": holding})
        return end_hand(new, events), events
    return advance(new, seat, events), events


def end_run(state: State, seat: int, events: list[Event]) -> State:
    new = dict(state)
    new["run"] = None
    events.append({"type": "run_ended", "seat": seat})
    if state["queued"]:
        new["queued"] = []
        # a block queued for a player who has gone out since lapses (choice 5)
        targets = [t for t in state["queued"] if state["held"][t]]
        if targets:
            blocked = list(state["blocked"])
            for t in targets:
                blocked[t] = True
            new["blocked"] = blocked
            events.append({"type": "blocked", "seat": seat, "sign": None, "seats": targets})
    return new


def targets(state: State, seat: int, kind: str) -> list[int]:
    """The nearest players clockwise (next) and anticlockwise (previous) still holding
    cards, other than ``seat``."""
    n = state["n"]
    held = state["held"]
    nxt = next((s for s in ((seat + i) % n for i in range(1, n)) if held[s]), None)
    prev = next((s for s in ((seat - i) % n for i in range(1, n)) if held[s]), None)
    out = set()
    if kind in ("sharp", "natural") and nxt is not None:
        out.add(nxt)
    if kind in ("flat", "natural") and prev is not None:
        out.add(prev)
    return sorted(out)


def advance(state: State, seat: int, events: list[Event]) -> State:
    """The turn moves clockwise from ``seat`` to the next player holding cards; a blocked
    player skips that turn and is free again. With nobody holding cards the hand ends."""
    n = state["n"]
    held = state["held"]
    blocked = state["blocked"]
    new = dict(state)
    if not any(held):
        return end_hand(new, events)
    changed = False
    i = 1
    while True:
        s = (seat + i) % n
        i += 1
        if not held[s]:
            continue
        if blocked[s]:
            if not changed:
                blocked = list(blocked)
                changed = True
            blocked[s] = False
            events.append({"type": "turn_skipped", "hand": state["hand"], "seat": s})
            continue
        new["turn"] = s
        if changed:
            new["blocked"] = blocked
        return new
