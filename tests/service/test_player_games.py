"""A player's games (api/players.py, usecases/players.py): seats taken with a player's bearer
belong to the player, who finds them on any device (``GET /v1/me/games``) and resumes them
there (the old seat token stops working); finished rated games update ratings once, with
OpenSkill; ``DELETE /v1/me`` removes the player. Seat tokens alone work as they always did."""

from __future__ import annotations

import random

import pytest
from openskill.models import PlackettLuce

from impresario_engine.table.ratings import bot_player_id
from service_helpers import assert_problem, auth, pending_seats, random_move


def _player(client, name: str) -> tuple[str, str]:
    body = client.post("/v1/players", json={"name": name}).get_json()
    return body["player"]["id"], body["token"]


def _play_out(client, url: str, tokens: dict[int, str], rng: random.Random) -> dict:
    """Play the game to its end from the seats ``tokens`` holds, Turandot with random moves,
    the others with the engine's suggested move (bots play theirs in the requests); the
    finished view."""
    view = client.get(url).get_json()
    while view["status"] != "finished":
        seat = rng.choice([s for s in pending_seats(view) if s in tokens])
        actions = client.get(f"{url}/actions", headers=auth(tokens[seat])).get_json()
        move = random_move(actions, rng) if view["ruleset"] == "turandot" else actions["default"]
        resp = client.post(f"{url}/moves", json=move, headers=auth(tokens[seat]))
        assert resp.status_code == 200, resp.get_data(as_text=True)
        view = client.get(url).get_json()
    return view


def test_a_player_finds_and_resumes_their_seat_on_another_device(client):
    anna, anna_token = _player(client, "Anna")
    bruno, bruno_token = _player(client, "Bruno")
    made = client.post("/v1/games", json={"ruleset": "turandot", "players": 3, "seed": 7},
                       headers=auth(anna_token))
    assert made.status_code == 201
    game_id, host = made.get_json()["game"]["id"], made.get_json()["host_token"]
    url = f"/v1/games/{game_id}"
    seat0 = client.post(f"{url}/seats", json={"name": "Anna"}, headers=auth(host)).get_json()
    seat1 = client.post(f"{url}/seats", json={"name": "Bruno"}, headers=auth(bruno_token))
    assert seat1.status_code == 201 and seat1.get_json()["seat"] == 1
    again = client.post(f"{url}/seats", json={"name": "Bruno2"}, headers=auth(bruno_token))
    assert_problem(again, 409, "player_seated")
    carla = client.post(f"{url}/seats", json={"name": "Carla"}).get_json()  # a seat token alone
    view = client.get(url).get_json()
    assert view["status"] == "playing"

    mine = client.get("/v1/me/games", headers=auth(anna_token)).get_json()
    (item,) = mine["games"]
    assert mine["next"] is None
    assert (item["id"], item["seat"], item["host"], item["name"], item["status"]) == \
        (game_id, 0, True, "Anna", "playing")
    assert item["your_move"] == (0 in pending_seats(view)) and item["rated"] is False
    (bruno_item,) = client.get("/v1/me/games", headers=auth(bruno_token)).get_json()["games"]
    assert (bruno_item["seat"], bruno_item["host"]) == (1, False)

    # the second device: a device code, then the seat resumed there
    code = client.post("/v1/me/device-codes", headers=auth(anna_token)).get_json()["code"]
    phone = client.post("/v1/players/claim", json={"code": code}).get_json()["token"]
    assert client.get("/v1/me/games", headers=auth(phone)).get_json()["games"][0]["id"] == game_id
    resumed = client.post(f"/v1/me/games/{game_id}/resume", headers=auth(phone))
    assert resumed.status_code == 200
    body = resumed.get_json()
    assert body["seat"] == 0 and body["token"] and body["host_token"]
    old = client.get(f"{url}/actions", headers=auth(seat0["token"]))
    assert_problem(old, 401, "invalid_token")  # the first device's seat token ends
    assert_problem(client.get(f"{url}/actions", headers=auth(host)), 401, "invalid_token")
    assert client.get(f"{url}/actions", headers=auth(body["token"])).status_code == 200
    assert client.get(f"{url}/actions", headers=auth(carla["token"])).status_code == 200

    stranger, stranger_token = _player(client, "Dora")
    assert_problem(client.post(f"/v1/me/games/{game_id}/resume", headers=auth(stranger_token)),
                   404, "not_seated")
    assert client.get("/v1/me/games", headers=auth(stranger_token)).get_json()["games"] == []


