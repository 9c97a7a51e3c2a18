"""Muzicando's ``hard`` bot: a search over the deals the seat's view allows.

What the seat cannot see is sampled, never read (:func:`determinize`): the cards it has not
seen (neither in its hand nor on the table) are dealt at random to the others, each getting as
many as the view says it holds, and the rest make the draw pile, as long as the view says. What
the auction told the table is kept: while no card is on the table, a seat that bid a layout
holds that layout's opening card (R7), and a dealer who must bid holds a Do or an oval.

Each of the seat's candidate moves (each bid and the pass in the auction; each layout to
choose; each card on each of its legal cells, and the pass, in play) is played in each sampled
world by the rules themselves (the ruleset's handlers: the auction, the blocks, the runs, the
draws, the hand's end and its score), every later decision of every seat made by the
``medium`` policy, to the end of the hand. The outcome is the hand's points of the seat's side
(its team in the team game) minus the best other side's. The candidate with the best mean
wins; every candidate meets the same worlds.

Why playouts to the end of the hand and no shorter horizon: a Muzicando hand is short (some
60 moves for four players) and its points depend on who goes out first and whether the
contract is made, which no simple evaluation of a mid-hand position tells. A playout by the
``medium`` policy, on a light view of the sampled world (:func:`light_view`, the few fields
``medium`` reads), costs 2 to 3 ms here at the start of a hand (Sarabanda's big tables cost
most: the legal cells are worked out afresh each move) and less later, so the budget buys some
two dozen playouts a decision. The candidates are capped (``MAX_CANDIDATES``, ``medium``'s
choice and the best by its own scores) and the worlds with them (``PLAYOUTS`` a decision, at
least ``MIN_WORLDS`` worlds), so that a decision with many candidates still weighs each in
several worlds and one with few weighs them in more.

The search weighs at most ``worlds`` sampled worlds. Like everything in this package it reads
no clock: a caller that wants a think budget in time passes one, with the clock to measure it
by (the SDK's ``make_bot("hard", ruleset="muzicando", think_ms=...)``); without one the bot is
reproducible from its random stream alone, and ``WORLDS`` is chosen so that a decision takes
well under 200 ms of CPU here (``docs/bots.md`` has the measured think times).
"""

from __future__ import annotations

import random
from typing import Any, Callable

from ..base import Action, State
from ..bots import Actions, Budget, Move, THINK_MS, View, budgeted
from . import layouts as L
from .auction import auction_bid, auction_pass, choose_layout
from .bots import greedy, greedy_move, score_placement
from .cards import DECK, is_sign, sort_cards
from .play import pass_move, place
from .spaces import action_space
from .state import AUCTION, FINISHED, PLAY, TEAM, layout_of, team_of

#: the most worlds a decision samples (a think budget may stop it sooner)
WORLDS = 8
#: the most candidate moves a decision weighs (the best by ``medium``'s scores, and its own)
MAX_CANDIDATES = 6
#: the playouts a decision may make at most: with many candidates, fewer worlds (but
#: ``MIN_WORLDS`` at least)
PLAYOUTS = 24
MIN_WORLDS = 3
#: tries at a deal that keeps what the auction told before dealing without the constraints
TRIES = 40

HANDLERS: dict[str, Callable[[State, int, Action], tuple[State, list[Any]]]] = {
    "auction_bid": auction_bid, "auction_pass": auction_pass, "choose_layout": choose_layout,
    "place": place, "pass": pass_move}


# ------------------------------------------------------------------ the worlds
def seen_cards(view: View) -> set[str]:
    """The cards the seat knows the place of: its hand and every card on the table."""
    seen = set(view["you"]["hand"])
    for c in view["table"]["cells"]:
        seen.add(c["card"])
        if c.get("covered_by"):
            seen.add(c["covered_by"])
    return seen


def _table(view: View) -> dict[str, Any] | None:
    layout = view["layout"]
    if layout is None:
        return None
    cells = view["table"]["cells"]
    return {"layout": layout,
            "cells": [[c["x"], c["y"], c["card"]] for c in cells],
            "covers": [[c["x"], c["y"], c["covered_by"]] for c in cells if c.get("covered_by")]}


