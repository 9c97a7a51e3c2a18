"""Muzicando's ``hard`` bot: the worlds it samples are worlds its seat's view allows, and the
light view its playouts give ``medium`` makes ``medium`` decide as the real view does."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from impresario_rules.bots import seat_actions
from impresario_rules.muzicando import MUZICANDO
from impresario_rules.muzicando.bots import greedy_move
from impresario_rules.muzicando.cards import DECK
from impresario_rules.muzicando.layouts import can_open
from impresario_rules.muzicando.search import determinize, light_view, seen_cards
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

