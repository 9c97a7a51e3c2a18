"""Helpers of the service tests: requests through the Flask test client, problem checks, random
legal moves built from ``GET /actions``, replays through the rules core, and a tiny
``http.client`` client for the live gunicorn server."""

from __future__ import annotations

import http.client
import json
import random
from typing import Any, Callable
from urllib.parse import urlsplit

import orjson

from impresario_rules.turandot import TURANDOT
from impresario_engine.store import GameStore

PROBLEM = "application/problem+json"
Move = tuple[int, dict[str, Any]]


#: where a fake clock starts: long after the real one, so that the reapers of the session's live
#: servers (gunicorn beside the reaper, as deployed), which share the session's Redis and run on
#: the real clock, never find a fake-clock game due: its deadlines are decades ahead of them
FAKE_EPOCH = 4_000_000_000.0


class FakeClock:
    """A clock the test moves by hand (Unix seconds), for the app's ``Engine.clock``."""

    def __init__(self, start: float = FAKE_EPOCH) -> None:
        self.now = float(start)
        self.seen = [self.now]  # every time the clock has shown

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> float:
        self.now += seconds
        self.seen.append(self.now)
        return self.now


def auth(token: str | None) -> dict[str, str]:
    return {} if token is None else {"Authorization": f"Bearer {token}"}


def assert_problem(resp, status: int, code: str) -> dict[str, Any]:
    """``resp`` is a problem+json error with ``status`` and the stable ``code``."""
    text = resp.get_data(as_text=True)
    assert resp.status_code == status, f"expected {status} {code}, got {resp.status_code}: {text}"
    assert resp.mimetype == PROBLEM, resp.headers
    body = json.loads(text)
    assert body["code"] == code, body
    assert body["status"] == status
    for key in ("type", "title", "detail"):
        assert isinstance(body[key], str) and body[key], body
    return body


def snapshot(client, game) -> dict[str, Any]:
    """Everything a client can observe of a game: ETag, every viewer's view and event feed."""
    out: dict[str, Any] = {}
    for viewer in [None, game.host_token, *game.tokens]:
        resp = client.get(game.url, headers=auth(viewer))
        assert resp.status_code == 200, resp.get_data(as_text=True)
        events = client.get(f"{game.url}/events?after=0", headers=auth(viewer))
        assert events.status_code == 200
        out[str(viewer)] = (resp.headers["ETag"], resp.get_json(), events.get_json())
    return out