def _constraints(view: View) -> dict[int, set[str]]:
    """What the auction says of the others' hands while no card has left them, as the layouts
    each must be able to open: a bid of a layout needs its opening card (R7); a dealer who must
    bid can open Sarabanda or Glissando (``"SG"``: either will do)."""
    me = view["you"]["seat"]
    auction = view.get("auction")
    if not auction or view["table"]["cells"] or view["phase"] not in (AUCTION, PLAY):
        return {}
    needs: dict[int, set[str]] = {}
    for call in auction["calls"]:
        if call["call"] != "pass" and call["seat"] != me:
            needs.setdefault(call["seat"], set()).add(layout_of(call["call"]))
    if auction.get("dealer_must_bid") and view["dealer"] != me and view["dealer"] not in needs:
        needs[view["dealer"]] = {"SG"}
    return needs


def _keeps(hand: list[str], needs: set[str]) -> bool:
    """Whether ``hand`` can open every layout of ``needs`` (``"SG"``: one of the two)."""
    return all(any(L.can_open(lay, hand) for lay in need) for need in needs)


def determinize(view: View, rng: random.Random) -> State | None:
    """A full game state the seat's ``view`` allows: what it shows, as shown; the cards it has
    not seen dealt at random to the others (as many as each holds) and to the draw pile (as
    long as it is), keeping what the auction said of their hands. ``None`` when the view's
    counts do not add up (it cannot be this game's view)."""
    me = view["you"]["seat"]
    players = view["players"]
    n = len(players)
    unseen = [c for c in DECK if c not in seen_cards(view)]
    sizes = [p["hand_size"] for p in players]
    if sum(sizes) - sizes[me] + view["pile_size"] != len(unseen) \
            or sizes[me] != len(view["you"]["hand"]):
        return None
    others = [s for s in range(n) if s != me]
    rules = _constraints(view)
    for attempt in range(TRIES + 1):
        pool = list(unseen)
        rng.shuffle(pool)
        held: list[list[str]] = [[] for _ in range(n)]
        held[me] = list(view["you"]["hand"])
        at = 0
        for s in others:
            held[s] = sort_cards(pool[at:at + sizes[s]])
            at += sizes[s]
        if attempt == TRIES or all(_keeps(held[s], need) for s, need in rules.items()):
            break
    pile = pool[at:]
    auction = view.get("auction")
    bid = auction["bid"] if auction else None
    out = [p["seat"] for p in sorted((p for p in players if p["place"] is not None),
                                     key=lambda p: p["place"])]
    return {
        "n": n, "mode": view["mode"], "auction": view["auction_variant"], "hands": view["hands"],
        "rng": rng.getrandbits(64), "hand": view["hand"], "dealer": view["dealer"],
        "first_dealer": view["dealer"], "phase": view["phase"],
        "held": held, "pile": pile,
        "calls": [[c["seat"], c["call"]] for c in auction["calls"]] if auction else [],
        "bid": None if bid is None else [bid["seat"], bid["contract"]],
        "forced": bool(auction and auction["dealer_must_bid"]),
        "turn": view["turn"], "chooser": view["chooser"], "declarer": view["declarer"],
        "contract": view["contract"], "layout": view["layout"], "table": _table(view),
        "blocked": [p["blocked"] for p in players], "queued": list(view["queued_blocks"]),
        "run": view["run"],
        # who passed since the last card is not shown: the table's end (R6) comes a round later
        "passed": [], "out": out, "redeals": 0,
        "results": [dict(r) for r in view["results"]],
    }


# ------------------------------------------------------------------ the playouts
def light_view(state: State, seat: int) -> View:
    """The parts of ``seat``'s view that the ``medium`` policy reads, built cheaply (the same
    values :func:`~.views.view` gives; a test checks that ``medium`` decides alike on both)."""
    table = state["table"]
    bid = state["bid"]
    team = state["mode"] == TEAM
    return {
        "you": {"seat": seat, "hand": state["held"][seat]},
        "players": [{"seat": s, "hand_size": len(h), "team": team_of(s) if team else None}
                    for s, h in enumerate(state["held"])],
        "layout": state["layout"],
        "table": {"cells": table["cells"] if table else []},
        "auction": None if not state["auction"] else {
            "bid": None if bid is None else {"seat": bid[0], "contract": bid[1]}},
    }


def medium_move(state: State, seat: int) -> Move:
    """The ``medium`` policy's move for ``seat`` in a sampled world."""
    return greedy_move(light_view(state, seat), {"moves": action_space(state, seat),
                                                 "default": None})


