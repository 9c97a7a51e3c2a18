"""What a viewer sees of a Muzicando game (``Muzicando.view``): the table, the auction, every
player's hand size, blocks and places, the results so far, and for a seat its own hand (never
another's, never the draw pile)."""

from __future__ import annotations

from typing import Any

from ..base import State, Viewer
from . import layouts as L
from .scoring import match_score
from .state import OVER, PLAY, TEAM, pending, public_result, team_of, teams, totals


def view(state: State, viewer: Viewer) -> dict[str, Any]:
    n = state["n"]
    phase = state["phase"]
    out_set = set(state["out"])
    places = {s: i + 1 for i, s in enumerate(state["out"])}
    scores = totals(state)
    players = [{
        "seat": s,
        "team": team_of(s) if state["mode"] == TEAM else None,
        "hand_size": len(state["held"][s]),
        "blocked": state["blocked"][s],
        "out": s in out_set,
        "place": places.get(s),
        "total": scores[s]["total"],
    } for s in range(n)]
    acting = pending(state)
    table = state["table"]
    bid = state["bid"]
    view: dict[str, Any] = {
        "mode": state["mode"],
        "auction_variant": state["auction"],
        "hand": state["hand"],
        "hands": state["hands"],
        "phase": phase,
        "dealer": state["dealer"],
        "turn": state["turn"],
        "players": players,
        "pending": [{"seat": s, "kinds": k} for s, k in sorted(acting.items())],
        "pile_size": len(state["pile"]),
        "auction": None if not state["auction"] else {
            "calls": [{"seat": s, "call": c} for s, c in state["calls"]],
            "bid": None if bid is None else {"seat": bid[0], "contract": bid[1]},
            "dealer_must_bid": state["forced"],
        },
        "contract": state["contract"],
        "declarer": state["declarer"],
        "chooser": state["chooser"],
        "layout": state["layout"],
        "table": {
            "cells": L.cells_view(table) if table else [],
            "rows": L.rows_view(table) if table else [],
            "piles": L.piles_view(table) if table else [],
        },
        "blocked": [s for s in range(n) if state["blocked"][s]],
        "queued_blocks": list(state["queued"]),
        "run": state["run"],
        "places": [{"seat": s, "place": i + 1} for i, s in enumerate(state["out"])]
        if phase == PLAY else [],
        "results": [public_result(r) for r in state["results"]],
        "totals": [t["total"] for t in scores],
        "team_totals": ([t["total"] for t in teams(state, scores)]
                        if state["mode"] == TEAM else None),
    }
    if viewer is not None and 0 <= viewer < n:
        view["you"] = {"seat": viewer, "hand": list(state["held"][viewer])}
    if phase == OVER:
        view["score"] = match_score(state)
    return view
