"""Helpers shared by the Muzicando rule tests.

Scenario tests start from a real game (``new_game``) and then *replace* parts of the plain-JSON
state in a deep copy: the hands, the table, whose turn it is. This is the only place tests reach
into the state; every move is then made through ``apply``.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from impresario_rules.base import Refusal
from impresario_rules.muzicando import MUZICANDO as M


def new_game(n: int, options: dict[str, Any], seed: int) -> tuple[dict, list[dict]]:
    """``M.new_game``, except that a team match may be shorter than the rulebook's 4 hands
    (which the engine refuses, ``team_needs_four_hands``): tests keep their matches short."""
    hands = options.get("hands")
    team = options.get("mode", "team" if n == 4 else "individual") == "team"
    if team and isinstance(hands, int) and 1 <= hands < 4:
        state, events = M.new_game(n, {**options, "hands": 4}, seed)
        return {**state, "hands": hands}, events
    return M.new_game(n, options, seed)


def new(n: int = 4, seed: int = 1, **options: Any) -> dict:
    state, _ = new_game(n, options, seed)
    return state


def scenario(state: dict, **replace: Any) -> dict:
    out = copy.deepcopy(state)
    for key, value in replace.items():
        out[key] = copy.deepcopy(value)
    return out


def playing(layout: str, held: list[list[str]], cells: list | None = None,
            covers: list | None = None, turn: int = 0, n: int | None = None,
            pile: list[str] | None = None, declarer: int = 0, level: int = 1,
            **options: Any) -> dict:
    """A hand in play: ``held`` are the hands by seat, ``cells`` the notes on the table
    (``[x, y, card]``), ``covers`` the signs. Team game for 4 unless ``n``/``mode`` say otherwise."""
    n = len(held) if n is None else n
    opts = {"hands": 1 if n == 4 and options.get("mode", "team") == "team" else n, **options}
    state = new(n, **opts)
    auction = state["auction"]
    return scenario(
        state, phase="play", held=held, pile=pile or [], turn=turn,
        layout=layout, table={"layout": layout, "cells": cells or [], "covers": covers or []},
        declarer=declarer if auction else None,
        contract=f"{level}{layout}" if auction else None,
        chooser=None if auction else declarer, calls=[], bid=None,
        blocked=[False] * n, queued=[], run=None, passed=[], out=[])


def play(state: dict, moves: list[tuple[int, dict]]) -> tuple[dict, list[dict]]:
    events: list[dict] = []
    for seat, action in moves:
        state, evs = M.apply(state, seat, action)
        events.extend(evs)
    return state, events


def put(card: str, x: int, y: int) -> dict:
    return {"type": "place", "card": card, "x": x, "y": y}


PASS = {"type": "pass"}


def bid(contract: str) -> dict:
    return {"type": "auction_bid", "contract": contract}


NO = {"type": "auction_pass"}


def refused(state: dict, seat: int, action: Any, code: str, kind: str | None = None
            ) -> Refusal:
    """``action`` is refused with ``code`` and leaves ``state`` exactly as it was."""
    before = copy.deepcopy(state)
    with pytest.raises(Refusal) as info:
        M.apply(state, seat, action)
    assert info.value.code == code, (info.value.code, info.value.message)
    if kind is not None:
        assert info.value.kind == kind
    assert info.value.message
    assert state == before
    return info.value


def legal(state: dict, seat: int, card: str) -> list[tuple[int, int]]:
    """The cells the action space offers for ``card``."""
    for space in M.action_space(state, seat):
        if space["type"] == "place":
            for entry in space["cards"]:
                if entry["card"] == card:
                    return [(c["x"], c["y"]) for c in entry["cells"]]
    return []


def types(events: list[dict]) -> list[str]:
    return [e["type"] for e in events]
