"""Helpers shared by the Turandot rule tests.

Scenario tests start from a real game (``new_game``) and then *replace* parts of the plain-JSON
state in a deep copy (``scenario``): the table, the deck, the money, the singers... This is the
only place where tests reach into the state, and they do so only to set up a situation the rules
could produce; every move is then made through ``apply``.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from impresario_rules.base import Refusal
from impresario_rules.turandot import TURANDOT as T
from impresario_rules.turandot.cards import DEFAULT

CAT = DEFAULT.singers


def new(n: int, first_maestro: Any = 0, seed: int = 1, **options: Any) -> dict:
    state, _ = T.new_game(n, {"first_maestro": first_maestro, **options}, seed)
    return state


def scenario(state: dict, **replace: Any) -> dict:
    """A deep copy of ``state`` with some keys replaced (deep-copied too)."""
    out = copy.deepcopy(state)
    for key, value in replace.items():
        out[key] = copy.deepcopy(value)
    return out


def bid(slot: int | None, money: int = 0, bluff: bool = False) -> dict:
    return {"type": "bid", "slot": slot, "money": money, "bluff": bluff}


def play(state: dict, moves: list[tuple[int, dict]]) -> tuple[dict, list[dict]]:
    """Apply moves in order; returns the final state and all events."""
    events: list[dict] = []
    for seat, action in moves:
        state, evs = T.apply(state, seat, action)
        events.extend(evs)
    return state, events


def bids(state: dict, by_seat: dict[int, tuple]) -> tuple[dict, list[dict]]:
    """Every seat in ``by_seat`` bids ``(slot, money[, bluff])``, in seat order."""
    return play(state, [(s, bid(*b)) for s, b in sorted(by_seat.items())])


def refused(state: dict, seat: int, action: Any, code: str, kind: str | None = None
            ) -> Refusal:
    """``action`` is refused with ``code`` and leaves ``state`` exactly as it was."""
    before = copy.deepcopy(state)
    with pytest.raises(Refusal) as info:
        T.apply(state, seat, action)
    assert info.value.code == code, (info.value.code, info.value.message)
    if kind is not None:
        assert info.value.kind == kind
    assert state == before
    return info.value


def events_of(events: list[dict], kind: str) -> list[dict]:
    return [e for e in events if e["type"] == kind]


def roundtrip(state: Any) -> Any:
    return json.loads(json.dumps(state))


def office_default(state: dict) -> tuple[dict, list[dict]]:
    seat = T.pending(state)
    (maestro,) = seat
    return T.apply(state, maestro, T.default_action(state, maestro))


def finish_round(state: dict) -> tuple[dict, list[dict]]:
    """Play the current round to its end with the R7 defaults (bids included)."""
    rnd = state["round"]
    events: list[dict] = []
    while state["round"] == rnd and not T.is_finished(state) and state["phase"] != "casting":
        seat = min(T.pending(state))
        state, evs = T.apply(state, seat, T.default_action(state, seat))
        events.extend(evs)
    return state, events


def advance_to_round(state: dict, rnd: int) -> dict:
    while state["round"] < rnd:
        state, _ = finish_round(state)
    return state


def singers_where(pred) -> list[str]:
    return [sid for sid, s in CAT.items() if pred(s)]