def random_move(actions: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A random legal move from the compact description of ``GET /actions``."""
    (space,) = actions["moves"]
    kind = space["type"]
    if kind == "bid":
        options: list[dict[str, Any]] = [
            {"type": "bid", "slot": s, "money": m, "bluff": b}
            for s in space["slots"] for m in range(space["max_money"] + 1) for b in (False, True)]
        if space["helper"]:
            options += [{"type": "bid", "slot": None, "money": 1, "bluff": b}
                        for b in (False, True)]
        # lean towards money-only bids now and then so helpers get hired too
        if space["helper"] and rng.random() < 0.15:
            return {"type": "bid", "slot": None, "money": 1, "bluff": rng.random() < 0.5}
        return rng.choice(options)
    if kind == "assign_office":
        slots = rng.sample(space["slots"], len(space["seats"]))
        return {"type": "assign_office",
                "assignments": [{"seat": s, "slot": p} for s, p in zip(space["seats"], slots)]}
    if kind == "nominate":
        return {"type": "nominate", "seat": rng.choice(space["seats"])}
    if kind == "fire_director":
        return {"type": "fire_director", "director": rng.choice(space["directors"])}
    if kind == "cast":
        r = rng.random()
        if r < 0.3:
            return {"type": "cast", "roles": None}
        if r < 0.6:
            return {"type": "cast", "roles": list(space["optimal"])}
        return {"type": "cast", "roles": rng.sample(space["singers"], 6)}
    raise AssertionError(f"unknown move type {kind}")


def pending_seats(view: dict[str, Any]) -> list[int]:
    return [p["seat"] for p in view["pending"]]


def play_to_last_move(client, url: str, tokens: list[str], rng: random.Random
                      ) -> tuple[dict[str, Any], int]:
    """Play a Turandot game with random legal moves up to its last move (one singer left to
    cast), and stop there. Returns the view then and the seat whose cast ends the game."""
    while True:
        view = client.get(url).get_json()
        pending = pending_seats(view)
        if view["phase"] == "casting" and len(pending) == 1:
            return view, pending[0]
        seat = rng.choice(pending)
        actions = client.get(f"{url}/actions", headers=auth(tokens[seat])).get_json()
        assert client.post(f"{url}/moves", json=random_move(actions, rng),
                           headers=auth(tokens[seat])).status_code == 200


def play_random(client, game, rng: random.Random,
                observe: Callable[[int, dict[str, Any], Any], None] | None = None,
                max_moves: int = 500) -> list[Move]:
    """Play ``game`` to the end over HTTP with random legal moves; returns (seat, move) in the
    order they were accepted. Checks that each move bumps the version by exactly one."""
    moves: list[Move] = []
    view = client.get(game.url).get_json()
    version = view["version"]
    while view["status"] != "finished":
        assert len(moves) < max_moves, "the game does not end"
        seats = pending_seats(view)
        assert seats, view
        seat = rng.choice(seats)
        actions = client.get(f"{game.url}/actions", headers=auth(game.tokens[seat]))
        assert actions.status_code == 200
        move = random_move(actions.get_json(), rng)
        resp = client.post(f"{game.url}/moves", json=move, headers=auth(game.tokens[seat]))
        assert resp.status_code == 200, (move, resp.get_data(as_text=True))
        body = resp.get_json()
        assert body["version"] == version + 1, "an accepted move bumps the version by one"
        assert resp.headers["ETag"] == f'"{body["version"]}"'
        assert body["events"], "an accepted move has events"
        version = body["version"]
        moves.append((seat, move))
        if observe is not None:
            observe(seat, move, resp)
        view = client.get(game.url).get_json()
        assert view["version"] == version
    return moves


def replay(players: int, options: dict[str, Any], seed: int, moves: list[Move]) -> dict:
    """The rules core's state after ``moves`` from a new game with the same seed and options."""
    state, _ = TURANDOT.new_game(players, options, seed)
    for seat, move in moves:
        state, _ = TURANDOT.apply(state, seat, move)
    return state


#: what the loops beside the session's test servers keep in its Redis (their heartbeats)
LOOP_KEYS = (b"impresario:loops",)


def keys_written(redis_client) -> list[bytes]:
    """Every key in Redis but the loops' heartbeats: what the requests of a test wrote (after
    a flush)."""
    return [k for k in redis_client.scan_iter() if k not in LOOP_KEYS]


def stored(redis_client, game_id: str) -> tuple[int, dict[str, Any]]:
    """The game's version and document as the store holds them."""
    version, doc, _ = GameStore(redis_client).read(game_id)  # plain, or archived once finished
    assert doc is not None, f"game {game_id} is not in Redis"
    return version, doc


# ------------------------------------------------------------------------------------ live
def http_table(http: "Http", body: dict[str, Any]) -> tuple[str, str, list[str]]:
    """A game created over HTTP from ``body`` with a person in every seat (P0, P1, …): its
    id, its host token and the seats' tokens."""
    status, _, created = http.request("POST", "/v1/games", body)
    assert status == 201, created
    gid = created["game"]["id"]
    tokens = []
    for i in range(body["players"]):
        status, _, joined = http.request("POST", f"/v1/games/{gid}/seats", {"name": f"P{i}"})
        assert status == 201, joined
        tokens.append(joined["token"])
    return gid, created["host_token"], tokens


class Http:
    """A keep-alive JSON client over http.client; one per thread."""

    def __init__(self, base_url: str, timeout: float = 30.0) -> None:
        parts = urlsplit(base_url)
        self.host, self.port = parts.hostname, parts.port
        self.timeout = timeout
        self.conn: http.client.HTTPConnection | None = None

    def request(self, method: str, path: str, body: Any = None,
                headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], Any]:
        data = None if body is None else orjson.dumps(body)
        hdrs = dict(headers or {})
        if data is not None:
            hdrs["Content-Type"] = "application/json"
        for attempt in range(2):
            if self.conn is None:
                self.conn = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
            try:
                self.conn.request(method, path, body=data, headers=hdrs)
                resp = self.conn.getresponse()
                raw = resp.read()
                break
            except (ConnectionError, http.client.RemoteDisconnected,
                    http.client.BadStatusLine):
                # a keep-alive connection the server closed between requests: GETs are retried
                # on a new one; a POST is not (it may have been applied: its answer would be lost)
                self.conn.close()
                self.conn = None
                if attempt or method != "GET":
                    raise
        headers_out = {k.lower(): v for k, v in resp.getheaders()}
        payload = orjson.loads(raw) if raw else None
        return resp.status, headers_out, payload

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None
