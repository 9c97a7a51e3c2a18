"""GET /v1/games/{id}/places: each player's place in a finished game, as the rules rank them
(Turandot: total, then stars alone, still tied sharing the place); refused before the end."""

from __future__ import annotations

import random

from impresario_rules.turandot import TURANDOT

from service_helpers import assert_problem, auth, play_random


def test_places_come_from_the_rules_once_the_game_is_over(client, make_game):
    game = make_game(players=4, seed=11)
    before = client.get(f"{game.url}/places", headers=auth(game.tokens[0]))
    assert_problem(before, 409, "game_not_finished")
    play_random(client, game, random.Random(11))
    score = client.get(f"{game.url}/score").get_json()
    resp = client.get(f"{game.url}/places", headers=auth(game.tokens[2]))
    assert resp.status_code == 200
    places = resp.get_json()
    assert places == {"ruleset": "turandot", "places": TURANDOT.places(score)}
    keys = [(p["total"], p["lines"]["stars"]) for p in score["players"]]
    for seat, place in enumerate(places["places"]):
        assert place == 1 + sum(1 for k in keys if k > keys[seat])
    # the game's own answers are as before: the places are served on their own
    assert "places" not in score and "places" not in client.get(game.url).get_json()["score"]

