"""Races on the list of games and on rematches: real gunicorn (4 workers x 8 threads), real
concurrent requests, on a single Redis and (``make test``'s second run) on a Redis Cluster,
where a game and the lists sit in different slots and no script writes both.

- While hosts add and take back bot seats on the same games from several threads at once,
  players fill and leave seats and listers page through every list, a checker samples the
  invariant that makes the lists right: a game is always in the list of its saved version
  (read the version, the lists, the version again: when the game did not change meanwhile,
  its entry must be in its list). At the end every listing equals the truth read from the
  games, and the lists hold exactly one entry per game.
- Every player of a finished game asks for a rematch many times at once: one rematch, one
  201, the same seat and token in every answer to a player, nothing left of the losers.
"""

from __future__ import annotations

import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import orjson
import pytest

from impresario_engine.table import listing as lobby
from impresario_engine.store import GameStore
from impresario_engine.store.lobby import DUE, VERSIONS, list_key
from service_helpers import Http, auth, http_table

GAMES = 6
TOGGLES = 12  # bot seats each toggler adds and takes back
LISTS = [list_key(s, r, b, False) for s in lobby.STATUSES for r in ("muzicando", "turandot",
                                                                     "wordjam")
         for b in (False, True)]


def _ok(resp, *statuses):
    status, _headers, body = resp
    assert status in statuses, (status, body)
    return body


def _summary(redis_client, gid):
    version, raw = redis_client.hmget(f"game:{{{gid}}}", "v", "lobby")
    return (int(version), orjson.loads(raw)) if version is not None else (None, None)


def _right_list(sm) -> str:
    return list_key(sm["s"], sm["r"], any(bot for _n, bot, _u in sm["seats"]), sm["p"])


def _where(redis_client, entry):
    pipe = redis_client.pipeline(transaction=False)
    for key in LISTS:
        pipe.zscore(key, entry)
    return {key for key, score in zip(LISTS, pipe.execute()) if score is not None}


def test_lists_stay_right_under_racing_writers_and_readers(live_server, redis_client):
    setup = Http(live_server)
    games = []
    for i in range(GAMES):
        body = _ok(setup.request("POST", "/v1/games", {"ruleset": "turandot", "players": 5,
                                                         "private": i == 0}), 201)
        gid, host = body["game"]["id"], body["host_token"]
        # a private game's seats open with its join link
        seats = body["join_link"] or f"/v1/games/{gid}/seats"
        first = _ok(setup.request("POST", seats, {"name": "Ada"}), 201)
        games.append({"id": gid, "host": host, "ada": first["token"], "seats": seats,
                      "entry": lobby.member(gid, _summary(redis_client, gid)[1]["c"])})
    stop = threading.Event()
    problems: list[str] = []
    samples = [0, 0]  # checked, skipped (the game changed while the lists were read)

    def toggler(g, tid):
        http, rng = Http(live_server), random.Random(tid)
        for i in range(TOGGLES):
            status, _h, body = http.request("POST", f"/v1/games/{g['id']}/seats",
                                            {"name": f"B{tid}-{i}", "bot": "random"},
                                            auth(g["host"]))
            if status == 201:
                time.sleep(rng.random() / 200)
                _ok(http.request("DELETE", f"/v1/games/{g['id']}/seats/{body['seat']}",
                                 headers=auth(g["host"])), 200, 404)
            else:
                assert status in (409, 503), (status, body)  # full for a moment, contention
        http.close()

    def lister(query):
        http = Http(live_server)
        while not stop.is_set():
            path = f"/v1/games?{query}"
            while path:
                body = _ok(http.request("GET", path), 200)
                path = body["next"]
        http.close()

    def checker():
        rng = random.Random(9)
        while not stop.is_set():
            g = rng.choice(games)
            v1, sm = _summary(redis_client, g["id"])
            where = _where(redis_client, g["entry"])
            v2, _ = _summary(redis_client, g["id"])
            if v1 != v2:
                samples[1] += 1
                continue
            samples[0] += 1
            right = _right_list(sm)
            if not sm["p"] and right not in where:
                problems.append(f"{g['id']} v{v1} missing from {right} (in {where})")

    pool = ThreadPoolExecutor(3 * GAMES + 3)
    background = [pool.submit(lister, q) for q in ("limit=3", "status=open&has_bots=true&limit=2")]
    background.append(pool.submit(checker))
    try:
        work = [pool.submit(toggler, g, 10 * n + t) for n, g in enumerate(games)
                for t in range(3)]
        for f in work:
            f.result()
        # the last seats, raced by more players than there are seats; then someone leaves
        joins = [pool.submit(Http(live_server).request, "POST", g["seats"], {"name": f"J{k}"})
                 for g in games for k in range(6)]
        statuses = [f.result()[0] for f in joins]
        assert statuses.count(201) == 4 * GAMES and set(statuses) <= {201, 409, 503}, statuses
        _ok(setup.request("DELETE", f"/v1/games/{games[1]['id']}/seats/0",
                          headers=auth(games[1]["ada"])), 200)  # in play: a bot takes over
        time.sleep(0.3)
        # on a busy machine the race may end before the checker has looked often enough: it
        # goes on (the lists still being read) until it has
        deadline = time.monotonic() + 30
        while samples[0] <= 50 and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        stop.set()
        for f in background:
            f.result()
        pool.shutdown()
    assert not problems, problems[:5]
    assert samples[0] > 50, samples

    # the truth, read from the games, against every listing
    truth = {}
    for g in games:
        _v, sm = _summary(redis_client, g["id"])
        truth[g["id"]] = sm
    public = {gid for gid, sm in truth.items() if not sm["p"]}
    everything = []  # (other tests' games may be listed too: the server's Redis is shared)
    path = "/v1/games?limit=4"
    while path:
        body = _ok(setup.request("GET", path), 200)
        everything += [g for g in body["games"] if g["id"] in truth]
        path = body["next"]
    assert sorted(g["id"] for g in everything) == sorted(public)
    for item in everything:
        sm = truth[item["id"]]
        assert item["status"] == sm["s"] == "playing"
        assert item["has_bots"] == any(bot for _n, bot, _u in sm["seats"])
        assert item["seats_taken"] == 5
    with_bots = _ok(setup.request("GET", "/v1/games?status=playing&has_bots=true&limit=100"),
                    200)["games"]
    assert [g["id"] for g in with_bots if g["id"] in truth] == [games[1]["id"]]
    # after a full pass of the readers, exactly one entry per game, in its list
    for g in games:
        assert _where(redis_client, g["entry"]) == (
            set() if truth[g["id"]]["p"] else {_right_list(truth[g["id"]])}), g
        assert redis_client.zscore(list_key("playing", "", False, True), g["entry"]) == (
            0 if truth[g["id"]]["p"] else None)
    setup.close()


