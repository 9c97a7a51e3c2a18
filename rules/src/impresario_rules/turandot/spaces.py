"""What a Turandot seat may do: its legal moves, a random one (without listing them), its
action space (what a client shows), and its default when its deadline passes (R7)."""

from __future__ import annotations

import itertools
import random
from typing import Any

from ..base import Action, OutOfTurn, State
from .cards import DIRECTORS
from .scoring import best_arrangement, line
from .state import (BIDDING, DIRECTOR_ROUND, DRAWS_WITH_GETRANDBITS, SLOTS, catalogue, kinds,
                    random_bid)


def bid_options(state: State, seat: int) -> tuple[list[int], int, bool]:
    n = state["n"]
    m = state["money"][seat]
    helper = seat != state["maestro"] and state["round"] != DIRECTOR_ROUND and m >= 1
    return list(range(1, n + 2)), m, helper


def legal_actions(state: State, seat: int) -> list[Action]:
    found = kinds(state, seat)
    if not found:
        return []
    kind = found[0]
    if kind == "bid":
        slots, m, helper = bid_options(state, seat)
        out = [{"type": "bid", "slot": s, "money": k, "bluff": b}
               for s in slots for k in range(m + 1) for b in (False, True)]
        if helper:
            out += [{"type": "bid", "slot": None, "money": 1, "bluff": b}
                    for b in (False, True)]
        return out
    if kind == "assign_office":
        waiting = state["waiting"]
        slots = [i + 1 for i, c in enumerate(state["table"]) if c is not None]
        return [{"type": "assign_office",
                 "assignments": [{"seat": s, "slot": p} for s, p in zip(waiting, perm)]}
                for perm in itertools.permutations(slots, len(waiting))]
    if kind == "nominate":
        return [{"type": "nominate", "seat": s} for s in range(state["n"]) if s != seat]
    if kind == "fire_director":
        return [{"type": "fire_director", "director": d} for d in state["pile"]]
    if kind == "cast":
        return [{"type": "cast", "roles": list(p)}
                for p in itertools.permutations(state["singers"][seat])]
    raise AssertionError(kind)


def sample_action(state: State, seat: int, rng: random.Random) -> Action:
    if state["phase"] == BIDDING and state["bids"][seat] is None:
        # one uniform index into legal_actions' list of bids, decoded without building it
        # (_bid_options written out: most moves of a game are bids)
        m = state["money"][seat]
        helper = seat != state["maestro"] and state["round"] != DIRECTOR_ROUND and m >= 1
        slots = SLOTS[state["n"]]
        return random_bid(rng, slots, m, helper)
    found = kinds(state, seat)
    if not found:
        raise OutOfTurn("not_your_turn", f"seat {seat} has nothing to do now")
    kind = found[0]
    if kind == "assign_office":
        waiting = state["waiting"]
        slots = [i + 1 for i, c in enumerate(state["table"]) if c is not None]
        chosen = sample(rng, slots, len(waiting))
        return {"type": "assign_office",
                "assignments": [{"seat": s, "slot": p} for s, p in zip(waiting, chosen)]}
    if kind == "nominate":
        others = [s for s in range(state["n"]) if s != seat]
        return {"type": "nominate", "seat": rng.choice(others)}
    if kind == "fire_director":
        return {"type": "fire_director", "director": rng.choice(state["pile"])}
    if kind == "cast":
        return {"type": "cast", "roles": sample(rng, state["singers"][seat], 6)}
    raise AssertionError(kind)


def sample(rng: random.Random, population: list, k: int) -> list:
    """``rng.sample(population, k)``: the same draws from the same stream and the same list.
    A short population (21 items or fewer, as every sample of a Turandot move is) is drawn
    here the way ``random.Random.sample`` draws it (random.py: a pool, one ``_randbelow`` per
    item), without its checks and its table-size arithmetic; anything else is handed to it."""
    n = len(population)
    if n > 21 or not 0 <= k <= n:
        return rng.sample(population, k)
    pool = list(population)
    result = [None] * k
    if type(rng)._randbelow is not DRAWS_WITH_GETRANDBITS:
        randbelow = rng._randbelow
        for i in range(k):
            j = randbelow(n - i)
            result[i] = pool[j]
            pool[j] = pool[n - i - 1]  # the item not drawn moves into the hole
        return result
    # the generator draws below a bound as random.py's _randbelow_with_getrandbits does
    # (the draw of random.Random and of its subclasses that keep getrandbits): written out
    getrandbits = rng.getrandbits
    for i in range(k):
        bound = n - i
        bits = bound.bit_length()
        j = getrandbits(bits)
        while j >= bound:
            j = getrandbits(bits)
        result[i] = pool[j]
        pool[j] = pool[bound - 1]
    return result


def action_space(state: State, seat: int) -> list[dict[str, Any]]:
    found = kinds(state, seat)
    if not found:
        return []
    kind = found[0]
    if kind == "bid":
        slots, m, helper = bid_options(state, seat)
        return [{"type": "bid", "slots": slots, "max_money": m, "helper": helper,
                 "bluff": True}]
    if kind == "assign_office":
        return [{"type": "assign_office", "seats": list(state["waiting"]),
                 "slots": [i + 1 for i, c in enumerate(state["table"]) if c is not None]}]
    if kind == "nominate":
        return [{"type": "nominate", "seats": [s for s in range(state["n"]) if s != seat]}]
    if kind == "fire_director":
        return [{"type": "fire_director", "directors": list(state["pile"])}]
    if kind == "cast":
        singers = state["singers"][seat]
        best = list(best_arrangement(singers, state["director"][seat], catalogue(state)))
        return [{"type": "cast", "singers": list(singers), "optimal": best,
                 "optimal_total": line(state, seat, best)["total"]}]
    raise AssertionError(kind)


def default_action(state: State, seat: int) -> Action:
    """R7: lowest number card, no money, no bluff; office hires clockwise from the maestro's
    left in slot order; the next player clockwise is named; ``neutral`` is fired if it is in
    the pile, else the first director in catalogue order; casting is R6's optimum."""
    found = kinds(state, seat)
    if not found:
        raise OutOfTurn("not_your_turn", f"seat {seat} has nothing to do now")
    kind = found[0]
    if kind == "bid":
        return {"type": "bid", "slot": 1, "money": 0, "bluff": False}
    if kind == "assign_office":
        slots = [i + 1 for i, c in enumerate(state["table"]) if c is not None]
        return {"type": "assign_office",
                "assignments": [{"seat": s, "slot": p}
                                for s, p in zip(state["waiting"], slots)]}
    if kind == "nominate":
        return {"type": "nominate", "seat": (seat + 1) % state["n"]}
    if kind == "fire_director":
        pile = state["pile"]
        return {"type": "fire_director",
                "director": "neutral" if "neutral" in pile else
                min(pile, key=DIRECTORS.index)}
    if kind == "cast":
        return {"type": "cast", "roles": None}
    raise AssertionError(kind)
