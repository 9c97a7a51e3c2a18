"""Race test: real gunicorn (4 workers x 8 threads), 48 client threads racing on a few games.

Every seat of a game sends its bid at the same moment as every other seat of every game, with
duplicates (identical, identical with a shared Idempotency-Key) and conflicting second bids;
decisions are raced the same way. Afterwards, for every game: each accepted move is in the store
and in the event stream exactly once, no version was handed out twice, the events are numbered
1..last_seq, and the stored game equals the rules core's replay of the accepted moves.
"""

from __future__ import annotations

import random
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import pytest

from impresario_rules.turandot import TURANDOT
from impresario_engine.store import GameStore
from service_helpers import Http, auth, random_move, replay, stored

pytestmark = pytest.mark.slow

THREADS = 48
GAMES = [(4, 101), (5, 102), (3, 103), (2, 104), (5, 105), (3, 106), (4, 107), (2, 108)]
LOSING = {  # what a request that lost a race may be told (409)
    "bid_already_committed", "not_bidding_phase", "not_office_phase", "not_nominate_phase",
    "not_fire_phase", "already_cast", "game_finished",
}
# A bid carries no round: when the last bid of a round resolves it straight into the next
# round's bidding (no office hires, no firing), a late copy of a bid sent without
# Idempotency-Key or If-Match is a bid of the next round. The rules may refuse it there.
LATE_BID_REFUSALS = {"not_enough_money", "maestro_cannot_hire_helper",
                     "no_helpers_in_director_round"}


@dataclass
class Req:
    game: int
    seat: int | None
    method: str
    path: str
    body: Any = None
    token: str | None = None
    key: str | None = None
    group: tuple[int, int, int] = (0, 0, 0)  # game, seat, step: copies of one intended move
    round: int = 0  # the round when the step began
    result: tuple[int, dict[str, str], Any] | None = None


@dataclass
class Game:
    players: int
    seed: int
    id: str = ""
    tokens: list[str] = field(default_factory=list)
    accepted: list[tuple[int, int, dict, list]] = field(default_factory=list)  # version, seat..
    join_versions: list[int] = field(default_factory=list)
    keyed: dict[str, list[Req]] = field(default_factory=dict)

    @property
    def url(self) -> str:
        return f"/v1/games/{self.id}"


class Racer:
    """Runs a batch of requests from many threads at once (a barrier releases them together)."""

    def __init__(self, base_url: str, threads: int = THREADS) -> None:
        self.base_url = base_url
        self.threads = threads
        self.pool = ThreadPoolExecutor(threads)
        self.local = threading.local()
        self.clients: list[Http] = []
        self.lock = threading.Lock()

    def _client(self) -> Http:
        c = getattr(self.local, "client", None)
        if c is None:
            c = self.local.client = Http(self.base_url)
            with self.lock:
                self.clients.append(c)
        return c

    def _send(self, req: Req, barrier: threading.Barrier) -> None:
        client = self._client()
        headers = auth(req.token)
        if req.key is not None:
            headers["Idempotency-Key"] = req.key
        barrier.wait(timeout=60)
        req.result = client.request(req.method, req.path, req.body, headers)

    def run(self, batch: list[Req]) -> None:
        for start in range(0, len(batch), self.threads):
            chunk = batch[start:start + self.threads]
            barrier = threading.Barrier(len(chunk))
            for f in [self.pool.submit(self._send, r, barrier) for r in chunk]:
                f.result()

    def get(self, path: str, token: str | None = None) -> Any:
        status, _, body = self._client().request("GET", path, headers=auth(token))
        assert status == 200, (path, status, body)
        return body

    def close(self) -> None:
        self.pool.shutdown()
        for c in self.clients:
            c.close()


@pytest.fixture
def racer(live_server):
    r = Racer(live_server)
    try:
        yield r
    finally:
        r.close()


