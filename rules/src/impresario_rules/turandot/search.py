"""Turandot's ``hard`` bot: a search over the worlds the seat's view allows.

What the seat cannot see is sampled, never read: the order of the singers still to come (the
catalogue's singers no one holds and the table does not show, shuffled), and the others' sealed
bids this round. Those bids come from a model of the others (what the ``medium`` bot would bid
in each one's seat, and in a share of the sampled worlds a uniform bid instead, since the
others may be anyone). Each of the seat's candidate moves is played in each sampled world by the
rules themselves (:mod:`.round`: the reveal, ties, helpers, the maestro's office hires, the
firing) up to the next bidding round, and the position reached is scored: the seat's best
possible cast so far against the best of the others', and the money it keeps for the rounds
left. The candidate with the best mean wins.

It searches the bids and, as maestro, the office hires; for the nomination, the firing and
the cast it plays as ``medium`` does (the cast is the optimum either way).

The search weighs at most ``worlds`` sampled worlds (the loop over them is the one the ``hard``
bots share, :mod:`impresario_rules.search`: this module gives its worlds and values,
:class:`Round`). Like everything in this package it reads no clock: a caller that wants a think
budget in time passes one, with the clock to measure it by (the SDK's
``HardBot(think_ms=...)``); without one the bot is reproducible from its random stream alone,
and ``WORLDS`` is chosen so that a decision takes well under 200 ms of CPU here
(``docs/bots.md`` has the measured think times).

Why a round's horizon and not playouts to the end of the game: a whole game played by the
``medium`` policy costs about 17 ms here, so 200 ms would buy a dozen playouts for twenty
candidate bids. Scoring the position after the round, where each player's cards are known,
lets the same budget weigh every candidate in a dozen worlds or more.
"""

from __future__ import annotations

import itertools
import random
from typing import Any, Callable

from ..base import Action, State
from ..bots import Actions, Budget, Move, View, budgeted
from ..search import Game, best_move
from .bots import greedy, uniform
from .cards import DEFAULT
from .moves import HANDLERS
from .scoring import best_points
from .spaces import action_space, default_action
from .state import BIDDING, CASTING, OVER, ROUNDS, pending, sealed_bid
from .views import view as seat_view

#: the most worlds a decision samples (a think budget may stop it sooner)
WORLDS = 8
#: the share of sampled worlds in which each other seat bids uniformly instead of as ``medium``
SURPRISE = 0.3


def determinize(view: View, rng: random.Random) -> State | None:
    """A full game state the seat's ``view`` allows: what it shows, as shown; the deck a
    shuffle of the singers no one can see; the others' sealed bids not made yet (the model
    makes them). ``None`` when the view shows cards outside the default catalogue (a game
    with its own catalogue: the sampler knows only the default one)."""
    me = view["you"]["seat"]
    players = view["players"]
    n = len(players)
    seen: set[str] = set()
    for p in players:
        seen.update(c["id"] for c in p["singers"])
    table = [t["card"]["id"] if t["card"] is not None else None for t in view["table"]]
    seen.update(c for c in table if c is not None and c in DEFAULT.singers)
    dummy = view.get("dummy")
    if dummy is not None:
        seen.update(c["id"] for c in dummy["singers"])
    if not seen <= DEFAULT.singers.keys():
        return None
    unseen = [i for i in DEFAULT.ids if i not in seen]
    deck_left = view["deck_left"]
    if deck_left > len(unseen):
        return None
    deck = rng.sample(unseen, deck_left)
    mine = view["you"].get("bid")
    bids: list[Any] = [None] * n
    if mine is not None and view["phase"] == BIDDING:
        bids[me] = sealed_bid(mine["slot"], mine["money"], mine["bluff"])
    reveal = view.get("reveal")
    return {
        "n": n,
        "round": view["round"],
        "phase": view["phase"],
        "maestro": view["maestro"],
        "first_maestro": view["maestro"],
        "rng": rng.getrandbits(64),
        "deck": deck,
        "pile": [d["id"] for d in view["directors"]],
        "fired": [[f["seat"], f["director"]["id"]] for f in view["fired"]],
        "removed": [d["id"] for d in view["removed_directors"]],
        "table": table,
        "bids": bids,
        "reveal": None if reveal is None else [[b["slot"], b["money"], b["bluff"]]
                                               for b in reveal],
        "money": [p["money"] for p in players],
        "stage": [p["stage_elements"] for p in players],
        "singers": [[c["id"] for c in p["singers"]] for p in players],
        "director": [p["director"]["id"] if p["director"] else None for p in players],
        "waiting": list(view["waiting"]),
        "nominee": view["nominee"],
        "casts": [p["cast"] for p in players],
        "dummy": None if dummy is None else {
            "singers": [c["id"] for c in dummy["singers"]],
            "director": dummy["director"]["id"] if dummy["director"] else None},
        "catalogue": None,
    }


def _actions(state: State, seat: int) -> Actions:
    return {"seat": seat, "pending": pending(state).get(seat, []),
            "moves": action_space(state, seat), "default": default_action(state, seat)}


def _medium(state: State, seat: int, rng: random.Random) -> Move:
    """The ``medium`` bot's move for ``seat`` in a sampled world (its view of that world)."""
    return greedy(seat_view(state, seat), _actions(state, seat), rng)


def _uniform(state: State, seat: int, rng: random.Random) -> Move:
    return uniform({}, {"moves": action_space(state, seat), "default": None}, rng)


