"""Muzicando's ``hard`` bot: a search over the deals the seat's view allows.

What the seat cannot see is sampled, never read (:func:`determinize`): the cards it has not
seen (neither in its hand nor on the table) are dealt at random to the others, each getting as
many as the view says it holds, and the rest make the draw pile, as long as the view says. What
the auction told the table is kept: while no card is on the table, a seat that bid a layout
holds that layout's opening card (R7), and a dealer who must bid holds a Do or an oval.

Each of the seat's candidate moves (the pass and each layout's two lowest contracts in the
auction; each layout to choose; each card on each of its legal cells, and the pass, in play) is
played in each sampled world by the rules themselves (the ruleset's handlers: the auction, the
blocks, the runs, the draws, the hand's end and its score), every later decision of every seat
made by the ``medium`` policy, to the end of the hand. The outcome is the hand's points of the
seat's side (its team in the team game) minus the best other side's; in the match's last hand,
``WIN_VALUE`` more when the match ends won (less when lost), since then only winning counts.
Every candidate meets the same worlds.

The search leaves ``medium``'s choice only for a candidate clearly better in those worlds
(:func:`pick`: a mean gain of ``MIN_GAIN`` points at least and ``Z`` standard errors of the
paired difference). A few worlds rank six candidates mostly by luck, and taking the best mean
of them made ``hard`` no stronger than ``medium``; most of its gain is in not leaving
``medium``'s move for noise.

Why playouts to the end of the hand and no shorter horizon: a Muzicando hand is short (some
60 moves for four players) and its points depend on who goes out first and whether the
contract is made, which no simple evaluation of a mid-hand position tells. A playout by the
``medium`` policy, on a light view of the sampled world (:func:`light_view`, the few fields
``medium`` reads), with the legal cells kept up to date as the table grows
(:class:`~.layouts.LegalCells`, instead of working them out afresh from the whole table each
move), costs about 3 ms here at the start of a hand and less later. The candidates are capped
(``MAX_CANDIDATES``, ``medium``'s choice and the best by its own scores) and the worlds with
them (``PLAYOUTS`` a decision, at least ``MIN_WORLDS`` worlds), so that a decision with many
candidates still weighs each in several worlds and one with few weighs them in more.

The search weighs at most ``worlds`` sampled worlds (the loop over them is the one the ``hard``
bots share, :mod:`impresario_rules.search`: this module gives its worlds, values and choice,
:class:`Deals`). Like everything in this package it reads no clock: a caller that wants a think
budget in time passes one, with the clock to measure it by (the SDK's ``make_bot("hard",
ruleset="muzicando", think_ms=...)``); without one the bot is reproducible from its random
stream alone, bounded by ``WORLDS`` and ``PLAYOUTS`` (``docs/bots.md`` has the measured think
times).
"""

from __future__ import annotations

import random
from typing import Any, Callable

from ..base import Action, State
from ..bots import Actions, Budget, Move, THINK_MS, View, budgeted
from ..search import Game, best_move
from . import layouts as L
from .auction import auction_bid, auction_pass, choose_layout
from .bots import greedy, greedy_move, layout_strength, score_placement
from .cards import DECK, is_sign, sort_cards
from .layouts import LegalCells
from .play import pass_move, place
from .spaces import action_space
from .state import AUCTION, OVER, PLAY, TEAM, layout_of, team_of

#: the most worlds a decision samples (a think budget may stop it sooner)
WORLDS = 16
#: the most candidate moves a decision weighs (the best by ``medium``'s scores, and its own)
MAX_CANDIDATES = 6
#: the playouts a decision may make at most: with many candidates, fewer worlds (but
#: ``MIN_WORLDS`` at least)
PLAYOUTS = 64
MIN_WORLDS = 3
#: leaving ``medium``'s choice (:func:`pick`): the fewest worlds, the least mean gain in points
#: and the standard errors of the paired difference it takes
MIN_PAIRED = 2
MIN_GAIN = 1.0
Z = 1.0
#: what winning the match is worth in its last hand, in points beside the hand's margin
WIN_VALUE = 20.0
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


def play_space(state: State, seat: int, legal: LegalCells) -> list[dict[str, Any]]:
    """``action_space(state, seat)`` in play (the phase a playout spends its moves in), its
    cells from ``legal``."""
    cells = legal.cells(state["table"], state["held"][seat])
    out: list[dict[str, Any]] = []
    if any(cells.values()):
        out.append({"type": "place", "cards": [
            {"card": c, "cells": [{"x": x, "y": y} for x, y in cells[c]]}
            for c in sort_cards(list(cells))]})
    if state["table"]["cells"] and (state["pile"] or not any(
            v for c, v in cells.items() if not is_sign(c))):
        out.append({"type": "pass", "draws": bool(state["pile"])})
    return out


def medium_move(state: State, seat: int, legal: LegalCells | None = None) -> Move:
    """The ``medium`` policy's move for ``seat`` in a sampled world (``legal``: the playout's
    legal cells, in play)."""
    space = (play_space(state, seat, legal) if legal is not None and state["phase"] == PLAY
             else action_space(state, seat))
    return greedy_move(light_view(state, seat), {"moves": space, "default": None})