def playout(state: State, seat: int, move: Action) -> float:
    """``move`` by ``seat``, then every seat's ``medium`` moves to the end of the hand, by the
    rules; the hand's points of ``seat``'s side minus the best other side's."""
    hand = state["hand"]
    done = len(state["results"])
    state = HANDLERS[move["type"]](state, seat, move)[0]
    while len(state["results"]) == done and state["phase"] != FINISHED:
        s = state["turn"]
        mv = medium_move(state, s)
        state = HANDLERS[mv["type"]](state, s, mv)[0]
    result = state["results"][done]
    assert result["hand"] == hand
    return side_margin(state, result["points"], seat)


def side_margin(state: State, points: list[int], seat: int) -> float:
    if state["mode"] == TEAM:
        mine = points[seat] + points[(seat + 2) % 4]
        return mine - (points[(seat + 1) % 4] + points[(seat + 3) % 4])
    others = [p for s, p in enumerate(points) if s != seat]
    return points[seat] - max(others)


# ------------------------------------------------------------------ the candidates
def candidates(view: View, actions: Actions) -> list[Move]:
    """The seat's moves worth weighing, ``medium``'s choice first: every bid and the pass,
    every layout, or (in play) the pass and each card on each of its cells, at most
    ``MAX_CANDIDATES`` of them (the best by ``medium``'s scores)."""
    first = greedy_move(view, actions)
    out: list[Move] = [first]
    spaces = {m["type"]: m for m in actions["moves"]}
    rest: list[tuple[float, Move]] = []
    if "auction_bid" in spaces:
        rest += [(0.0, {"type": "auction_bid", "contract": c})
                 for c in spaces["auction_bid"]["contracts"]]
    if "auction_pass" in spaces:
        rest.append((1.0, {"type": "auction_pass"}))
    if "choose_layout" in spaces:
        rest += [(0.0, {"type": "choose_layout", "layout": lay})
                 for lay in spaces["choose_layout"]["layouts"]]
    if "place" in spaces:
        me = view["you"]["seat"]
        hand = list(view["you"]["hand"])
        cards = spaces["place"]["cards"]
        playable = sum(1 for e in cards if e["cells"] and not is_sign(e["card"]))
        for e in cards:
            score = score_placement(view, me, e["card"], hand, playable)
            rest += [(score, {"type": "place", "card": e["card"], "x": c["x"], "y": c["y"]})
                     for c in e["cells"]]
    if "pass" in spaces:
        rest.append((0.0, {"type": "pass"}))
    rest.sort(key=lambda r: -r[0])  # stable: the action space's order among equals
    for _, move in rest:
        if move not in out:
            out.append(move)
    return out[:MAX_CANDIDATES]


# ------------------------------------------------------------------ the bot
def search(view: View, actions: Actions, rng: random.Random, worlds: int = WORLDS,
           think_ms: float | None = None, clock: Callable[[], float] | None = None) -> Move:
    """The ``hard`` bot's move (see the module's docstring): the best of its candidates over
    at most ``worlds`` sampled worlds, and, given a ``clock`` (seconds), no more worlds once
    ``think_ms`` milliseconds of it would likely be spent."""
    if not actions.get("moves") or "you" not in view:
        return greedy(view, actions, rng)
    moves = candidates(view, actions)
    if len(moves) == 1:
        return moves[0]
    me = view["you"]["seat"]
    budget = Budget(think_ms, clock)
    worlds = min(worlds, max(MIN_WORLDS, PLAYOUTS // len(moves)))
    totals = [0.0] * len(moves)
    done = 0
    while done < worlds:
        world = determinize(view, rng)
        if world is None:
            return moves[0]
        for i, move in enumerate(moves):
            totals[i] += playout(world, me, move)
        done += 1
        if budget.spent(done):
            break
    best = max(range(len(moves)), key=lambda i: (totals[i], -i))
    return moves[best]


def hard(view: View, actions: Actions, rng: random.Random) -> Move:
    """Plays each of its moves out in the deals its view allows (the others' hands, the draw
    pile), every later decision as ``medium``, to the end of the hand, and makes the move
    whose hand scores best for its side."""
    return search(view, actions, rng)


def hard_with(think_ms: float | None, clock: Callable[[], float] | None,
              worlds: int = WORLDS) -> Callable[[View, Actions, random.Random], Move]:
    """The ``hard`` bot with a think budget of ``think_ms`` milliseconds measured by
    ``clock`` (seconds, e.g. ``time.process_time``), over at most ``worlds`` worlds."""
    return budgeted(search, think_ms, clock, hard.__doc__, worlds=worlds)


__all__ = ["hard", "hard_with", "search", "determinize", "light_view", "playout", "THINK_MS",
           "WORLDS"]
