"""Muzicando's state: its phases, modes and contracts, and what can be read off a state (who
must act and with which kinds of move, what a seat may bid, choose or place, whether it may
pass, the match's totals and teams).

A state is a plain JSON dict (see ``Muzicando.setup``); nothing here changes one.
"""

from __future__ import annotations

from typing import Any

from ..base import OVER, OutOfTurn, State
from . import layouts as L
from .cards import is_do, is_oval, is_sign

MIN_PLAYERS, MAX_PLAYERS = 2, 8
AUCTION, CHOOSE, PLAY = "auction", "choose", "play"
TEAM, INDIVIDUAL = "team", "individual"
#: the 16 contracts, lowest first
CONTRACTS: tuple[str, ...] = tuple(f"{level}{layout}" for level in range(1, 5)
                                   for layout in L.LAYOUTS)
CONTRACT_RANK = {c: i for i, c in enumerate(CONTRACTS)}
TEAM_PLACE_POINTS = (4, 3, 2, 1)
MAX_HANDS = 64
#: the team match lasts "minimo 4 aste" (at least 4 auctions)
MIN_TEAM_HANDS = 4
#: the team game's auction, as written, with 8 players too (R11): it ends when three players
#: pass in a row after a bid, and if the first four calls are passes the dealer must bid
PASSES_TO_END = 3
OPENING_PASSES = 4
LINES = ("places", "contracts", "chooser")


def team_of(seat: int) -> int:
    """North–South (seats 0 and 2) are team 0, East–West (1 and 3) team 1."""
    return seat % 2


def partner_of(seat: int) -> int:
    return (seat + 2) % 4


def level_of(contract: str) -> int:
    return int(contract[0])


def layout_of(contract: str) -> str:
    return contract[1]


def is_opener(card: str) -> bool:
    """A card that opens at least one layout (a Do or an oval)."""
    return not is_sign(card) and (is_do(card) or is_oval(card))


def public_result(result: dict[str, Any]) -> dict[str, Any]:
    return {k: (list(v) if isinstance(v, list) else v) for k, v in result.items()}


def pending(state: State) -> dict[int, list[str]]:
    """Who acts and which kinds of move the rules allow in that phase. The kinds never
    depend on the seat's hand (that would tell the table what he holds): in the auction
    ``auction_bid`` and ``auction_pass`` (only ``auction_bid`` when the dealer must bid), in
    play ``place`` and ``pass`` (only ``place`` for the opening card). The seat's action
    space says exactly which contracts, cards and cells are legal for him."""
    phase = state["phase"]
    turn = state["turn"]
    if phase == AUCTION:
        return {turn: ["auction_bid"] if state["forced"] else ["auction_bid", "auction_pass"]}
    if phase == CHOOSE:
        return {turn: ["choose_layout"]}
    if phase == PLAY:
        return {turn: ["place", "pass"] if state["table"]["cells"] else ["place"]}
    return {}


def play_kinds(state: State, seat: int, cells: dict[str, list]) -> list[str]:
    kinds = []
    if any(cells.values()):
        kinds.append("place")
    if may_pass(state, seat, cells):
        kinds.append("pass")
    return kinds


def biddable(state: State, seat: int) -> list[str]:
    bid = state["bid"]
    low = CONTRACT_RANK[bid[1]] + 1 if bid else 0
    hand = state["held"][seat]
    can = {lay for lay in L.LAYOUTS if L.can_open(lay, hand)}
    return [c for c in CONTRACTS[low:] if layout_of(c) in can]


def openable(state: State, seat: int) -> list[str]:
    return [lay for lay in L.LAYOUTS if L.can_open(lay, state["held"][seat])]


def legal_map(state: State, seat: int) -> dict[str, list[tuple[int, int]]]:
    return L.legal_map(state["table"], state["held"][seat])


def may_pass(state: State, seat: int, cells: dict[str, list] | None = None) -> bool:
    """R5: never before the opening card; always while a draw pile lasts; otherwise only
    with no note to place (signs never oblige)."""
    if not state["table"]["cells"]:
        return False
    if state["pile"]:
        return True
    cells = legal_map(state, seat) if cells is None else cells
    return not any(v for c, v in cells.items() if not is_sign(c))


def my_turn(state: State, seat: int, phase: str, what: str) -> None:
    if state["phase"] != phase:
        raise OutOfTurn(f"not_{phase}_phase",
                        f"{what} belongs to the {phase} phase; the hand is in the "
                        f"{state['phase']} phase")
    if seat != state["turn"]:
        raise OutOfTurn("not_your_turn", f"it is seat {state['turn']}'s turn, not seat {seat}'s")


def kinds(state: State, seat: int) -> tuple[list[str], dict[str, list] | None]:
    """The kinds of move ``seat`` may make now, and in play its legal cells per card."""
    if seat != state["turn"] or state["phase"] == OVER:
        return [], None
    if state["phase"] == PLAY:
        cells = legal_map(state, seat)
        return play_kinds(state, seat, cells), cells
    if state["phase"] == AUCTION:
        kinds = ["auction_bid"] if biddable(state, seat) else []
        return kinds + ([] if state["forced"] else ["auction_pass"]), None
    return ["choose_layout"], None


def totals(state: State) -> list[dict[str, Any]]:
    n = state["n"]
    out = []
    for s in range(n):
        lines = {
            "places": sum(r["place_points"][s] for r in state["results"]),
            "contracts": sum(r["contract_points"][s] for r in state["results"]),
            "chooser": sum(r["chooser_points"][s] for r in state["results"]),
        }
        out.append({"seat": s, "lines": lines, "total": sum(lines.values())})
    return out


def teams(state: State, players: list[dict[str, Any]]) -> list[dict[str, Any]]:
    if state["mode"] != TEAM:
        return []
    return [{"team": t, "seats": [t, t + 2],
             "total": players[t]["total"] + players[t + 2]["total"]} for t in (0, 1)]
