"""Turandot's state: its rounds and phases, and what can be read off a state (who must act
and with which kind of move, the catalogue it plays with, a cast's score lines, the bids a seat
may make and how they are numbered).

A state is a plain JSON dict (see ``Turandot.setup``); nothing here changes one.
"""

from __future__ import annotations

import random
from typing import Any, Sequence

from ..base import OVER, Action, State
from .cards import Catalogue, catalogue_for

MIN_PLAYERS, MAX_PLAYERS = 2, 5
ROUNDS = 7
DIRECTOR_ROUND = 4
FIRING_ROUNDS = (1, 2, 3)
START_MONEY = 3

BIDDING, OFFICE, NOMINATE, FIRE, CASTING = "bidding", "office", "nominate", "fire", "casting"


def helpers_for(players: int) -> int:
    """Helpers in play: only the costume designer with 2–3 players, both with 4–5."""
    return 1 if players <= 3 else 2


#: a sealed bid as a state keeps it: ``[slot, money, bluff]``, a list (compact in every stored
#: game, and the same in its JSON); read by these names: ``bid[MONEY]``
SLOT, MONEY, BLUFF = 0, 1, 2


def sealed_bid(slot: int | None, money: int, bluff: bool) -> list[Any]:
    """A sealed bid as a state keeps it (:data:`SLOT`, :data:`MONEY`, :data:`BLUFF`)."""
    return [slot, money, bluff]


def bid_dict(bid: list | None) -> dict[str, Any] | None:
    if bid is None:
        return None
    return {"slot": bid[SLOT], "money": bid[MONEY], "bluff": bid[BLUFF]}


def face_down(bid: list | None) -> int:
    """How many face-down cards a bid puts on the table (R3): number card, money cards, bluff."""
    if bid is None:
        return 0
    return (bid[SLOT] is not None) + bid[MONEY] + bid[BLUFF]


def pending(state: State) -> dict[int, list[str]]:
    phase = state["phase"]
    if phase == BIDDING:
        # asked before every move: a plain loop is a fifth cheaper than a comprehension over
        # enumerate()
        bids = state["bids"]
        waiting: dict[int, list[str]] = {}
        for s in range(len(bids)):
            if bids[s] is None:
                waiting[s] = ["bid"]
        return waiting
    if phase == OFFICE:
        return {state["maestro"]: ["assign_office"]}
    if phase == NOMINATE:
        return {state["maestro"]: ["nominate"]}
    if phase == FIRE:
        return {state["nominee"]: ["fire_director"]}
    if phase == CASTING:
        return {s: ["cast"] for s, c in enumerate(state["casts"]) if c is None}
    return {}


def kinds(state: State, seat: int) -> list[str] | None:
    """``pending(state).get(seat)`` without building the whole mapping (a hot path)."""
    phase = state["phase"]
    if phase == BIDDING:
        return ["bid"] if state["bids"][seat] is None else None
    if phase == CASTING:
        return ["cast"] if state["casts"][seat] is None else None
    if phase == OFFICE:
        return ["assign_office"] if seat == state["maestro"] else None
    if phase == NOMINATE:
        return ["nominate"] if seat == state["maestro"] else None
    if phase == FIRE:
        return ["fire_director"] if seat == state["nominee"] else None
    return None


def catalogue(state: State) -> Catalogue:
    return catalogue_for(state["catalogue"])


#: the draw below a bound of ``random.Random`` and of its subclasses that keep ``getrandbits``
#: (random.py), which the random player's draws write out (a Python without it: no generator
#: matches, and every draw goes through ``_randbelow``)
DRAWS_WITH_GETRANDBITS = getattr(random.Random, "_randbelow_with_getrandbits", None)


def random_bid(rng: Any, slots: Sequence[int], money: int, helper: bool) -> Action:
    """A bid drawn uniformly, with one ``rng.randrange``, from those a seat may make with the
    number cards ``slots``, ``money`` money cards and (``helper``) the right to bid for a
    helper: the index drawn is the bid's place in the order of ``legal_actions`` (each slot
    with 0..``money`` money cards, without and with the bluff, then the one-money helper bid
    without and with it), decoded without listing them. The random player's every bid comes
    from here, so it is one function, not three."""
    per_slot = (money + 1) * 2
    numbered = len(slots) * per_slot
    # rng._randbelow(k) is the draw rng.randrange(k) makes for a positive int k (random.py,
    # every Python 3 since 3.2): the same number from the same stream, without randrange's
    # handling of start, stop and step. Two thirds of a random game's moves are bids drawn
    # here, so random.Random's own draw (_randbelow_with_getrandbits) is written out
    bound = numbered + 2 if helper else numbered
    if type(rng)._randbelow is DRAWS_WITH_GETRANDBITS:
        bits = bound.bit_length()
        i = rng.getrandbits(bits)
        while i >= bound:
            i = rng.getrandbits(bits)
    else:
        i = rng._randbelow(bound)
    if i >= numbered:
        return {"type": "bid", "slot": None, "money": 1, "bluff": i - numbered == 1}
    slot, rest = divmod(i, per_slot)
    return {"type": "bid", "slot": slots[slot], "money": rest >> 1, "bluff": bool(rest & 1)}


def clockwise_after(seat: int, n: int) -> list[int]:
    """All seats clockwise starting at the one after ``seat`` (``seat`` itself last)."""
    return [(seat + i) % n for i in range(1, n + 1)]


#: ``CLOCKWISE_AFTER[n][seat]`` is ``clockwise_after(seat, n)`` for every table size (read-only)
CLOCKWISE_AFTER = {n: tuple(tuple(clockwise_after(seat, n)) for seat in range(n))
                    for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)}

#: ``SEAT_KEYS[seat]`` is ``str(seat)``: the key of a seat's part of an event's ``_private``
SEAT_KEYS = tuple(str(seat) for seat in range(MAX_PLAYERS))

#: ``SLOTS[n]``: the number cards of a table of ``n`` (read-only)
SLOTS = {n: tuple(range(1, n + 2)) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)}

