"""Muzicando's scoring, rule by rule: a place's points (R8), the team game's contract by its
level (R8), the individual game's contract with the auction (R11) and the chooser's layout
value (R10, R8); a hand's points, and the match's standings.

A hand's points are the sum of three lines for each seat (:func:`hand_points`): its place's
points, the contract's (the declarer's, the declaring team's), and the chooser's.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from ..base import OutOfTurn, State
from .layouts import LAYOUT_VALUE
from .state import (OVER, TEAM, TEAM_PLACE_POINTS, level_of, partner_of, public_result,
                    teams, totals)


class HandPoints(NamedTuple):
    """A hand's points, line by line, each a list by seat; ``made``: whether the contract was
    made (None without a contract)."""

    places: list[int]
    contract: list[int]
    chooser: list[int]
    made: bool | None

    @property
    def total(self) -> list[int]:
        return [p + c + h for p, c, h in zip(self.places, self.contract, self.chooser)]


def place_points(state: State, entry: dict[str, Any]) -> int:
    """R8, a place's points: in the team game 4, 3, 2, 1 for the places; in the individual game
    one point for each player placed behind. The last player who could not lay down every card
    scores nothing."""
    n = state["n"]
    if not entry["finished"] and entry["place"] == n:
        return 0
    if state["mode"] == TEAM:
        return TEAM_PLACE_POINTS[entry["place"] - 1]
    return n + 1 - entry["place"]


def team_contract_made(level: int, first: int | None, declarer: int,
                       place_of: dict[int, int], n: int) -> bool:
    """R8, the team game's contract by its level (``first``: the seat out first, if any;
    ``place_of``: each seat's place). Level 1: the declaring team goes out first; 2: and its
    other player is not last; 3: and its other player is second; 4: the declarer goes out
    first and the partner second."""
    partner = partner_of(declarer)
    team_first = first in (declarer, partner)
    other = partner if first == declarer else declarer
    if level == 1:
        return team_first
    if level == 2:
        return team_first and place_of[other] < n
    if level == 3:
        return team_first and place_of[other] == 2
    return first == declarer and place_of[partner] == 2


def contract_points(level: int, made: bool, points: int) -> int:
    """R8, R11: a contract made wins its level times the points it counts; one missed loses
    as much."""
    return (1 if made else -1) * level * points


def chooser_points(state: State, first: int | None) -> int:
    """R10, R8: the individual game without the auction pays the chooser the value of the
    layout he chose when he goes out first (Sarabanda 1, Glissando 2, Parada 3, Muzicando 4)."""
    return LAYOUT_VALUE[state["layout"]] if first == state["chooser"] else 0


def hand_points(state: State, ranked: list[dict[str, Any]]) -> HandPoints:
    """R8 (R11 with the auction), a hand's points, from its places (``ranked``, R6): every
    seat's place points; the contract's, to the declarer, of the declaring team's places in
    the team game or of the declarer's own with the auction; else the chooser's."""
    n = state["n"]
    by_seat = {p["seat"]: p for p in ranked}
    places = [place_points(state, by_seat[s]) for s in range(n)]
    contract = [0] * n
    chooser = [0] * n
    first = next((p["seat"] for p in ranked if p["place"] == 1 and p["finished"]), None)
    made = None
    declarer = state["declarer"]
    if state["mode"] == TEAM:
        level = level_of(state["contract"])
        made = team_contract_made(level, first, declarer,
                                  {s: p["place"] for s, p in by_seat.items()}, n)
        team = places[declarer] + places[partner_of(declarer)]
        contract[declarer] = contract_points(level, made, team)
    elif state["auction"]:
        level = level_of(state["contract"])
        made = first == declarer
        contract[declarer] = contract_points(level, made, places[declarer])
    else:
        chooser[state["chooser"]] = chooser_points(state, first)
    return HandPoints(places, contract, chooser, made)


def game_score(state: State) -> dict[str, Any]:
    """The final score (refused before the end)."""
    if state["phase"] != OVER:
        raise OutOfTurn("game_not_finished", "the game is not finished yet")
    return match_score(state)


def match_score(state: State) -> dict[str, Any]:
    """The standings: each player's (or team's) total of the hands so far, and the leaders,
    who win at the end (a tie shares the victory)."""
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
