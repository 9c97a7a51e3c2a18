"""What a viewer sees of a Turandot game (``Turandot.view``): the table, every player's public
cards, money and face-down count (R3), the reveal, who must act, and for a seat its own hand and
sealed bid (never another seat's before the reveal, never the deck)."""

from __future__ import annotations

from typing import Any

from ..base import State, Viewer
from .cards import DIRECTOR_CARDS, HELPERS
from .scoring import game_score
from .state import (BIDDING, BLUFF, OVER, MONEY, ROUNDS, SLOT, bid_dict, catalogue, face_down,
                    helpers_for, pending)


def view(state: State, viewer: Viewer) -> dict[str, Any]:
    cards = catalogue(state).cards
    n = state["n"]
    phase = state["phase"]
    bids = state["bids"]
    players = []
    for s in range(n):
        players.append({
            "seat": s,
            "singers": [cards[c] for c in state["singers"][s]],
            "director": cards[state["director"][s]] if state["director"][s] else None,
            "stage_elements": state["stage"][s],
            "money": state["money"][s],
            "face_down": face_down(bids[s]) if phase == BIDDING else 0,
            "has_bid": bids[s] is not None if phase == BIDDING else None,
            "cast": state["casts"][s],
        })
    acting = pending(state)
    out: dict[str, Any] = {
        "round": state["round"] if phase != OVER else ROUNDS,
        "phase": phase,
        "maestro": state["maestro"],
        "table": [{"slot": i + 1, "card": cards[c] if c is not None else None}
                  for i, c in enumerate(state["table"])],
        "directors": [DIRECTOR_CARDS[d] for d in state["pile"]],
        "fired": [{"seat": s, "director": DIRECTOR_CARDS[d]} for s, d in state["fired"]],
        "removed_directors": [DIRECTOR_CARDS[d] for d in state["removed"]],
        "helpers": list(HELPERS[: helpers_for(n)]),
        "players": players,
        "dummy": None if state["dummy"] is None else {
            "singers": [cards[c] for c in state["dummy"]["singers"]],
            "director": (cards[state["dummy"]["director"]]
                         if state["dummy"]["director"] else None),
        },
        "pending": [{"seat": s, "kinds": k} for s, k in sorted(acting.items())],
        "reveal": None if state["reveal"] is None else [
            {"seat": s, **bid_dict(b)} for s, b in enumerate(state["reveal"])],  # type: ignore
        "reveal_round": None if state["reveal"] is None else (
            state["round"] - 1 if phase == BIDDING else min(state["round"], ROUNDS)),
        "waiting": list(state["waiting"]),
        "nominee": state["nominee"],
        "deck_left": len(state["deck"]),
    }
    if viewer is not None and 0 <= viewer < n:
        out["you"] = {
            "seat": viewer,
            "hand": {
                "numbers": [] if bids[viewer] is not None and phase == BIDDING
                else list(range(1, n + 2)),
                "money": state["money"][viewer],
                "bluff": True,
            },
            "bid": bid_dict(bids[viewer]) if phase == BIDDING else None,
        }
        if bids[viewer] is not None and phase == BIDDING:
            b = bids[viewer]
            hand = out["you"]["hand"]
            hand["numbers"] = [k for k in range(1, n + 2) if k != b[SLOT]]
            hand["money"] = state["money"][viewer] - b[MONEY]
            hand["bluff"] = not b[BLUFF]
    if phase == OVER:
        out["score"] = game_score(state)
    return out
