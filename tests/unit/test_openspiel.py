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


# -- worlds the seat's view allows, and ISMCTS as a seat -------------------------------------
def _positions(name: str, players: int, games: int, seed: int):
    """(rules' state, acting seat) at every decision of a few games of ``name``: random moves,
    and in Word Jam the ``medium`` bot's with a challenge now and then (random words are
    seldom declared, so only those games reach a thief's declaration and its vote)."""
    rules = RULESETS[name]
    for g in range(games):
        rng = random.Random(seed + g)
        state, _ = rules.new_game(players, {}, seed + g)
        while not rules.is_finished(state):
            seat = min(s for s, kinds in rules.pending(state).items() if kinds)
            yield state, seat
            if name != "wordjam":
                move = rules.sample_action(state, seat, rng)
            elif "challenge" in rules.pending(state)[seat] and rng.random() < 0.3:
                move = {"type": "challenge", "word_id": state["challenge"]["word_id"]}
            else:
                move = rules.bot_action(state, seat, "medium", rng)
            state, _ = rules.apply(state, seat, move)


#: what the seat cannot see, by ruleset: the deck; the Style cards to come; the others' hands
HIDDEN = {"turandot": lambda s, seat: s["deck"],
          "wordjam": lambda s, seat: s["styles"],
          "muzicando": lambda s, seat: [h for o, h in enumerate(s["held"]) if o != seat]}


@pytest.mark.parametrize("name, players, games", [("turandot", 4, 2), ("wordjam", 5, 1),
                                                  ("muzicando", 4, 1)])
def test_resampled_worlds_keep_the_seats_information_state(name: str, players: int,
                                                           games: int) -> None:
    """The resampler's worlds look to the seat exactly as the real game does (the same
    information-state string, so ISMCTS accepts them), at every decision of every phase;
    what the seat cannot see differs between worlds."""
    game = impresario_openspiel.sequential_game(name, players)
    resample = impresario_openspiel.resampler(seed=3)
    phases: set[str] = set()
    checked = differed = 0
    for real, seat in _positions(name, players, games, seed=40):
        state = impresario_openspiel.state_of(game, real)
        assert state.current_player() == seat
        info = state.information_state_string(seat)
        worlds = [resample(state, seat) for _ in range(3)]
        for world in worlds:
            assert world.information_state_string(seat) == info
            assert world.current_player() == seat
            assert world.legal_actions() == state.legal_actions()
        hidden = [json.dumps(HIDDEN[name](w.rules_state(), seat)) for w in worlds]
        if len(json.loads(hidden[0])) > 1:
            differed += len(set(hidden)) > 1
            checked += 1
        phases.add(real["phase"])
    assert differed >= 0.9 * checked > 0
    assert phases >= {"turandot": {"bidding", "office", "casting"},
                      "wordjam": {"sides", "think", "challenge", "vote", "bets", "window"},
                      "muzicando": {"auction", "play"}}[name]


def test_word_jam_worlds_in_a_thiefs_declaration() -> None:
    """Word Jam's worlds where a thief's declared word is challenged: the thieves still to
    declare and their words are sampled, and the world plays on to the game's end."""
    rules = RULESETS["wordjam"]
    rng = random.Random(1)
    seen = 0
    for real, seat in _positions("wordjam", 6, 2, seed=100):
        challenge = real["challenge"]
        if challenge is None or challenge["about"] != "declaration":
            continue
        view = rules.view(real, seat)
        world = impresario_openspiel.sample_world("wordjam", view, rng)
        assert rules.view(world, seat) == view
        assert world["queue"] == real["queue"]
        while not rules.is_finished(world):
            s = min(s for s, kinds in rules.pending(world).items() if kinds)
            world, _ = rules.apply(world, s, rules.bot_action(world, s, "medium", rng))
        seen += 1
    assert seen > 0


