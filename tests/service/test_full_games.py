"""Whole Turandot games over HTTP (Flask test client, real Redis): random legal moves built from
``GET /actions``, played to the end; the served score and views equal the rules core's replay."""

from __future__ import annotations

import random

import pytest

from impresario_rules.turandot import TURANDOT
from service_helpers import auth, play_random, replay, stored


@pytest.mark.parametrize("players,seed,first_maestro", [
    (2, 11, 0), (2, 12, 1), (3, 21, 0), (3, 22, "random"), (4, 31, 2), (4, 32, 0),
    (5, 41, 4), (5, 42, "random"),
])
def test_full_game_matches_rules_core(client, make_game, redis_client, players, seed,
                                      first_maestro):
    game = make_game(players=players, seed=seed, first_maestro=first_maestro)
    start = client.get(game.url).get_json()
    assert start["status"] == "playing" and start["phase"] == "bidding"
    assert start["round"] == 1
    assert len(start["table"]) == players + 1

    moves = play_random(client, game, random.Random(seed * 7919))

    view = client.get(game.url).get_json()
    assert view["status"] == "finished" and view["phase"] == "finished"
    state = replay(players, game.options, seed, moves)
    assert TURANDOT.is_finished(state)

    score = client.get(f"{game.url}/score")
    assert score.status_code == 200
    assert score.get_json() == {"ruleset": "turandot", **TURANDOT.score(state)}
    for token in [None, game.host_token, *game.tokens]:
        assert client.get(f"{game.url}/score", headers=auth(token)).get_json() == \
            score.get_json()

    # the spectator's view is the core's view of the replayed state, plus the service's fields
    core = TURANDOT.view(state, None)
    for key, value in core.items():
        if key == "players":
            for served, expected in zip(view["players"], value):
                assert served["name"] == f"P{served['seat']}"
                assert served["bot"] is None
                assert {k: v for k, v in served.items() if k not in ("name", "bot")} == expected
        elif key == "pending":  # the service adds each pending seat's deadline
            assert [{k: v for k, v in p.items() if k != "deadline"} for p in view[key]] == value
        else:
            assert view[key] == value, key
    assert view["score"] == TURANDOT.score(state)

    # the store holds exactly the moves made, and the replayed state
    version, doc = stored(redis_client, game.id)
    assert version == view["version"] == 1 + players + len(moves)
    assert [(s, m) for s, m, by in doc["moves"]] == [(s, m) for s, m in moves]
    assert {by for _s, _m, by in doc["moves"]} == {"seat"}
    assert doc["state"] == state
    assert doc["status"] == "finished"

    # the event feed is complete and numbered 1..last_seq
    feed = client.get(f"{game.url}/events?after=0").get_json()
    assert [e["seq"] for e in feed["events"]] == list(range(1, feed["last_seq"] + 1))
    assert feed["events"][-1]["type"] == "game_finished"
    kinds = [e["type"] for e in feed["events"]]
    assert kinds.count("bids_revealed") == 7
    assert kinds.count("bid_committed") == 7 * players
    assert kinds.count("cast") == players

    # after the end: no legal moves for anyone
    for token in game.tokens:
        acts = client.get(f"{game.url}/actions", headers=auth(token)).get_json()
        assert acts["moves"] == [] and acts["pending"] == []


def test_every_round_reveals_bids_to_everyone_at_once(client, make_game):
    game = make_game(players=3, seed=5)
    rng = random.Random(5)
    reveals = []

    def observe(seat, move, resp):
        body = resp.get_json()
        if any(e["type"] == "bids_revealed" for e in body["events"]):
            reveals.append(body["version"])
            # every viewer sees the same reveal at this version
            seen = [client.get(game.url, headers=auth(t)).get_json()["reveal"]
                    for t in [None, *game.tokens]]
            assert all(r == seen[0] for r in seen) and seen[0] is not None

    play_random(client, game, rng, observe=observe)
    assert len(reveals) == 7
