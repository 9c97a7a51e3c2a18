"""The contract of a ruleset: deterministic from the seed and the moves, plain JSON states, and
``apply`` never mutates the state it is given."""

from __future__ import annotations

import copy
import json
import random

import pytest

from impresario_rules.play import play_random_game
from impresario_rules.turandot import TURANDOT as T

from turandot_helpers import bid, new


def trace(n, seed, bot_seed, options=None):
    rng = random.Random(bot_seed)
    state, events = T.new_game(n, options, seed)
    states, moves = [state], []
    while not T.is_finished(state):
        seat = rng.choice(sorted(T.pending(state)))  # any schedule of simultaneous moves
        action = T.sample_action(state, seat, rng)
        state, evs = T.apply(state, seat, action)
        events.extend(evs)
        states.append(state)
        moves.append((seat, action))
    return states, moves, events


def replay(n, seed, moves, options=None):
    state, events = T.new_game(n, options, seed)
    states = [state]
    for seat, action in moves:
        state, evs = T.apply(state, seat, copy.deepcopy(action))
        events.extend(evs)
        states.append(state)
    return states, events


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_same_seed_and_same_moves_give_identical_states(n):
    for seed in range(5):
        options = {"first_maestro": "random"}
        states, moves, events = trace(n, seed, seed + 100, options)
        states2, events2 = replay(n, seed, moves, options)
        assert states2 == states
        assert events2 == events
        assert json.dumps(states2[-1], sort_keys=True) == json.dumps(states[-1], sort_keys=True)


def test_different_seeds_give_different_games():
    finals = {json.dumps(play_random_game(T, 3, seed)[0], sort_keys=True) for seed in range(10)}
    assert len(finals) == 10


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_every_state_and_event_round_trips_through_json_exactly(n):
    for seed in range(4):
        states, _, events = trace(n, seed, seed)
        for state in states:
            assert json.loads(json.dumps(state)) == state
            for viewer in [None, *range(n)]:
                view = T.view(state, viewer)
                assert json.loads(json.dumps(view)) == view
        for event in events:
            assert json.loads(json.dumps(event)) == event


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_apply_never_mutates_its_input(n):
    rng = random.Random(n)
    for seed in range(4):
        state, _ = T.new_game(n, None, seed)
        while not T.is_finished(state):
            seat = rng.choice(sorted(T.pending(state)))
            action = T.sample_action(state, seat, rng)
            before, action_before = copy.deepcopy(state), copy.deepcopy(action)
            # a refused move does not mutate either
            for bad in (bid(99), {"type": "nominate", "seat": seat}, {"type": "cast"}):
                try:
                    T.apply(state, seat, bad)
                except Exception:
                    pass
            T.view(state, seat)
            T.view(state, None)
            T.legal_actions(state, seat) if state["phase"] != "casting" else None
            T.action_space(state, seat)
            T.default_action(state, seat)
            new_state, _ = T.apply(state, seat, action)
            assert state == before
            assert action == action_before
            assert new_state is not state
            state = new_state
        T.score(state)


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_sampled_moves_are_legal_moves_and_every_legal_move_is_accepted(n):
    rng = random.Random(n * 7)
    state, _ = T.new_game(n, None, n)
    while not T.is_finished(state):
        seat = min(T.pending(state))
        if state["phase"] != "casting":
            legal = T.legal_actions(state, seat)
            for action in legal if len(legal) < 200 else rng.sample(legal, 200):
                T.apply(state, seat, action)
            sampled = T.sample_action(state, seat, rng)
            assert sampled in legal
            space = T.action_space(state, seat)
            assert space and space[0]["type"] == sampled["type"]
        else:
            sampled = T.sample_action(state, seat, rng)
        state, _ = T.apply(state, seat, sampled)


def test_the_random_generator_lives_in_the_state():
    a = new(4, seed=5)
    # the shuffle of round 4 comes from the state's generator: same state, same future
    assert isinstance(a["rng"], int) and 0 <= a["rng"] < 2 ** 64
    assert T.new_game(4, None, 5)[0]["rng"] == T.new_game(4, None, 5)[0]["rng"]
    assert T.new_game(4, None, -1)[0] == T.new_game(4, None, 2 ** 64 - 1)[0]


def test_a_random_bid_is_the_bid_at_the_index_drawn_in_legal_actions_order():
    """``random_bid`` decodes its one draw into the bid ``legal_actions`` lists at that index:
    a uniform draw is a uniform bid, and the random player and the engine agree move for
    move."""
    from impresario_rules.turandot.spaces import bid_options
    from impresario_rules.turandot.state import random_bid

    class Drawn:
        def __init__(self, i):
            self.i, self.bound = i, None

        def _randbelow(self, bound):  # what random_bid draws with (randrange's own draw)
            self.bound = bound
            return self.i

    for n, seed in ((2, 1), (3, 2), (4, 3), (5, 4)):
        state, _ = T.new_game(n, None, seed)
        rng = random.Random(seed)
        while not T.is_finished(state):
            seat = min(T.pending(state))
            if state["phase"] == "bidding":
                listed = T.legal_actions(state, seat)
                slots, money, helper = bid_options(state, seat)
                for i, expected in enumerate(listed):
                    draw = Drawn(i)
                    assert random_bid(draw, slots, money, helper) == expected
                    assert draw.bound == len(listed)
            state, _ = T.apply(state, seat, T.sample_action(state, seat, rng))


def test_a_random_bid_draws_what_randrange_draws():
    """``random_bid`` draws with ``random.Random._randbelow`` (randrange's own draw): from the
    same stream it picks the bid ``legal_actions``' list holds at ``randrange(len(list))``,
    so the random player's bids, and the seeded games that record them, stay the same."""
    from impresario_rules.turandot.spaces import bid_options
    from impresario_rules.turandot.state import random_bid

    for n, seed in ((2, 11), (3, 12), (4, 13), (5, 14)):
        state, _ = T.new_game(n, None, seed)
        rng = random.Random(seed)
        while not T.is_finished(state):
            seat = min(T.pending(state))
            if state["phase"] == "bidding":
                listed = T.legal_actions(state, seat)
                slots, money, helper = bid_options(state, seat)
                for k in range(20):
                    drawn = random_bid(random.Random(f"{seed}:{k}"), slots, money, helper)
                    assert drawn == listed[random.Random(f"{seed}:{k}").randrange(len(listed))]
            state, _ = T.apply(state, seat, T.sample_action(state, seat, rng))


def test_the_random_players_samples_draw_what_random_sample_draws():
    """``spaces.sample`` (the random player's office hires and casts) returns what
    ``rng.sample`` returns and leaves the generator where it leaves it: for ``random.Random``,
    the service's ``BotRandom``, and a generator that draws without ``getrandbits``; every
    population size around the short pool it draws itself, every sample size."""
    from impresario_rules.base import BotRandom
    from impresario_rules.turandot.spaces import sample

    class WithoutGetrandbits(random.Random):
        def random(self):  # random.py then draws below a bound from random(), not getrandbits
            return super().random()

    makers = (random.Random, lambda seed: BotRandom("secret", seed), WithoutGetrandbits)
    for make in makers:
        for seed in range(40):
            ours, theirs = make(seed), make(seed)
            for n in range(25):
                population = [f"S{i:02}" for i in range(n)]
                for k in range(n + 1):
                    assert sample(ours, population, k) == theirs.sample(population, k)
            assert ours.getstate() == theirs.getstate()
