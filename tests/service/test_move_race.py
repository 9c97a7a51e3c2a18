"""Races on one game against real gunicorn (4 workers x 8 threads): every seat sending a move
with the same ``If-Match`` at once, and a player leaving while the others, and the player's own
page, keep moving. Afterwards the store holds each accepted move once, the events are numbered
1..last_seq, and the stored state is the rules core's replay of the stored moves."""

from __future__ import annotations

import random
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from service_helpers import Http, auth, http_table, random_move, replay, stored

pytestmark = pytest.mark.slow


def _at_once(live_server: str, calls: list[tuple[str, str, dict | None, dict]]) -> list:
    """Send every ``(method, path, body, headers)`` at the same moment, one thread each."""
    barrier = threading.Barrier(len(calls))

    def send(call):
        method, path, body, headers = call
        client = Http(live_server)
        barrier.wait(timeout=60)
        return client.request(method, path, body, headers)

    with ThreadPoolExecutor(len(calls)) as pool:
        return list(pool.map(send, calls))


def _consistent(http: Http, redis_client, gid: str, host: str, players: int, seed: int) -> dict:
    """The store and the feed agree: events 1..last_seq, the state is the moves' replay."""
    _version, doc = stored(redis_client, gid)
    status, _h, feed = http.request("GET", f"/v1/games/{gid}/events?after=0", headers=auth(host))
    assert status == 200
    assert [e["seq"] for e in feed["events"]] == list(range(1, doc["seq"] + 1))
    assert replay(players, doc["options"], seed, [(m[0], m[1]) for m in doc["moves"]]) \
        == doc["state"]
    return doc


def test_one_move_per_version_when_every_seat_sends_if_match_at_once(live_server, redis_client):
    """Every seat that may move sends its move with the ``If-Match`` of the same view, six
    seats racing each time: exactly one is applied, every other one is 412 stale_version and
    changes nothing."""
    players, seed = 5, 301
    http = Http(live_server)
    gid, host, tokens = http_table(http, {"ruleset": "turandot", "players": players,
                                                 "seed": seed})
    rng = random.Random(seed)
    races = 0
    while races < 12:
        status, headers, view = http.request("GET", f"/v1/games/{gid}")
        if view["status"] == "finished":
            break
        pending = [p["seat"] for p in view["pending"]]
        moves_before = len(stored(redis_client, gid)[1]["moves"])
        calls = []
        for seat in pending:
            _s, _h, actions = http.request("GET", f"/v1/games/{gid}/actions",
                                           headers=auth(tokens[seat]))
            calls.append(("POST", f"/v1/games/{gid}/moves", random_move(actions, rng),
                          {**auth(tokens[seat]), "If-Match": headers["etag"]}))
        calls += calls[:1]  # and one seat twice
        results = _at_once(live_server, calls)
        statuses = [status for status, _h, _b in results]
        assert statuses.count(200) == 1, results
        for status, _h, body in results:
            if status != 200:
                assert status == 412 and body["code"] == "stale_version", body
        assert len(stored(redis_client, gid)[1]["moves"]) == moves_before + 1
        races += 1
    assert races == 12
    _consistent(http, redis_client, gid, host, players, seed)


@pytest.mark.parametrize("seed", [401, 402, 403])
def test_a_player_who_leaves_while_everyone_moves_leaves_once(live_server, redis_client, seed):
    """A player gives the seat up (twice, from two pages) at the moment that player and every
    other seat send their moves: one leave is applied, the other is told the token no longer
    works; the seat's moves are the player's before the leave and the greedy bot's after it;
    nothing is lost or doubled."""
    players = 4
    http = Http(live_server)
    gid, host, tokens = http_table(http, {"ruleset": "turandot", "players": players,
                                                 "seed": seed})
    rng = random.Random(seed)
    for _ in range(rng.randrange(2, 9)):  # a few moves in
        _s, _h, view = http.request("GET", f"/v1/games/{gid}")
        seat = rng.choice([p["seat"] for p in view["pending"]])
        _s, _h, actions = http.request("GET", f"/v1/games/{gid}/actions", headers=auth(tokens[seat]))
        status, _h, body = http.request("POST", f"/v1/games/{gid}/moves",
                                        random_move(actions, rng), auth(tokens[seat]))
        assert status == 200, body
    leaver = 2
    calls = [("DELETE", f"/v1/games/{gid}/seats/{leaver}", None, auth(tokens[leaver]))] * 2
    for seat in range(players):
        _s, _h, actions = http.request("GET", f"/v1/games/{gid}/actions", headers=auth(tokens[seat]))
        if actions["moves"]:
            calls.append(("POST", f"/v1/games/{gid}/moves", random_move(actions, rng),
                          auth(tokens[seat])))
    results = _at_once(live_server, calls)
    leaves = [status for status, _h, _b in results[:2]]
    assert sorted(leaves) == [200, 401], results[:2]
    for status, _h, body in results[2:]:  # a move lost its race to another seat: a 409
        assert status in (200, 401, 409), body
    doc = _consistent(http, redis_client, gid, host, players, seed)
    _s, _h, feed = http.request("GET", f"/v1/games/{gid}/events?after=0", headers=auth(host))
    assert [e["seat"] for e in feed["events"] if e["type"] == "seat_left"] == [leaver]
    # the seat's moves: the player's, then (once a bot plays it) only the bot's
    by = [m[2] for m in doc["moves"] if m[0] == leaver]
    first_bot = by.index("bot") if "bot" in by else len(by)
    assert set(by[first_bot:]) <= {"bot"} and "bot" not in by[:first_bot], by
    assert doc["seats"][leaver]["bot"] == "greedy"
    status, _h, _b = http.request("GET", f"/v1/games/{gid}", headers=auth(tokens[leaver]))
    assert status == 401