def test_my_games_pages_newest_first_and_filters_by_status(client):
    _anna, token = _player(client, "Anna")
    ids = []
    for _ in range(5):
        made = client.post("/v1/games", json={"ruleset": "turandot", "players": 3},
                           headers=auth(token)).get_json()
        ids.append(made["game"]["id"])
    first = client.get("/v1/me/games?limit=2", headers=auth(token)).get_json()
    assert [g["id"] for g in first["games"]] == ids[::-1][:2]
    seen = [g["id"] for g in first["games"]]
    url = first["next"]
    while url:
        page = client.get(url, headers=auth(token)).get_json()
        seen += [g["id"] for g in page["games"]]
        url = page["next"]
    assert seen == ids[::-1]
    assert all(g["seat"] is None and g["host"] for g in
               client.get("/v1/me/games?status=open", headers=auth(token)).get_json()["games"])
    assert client.get("/v1/me/games?status=finished", headers=auth(token)).get_json()["games"] == []
    assert_problem(client.get("/v1/me/games?status=won", headers=auth(token)), 400,
                   "invalid_filter")
    assert_problem(client.get("/v1/me/games?cursor=abc", headers=auth(token)), 400,
                   "invalid_cursor")


@pytest.fixture
def rated_app(app_factory):
    return app_factory(leaderboard_min_games=1)


def _rated_game(client, token: str, seed: int, bots=("easy", "medium")) -> tuple[str, str]:
    made = client.post("/v1/games", json={"ruleset": "turandot", "players": 1 + len(bots),
                                           "seed": seed}, headers=auth(token)).get_json()
    game_id, host = made["game"]["id"], made["host_token"]
    url = f"/v1/games/{game_id}"
    seat = client.post(f"{url}/seats", json={"name": "Anna"}, headers=auth(host)).get_json()
    for level in bots:
        assert client.post(f"{url}/seats", json={"name": level.title(), "bot": level},
                           headers=auth(host)).status_code == 201
    return url, seat["token"]


def _offline(scores: list[dict], players: list[list[str]]) -> dict[str, tuple[float, float]]:
    """OpenSkill run here over the same results, in the same order."""
    model, out = PlackettLuce(), {}
    for score, seats in zip(scores, players):
        keys = [(p["total"], p["lines"].get("stars", 0)) for p in score["players"]]
        ranks = [1 + sum(1 for k in set(keys) if k > key) for key in keys]
        teams = [[model.rating(*out.get(pid, (None, None)))] for pid in seats]
        for pid, (rated,) in zip(seats, model.rate(teams, ranks=ranks)):
            out[pid] = (rated.mu, rated.sigma)
    return out


def test_a_rated_game_rates_its_players_once_as_openskill_would(rated_app):
    client = rated_app.test_client()
    anna, token = _player(client, "Anna")
    scores, seats, games = [], [], []
    for seed in (3, 4):
        url, seat_token = _rated_game(client, token, seed)
        _play_out(client, url, {0: seat_token}, random.Random(seed))
        games.append(url.rsplit("/", 1)[1])
        scores.append(client.get(f"{url}/score").get_json())
        seats.append([anna, bot_player_id("easy"), bot_player_id("medium")])
        item = client.get("/v1/me/games?status=finished", headers=auth(token)).get_json()
        assert item["games"][0]["rated"] is True
        assert item["games"][0]["won"] == (0 in scores[-1]["winners"])
    want = _offline(scores, seats)
    profile = client.get(f"/v1/players/{anna}").get_json()
    (turandot,) = profile["ratings"]
    assert turandot["games"] == 2 and profile["games"] == 2
    assert turandot["mu"] == pytest.approx(want[anna][0], abs=1e-3)
    assert turandot["sigma"] == pytest.approx(want[anna][1], abs=1e-3)
    assert [r["game"] for r in profile["recent"]] == games[::-1]
    bot = client.get(f"/v1/players/{bot_player_id('medium')}").get_json()
    assert bot["player"]["kind"] == "bot" and bot["ratings"][0]["games"] == 2
    board = client.get("/v1/leaderboards/turandot").get_json()
    assert {r["player"]["id"] for r in board["players"]} == set(want)
    shown = [r["rating"] for r in board["players"]]
    assert shown == sorted(shown, reverse=True) and board["total"] == 3
    assert [r["place"] for r in board["players"]] == [1, 2, 3]
    for place, row in enumerate(board["players"]):
        mu, sigma = want[row["player"]["id"]]
        assert row["rating"] == pytest.approx(mu - 3 * sigma, abs=1e-3)

    # rating the same game again, as a second pod or the reaper would: nothing changes
    engine = rated_app.extensions["impresario"]
    from impresario_engine.usecases import ratings
    _v, doc, _i, _r = engine.store.read_game(games[0])
    assert ratings.rate_game(engine.store, engine.config, doc) == []
    assert client.get(f"/v1/players/{anna}").get_json() == profile


