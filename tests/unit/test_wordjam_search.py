"""Word Jam's ``hard`` bot: the worlds it samples agree with what its seat has seen, it decides
within its budget, and a searching bot still moves inside a one-second window on the server."""

from __future__ import annotations

import random

from impresario_rules import RULESETS
from impresario_rules.base import BotRandom
from impresario_rules.wordjam import search
from impresario_rules.wordjam.search import Model
from impresario_rules.wordjam.state import BETS, SIDES, THINK

WORDJAM = RULESETS["wordjam"]


def _decision_points(games: int = 6, players: int = 6):
    """``(state, seat)`` where a seat is about to call, bet or choose its side, in seeded games
    of medium bots (so the others' secrets are the kind the sampler models)."""
    for game in range(games):
        state, _ = WORDJAM.new_game(players, {"language": "en" if game % 2 else "it"},
                                    300 + game)
        step = 0
        while not WORDJAM.is_finished(state):
            seat = min(WORDJAM.pending(state))
            if state["phase"] in (SIDES, THINK, BETS):
                yield state, seat
            move = WORDJAM.bot_action(state, seat, "medium", BotRandom("m", game, step))
            state, _ = WORDJAM.apply(state, seat, move)
            step += 1


def test_a_sampled_world_looks_from_the_seat_exactly_as_its_view():
    checked = 0
    for state, seat in _decision_points():
        view = WORDJAM.view(state, seat)
        model = Model(view, random.Random(checked))
        for k in range(3):
            world = model.world(random.Random(k))
            assert WORDJAM.view(world.state, seat) == view
            used = set(view["used_words"])
            card = {w[1]: w for w in model.card}
            for s, (found, pick) in world.words.items():
                assert s != seat and 0 <= pick < search.TOP
                # only words on the card that pass the checks now, most valuable first
                assert all(w[1] in card and w[1] not in used for w in found)
                assert [w[2] for w in found] == sorted((w[2] for w in found), reverse=True)
                if view["players"][s]["no_call"]:
                    assert found == []  # it said it has nothing
            # the hidden bets and sides the sampler filled are real choices
            for s in range(state["n"]):
                if s != seat:
                    assert world.state["bets"][s] in (None, "ali_baba", "thieves")
                    assert world.state["sides"][s] in (None, "ali_baba", "thieves")
        checked += 1
    assert checked > 50


def test_the_hard_bot_makes_legal_moves_and_is_reproducible_from_its_stream():
    for i, (state, seat) in enumerate(_decision_points(games=2)):
        here = WORDJAM.bot_action(state, seat, "hard", BotRandom("h", i))
        again = WORDJAM.bot_action(state, seat, "hard", BotRandom("h", i))
        assert here == again
        WORDJAM.apply(state, seat, here)  # legal: the rules accept it


def test_a_think_budget_stops_the_sampling():
    ticks = iter(range(10_000))
    clock = lambda: next(ticks) * 0.1  # noqa: E731 - every reading 100 ms later
    play = search.hard_with(150, clock)
    for i, (state, seat) in enumerate(_decision_points(games=1)):
        start = next(ticks)
        play(WORDJAM.view(state, seat), WORDJAM.seat_actions(state, seat), random.Random(i))
        assert next(ticks) - start <= 6  # a world or two, not WORLDS of them


def test_a_searching_bot_moves_inside_a_one_second_window():
    """The engine lets a searching bot think at least ``SEARCH_SECONDS``, but never beyond its
    share of the window it must act in: Word Jam's windows may be one second long."""
    from impresario_engine.table.clock import (BOT_WINDOW_SHARE, SEARCH_SECONDS, PLAYING,
                                               bot_times)

    state, _ = WORDJAM.new_game(5, {"think_seconds": 1}, 5)
    assert WORDJAM.turn_seconds(state, 0, None) == 1 <= SEARCH_SECONDS
    doc = {"status": PLAYING, "ruleset": "wordjam", "secret": "s", "state": state,
           "settings": {"bot_seconds": 0},
           "seats": [{"bot": "hard"}, {"bot": "medium"}, {"bot": None}, {"bot": "hard"},
                     {"bot": "easy"}],
           "since": {str(s): 100.0 for s in range(5)}}
    times = bot_times(doc, WORDJAM, WORDJAM.pending(state))
    for s in (0, 3):
        assert 100.0 < times[s][0] <= 100.0 + BOT_WINDOW_SHARE * 1
    assert times[1][0] == times[4][0] == 100.0  # the others think as before (bot_seconds 0)
    long_state, _ = WORDJAM.new_game(5, None, 5)
    times = bot_times({**doc, "state": long_state}, WORDJAM, WORDJAM.pending(long_state))
    assert times[0][0] == 100.0 + SEARCH_SECONDS  # a long window: the full search time