def _apply(state: State, seat: int, move: Action) -> State:
    """A move the bots made, by its rule (they make only legal, whole moves)."""
    return HANDLERS[move["type"]](state, seat, move)[0]


def worth(state: State, seat: int) -> float:
    """How good ``state`` is for ``seat``: its best possible cast so far (R6, with its
    director and stage elements) plus what its money may still buy, against the best of the
    others'. Money scores nothing at the end, so it counts for less as the rounds run out."""
    rounds_left = ROUNDS - state["round"] if state["phase"] == BIDDING else 0
    per_coin = 0.8 * min(1.0, rounds_left / 3)
    values = []
    for s in range(state["n"]):
        values.append(best_points(state["singers"][s], state["director"][s], state["stage"][s])
                      + per_coin * state["money"][s])
    mine = values[seat]
    others = [v for s, v in enumerate(values) if s != seat]
    return mine - max(others) if others else mine


def _play_round(state: State, seat: int, move: Action, others: dict[int, Action],
                rng: random.Random) -> State:
    """``move`` by ``seat`` and ``others``' bids, then every decision up to the next round's
    bids (each player's ``medium``), by the rules."""
    state = _apply(state, seat, move)
    for s, bid in others.items():
        if state["phase"] == BIDDING and state["bids"][s] is None:
            state = _apply(state, s, bid)
    while state["phase"] not in (BIDDING, CASTING, OVER):
        s = min(pending(state))
        state = _apply(state, s, _medium(state, s, rng))
    return state


def _bid_candidates(space: dict[str, Any], rng: random.Random) -> list[Action]:
    bluff = rng.random() < 0.5  # what the others see of a bid: it changes nothing here
    out = [{"type": "bid", "slot": s, "money": m, "bluff": bluff}
           for s in space["slots"] for m in range(space["max_money"] + 1)]
    if space["helper"]:
        out.append({"type": "bid", "slot": None, "money": 1, "bluff": bluff})
    return out


def _office_candidates(space: dict[str, Any]) -> list[Action]:
    return [{"type": "assign_office",
             "assignments": [{"seat": s, "slot": p} for s, p in zip(space["seats"], perm)]}
            for perm in itertools.permutations(space["slots"], len(space["seats"]))]


class Round(Game[tuple[State, dict[int, Action], int]]):
    """Turandot's part of the search for one decision (see the module's docstring): a world is
    a sampled state, the others' bids in it and the seed of the later choices; a candidate is
    played in it to the next bidding round and the position reached valued by :func:`worth`."""

    def __init__(self, view: View, first: State, bids: bool) -> None:
        self.view = view
        self.me: int = view["you"]["seat"]
        self.first: State | None = first    # the world sampled already, to be weighed first
        self.bids = bids
        self.modelled: dict[int, Action] = {}

    def begin(self, rng: random.Random) -> None:
        if self.bids:
            # the others' bids as medium makes them: public facts only, the same in every world
            world = self.first
            assert world is not None
            for s in range(world["n"]):
                if s != self.me and world["bids"][s] is None:
                    self.modelled[s] = _medium(world, s, rng)

    def sample(self, rng: random.Random) -> tuple[State, dict[int, Action], int]:
        others = dict(self.modelled)
        world = self.first
        if world is not None:
            self.first = None
        else:
            world = determinize(self.view, rng)
            assert world is not None
            if self.bids:
                for s in others:
                    if rng.random() < SURPRISE:
                        others[s] = _uniform(world, s, rng)
        # every candidate meets the same world and the same later choices
        return world, others, rng.getrandbits(32)

    def value(self, world: tuple[State, dict[int, Action], int], move: Move) -> float:
        state, others, seed = world
        return worth(_play_round(state, self.me, move, others, random.Random(seed)), self.me)


def search(view: View, actions: Actions, rng: random.Random, worlds: int = WORLDS,
           think_ms: float | None = None, clock: Callable[[], float] | None = None) -> Move:
    """The ``hard`` bot's move (see the module's docstring): the best of its candidates over
    at most ``worlds`` sampled worlds, and, given a ``clock`` (seconds), no more worlds once
    ``think_ms`` milliseconds of it would likely be spent."""
    kind = actions["pending"][0] if actions.get("pending") else None
    if kind not in ("bid", "assign_office"):
        return greedy(view, actions, rng)
    space = actions["moves"][0]
    budget = Budget(think_ms, clock)
    world = determinize(view, rng)
    if world is None:
        return greedy(view, actions, rng)
    if kind == "bid":
        candidates = _bid_candidates(space, rng)
    else:
        candidates = _office_candidates(space)
        # who gets which card is the same in every world (the deck decides nothing here)
        worlds = 1
    return best_move(Round(view, world, kind == "bid"), candidates, rng, budget, worlds)


def hard(view: View, actions: Actions, rng: random.Random) -> Move:
    """Searches the worlds its view allows (the deck, the others' sealed bids) for the bid
    and the office hires that leave it best placed after the round; otherwise plays as
    ``medium``."""
    return search(view, actions, rng)


def hard_with(think_ms: float | None, clock: Callable[[], float] | None,
              worlds: int = WORLDS) -> Callable[[View, Actions, random.Random], Move]:
    """The ``hard`` bot with a think budget of ``think_ms`` milliseconds measured by
    ``clock`` (seconds, e.g. ``time.process_time``), over at most ``worlds`` worlds."""
    return budgeted(search, think_ms, clock, hard.__doc__, worlds=worlds)