def test_a_rating_lost_with_its_request_is_made_by_the_reaper(app_factory, monkeypatch):
    now = [1_900_000_000.0]
    app = app_factory(clock=lambda: now[0], leaderboard_min_games=1)
    client = app.test_client()
    from impresario_engine.store import StoreError
    from impresario_engine.usecases import ratings, reaper

    def dies(*_args, **_kwargs):
        raise StoreError("the pod died here")
    anna, token = _player(client, "Anna")
    url, seat_token = _rated_game(client, token, 5, bots=("easy",))
    with monkeypatch.context() as patch:
        patch.setattr(ratings, "rate_game", dies)
        _play_out(client, url, {0: seat_token}, random.Random(5))
    assert client.get(f"/v1/players/{anna}").get_json()["ratings"] == []  # not rated yet
    engine = app.extensions["impresario"]
    assert engine.store.ratings.waiting(now[0] + 1, 10) == [url.rsplit("/", 1)[1]]
    report = reaper.reap_once(engine)
    assert report["ratings"] == {"rated": 0, "dropped": 0}  # left to its request a while
    now[0] += ratings.GRACE_SECONDS + 1
    assert reaper.reap_once(engine)["ratings"] == {"rated": 1, "dropped": 0}
    assert client.get(f"/v1/players/{anna}").get_json()["ratings"][0]["games"] == 1
    assert engine.store.ratings.waiting(now[0] + 1, 10) == []


def test_a_game_with_a_seat_no_player_holds_is_not_rated(rated_app):
    client = rated_app.test_client()
    anna, token = _player(client, "Anna")
    made = client.post("/v1/games", json={"ruleset": "turandot", "players": 2, "seed": 9},
                       headers=auth(token)).get_json()
    url, host = f"/v1/games/{made['game']['id']}", made["host_token"]
    mine = client.post(f"{url}/seats", json={"name": "Anna"}, headers=auth(host)).get_json()
    other = client.post(f"{url}/seats", json={"name": "Ugo"}).get_json()  # no player
    _play_out(client, url, {0: mine["token"], 1: other["token"]}, random.Random(9))
    assert client.get(f"/v1/players/{anna}").get_json()["ratings"] == []
    assert client.get("/v1/leaderboards/turandot").get_json()["players"] == []


def test_deleting_a_player_ends_its_credentials_and_drops_it_from_the_board(rated_app):
    client = rated_app.test_client()
    anna, token = _player(client, "Anna")
    code = client.post("/v1/me/device-codes", headers=auth(token)).get_json()["code"]
    phone = client.post("/v1/players/claim", json={"code": code}).get_json()["token"]
    url, seat_token = _rated_game(client, token, 6, bots=("easy",))
    _play_out(client, url, {0: seat_token}, random.Random(6))
    assert anna in {r["player"]["id"] for r in
                    client.get("/v1/leaderboards/turandot").get_json()["players"]}
    resp = client.delete("/v1/me", headers=auth(phone))
    assert resp.status_code == 204 and resp.get_data() == b""
    for device in (token, phone):
        assert_problem(client.get("/v1/me", headers=auth(device)), 401, "invalid_player_token")
    assert_problem(client.get(f"/v1/players/{anna}"), 404, "player_not_found")
    board = client.get("/v1/leaderboards/turandot").get_json()
    assert anna not in {r["player"]["id"] for r in board["players"]}
    assert client.get(url).get_json()["status"] == "finished"  # the game itself stays


