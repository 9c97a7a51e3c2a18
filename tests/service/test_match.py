"""Quick match over the API (usecases/matching.py): players queue, a table of people is seated
when there are enough, bots fill the seats once the wait a player chose is over, each player
resumes their seat for a token of their own, and a player leaves the queue."""

from __future__ import annotations

import pytest

from service_helpers import assert_problem, auth


@pytest.fixture
def clocked(app_factory):
    now = [1_900_000_000.0]
    app = app_factory(clock=lambda: now[0])
    return app, app.test_client(), now


def _player(client, name):
    body = client.post("/v1/players", json={"name": name}).get_json()
    return body["player"]["id"], body["token"]


def test_four_players_are_seated_together_and_resume_their_seats(clocked):
    _app, client, _now = clocked
    people = [_player(client, name) for name in ("Anna", "Bruno", "Carla", "Anna")]
    for pid, token in people[:3]:
        resp = client.post("/v1/match", json={"ruleset": "turandot", "players": 4},
                           headers=auth(token))
        assert resp.status_code == 200 and resp.get_json()["status"] == "waiting"
    last = client.post("/v1/match", json={"ruleset": "turandot", "players": 4},
                       headers=auth(people[3][1])).get_json()
    assert last["status"] == "seated"
    game_id = last["game"]
    seats = set()
    for pid, token in people:
        match = client.get("/v1/match", headers=auth(token)).get_json()
        assert match["status"] == "seated" and match["game"] == game_id
        seats.add(match["seat"])
        resumed = client.post(f"/v1/me/games/{game_id}/resume", headers=auth(token)).get_json()
        assert resumed["seat"] == match["seat"] and resumed["token"]
        assert client.get(f"/v1/games/{game_id}/actions",
                          headers=auth(resumed["token"])).status_code == 200
    assert seats == {0, 1, 2, 3}
    view = client.get(f"/v1/games/{game_id}").get_json()
    assert view["status"] == "playing" and view["move_seconds"] == 60
    names = [p["name"] for p in view["players"]]
    assert sorted(names) == ["Anna", "Anna 2", "Bruno", "Carla"]
    (mine,) = client.get("/v1/me/games", headers=auth(people[0][1])).get_json()["games"]
    assert mine["id"] == game_id and mine["rated"] is True


def test_bots_fill_the_table_after_the_chosen_wait(clocked):
    app, client, now = clocked
    _pid, token = _player(client, "Anna")
    waiting = client.post("/v1/match", json={"ruleset": "muzicando", "players": 4,
                                             "wait_seconds": 30}, headers=auth(token))
    assert waiting.get_json()["status"] == "waiting"
    now[0] += 29
    assert client.get("/v1/match", headers=auth(token)).get_json()["status"] == "waiting"
    now[0] += 1
    from impresario_engine.usecases import reaper
    report = reaper.reap_once(app.extensions["impresario"])  # nobody asks: the reaper seats
    assert report["matching"]["seated"] == 1
    match = client.get("/v1/match", headers=auth(token)).get_json()
    assert match["status"] == "seated" and match["seat"] == 0
    view = client.get(f"/v1/games/{match['game']}").get_json()
    assert [p["bot"] for p in view["players"]][1:] == ["medium"] * 3


def test_leaving_the_queue_and_bad_requests(clocked):
    _app, client, _now = clocked
    _pid, token = _player(client, "Anna")
    assert_problem(client.get("/v1/match", headers=auth(token)), 404, "not_waiting")
    assert_problem(client.delete("/v1/match", headers=auth(token)), 409, "not_waiting")
    assert_problem(client.post("/v1/match", json={"ruleset": "turandot", "players": 9},
                               headers=auth(token)), 422, "invalid_players")
    assert_problem(client.post("/v1/match", json={"ruleset": "turandot", "players": 4,
                                                  "wait_seconds": 3000}, headers=auth(token)),
                   422, "invalid_wait")
    assert_problem(client.post("/v1/match", json={"ruleset": "turandot", "players": 4}), 401,
                   "missing_token")
    client.post("/v1/match", json={"ruleset": "turandot", "players": 4}, headers=auth(token))
    assert client.delete("/v1/match", headers=auth(token)).status_code == 204
    assert_problem(client.get("/v1/match", headers=auth(token)), 404, "not_waiting")


def test_asking_again_once_seated_keeps_the_table(clocked):
    _app, client, _now = clocked
    people = [_player(client, n) for n in ("A", "B")]
    for _pid, token in people:
        client.post("/v1/match", json={"ruleset": "turandot", "players": 2}, headers=auth(token))
    seated = client.get("/v1/match", headers=auth(people[0][1])).get_json()
    assert seated["status"] == "seated"
    again = client.post("/v1/match", json={"ruleset": "turandot", "players": 2},
                        headers=auth(people[0][1])).get_json()
    assert again["status"] == "seated" and again["game"] == seated["game"]
