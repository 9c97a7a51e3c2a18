"""The SDK's Muzicando helpers and bots, on views and action spaces from the core (no server):
whole matches played by the SDK bots, and the same greedy heuristic on both sides."""

from __future__ import annotations

import random

import pytest

from impresario import muzicando as sdk
from impresario_rules.muzicando import MUZICANDO as M
from muzicando_helpers import new_game


def actions(state, seat):
    """What ``GET /actions`` returns for ``seat``."""
    return {"seat": seat, "pending": M.pending(state).get(seat, []),
            "moves": M.action_space(state, seat), "default": M.default_action(state, seat)}


def play_with(bots, n, options, seed):
    state, _ = new_game(n, options, seed)
    while not M.is_finished(state):
        seat = next(iter(M.pending(state)))
        move = bots[seat].choose(M.view(state, seat), actions(state, seat))
        state, _ = M.apply(state, seat, move)
    return state


@pytest.mark.parametrize("n,options", [(4, {"hands": 2}), (3, {}), (6, {}),
                                       (4, {"mode": "individual", "auction": True})])
def test_sdk_bots_play_whole_matches(n, options):
    bots = [sdk.MuzicandoGreedyBot(seed=s) if s % 2 else sdk.MuzicandoRandomBot(seed=s)
            for s in range(n)]
    state = play_with(bots, n, options, seed=n)
    score = M.score(state)
    assert len(score["hands"]) == state["hands"]


def test_the_greedy_team_beats_the_random_team_over_a_few_matches():
    wins = 0
    for seed in range(6):
        bots = [sdk.MuzicandoGreedyBot(), sdk.MuzicandoRandomBot(seed=seed),
                sdk.MuzicandoGreedyBot(), sdk.MuzicandoRandomBot(seed=seed + 100)]
        state = play_with(bots, 4, {"hands": 2}, seed)
        teams = M.score(state)["teams"]
        wins += teams[0]["total"] > teams[1]["total"]
    assert wins >= 4


def test_the_server_greedy_bot_and_the_sdk_greedy_bot_choose_alike():
    """A greedy bot seat of the engine plays what the SDK's greedy bot chooses from the same
    view and actions (one heuristic, the rules package's)."""
    rng = random.Random(3)
    bot = sdk.MuzicandoGreedyBot(seed=1)
    for n, options in ((4, {"hands": 1}), (5, {})):
        state, _ = new_game(n, options, 11)
        for _ in range(150):
            if M.is_finished(state):
                break
            seat = next(iter(M.pending(state)))
            served = M.bot_action(state, seat, "greedy", rng)
            assert served == bot.choose(M.view(state, seat), actions(state, seat))
            state, _ = M.apply(state, seat, served if rng.random() < 0.5
                               else M.sample_action(state, seat, rng))


def test_greedy_sheds_a_sign_only_when_it_blocks_an_opponent():
    ovals = [[0, 1, "red-1"], [4, 5, "blue-5"]]
    from muzicando_helpers import playing
    # seat 0 holds a sharp (blocks seat 1, an opponent) and a flat (blocks seat 3, an opponent)
    s = playing("P", [["red-sign", "blue-sign", "orange-7", "indigo-1"], ["orange-3"],
                      ["orange-4"], ["orange-5"]], ovals)
    move = sdk.greedy_move(M.view(s, 0), actions(s, 0))
    assert move["type"] == "place" and move["card"] in ("red-sign", "blue-sign")
    # with seat 1 out, the sharp would block the partner (seat 2): keep it, use the flat
    s["held"][1] = []
    s["out"] = [1]
    move = sdk.greedy_move(M.view(s, 0), actions(s, 0))
    assert move["card"] == "blue-sign"


def test_greedy_bids_by_counting_openers_and_runs():
    strong = ["red-1", "red-2", "red-3", "red-4", "orange-1", "orange-2", "orange-3",
              "yellow-1", "yellow-2", "green-1", "blue-1", "blue-2", "indigo-1", "violet-1"]
    weak = ["red-5", "red-7", "orange-5", "orange-7", "yellow-6", "green-2", "green-7",
            "blue-3", "blue-7", "indigo-2", "indigo-3", "violet-4", "violet-sign", "red-sign"]
    assert sdk.layout_strength("M", strong) > sdk.layout_strength("M", weak)
    assert sdk.layout_strength("G", weak) == 0
    state, _ = new_game(4, {"hands": 1}, 1)
    state["held"][0] = strong
    move = sdk.greedy_move(M.view(state, 0), actions(state, 0))
    assert move["type"] == "auction_bid" and move["contract"][1] == "M"


class FakeSeat:
    def __init__(self):
        self.sent = []

    def move(self, move):
        self.sent.append(move)
        return {"ok": True}


def test_helpers_send_the_moves():
    seat = FakeSeat()
    sdk.auction_bid(seat, "2G")
    sdk.auction_pass(seat)
    sdk.choose_layout(seat, "P")
    sdk.place(seat, "red-3", 0, 2)
    sdk.pass_turn(seat)
    assert seat.sent == [{"type": "auction_bid", "contract": "2G"}, {"type": "auction_pass"},
                         {"type": "choose_layout", "layout": "P"},
                         {"type": "place", "card": "red-3", "x": 0, "y": 2}, {"type": "pass"}]


def test_the_sdk_module_does_not_import_the_engine():
    import impresario.muzicando as mod
    source = open(mod.__file__).read()
    assert "impresario_engine" not in source
