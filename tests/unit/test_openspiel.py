"""Impresario's games in OpenSpiel (impresario_rules.openspiel): OpenSpiel's own consistency
checks on random games, serialization, what an information state shows, and OpenSpiel's ISMCTS
playing Turandot to its end."""

from __future__ import annotations

import json
import random

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

from impresario_rules import RULESETS
from impresario_rules import openspiel as impresario_openspiel

GAMES = impresario_openspiel.GAMES


def play_randomly(state: pyspiel.State, rng: random.Random, moves: int | None = None
                  ) -> pyspiel.State:
    """``state`` played on at random (``moves`` steps, or to the end)."""
    while not state.is_terminal() and (moves is None or moves > 0):
        if state.is_chance_node():
            state.apply_action(rng.randrange(impresario_openspiel.BYTE))
        elif state.is_simultaneous_node():
            state.apply_actions([rng.choice(state.legal_actions(p))
                                 for p in range(state.num_players())])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        if moves is not None:
            moves -= 1
    return state


@pytest.mark.parametrize("spec, sims", [
    ("python_impresario_turandot(players=4)", 3),
    ("python_impresario_turandot(players=2,simultaneous=false)", 2),
    ("python_impresario_turandot(players=5)", 1),
    ("python_impresario_wordjam(players=5)", 1),
    ("python_impresario_wordjam(players=6,simultaneous=false)", 1),
    ("python_impresario_muzicando(players=4)", 2),
    ("python_impresario_muzicando(players=3)", 1),
])
def test_random_sim_test(spec: str, sims: int) -> None:
    """OpenSpiel's checks of random games: states, legal actions, observations, the game's
    length and utilities, serialization after every move."""
    pyspiel.random_sim_test(pyspiel.load_game(spec), num_sims=sims, serialize=True,
                            verbose=False)


def test_games_registered_with_their_parameters() -> None:
    names = set(pyspiel.registered_names())
    assert set(GAMES.values()) <= names
    game = pyspiel.load_game("python_impresario_turandot(players=3)")
    assert game.num_players() == 3
    assert game.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    sequential = pyspiel.load_game("python_impresario_turandot(simultaneous=false)")
    assert sequential.num_players() == 4
    assert sequential.get_type().dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert pyspiel.load_game("python_impresario_wordjam").num_players() == 5
    with pytest.raises(Exception):
        pyspiel.load_game("python_impresario_turandot(players=9)")


@pytest.mark.parametrize("name, players", [("turandot", 4), ("wordjam", 5),
                                           ("muzicando", 4)])
def test_serialize_round_trip_mid_game(name: str, players: int) -> None:
    game = pyspiel.load_game(f"{GAMES[name]}(players={players})")
    moves = 10 if name == "turandot" else 30
    state = play_randomly(game.new_initial_state(), random.Random(7), moves=moves)
    assert not state.is_terminal()
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(game2) == str(game)
    assert str(state2) == str(state)
    assert state2.history() == state.history()
    for p in range(players):
        assert state2.information_state_string(p) == state.information_state_string(p)
        assert state2.legal_actions(p) == state.legal_actions(p)
    # and the game plays on from it the same
    a = play_randomly(state, random.Random(3))
    b = play_randomly(state2, random.Random(3))
    assert str(a) == str(b) and a.returns() == b.returns()


def test_replaying_the_history_reproduces_the_state() -> None:
    game = pyspiel.load_game("python_impresario_turandot(players=3,simultaneous=false)")
    state = play_randomly(game.new_initial_state(), random.Random(11), moves=25)
    replay = game.new_initial_state()
    for action in state.history():
        replay.apply_action(action)
    assert str(replay) == str(state)


def test_every_move_of_the_rules_has_its_id() -> None:
    """The codecs: every legal move the rules list (Word Jam: the final words) has an id that
    decodes back to it."""
    rng = random.Random(5)
    for name, players in (("turandot", 4), ("turandot", 5), ("muzicando", 2),
                          ("muzicando", 4), ("wordjam", 5)):
        rules, codec = RULESETS[name], impresario_openspiel._codec(name, players)
        state, _ = rules.new_game(players, {}, rng.randrange(10**6))
        steps = 0
        while not rules.is_finished(state) and steps < 200:
            seat = min(s for s, k in rules.pending(state).items() if k)
            for move in rules.legal_actions(state, seat)[:400]:
                action = codec.encode(state, seat, move)
                if action is None:
                    assert move["type"] == "thief_word" and not move["final"], move
                    continue
                assert 0 < action < codec.size
                assert rules.prepare(codec.decode(state, seat, action)) == \
                    rules.prepare(move), (name, move)
            state, _ = rules.apply(state, seat, rules.sample_action(state, seat, rng))
            steps += 1


def _strings(state: pyspiel.State, players: int) -> list[str]:
    return [state.information_state_string(p) for p in range(players)] + \
        [state.observation_string(p) for p in range(players)]


def test_information_states_keep_the_secrets() -> None:
    """A seat's information state shows no other seat's hand (Muzicando), no singer of the
    deck and no sealed bid of another seat (Turandot), checked against the rules' state."""
    game = pyspiel.load_game("python_impresario_muzicando(players=4)")
    state = play_randomly(game.new_initial_state(), random.Random(2), moves=4)
    checked = 0
    while not state.is_terminal() and checked < 60:
        held = state.rules_state()["held"]
        for seat in range(4):
            info = state.information_state_string(seat)
            view = json.loads(info)
            for other in range(4):
                for card in held[other] if other != seat else ():
                    assert f'"{card}"' not in info, (seat, other, card)
            assert json.loads(state.observation_string(seat)) == view
        checked += 1
        play_randomly(state, random.Random(checked), moves=1)
    assert checked == 60

    game = pyspiel.load_game("python_impresario_turandot(players=4)")
    state = play_randomly(game.new_initial_state(), random.Random(4), moves=4)
    seen_bids = 0
    while not state.is_terminal():
        rules_state = state.rules_state()
        for seat in range(4):
            info = state.information_state_string(seat)
            for singer in rules_state["deck"]:
                assert f'"{singer}"' not in info
            view = json.loads(info)
            if rules_state["phase"] == "bidding":
                for p in view["players"]:
                    if p["seat"] != seat:
                        assert "bid" not in p or p["bid"] is None
                assert view["you"].get("bid") is None or rules_state["bids"][seat] is not None
                seen_bids += rules_state["bids"][seat] is not None
        if state.is_simultaneous_node():  # bid one seat at a time, to see the sealed bids
            acting = [p for p in range(4) if state.legal_actions(p) != [0]]
            state.apply_actions([state.legal_actions(p)[-1] if p == acting[0] else 0
                                 for p in range(4)])
        else:
            play_randomly(state, random.Random(seen_bids), moves=1)
    assert seen_bids > 0


def test_ismcts_plays_turandot_to_its_end() -> None:
    """OpenSpiel's ISMCTSBot, a random-rollout evaluator and few simulations, playing every
    seat of a 4-player Turandot (sequential: ISMCTS needs it) with the rules' own
    determinization as its resampler."""
    game = pyspiel.load_game("python_impresario_turandot(players=4,simultaneous=false)")
    rng = np.random.RandomState(1)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=8, random_state=rng)
    bot.set_resampler(impresario_openspiel.turandot_resampler(seed=1))
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
            continue
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        decisions += 1
    assert decisions > 20
    assert abs(sum(state.returns()) - 1.0) < 1e-9 or sum(state.returns()) == 0.0
