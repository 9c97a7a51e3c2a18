"""What a Muzicando seat may do: its legal moves, a random one, its action space (what a client
shows: every card with its legal cells), and its default when its deadline passes."""

from __future__ import annotations

import random
from typing import Any

from ..base import Action, OutOfTurn, State
from .cards import is_sign, sort_cards
from .state import AUCTION, CHOOSE, biddable, kinds, openable


def legal_actions(state: State, seat: int) -> list[Action]:
    may, cells = kinds(state, seat)
    if not may:
        return []
    phase = state["phase"]
    if phase == AUCTION:
        out: list[Action] = [{"type": "auction_bid", "contract": c}
                             for c in biddable(state, seat)]
        if "auction_pass" in may:
            out.append({"type": "auction_pass"})
        return out
    if phase == CHOOSE:
        return [{"type": "choose_layout", "layout": lay}
                for lay in openable(state, seat)]
    assert cells is not None
    out = [{"type": "place", "card": c, "x": x, "y": y}
           for c in sort_cards(list(cells)) for x, y in cells[c]]
    if "pass" in may:
        out.append({"type": "pass"})
    return out


def action_space(state: State, seat: int) -> list[dict[str, Any]]:
    """Auction: the contracts the seat may bid; choice: the layouts it may choose; play:
    every card in hand with its legal cells (possibly none), and whether passing draws."""
    may, cells = kinds(state, seat)
    if not may:
        return []
    phase = state["phase"]
    out: list[dict[str, Any]] = []
    if phase == AUCTION:
        if "auction_bid" in may:
            bid = state["bid"]
            out.append({"type": "auction_bid", "contracts": biddable(state, seat),
                        "last_bid": bid[1] if bid else None})
        if "auction_pass" in may:
            out.append({"type": "auction_pass"})
        return out
    if phase == CHOOSE:
        return [{"type": "choose_layout", "layouts": openable(state, seat)}]
    assert cells is not None
    if "place" in may:
        out.append({"type": "place", "cards": [
            {"card": c, "cells": [{"x": x, "y": y} for x, y in cells[c]]}
            for c in sort_cards(list(cells))]})
    if "pass" in may:
        out.append({"type": "pass", "draws": bool(state["pile"])})
    return out


def sample_action(state: State, seat: int, rng: random.Random) -> Action:
    actions = legal_actions(state, seat)
    if not actions:
        raise OutOfTurn("not_your_turn", f"seat {seat} has nothing to do now")
    return rng.choice(actions)


def default_action(state: State, seat: int) -> Action:
    """Auction: pass, or when the dealer must bid, the lowest contract he can open. Choice:
    the first layout he can open in the order S, G, P, M. Play: the first legal note in deck
    order (colours red to violet, Do to Si) on its first legal cell by (x, y); with no note
    to place, pass (R5 then allows it; it draws while the pile lasts). Never a sign."""
    may, cells = kinds(state, seat)
    if not may:
        raise OutOfTurn("not_your_turn", f"seat {seat} has nothing to do now")
    phase = state["phase"]
    if phase == AUCTION:
        if "auction_pass" in may:
            return {"type": "auction_pass"}
        return {"type": "auction_bid", "contract": biddable(state, seat)[0]}
    if phase == CHOOSE:
        return {"type": "choose_layout", "layout": openable(state, seat)[0]}
    assert cells is not None
    for c in sort_cards(list(cells)):
        if cells[c] and not is_sign(c):
            x, y = cells[c][0]
            return {"type": "place", "card": c, "x": x, "y": y}
    assert "pass" in may, "a seat with no note to place may pass (R5)"
    return {"type": "pass"}