def test_profiles_and_boards_refuse_what_is_not_there(client):
    assert_problem(client.get("/v1/players/p" + "a" * 24), 404, "player_not_found")
    assert_problem(client.get("/v1/leaderboards/chess"), 404, "ruleset_not_found")
    assert_problem(client.get("/v1/leaderboards/turandot?limit=0"), 400, "invalid_limit")
    assert_problem(client.get("/v1/leaderboards/turandot?cursor=Zm9v"), 400, "invalid_cursor")


def test_a_rematch_seat_claimed_by_a_player_is_theirs_too(rated_app):
    client = rated_app.test_client()
    anna, token = _player(client, "Anna")
    url, seat_token = _rated_game(client, token, 8, bots=("easy",))
    _play_out(client, url, {0: seat_token}, random.Random(8))
    again = client.post(f"{url}/rematch", headers=auth(seat_token))
    assert again.status_code in (200, 201), again.get_data(as_text=True)
    rematch = again.get_json()["rematch"]
    games = client.get("/v1/me/games", headers=auth(token)).get_json()["games"]
    assert games[0]["id"] == rematch and games[0]["seat"] == again.get_json()["seat"]
    resumed = client.post(f"/v1/me/games/{rematch}/resume", headers=auth(token)).get_json()
    assert resumed["seat"] == again.get_json()["seat"]
    assert_problem(client.get(f"/v1/games/{rematch}/actions",
                              headers=auth(again.get_json()["token"])), 401, "invalid_token")


def test_the_old_devices_rematch_claim_is_refused_once_the_seat_is_resumed(rated_app):
    client = rated_app.test_client()
    _anna, token = _player(client, "Anna")
    url, seat_token = _rated_game(client, token, 8, bots=("easy",))
    _play_out(client, url, {0: seat_token}, random.Random(8))
    first = client.post(f"{url}/rematch", headers=auth(seat_token)).get_json()
    rematch = first["rematch"]
    resumed = client.post(f"/v1/me/games/{rematch}/resume", headers=auth(token)).get_json()
    before = client.get(f"/v1/games/{rematch}").get_json()
    assert_problem(client.post(f"{url}/rematch", headers=auth(seat_token)), 409,
                   "rematch_seat_taken")
    after = client.get(f"/v1/games/{rematch}").get_json()
    assert after["version"] == before["version"]  # nothing restarted
    assert client.get(f"/v1/games/{rematch}/actions",
                      headers=auth(resumed["token"])).status_code == 200


def test_a_muzicando_team_game_with_one_player_and_three_bots_is_rated(rated_app):
    client = rated_app.test_client()
    anna, token = _player(client, "Anna")
    made = client.post("/v1/games", json={"ruleset": "muzicando", "players": 4, "seed": 2,
                                           "options": {"hands": 4}},
                       headers=auth(token)).get_json()
    url, host = f"/v1/games/{made['game']['id']}", made["host_token"]
    seat = client.post(f"{url}/seats", json={"name": "Anna"}, headers=auth(host)).get_json()
    for n in range(3):
        client.post(f"{url}/seats", json={"name": f"Bot{n}", "bot": "easy"}, headers=auth(host))
    _play_out(client, url, {0: seat["token"]}, random.Random(2))
    profile = client.get(f"/v1/players/{anna}").get_json()
    assert profile["ratings"][0]["ruleset"] == "muzicando" and profile["games"] == 1
    bot = client.get(f"/v1/players/{bot_player_id('easy')}").get_json()
    assert bot["ratings"][0]["games"] == 1  # three seats, one level: rated once


def test_a_players_idempotency_key_is_theirs_not_their_addresss(client):
    """Two players behind one address send the same Idempotency-Key to take a seat: each gets
    a seat of their own; the first one's retry gets its seat and token again."""
    _a, anna = _player(client, "Anna")
    _b, bruno = _player(client, "Bruno")
    made = client.post("/v1/games", json={"ruleset": "turandot", "players": 3}).get_json()
    url = f"/v1/games/{made['game']['id']}/seats"
    key = {"Idempotency-Key": "same-key"}
    first = client.post(url, json={"name": "Anna"}, headers={**auth(anna), **key}).get_json()
    other = client.post(url, json={"name": "Bruno"}, headers={**auth(bruno), **key})
    assert other.status_code == 201 and other.get_json()["seat"] != first["seat"]
    again = client.post(url, json={"name": "Anna"}, headers={**auth(anna), **key})
    assert again.headers.get("Idempotent-Replayed") == "true"
    assert again.get_json()["token"] == first["token"]
