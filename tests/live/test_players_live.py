"""Players on the service as it is deployed (gunicorn workers, the reaper's loop, a second
"pod" on the same Redis): a seat resumed on a second device ends the first device's token;
games finished at once on two pods are each rated exactly once, as OpenSkill computes over the
same results; 200 players joining quick match at once are each seated exactly once."""

from __future__ import annotations

import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests
import orjson
from openskill.models import PlackettLuce

from impresario_engine.store.ratings import recent_key

from service_helpers import auth, random_move

from .live_helpers import doc_of, until


def _player(base: str, name: str) -> tuple[str, str]:
    resp = requests.post(f"{base}/v1/players", json={"name": name}, timeout=30)
    assert resp.status_code == 201, resp.text
    return resp.json()["player"]["id"], resp.json()["token"]


def test_a_seat_resumed_on_a_second_device_ends_the_first_devices_token(live_server):
    base = live_server
    _anna, laptop = _player(base, "Anna")
    made = requests.post(f"{base}/v1/games", json={"ruleset": "turandot", "players": 2},
                         timeout=30).json()
    url = f"{base}/v1/games/{made['game']['id']}"
    first = requests.post(f"{url}/seats", json={"name": "Anna"}, headers=auth(laptop),
                          timeout=30).json()
    requests.post(f"{url}/seats", json={"name": "Ugo"}, timeout=30)
    code = requests.post(f"{base}/v1/me/device-codes", headers=auth(laptop), timeout=30).json()
    phone = requests.post(f"{base}/v1/players/claim", json={"code": code["code"]},
                          timeout=30).json()["token"]
    resumed = requests.post(f"{base}/v1/me/games/{made['game']['id']}/resume",
                            headers=auth(phone), timeout=30).json()
    for _ in range(8):  # whichever worker answers
        old = requests.get(f"{url}/actions", headers=auth(first["token"]), timeout=30)
        assert old.status_code == 401 and old.json()["code"] == "invalid_token"
        assert requests.get(f"{url}/actions", headers=auth(resumed["token"]),
                            timeout=30).status_code == 200


def _play(pods: list[str], game_id: str, tokens: dict[int, str], seed: int) -> None:
    """Random moves to the end, each request to a pod picked at random."""
    rng = random.Random(seed)
    with requests.Session() as http:
        while True:
            view = http.get(f"{rng.choice(pods)}/v1/games/{game_id}", timeout=30).json()
            if view["status"] == "finished":
                return
            seat = rng.choice([p["seat"] for p in view["pending"]])
            base = rng.choice(pods)
            actions = http.get(f"{base}/v1/games/{game_id}/actions",
                               headers=auth(tokens[seat]), timeout=30).json()
            http.post(f"{base}/v1/games/{game_id}/moves", json=random_move(actions, rng),
                      headers=auth(tokens[seat]), timeout=30)  # a lost race is fine: again


