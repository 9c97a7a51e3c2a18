"""End to end: the SDK's bots play whole games through real gunicorn and a real Redis."""

from __future__ import annotations

import orjson
import pytest

from impresario import Client, GreedyBot, RandomBot, play_game, run_tournament
from impresario.tournament import wilson
from impresario_engine.games import TURANDOT


def _replay_score(redis_client, game_id: str) -> dict:
    """The rules core's score of the game rebuilt from its seed and the moves stored in Redis."""
    doc = orjson.loads(redis_client.hget(f"game:{{{game_id}}}", "doc"))
    state, _ = TURANDOT.new_game(doc["players"], doc["options"], doc["seed"])
    for seat, move, _by in doc["moves"]:
        state, _ = TURANDOT.apply(state, seat, move)
    return TURANDOT.score(state)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_bots_play_a_whole_game_and_the_sdk_reads_the_cores_score(live_server, redis_client,
                                                                   players):
    client = Client(live_server)
    bots = [GreedyBot(seed=players) if i % 2 == 0 else RandomBot(seed=players + i)
            for i in range(players)]
    game_id, score, seats = play_game(client, bots, seed=100 + players)
    assert len(score["players"]) == players
    assert score == _replay_score(redis_client, game_id)
    view = seats[0].view()
    assert view["status"] == "finished" and view["phase"] == "finished"
    assert all(len(p["singers"]) == 6 and p["director"] for p in view["players"])
    assert (score["dummy"] is not None) == (players == 2)


@pytest.mark.slow
def test_greedy_beats_random_clearly(live_server):
    """Seeded tournament, greedy in seat 0 against three random bots: its 95% interval must
    sit well above the 25% a random seat would win."""
    result = run_tournament(Client(live_server), ["greedy", "random", "random", "random"],
                            games=24, seed=3)
    greedy = result["standings"][0]
    lo, _ = greedy["ci95"]
    print(f"greedy win rate {greedy['win_rate']:.0%} (95% CI from {lo:.0%}), "
          f"avg {greedy['avg_total']:.1f} vs random "
          f"{sum(r['avg_total'] for r in result['standings'][1:]) / 3:.1f}")
    assert lo > 0.5
    assert greedy["avg_total"] > max(r["avg_total"] for r in result["standings"][1:]) + 3


def test_wilson_interval():
    lo, hi = wilson(12, 24)
    assert 0.29 < lo < 0.32 and 0.68 < hi < 0.71
    assert wilson(0, 0) == (0.0, 1.0)