def playout(state: State, seat: int, move: Action) -> float:
    """``move`` by ``seat``, then every seat's ``medium`` moves to the end of the hand, by the
    rules; the hand's points of ``seat``'s side minus the best other side's."""
    hand = state["hand"]
    done = len(state["results"])
    state = HANDLERS[move["type"]](state, seat, move)[0]
    legal = None
    while len(state["results"]) == done and state["phase"] != OVER:
        s = state["turn"]
        if legal is None and state["phase"] == PLAY:
            legal = LegalCells(state["layout"])
        mv = medium_move(state, s, legal)
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
    """The seat's moves worth weighing, ``medium``'s choice first: in the auction the pass and
    each layout's two lowest contracts the seat may bid (its strongest layouts by ``medium``'s
    count first); every layout; or (in play) the pass and each card on each of its cells; at
    most ``MAX_CANDIDATES`` of them (the best by ``medium``'s scores)."""
    first = greedy_move(view, actions)
    out: list[Move] = [first]
    spaces = {m["type"]: m for m in actions["moves"]}
    rest: list[tuple[float, Move]] = []
    if "auction_pass" in spaces:
        rest.append((100.0, {"type": "auction_pass"}))
    if "auction_bid" in spaces:
        # each layout's two lowest contracts it may bid, its strongest layouts first
        hand = list(view["you"]["hand"])
        levels: dict[str, int] = {}
        for c in spaces["auction_bid"]["contracts"]:
            layout = layout_of(c)
            if levels.get(layout, 0) < 2:
                levels[layout] = levels.get(layout, 0) + 1
                rest.append((layout_strength(layout, hand) - levels[layout],
                             {"type": "auction_bid", "contract": c}))
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
def match_margin(view: View) -> float:
    """The seat's side's match total minus the best other side's, before this hand."""
    me = view["you"]["seat"]
    totals = view.get("totals") or [0] * len(view["players"])
    if view["mode"] == TEAM:
        return float(totals[me] + totals[(me + 2) % 4]
                     - totals[(me + 1) % 4] - totals[(me + 3) % 4])
    return float(totals[me] - max(t for s, t in enumerate(totals) if s != me))


def outcome(margin: float, before: float, last: bool) -> float:
    """What a playout's hand margin is worth: the margin itself, and in the match's last hand
    ``WIN_VALUE`` more for a match it wins (less for one it loses): then only winning counts."""
    if not last:
        return margin
    total = before + margin
    return margin + WIN_VALUE * ((total > 0) - (total < 0))


class Deals(Game[State]):
    """Muzicando's part of the search for one decision (see the module's docstring): a world is
    a deal the view allows (:func:`determinize`); a candidate is played out in it to the end of
    the hand (:func:`playout`) and the hand's margin weighed by the match (:func:`outcome`); the
    move is chosen by :func:`pick`."""

    def __init__(self, view: View) -> None:
        self.view = view
        self.me: int = view["you"]["seat"]
        self.before = match_margin(view)
        self.last: bool = view["hand"] >= view["hands"]

    def sample(self, rng: random.Random) -> State | None:
        return determinize(self.view, rng)

    def value(self, world: State, move: Move) -> float:
        return outcome(playout(world, self.me, move), self.before, self.last)

    def choose(self, values: list[list[float]]) -> int:
        return pick(values)


def search(view: View, actions: Actions, rng: random.Random, worlds: int = WORLDS,
           think_ms: float | None = None, clock: Callable[[], float] | None = None) -> Move:
    """The ``hard`` bot's move (see the module's docstring): the best of its candidates over
    at most ``worlds`` sampled worlds, and, given a ``clock`` (seconds), no more worlds once
    ``think_ms`` milliseconds of it would likely be spent. It leaves ``medium``'s choice only
    for a candidate clearly better in the same worlds (:func:`pick`)."""
    if not actions.get("moves") or "you" not in view:
        return greedy(view, actions, rng)
    moves = candidates(view, actions)
    if len(moves) == 1:
        return moves[0]
    budget = Budget(think_ms, clock)
    worlds = min(worlds, max(MIN_WORLDS, PLAYOUTS // len(moves)))
    return best_move(Deals(view), moves, rng, budget, worlds)


def _paired(values: list[list[float]], i: int) -> tuple[float, float]:
    """Candidate ``i``'s mean gain over candidate 0 in the same worlds, and its standard
    error."""
    n = len(values[0])
    diffs = [b - a for a, b in zip(values[0], values[i])]
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / max(1, n - 1)
    return mean, (var / n) ** 0.5


def pick(values: list[list[float]]) -> int:
    """The candidate to play, by its outcomes in the same worlds (``values[i][w]``: candidate
    ``i`` in world ``w``; candidate 0 is ``medium``'s choice): the best mean, if it beats
    candidate 0 in the paired worlds by at least ``MIN_GAIN`` and by ``Z`` standard errors of
    the paired difference, over ``MIN_PAIRED`` worlds at least; otherwise candidate 0. A few
    worlds rank the candidates by luck, and a move ``medium`` would not make is worth it only
    when the worlds agree."""
    n = len(values[0])
    best = max(range(len(values)), key=lambda i: (sum(values[i]), -i))
    if best == 0 or n < MIN_PAIRED:
        return 0
    mean, se = _paired(values, best)
    return best if mean >= MIN_GAIN and mean >= Z * se else 0


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
