"""A Muzicando hand from deal to score, and the match's score: the deal (the chooser, passing
the choice on and dealing again, R10), the places when the hand ends (R6), each hand's points
(R8, R11) and the next dealer; the final standings."""

from __future__ import annotations

from typing import Any

from .. import rng as rngmod
from ..base import Event, OutOfTurn, State
from . import layouts as L
from .cards import DECK, sort_cards
from .state import (AUCTION, CHOOSE, FINISHED, INDIVIDUAL, TEAM, TEAM_PLACE_POINTS, is_opener,
                    level_of, partner_of, public_result, teams, totals)


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


def place_points(state: State, entry: dict[str, Any]) -> int:
    n = state["n"]
    if not entry["finished"] and entry["place"] == n:
        return 0  # the last player who could not lay down every card loses his point
    if state["mode"] == TEAM:
        return TEAM_PLACE_POINTS[entry["place"] - 1]
    return n + 1 - entry["place"]


def end_hand(state: State, events: list[Event]) -> State:
    """A hand's end and its points (R8; R11 for the individual game with the auction): places
    (R6), the declaring team's target by level, or the chooser's layout value; then the next
    hand's deal, or the end of the match."""
    n = state["n"]
    ranked = places(state)
    by_seat = {p["seat"]: p for p in ranked}
    place_pts = [place_points(state, by_seat[s]) for s in range(n)]
    contract_pts = [0] * n
    chooser_pts = [0] * n
    first = next((p["seat"] for p in ranked if p["place"] == 1 and p["finished"]), None)
    made = None
    declarer = state["declarer"]
    if state["mode"] == TEAM:
        level = level_of(state["contract"])
        partner = partner_of(declarer)
        pp = by_seat[partner]["place"]
        team_first = first in (declarer, partner)
        other = partner if first == declarer else declarer
        if level == 1:
            made = team_first
        elif level == 2:
            made = team_first and by_seat[other]["place"] < n
        elif level == 3:
            made = team_first and by_seat[other]["place"] == 2
        else:
            made = first == declarer and pp == 2
        team_points = place_pts[declarer] + place_pts[partner]
        contract_pts[declarer] = (1 if made else -1) * level * team_points
    elif state["auction"]:
        level = level_of(state["contract"])
        made = first == declarer
        contract_pts[declarer] = (1 if made else -1) * level * place_pts[declarer]
    else:
        chooser = state["chooser"]
        if first == chooser:
            chooser_pts[chooser] = L.LAYOUT_VALUE[state["layout"]]
    points = [place_pts[s] + contract_pts[s] + chooser_pts[s] for s in range(n)]
    result = {
        "hand": state["hand"], "dealer": state["dealer"], "layout": state["layout"],
        "contract": state["contract"], "declarer": declarer, "chooser": state["chooser"],
        "made": made, "places": ranked, "place_points": place_pts,
        "contract_points": contract_pts, "chooser_points": chooser_pts, "points": points,
    }
    new = dict(state)
    new["results"] = state["results"] + [result]
    new["turn"] = None
    new["run"] = None
    events.append({"type": "hand_scored", **public_result(result)})
    if state["hand"] >= state["hands"]:
        new["phase"] = FINISHED
        score = game_score(new)
        events.append({"type": "game_finished", "winners": score["winners"],
                       "totals": [p["total"] for p in score["players"]]})
        return new
    new["hand"] = state["hand"] + 1
    if state["mode"] == INDIVIDUAL and not state["auction"]:
        new["dealer"] = state["chooser"]
    else:
        new["dealer"] = (state["dealer"] + 1) % n
    new["redeals"] = 0
    return deal(new, events)


def game_score(state: State) -> dict[str, Any]:
    if state["phase"] != FINISHED:
        raise OutOfTurn("game_not_finished", "the game is not finished yet")
    return match_score(state)


def match_score(state: State) -> dict[str, Any]:
    players = totals(state)
    sides = teams(state, players)
    if sides:
        best = max(t["total"] for t in sides)
        winners = sorted(s for t in sides if t["total"] == best for s in t["seats"])
    else:
        best = max(p["total"] for p in players)
        winners = [p["seat"] for p in players if p["total"] == best]
    return {"mode": state["mode"], "players": players, "teams": sides, "winners": winners,
            "hands": [public_result(r) for r in state["results"]]}