def test_games_finished_at_once_on_two_pods_are_each_rated_once(live_server, gunicorn_server,
                                                                redis_url, redis_client,
                                                                tmp_path):
    with gunicorn_server(redis_url, tmp_path, workers=2, reap_every=None) as second:
        pods = [live_server, second]
        people = [_player(pods[i % 2], name) for i, name in enumerate(("Ada", "Bea", "Cy"))]
        games = []
        for i in range(8):
            base = pods[i % 2]
            made = requests.post(f"{base}/v1/games", json={"ruleset": "turandot",
                                                           "players": 3},
                                 headers=auth(people[0][1]), timeout=30).json()
            gid, host = made["game"]["id"], made["host_token"]
            tokens = {0: requests.post(f"{base}/v1/games/{gid}/seats", json={"name": "Ada"},
                                       headers=auth(host), timeout=30).json()["token"]}
            for seat, (_pid, token) in enumerate(people[1:], 1):
                tokens[seat] = requests.post(f"{pods[seat % 2]}/v1/games/{gid}/seats",
                                             json={"name": ("Bea", "Cy")[seat - 1]},
                                             headers=auth(token), timeout=30).json()["token"]
            games.append((gid, tokens))
        threads = [threading.Thread(target=_play, args=(pods, gid, tokens, n))
                   for n, (gid, tokens) in enumerate(games)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=300)

        def rated_all():
            found = [requests.get(f"{live_server}/v1/players/{pid}", timeout=30).json()
                     for pid, _ in people]
            return found if all(p["games"] == 8 for p in found) else None
        profiles = until(rated_all, 60, "every game rated")

    ids = {gid for gid, _ in games}
    for profile in profiles:
        assert sorted(r["game"] for r in profile["recent"]) == sorted(ids)  # each once
    # OpenSkill offline, over the same results, in the order they were applied (the stored
    # list's: the profile shows them by when each game finished)
    stored = redis_client.lrange(recent_key("turandot", people[0][0]), 0, -1)
    applied = [orjson.loads(r)["game"] for r in reversed(stored)]
    model, want = PlackettLuce(), {}
    order = [pid for pid, _ in people]
    for gid in applied:
        score = requests.get(f"{live_server}/v1/games/{gid}/score", timeout=30).json()
        keys = [(p["total"], p["lines"].get("stars", 0)) for p in score["players"]]
        ranks = [1 + sum(1 for k in set(keys) if k > key) for key in keys]
        teams = [[model.rating(*want.get(pid, (None, None)))] for pid in order]
        for pid, (rated,) in zip(order, model.rate(teams, ranks=ranks)):
            want[pid] = (rated.mu, rated.sigma)
    for pid, profile in zip(order, profiles):
        (turandot,) = profile["ratings"]
        assert turandot["mu"] == pytest.approx(want[pid][0], abs=1e-3)
        assert turandot["sigma"] == pytest.approx(want[pid][1], abs=1e-3)


def test_200_players_joining_quick_match_at_once_are_each_seated_once(live_server,
                                                                     redis_client):
    base = live_server
    with ThreadPoolExecutor(32) as pool:
        people = list(pool.map(lambda i: _player(base, f"Q{i}"), range(200)))
    start = threading.Barrier(200)

    def join(person):
        _pid, token = person
        with requests.Session() as http:
            start.wait()
            resp = http.post(f"{base}/v1/match", json={"ruleset": "turandot", "players": 4,
                                                       "wait_seconds": 600},
                             headers=auth(token), timeout=60)
            assert resp.status_code == 200, resp.text
            match = resp.json()
            for _ in range(600):
                if match["status"] == "seated":
                    return match
                match = http.get(f"{base}/v1/match", headers=auth(token), timeout=60).json()
            return match

    with ThreadPoolExecutor(200) as pool:
        matches = list(pool.map(join, people))
    assert all(m["status"] == "seated" for m in matches)
    places = [(m["game"], m["seat"]) for m in matches]
    assert len(set(places)) == 200  # no seat given twice
    games = {g for g, _ in places}
    assert len(games) == 50
    seated = {}
    for gid in games:
        seats = doc_of(redis_client, gid)["seats"]
        assert len(seats) == 4 and all(s.get("player") for s in seats)
        for n, s in enumerate(seats):
            assert s["player"] not in seated, "a player seated twice"
            seated[s["player"]] = (gid, n)
    assert seated == {pid: place for (pid, _), place in zip(people, places)}


def test_a_seats_open_stream_ends_when_the_seat_is_resumed_elsewhere(live_server):
    base = live_server
    _anna, laptop = _player(base, "Anna")
    made = requests.post(f"{base}/v1/games", json={"ruleset": "turandot", "players": 2},
                         timeout=30).json()
    gid = made["game"]["id"]
    seat = requests.post(f"{base}/v1/games/{gid}/seats", json={"name": "Anna"},
                         headers=auth(laptop), timeout=30).json()
    requests.post(f"{base}/v1/games/{gid}/seats", json={"name": "Ugo"}, timeout=30)
    stream = requests.get(f"{base}/v1/games/{gid}/events", stream=True, timeout=30,
                          headers={**auth(seat["token"]), "Accept": "text/event-stream"})
    assert stream.status_code == 200
    lines = stream.iter_lines()
    next(lines)  # the stream is open
    started = time.monotonic()
    assert requests.post(f"{base}/v1/me/games/{gid}/resume", headers=auth(laptop),
                         timeout=30).status_code == 200
    for _line in lines:  # the old token's stream closes by itself
        assert time.monotonic() - started < 20, "the old device's stream went on"
    assert time.monotonic() - started < 20
    stream.close()
