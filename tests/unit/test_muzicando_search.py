"""Muzicando's ``hard`` bot: the worlds it samples are worlds its seat's view allows; the
light view its playouts give ``medium`` makes ``medium`` decide as the real view does, and the
legal cells they keep up to date are the rules'; it leaves ``medium``'s move only for one
clearly better in the same worlds, and samples no more worlds than it is given."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from impresario_rules.bots import seat_actions
from impresario_rules.muzicando import MUZICANDO
from impresario_rules.muzicando import search as search_module
from impresario_rules.muzicando.bots import greedy_move
from impresario_rules.muzicando.cards import DECK
from impresario_rules.muzicando.layouts import LegalCells, can_open, legal_map
from impresario_rules.muzicando.search import (candidates, determinize, light_view, outcome,
                                               pick, play_space, search, seen_cards)
from impresario_rules.muzicando.spaces import action_space
from impresario_rules.muzicando.views import view as seat_view

ruleset = MUZICANDO


def _positions(players: int, options: dict | None, games: int = 6, every: int = 5):
    """(state, seat) at decision points of seeded games played at random."""
    for game in range(games):
        state, _ = ruleset.new_game(players, options, 900 + game)
        mover = random.Random(game)
        step = 0
        while not ruleset.is_finished(state):
            seat = min(ruleset.pending(state))
            if step % every == 0:
                yield state, seat
            state, _ = ruleset.apply(state, seat, ruleset.sample_action(state, seat, mover))
            step += 1


@pytest.mark.parametrize("players,options", [(4, {"hands": 4}), (3, None),
                                             (4, {"mode": "individual", "auction": True,
                                                  "hands": 4})])
def test_sampled_worlds_respect_what_the_seat_sees(players, options):
    rng = random.Random(1)
    checked = 0
    for state, seat in _positions(players, options):
        view = seat_view(state, seat)
        seen = seen_cards(view)
        for _ in range(3):
            world = determinize(view, rng)
            assert world is not None
            # the seat's own hand and everything shown are as they are
            assert world["held"][seat] == state["held"][seat]
            table = world["table"] or {"cells": [], "covers": []}
            if state["table"] is None:
                assert world["table"] is None
            else:
                for part in ("cells", "covers"):
                    assert sorted(map(tuple, table[part])) \
                        == sorted(map(tuple, state["table"][part]))
            # the others hold as many cards as the view says, and the pile is as long
            assert [len(h) for h in world["held"]] == [len(h) for h in state["held"]]
            assert len(world["pile"]) == len(state["pile"])
            # a card the seat has seen is never dealt to another nor to the pile
            for s in range(players):
                if s != seat:
                    assert not seen & set(world["held"][s])
            assert not seen & set(world["pile"])
            # every card of the deck is somewhere exactly once
            everywhere = Counter(c for h in world["held"] for c in h)
            everywhere.update(world["pile"])
            everywhere.update(c for _, _, c in table["cells"])
            everywhere.update(c for _, _, c in table["covers"])
            assert everywhere == Counter(DECK)
            # the sampled world looks the same from the seat
            assert seat_view(world, seat) | {"pending": None} == view | {"pending": None}
            checked += 1
    assert checked > 50


def test_sampled_hands_keep_what_the_auction_said():
    """A seat that bid a layout holds its opening card in every world, while no card left
    its hand."""
    rng = random.Random(2)
    checked = 0
    for state, seat in _positions(4, {"hands": 4}, games=20, every=1):
        if state["phase"] != "auction":
            continue
        view = seat_view(state, seat)
        bidders = {s: c for s, c in state["calls"] if c != "pass" and s != seat}
        if not bidders:
            continue
        for _ in range(3):
            world = determinize(view, rng)
            for s, contract in bidders.items():
                assert can_open(contract[1], world["held"][s])
            checked += 1
    assert checked > 10


def test_medium_decides_alike_on_the_light_view():
    for state, seat in _positions(4, {"hands": 4}, games=4, every=2):
        actions = seat_actions(ruleset, state, seat)
        assert greedy_move(light_view(state, seat), actions) \
            == greedy_move(seat_view(state, seat), actions)


def _medium_auction_then_random(game: int, seed: int):
    """(state, seat) at every play decision of a seeded 4-hand team match whose seats bid as
    ``medium`` and play at random (``medium``'s bids favour the open grids, Sarabanda and
    Glissando, where the playouts' cells are kept up to date)."""
    state, _ = ruleset.new_game(4, {"hands": 4}, seed + game)
    mover = random.Random(game)
    while not ruleset.is_finished(state):
        seat = min(ruleset.pending(state))
        if state["phase"] == "play":
            yield state, seat
            move = ruleset.sample_action(state, seat, mover)
        else:
            move = greedy_move(seat_view(state, seat), seat_actions(ruleset, state, seat))
        state, _ = ruleset.apply(state, seat, move)


def test_playout_cells_agree_with_the_rules_move_by_move():
    """The legal cells a playout keeps up to date are what ``legal_map`` works out afresh, for
    every seat's hand after every move, and the action space built from them is the rules'."""
    layouts: Counter = Counter()
    checked = 0
    for game in range(8):
        legal, hand = None, None
        for state, seat in _medium_auction_then_random(game, 500):
            if legal is None or hand != state["hand"]:
                legal, hand = LegalCells(state["layout"]), state["hand"]
                layouts[state["layout"]] += 1
            for s in range(4):
                assert legal.cells(state["table"], state["held"][s]) \
                    == legal_map(state["table"], state["held"][s])
            assert play_space(state, seat, legal) == action_space(state, seat)
            checked += 1
    assert layouts["S"] and layouts["G"] and checked > 1000


def test_pick_leaves_medium_only_for_a_clear_gain():
    # candidate 0 is medium's choice
    assert pick([[0.0, 0.0, 0.0], [10.0, 12.0, 11.0]]) == 1          # clearly better
    assert pick([[0.0, 0.0, 0.0], [30.0, -28.0, 1.0]]) == 0          # better by luck alone
    assert pick([[5.0, 5.0], [5.5, 5.5]]) == 0                       # less than MIN_GAIN
    assert pick([[0.0], [50.0]]) == 0                                # one world says little
    assert pick([[3.0, 4.0, 2.0], [0.0, 0.0, 0.0]]) == 0             # medium's is best
    assert pick([[0.0, 0.0], [4.0, 4.0], [9.0, 9.0]]) == 2           # the best of the rest


def test_the_last_hand_weighs_the_match():
    """In the match's last hand a margin that turns the match counts for more than its points;
    earlier, the hand's margin is the outcome."""
    assert outcome(5.0, -10.0, last=False) == 5.0
    assert outcome(5.0, -10.0, last=True) < outcome(-5.0, 10.0, last=True)
    assert outcome(0.0, 0.0, last=True) == 0.0


def _first_play_decision(game: int = 0):
    for state, seat in _medium_auction_then_random(game, 700):
        actions = seat_actions(ruleset, state, seat)
        if len(candidates(seat_view(state, seat), actions)) >= 3:
            return state, seat, actions
    raise AssertionError("no decision with several candidates")


def test_search_plays_a_clearly_winning_move(monkeypatch):
    """In a position where one candidate, not ``medium``'s, wins every world by a wide margin,
    the search plays it; where they all come to the same it plays ``medium``'s."""
    state, seat, actions = _first_play_decision()
    view = seat_view(state, seat)
    moves = candidates(view, actions)
    target = moves[2]
    monkeypatch.setattr(search_module, "playout",
                        lambda world, me, move: 12.0 if move == target else 0.0)
    assert search(view, actions, random.Random(1)) == target
    # every candidate comes to the same in each world (some worlds good, some bad)
    monkeypatch.setattr(search_module, "playout",
                        lambda world, me, move: float(world["rng"] % 41) - 20.0)
    assert search(view, actions, random.Random(1)) == greedy_move(view, actions)


def test_search_samples_at_most_its_worlds(monkeypatch):
    state, seat, actions = _first_play_decision(1)
    view = seat_view(state, seat)
    sampled = []
    real = search_module.determinize

    def counting(v, rng):
        sampled.append(1)
        return real(v, rng)
    monkeypatch.setattr(search_module, "determinize", counting)
    for worlds in (1, 2, 5):
        sampled.clear()
        search(view, actions, random.Random(3), worlds=worlds)
        assert len(sampled) == worlds

