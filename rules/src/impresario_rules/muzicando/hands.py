"""A Muzicando hand from deal to end: the deal (the chooser, passing the choice on and dealing
again, R10), the places when the hand ends (R6), its points (``scoring``) and the next dealer."""

from __future__ import annotations

from typing import Any

from .. import rng as rngmod
from ..base import Event, State
from . import scoring
from .cards import DECK, sort_cards
from .state import AUCTION, CHOOSE, OVER, INDIVIDUAL, is_opener, public_result


def deal(state: State, events: list[Event]) -> State:
    """Shuffle and deal a hand (again, for redeals), up to the first decision. R10: in the
    individual game the player left of the dealer chooses the layout; the choice passes
    clockwise to one who can open; if nobody can, the same dealer deals again."""
    n = state["n"]
    new = dict(state)
    while True:
        deck, g = rngmod.shuffled(new["rng"], list(DECK))
        new["rng"] = g
        each = len(DECK) // n if new["auction"] else 7
        held = [sort_cards(deck[i * each:(i + 1) * each]) for i in range(n)]
        pile = deck[n * each:]
        new.update({
            "held": held, "pile": pile, "calls": [], "bid": None, "forced": False,
            "chooser": None, "declarer": None, "contract": None, "layout": None,
            "table": None, "blocked": [False] * n, "queued": [], "run": None, "passed": [],
            "out": [],
        })
        events.append({
            "type": "hand_dealt", "hand": new["hand"], "dealer": new["dealer"],
            "hand_sizes": [len(h) for h in held], "pile_size": len(pile),
            "_private": {str(s): {"cards": list(held[s])} for s in range(n)},
        })
        if new["auction"]:
            new["phase"] = AUCTION
            new["turn"] = new["dealer"]
            events.append({"type": "auction_started", "hand": new["hand"],
                           "dealer": new["dealer"]})
            return new
        # R10: the player left of the dealer chooses; the choice passes clockwise to one
        # who can open a layout; if nobody can, the same dealer deals again
        for i in range(1, n + 1):
            s = (new["dealer"] + i) % n
            if any(is_opener(c) for c in held[s]):
                new["phase"] = CHOOSE
                new["chooser"] = s
                new["turn"] = s
                events.append({"type": "chooser", "hand": new["hand"], "seat": s})
                return new
            events.append({"type": "choice_passed", "hand": new["hand"], "seat": s,
                           "reason": "holds no Do and no oval: can open no layout"})
        new["redeals"] = new["redeals"] + 1
        events.append({"type": "redeal", "hand": new["hand"], "dealer": new["dealer"],
                       "reason": "nobody can open a layout (R10)"})


def places(state: State) -> list[dict[str, Any]]:
    """Places of the hand: players out in order, then the rest (R6) fewer cards first, tied
    players sharing the lowest of their places."""
    out = [{"seat": s, "place": i + 1, "finished": True, "cards_left": 0}
           for i, s in enumerate(state["out"])]
    stuck = sorted((s for s in range(state["n"]) if state["held"][s]),
                   key=lambda s: (len(state["held"][s]), s))
    k = len(out)
    i = 0
    while i < len(stuck):
        j = i
        size = len(state["held"][stuck[i]])
        while j + 1 < len(stuck) and len(state["held"][stuck[j + 1]]) == size:
            j += 1
        for s in stuck[i:j + 1]:
            out.append({"seat": s, "place": k + j + 1, "finished": False, "cards_left": size})
        i = j + 1
    return out


def end_hand(state: State, events: list[Event]) -> State:
    """A hand's end: its places (R6) and points (``scoring.hand_points``: R8, R11), then the
    next hand's deal, or the end of the match."""
    ranked = places(state)
    points = scoring.hand_points(state, ranked)
    result = {
        "hand": state["hand"], "dealer": state["dealer"], "layout": state["layout"],
        "contract": state["contract"], "declarer": state["declarer"],
        "chooser": state["chooser"], "made": points.made, "places": ranked,
        "place_points": points.places, "contract_points": points.contract,
        "chooser_points": points.chooser, "points": points.total,
    }
    new = dict(state)
    new["results"] = state["results"] + [result]
    new["turn"] = None
    new["run"] = None
    events.append({"type": "hand_scored", **public_result(result)})
    if state["hand"] >= state["hands"]:
        new["phase"] = OVER
        score = scoring.game_score(new)
        events.append({"type": "game_finished", "winners": score["winners"],
                       "totals": [p["total"] for p in score["players"]]})
        return new
    new["hand"] = state["hand"] + 1
    if state["mode"] == INDIVIDUAL and not state["auction"]:
        new["dealer"] = state["chooser"]
    else:
        new["dealer"] = (state["dealer"] + 1) % state["n"]
    new["redeals"] = 0
    return deal(new, events)
