"""Server-side Turandot bots for bot seats: ``random`` (uniform over the legal moves) and
``greedy`` (a heuristic on the marginal value of each card for the bot's own cast).

A bot sees only what its seat may see: it reads the public parts of the state and its own seat,
never the deck or another seat's sealed bid.
"""

from __future__ import annotations

import random

from ..base import Action, State
from .rules import DIRECTOR_ROUND, TURANDOT
from .scoring import best_points


def _value(state: State, seat: int, card: str) -> float:
    """How many points ``card`` adds to ``seat``'s best possible cast so far."""
    cat = TURANDOT.catalogue(state)
    singers = state["singers"][seat]
    director = state["director"][seat]
    stage = state["stage"][seat]
    if state["round"] == DIRECTOR_ROUND and card not in cat.singers:
        return best_points(singers, card, stage, cat) - best_points(singers, None, stage, cat)
    return (best_points(singers + [card], director, stage, cat)
            - best_points(singers, director, stage, cat))


def greedy(state: State, seat: int, rng: random.Random) -> Action:
    kind = TURANDOT.pending(state)[seat][0]
    n = state["n"]
    if kind == "cast":
        return {"type": "cast", "roles": None}
    if kind == "bid":
        table = {i + 1: c for i, c in enumerate(state["table"]) if c is not None}
        values = {slot: _value(state, seat, c) for slot, c in table.items()}
        ranked = sorted(values, key=lambda s: (-values[s], s))
        best = ranked[0]
        second = values[ranked[1]] if len(ranked) > 1 else values[best]
        money = state["money"][seat]
        bluff = rng.random() < 0.5
        helper_ok = seat != state["maestro"] and state["round"] != DIRECTOR_ROUND and money >= 1
        if helper_ok and 1 + min(values.values()) >= values[best] - 0.5:
            return {"type": "bid", "slot": None, "money": 1, "bluff": bluff}
        contested = 0
        for other in range(n):
            if other != seat:
                theirs = {s: _value(state, other, c) for s, c in table.items()}
                if max(theirs, key=lambda s: (theirs[s], -s)) == best:
                    contested += 1
        pay = 0
        margin = values[best] - second
        if contested and money and margin >= 1:
            pay = 2 if (margin >= 3 and money >= 2 and contested > 1) else 1
        return {"type": "bid", "slot": best, "money": pay, "bluff": bluff}
    if kind == "assign_office":
        table = state["table"]
        free = [i + 1 for i, c in enumerate(table) if c is not None]
        out = []
        waiting = list(state["waiting"])
        if seat in waiting:
            mine = max(free, key=lambda s: (_value(state, seat, table[s - 1]), -s))
            out.append({"seat": seat, "slot": mine})
            free.remove(mine)
            waiting.remove(seat)
        for other in waiting:
            worst = min(free, key=lambda s: (_value(state, other, table[s - 1]), s))
            out.append({"seat": other, "slot": worst})
            free.remove(worst)
        return {"type": "assign_office", "assignments": out}
    if kind == "nominate":
        cat = TURANDOT.catalogue(state)
        others = [s for s in range(n) if s != seat]
        weakest = min(others, key=lambda s: (sum(cat.singers[c].stars for c in state["singers"][s]), s))
        return {"type": "nominate", "seat": weakest}
    if kind == "fire_director":
        cat = TURANDOT.catalogue(state)
        singers, stage = state["singers"][seat], state["stage"][seat]
        worst = min(state["pile"], key=lambda d: best_points(singers, d, stage, cat))
        return {"type": "fire_director", "director": worst}
    return TURANDOT.default_action(state, seat)


def uniform(state: State, seat: int, rng: random.Random) -> Action:
    return TURANDOT.sample_action(state, seat, rng)


BOTS = {"random": uniform, "greedy": greedy}