@pytest.mark.parametrize("ruleset, seats, options", [
    ("turandot", ["ismcts", "hard", "hard", "hard"], None),
    ("wordjam", ["ismcts", "easy", "easy", "easy", "easy"], None),
    ("muzicando", ["ismcts", "easy", "easy"], {"hands": 3}),
])
def test_ismcts_plays_a_tournament_game(ruleset: str, seats: list[str],
                                        options: dict | None) -> None:
    """The ISMCTS seat in the SDK's tournament, in process: a whole game, every move of it
    legal (the rules refuse any other), its decisions searched."""
    from impresario.tournament import run_tournament

    made: list[impresario_openspiel.ISMCTS] = []

    def ismcts_seat(seed: int | None = None) -> impresario_openspiel.ISMCTS:
        made.append(impresario_openspiel.ISMCTS(seed=seed, simulations=3, rollout_length=4))
        return made[-1]

    bots = [ismcts_seat if b == "ismcts" else b for b in seats]
    result = run_tournament(None, bots, 1, seed=1, ruleset=ruleset, options=options,
                            in_process=True)
    assert result["games"] == 1
    searched = [n for bot in made for n in bot.searched]
    row = next(b for b in result["by_bot"] if b["bot"] == "ismcts")
    assert row["decisions"] == len(searched) > 5
    assert max(searched) == 3


def test_ismcts_is_usable_by_name_with_a_budget() -> None:
    """``module:Class`` as the tournament names it: constructed with the game's seed, a think
    budget of 200 ms by the CPU clock."""
    from impresario.tournament import bot_for

    bot = bot_for("impresario_rules.openspiel:ISMCTS", seed=5)
    assert isinstance(bot, impresario_openspiel.ISMCTS)
    assert bot.name == "ismcts" and bot.think_ms == 200 and bot.simulations is None
    # the tournament's think budget (--think-ms) reaches it, as it reaches the levels
    assert bot_for("impresario_rules.openspiel:ISMCTS", seed=5, think_ms=50).think_ms == 50
    with pytest.raises(ValueError):
        impresario_openspiel.ISMCTS(think_ms=None)


def test_ismcts_decides_on_the_view_alone() -> None:
    """The seat's choice is a function of its view, its actions and its seed: a game that
    differs only where the seat cannot see (a world of the same view: another deck, other
    sealed bids) gets the same move; and the bot is given the view and the actions, never the
    game's state."""
    rules = RULESETS["turandot"]
    state, _ = rules.new_game(4, {}, 9)
    rng = random.Random(2)
    for seat in (0, 1):  # seat 2 bids after two sealed bids it cannot see
        state, _ = rules.apply(state, seat, rules.sample_action(state, seat, rng))
    view = rules.view(state, 2)
    other = impresario_openspiel.sample_world("turandot", view, random.Random(7))
    assert other["deck"] != state["deck"] and rules.view(other, 2) == view
    moves = []
    for real in (state, other):
        bot = impresario_openspiel.ISMCTS(seed=11, simulations=6, ruleset="turandot")
        move = bot.choose(rules.view(real, 2), rules.seat_actions(real, 2))
        rules.validate(state, 2, move)
        moves.append(move)
    assert moves[0] == moves[1]
    import inspect
    assert list(inspect.signature(impresario_openspiel.ISMCTS.choose).parameters) == \
        ["self", "view", "actions"]


def test_ismcts_asked_before_a_lower_seat(monkeypatch: pytest.MonkeyPatch) -> None:
    """Word Jam: seat 1 calls after seat 0 has passed, then seat 0 (lower) still has to answer
    the challenge window when seat 2 is asked (the rules' loop asks in the order it took the
    seats). The sequential game lets the lowest seat act first, so the bot's world has seat 0
    answer first, and never so that seat 2's decision turns into another (a vote), even when
    the random move drawn for seat 0 would be a challenge."""
    from impresario_rules.base import Refusal

    rules = RULESETS["wordjam"]
    state, _ = rules.new_game(5, {}, 3)
    state, _ = rules.apply(state, 0, {"type": "no_call"})
    for move in rules.legal_actions(state, 1):
        if move["type"] == "open_sesame":
            try:
                state, _ = rules.apply(state, 1, move)
                break
            except Refusal:
                continue
    assert state["phase"] == "challenge" and 0 in rules.pending(state)
    word_id = state["challenge"]["word_id"]
    monkeypatch.setattr(rules, "sample_action",
                        lambda *_: {"type": "challenge", "word_id": word_id})
    for seed in range(2):
        bot = impresario_openspiel.ISMCTS(seed=seed, simulations=2, rollout_length=2,
                                          ruleset="wordjam")
        move = bot.choose(rules.view(state, 2), rules.seat_actions(state, 2))
        assert move["type"] in ("challenge", "no_challenge")
        rules.validate(state, 2, move)