def _requests_for(game: Game, gi: int, step: int, view: dict, racer: Racer,
                  rng: random.Random) -> list[Req]:
    """The raced requests of one game at one step: each pending seat's move, duplicated."""
    out = []
    rnd = view["round"]
    for seat in [p["seat"] for p in view["pending"]]:
        token = game.tokens[seat]
        actions = racer.get(f"{game.url}/actions", token)
        move = random_move(actions, rng)
        key = f"g{gi}-s{seat}-step{step}"
        path = f"{game.url}/moves"
        group = (gi, seat, step)
        copies = [Req(gi, seat, "POST", path, move, token, None, group, rnd),
                  Req(gi, seat, "POST", path, move, token, None, group, rnd),
                  Req(gi, seat, "POST", path, move, token, key, group, rnd),
                  Req(gi, seat, "POST", path, move, token, key, group, rnd)]
        game.keyed[key] = copies[2:]
        if rng.random() < 0.4:  # a conflicting second move by the same seat
            other = random_move(actions, rng)
            if other != move:
                copies.append(Req(gi, seat, "POST", path, other, token, None, group, rnd))
        out.extend(copies)
    return out


def test_race_bids_and_decisions(racer, redis_client):
    rng = random.Random(2024)
    games = [Game(p, s) for p, s in GAMES]

    # create, then race the joins: every game gets two more join requests than seats
    for g in games:
        status, headers, body = racer._client().request(
            "POST", "/v1/games", {"ruleset": "turandot", "players": g.players, "seed": g.seed,
                                  "options": {"first_maestro": "random"}})
        assert status == 201, body
        g.id = body["game"]["id"]
    joins = [Req(gi, None, "POST", f"{g.url}/seats", {"name": f"N{i}"})
             for gi, g in enumerate(games) for i in range(g.players + 2)]
    rng.shuffle(joins)
    racer.run(joins)
    for gi, g in enumerate(games):
        mine = [r for r in joins if r.game == gi]
        ok = [r for r in mine if r.result[0] == 201]
        assert len(ok) == g.players, [r.result for r in mine]
        for r in mine:
            if r.result[0] != 201:
                assert r.result[0] == 409 and r.result[2]["code"] == "game_full", r.result
        seats = sorted(r.result[2]["seat"] for r in ok)
        assert seats == list(range(g.players))
        g.tokens = [None] * g.players
        for r in ok:
            g.tokens[r.result[2]["seat"]] = r.result[2]["token"]
            g.join_versions.append(r.result[2]["game"]["version"])
        assert sorted(g.join_versions) == list(range(2, g.players + 2))

    # play: at each step every unfinished game's pending seats race their moves
    step = 0
    late_bids = 0
    outcomes = {"accepted": 0, "no-op": 0, "replayed": 0, "lost": 0}
    total_requests = len(joins)
    while True:
        batch = []
        for gi, g in enumerate(games):
            view = racer.get(g.url)
            if view["status"] != "finished":
                batch.extend(_requests_for(g, gi, step, view, racer, rng))
        if not batch:
            break
        assert step < 200, "the games do not end"
        rng.shuffle(batch)
        racer.run(batch)
        total_requests += len(batch)
        on_time: dict[tuple[int, int, int], int] = {}
        for req in batch:
            status, headers, body = req.result
            g = games[req.game]
            on_time.setdefault(req.group, 0)
            if status == 200:
                replayed = headers.get("idempotent-replayed") == "true"
                kind = "replayed" if replayed else "accepted" if body["events"] else "no-op"
                outcomes[kind] += 1
                if not replayed and body["events"]:
                    g.accepted.append((body["version"], req.seat, req.body, body["events"]))
                    if req.body["type"] == "bid":
                        (commit,) = [e for e in body["events"] if e["type"] == "bid_committed"]
                        if commit["round"] == req.round:
                            on_time[req.group] += 1
                        else:
                            assert commit["round"] > req.round
                            late_bids += 1
                    else:  # a decision can only be taken once: its phase is over afterwards
                        on_time[req.group] += 1
                continue
            assert headers["content-type"].startswith("application/problem+json")
            if status == 422 and req.body["type"] == "bid" and body["code"] in LATE_BID_REFUSALS:
                late_bids += 1
                continue
            assert status == 409 and body["code"] in LOSING, (req.body, status, body)
            outcomes["lost"] += 1
        # every seat's intended move (or its conflicting variant) was taken exactly once
        assert all(n == 1 for n in on_time.values()), on_time
        step += 1
    assert total_requests >= 500, total_requests
    print(f"\nrace: {total_requests} requests in {step} steps: {outcomes}, "
          f"{late_bids} late bids")
    # the race exercised every path: fresh moves, no-op re-sends, key replays, lost races
    assert all(outcomes[k] > 0 for k in ("accepted", "no-op", "replayed", "lost")), outcomes

    for g in games:
        _check_game(g, racer, redis_client)