def _finish(http, gid, tokens):
    """Both players play what the engine suggests until the game is over."""
    for _ in range(200):
        view = _ok(http.request("GET", f"/v1/games/{gid}"), 200)
        if view["status"] == "finished":
            return
        seat = view["pending"][0]["seat"]
        actions = _ok(http.request("GET", f"/v1/games/{gid}/actions",
                                   headers=auth(tokens[seat])), 200)
        _ok(http.request("POST", f"/v1/games/{gid}/moves", actions["default"],
                         auth(tokens[seat])), 200, 409)
    raise AssertionError("the game does not end")


@pytest.mark.parametrize("players", [2, 4])
def test_one_rematch_however_many_players_ask_at_once(live_server, redis_client, players):
    http = Http(live_server)
    gid, _host, tokens = http_table(http, {"ruleset": "turandot", "players": players})
    _finish(http, gid, tokens)
    asks = [(seat, k) for seat in range(players) for k in range(24 // players)]
    barrier = threading.Barrier(len(asks))
    local = threading.local()

    def ask(seat_k):
        seat, _k = seat_k
        client = getattr(local, "http", None) or Http(live_server)
        local.http = client
        barrier.wait(timeout=60)
        status, headers, answer = client.request("POST", f"/v1/games/{gid}/rematch",
                                                 headers=auth(tokens[seat]))
        return seat, status, answer

    with ThreadPoolExecutor(len(asks)) as pool:
        results = list(pool.map(ask, asks))
    statuses = [status for _s, status, _a in results]
    assert statuses.count(201) == 1 and set(statuses) == {200, 201}, statuses
    ids = {answer["rematch"] for _s, _st, answer in results}
    assert len(ids) == 1
    (new,) = ids
    per_seat = {}
    for seat, _st, answer in results:
        per_seat.setdefault(seat, set()).add((answer["seat"], answer["token"]))
    assert all(len(v) == 1 for v in per_seat.values()), per_seat  # one seat, one token each
    assert len({next(iter(v))[0] for v in per_seat.values()}) == players
    view = _ok(http.request("GET", f"/v1/games/{gid}"), 200)
    assert view["rematch"] == new
    assert _ok(http.request("GET", f"/v1/games/{new}"), 200)["status"] == "playing"
    # nothing is left of the rematches that lost: one game names the old one as its origin,
    # and every game the lists know of exists (the losers were deleted and forgotten)
    store = GameStore(redis_client)
    origins = [store.read(key.decode()[len("game:{"):-1])[1].get("rematch_of")
               for key in redis_client.scan_iter(match="game:{*}", _type="hash")]
    assert origins.count(gid) == 1
    known = {k.decode() for k in redis_client.hkeys(VERSIONS)}
    known |= {m.decode() for m in redis_client.zrange(DUE, 0, -1)}
    assert new in known
    gone = [k for k in known if not redis_client.exists(f"game:{{{k}}}")]
    assert not gone, gone
    http.close()
