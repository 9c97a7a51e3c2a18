"""Helpers shared by the Word Jam rule tests.

Scenario tests start from a real game (``new_game``) and replace, in a deep copy, only what a
turn's setup would have dealt: the turn number, the consonants on the coin cards, the forbidden
one and the Style card (``table``). Every move is then made through ``apply``.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from impresario_rules.base import Refusal
from impresario_rules.wordjam import WORDJAM as WJ
from impresario_rules.wordjam.rules import CHALLENGE, SIDES, THINK


def table(n: int, turn: int = 1, coins=("T", "P", "N", "F"), forbidden: str = "R",
          style: str = "animals", seed: int = 1, **options: Any) -> dict:
    """A game of ``n`` at the start of ``turn`` with these consonants and this Style card."""
    state, _ = WJ.new_game(n, options or None, seed)
    s = copy.deepcopy(state)
    if style in s["styles"]:  # the card comes out of the deck; the one dealt goes in its place
        s["styles"][s["styles"].index(style)] = s["style"]
    s.update(turn=turn, coins=list(coins), forbidden=forbidden, style=style,
             phase=SIDES if turn == 8 else THINK,
             best={"ali_baba": None, "thieves": None} if turn == 8 else None)
    return s


def play(state: dict, *moves: tuple[int, dict]) -> tuple[dict, list[dict]]:
    events: list[dict] = []
    for seat, action in moves:
        state, evs = WJ.apply(state, seat, action)
        events.extend(evs)
    return state, events


def stand(state: dict) -> tuple[dict, list[dict]]:
    """Everyone lets the word in question stand (no challenge)."""
    assert state["phase"] == CHALLENGE
    wid = state["challenge"]["word_id"]
    return play(state, *[(s, {"type": "no_challenge", "word_id": wid})
                         for s in sorted(WJ.pending(state))])


def votes(state: dict, in_favour: list[bool]) -> tuple[dict, list[dict]]:
    """Everyone votes (seat order) on the challenged word."""
    wid = state["challenge"]["word_id"]
    return play(state, *[(s, {"type": "vote", "word_id": wid, "in_favour": v})
                         for s, v in enumerate(in_favour)])


def call(word: str) -> dict:
    return {"type": "open_sesame", "word": word}


def bet(side: str) -> dict:
    return {"type": "bet", "side": side}


def side(name: str) -> dict:
    return {"type": "choose_side", "side": name}


def word(w: str, final: bool = True) -> dict:
    return {"type": "thief_word", "word": w, "final": final}


PASS = {"type": "thief_pass"}
NO_CALL = {"type": "no_call"}


def refused(state: dict, seat: int, action: dict, code: str, kind: str | None = None
            ) -> Refusal:
    with pytest.raises(Refusal) as info:
        WJ.apply(state, seat, action)
    assert info.value.code == code, info.value
    if kind is not None:
        assert info.value.kind == kind
    return info.value


def awards(state: dict, turn: int | None = None) -> dict[int, int]:
    record = state["history"][-1] if turn is None else next(
        r for r in state["history"] if r["turn"] == turn)
    return {a["seat"]: a["points"] for a in record["awards"]}


def service_view(view: dict, status: str = "playing") -> dict:
    """``view`` with the fields the service adds (as the table's view does)."""
    out = {"id": "g1", "ruleset": "wordjam", "version": 3, "status": status,
           "seats_taken": len(view["players"]), "seats_total": len(view["players"]),
           "last_seq": 10, "private": False,  # no move_seconds: Word Jam has windows
           "bot_seconds": 20, "seeded": True, "rematch": None}
    for p in view["players"]:
        p["name"] = f"P{p['seat']}"
        p["bot"] = None
    for e in view["pending"]:
        e["deadline"] = 1700000000.5
    out.update(view)
    return out