def _check_game(g: Game, racer: Racer, redis_client) -> None:
    version, doc = stored(redis_client, g.id)
    assert doc["status"] == "finished"

    # no version handed out twice; accepted moves are exactly the stored moves, in version order
    versions = [v for v, *_ in g.accepted]
    assert len(versions) == len(set(versions)), "a version was handed out twice"
    assert not set(versions) & set(g.join_versions)
    assert sorted(versions) == list(range(g.players + 2, version + 1))
    ordered = sorted(g.accepted, key=lambda a: a[0])
    assert [[seat, move, "seat"] for _, seat, move, _ in ordered] == doc["moves"]

    # the stored game is the rules core's replay of the accepted moves
    state = replay(g.players, {"first_maestro": "random"}, g.seed,
                   [(seat, move) for _, seat, move, _ in ordered])
    assert state == doc["state"]
    assert racer.get(f"{g.url}/score") == {"ruleset": "turandot", **TURANDOT.score(state)}

    # the event stream: numbered 1..last_seq, each accepted move's events in it exactly once
    raw = GameStore(redis_client).events(g.id)  # from the stream, or its archive
    seqs = [seq for seq, _ in raw]
    assert seqs == list(range(1, doc["seq"] + 1))
    feed = racer.get(f"{g.url}/events?after=0")
    assert feed["last_seq"] == doc["seq"] == len(feed["events"])
    by_seat_feed = {seat: {e["seq"]: e for e in
                           racer.get(f"{g.url}/events?after=0", g.tokens[seat])["events"]}
                    for seat in range(g.players)}
    claimed: list[int] = []
    for _, seat, _, events in ordered:
        for e in events:
            assert by_seat_feed[seat][e["seq"]] == e
            claimed.append(e["seq"])
    assert len(claimed) == len(set(claimed))
    setup = [e for e in feed["events"] if e["seq"] not in set(claimed)]
    assert all(e["type"] in ("round_started", "seat_taken", "game_started") for e in setup)
    assert sum(e["type"] == "seat_taken" for e in setup) == g.players

    kinds = [e["type"] for e in feed["events"]]
    assert kinds.count("bids_revealed") == 7
    assert kinds.count("game_started") == 1 and kinds.count("game_finished") == 1
    committed = [(e["round"], e["seat"]) for e in feed["events"] if e["type"] == "bid_committed"]
    assert sorted(committed) == sorted({(r, s) for r in range(1, 8) for s in range(g.players)})
    assert kinds.count("cast") == g.players

    # the revealed bids are the accepted ones
    accepted_bids: dict[tuple[int, int], dict] = {}
    for _, seat, move, events in ordered:
        if move["type"] == "bid":
            (commit,) = [e for e in events if e["type"] == "bid_committed"]
            accepted_bids[(commit["round"], seat)] = {k: move[k] for k in ("slot", "money",
                                                                          "bluff")}
    for e in feed["events"]:
        if e["type"] == "bids_revealed":
            for b in e["bids"]:
                assert accepted_bids[(e["round"], b["seat"])] == {
                    "slot": b["slot"], "money": b["money"], "bluff": b["bluff"]}

    # replays of a key answer exactly what the accepted request with that key answered
    for key, reqs in g.keyed.items():
        bodies = [r.result[2] for r in reqs if r.result[0] == 200]
        fresh = [r for r in reqs if r.result[0] == 200
                 and r.result[1].get("idempotent-replayed") != "true"]
        replays = [r for r in reqs if r.result[1].get("idempotent-replayed") == "true"]
        assert len(fresh) + len(replays) == len(bodies)
        if replays:
            assert len(fresh) == 1, key
            assert all(r.result[2] == fresh[0].result[2] for r in replays), key
