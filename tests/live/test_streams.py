"""The event feed as server-sent events: 50 open streams on a real gunicorn while a game is played
through (none of them stalls play; each gets every event it may see exactly once, in order,
redacted for its viewer); resuming with ``Last-Event-ID``; heartbeats; live delivery and deadlines
applied by an idle stream; the per-worker stream budget (503 ``too_many_streams``)."""

from __future__ import annotations

import random
import threading
import time
from typing import Any


from impresario_engine.api import streams
from .live_helpers import (SSE, FakeClock, TestStream, create, doc_of, open_raw_stream,
                          play_humans, raw_events, read_blocks, seat, setup_game)
from service_helpers import Http, assert_problem, auth, play_to_last_move, random_move

STREAMS = 50
REQUEST_TIMEOUT = 10.0  # every request of the game must answer within this (socket timeout)


class StreamReader(threading.Thread):
    """One SSE connection on the live server, read until the server closes it."""

    def __init__(self, base: str, path: str, headers: dict[str, str], connected: threading.Semaphore
                 ) -> None:
        super().__init__(daemon=True)
        self.base, self.path, self.headers = base, path, headers
        self.connected = connected
        self.blocks: list[dict[str, Any]] = []
        self.refused = 0
        self.error: BaseException | None = None
        self.closed_by_server = False

    def run(self) -> None:
        try:
            for _ in range(10):
                conn, resp = open_raw_stream(self.base, self.path, self.headers, timeout=60)
                if resp.status == 503:  # this worker's stream budget is full: retry as told
                    assert resp.getheader("Retry-After")
                    resp.read()
                    conn.close()
                    self.refused += 1
                    time.sleep(0.2)
                    continue
                assert resp.status == 200, (resp.status, resp.read())
                assert resp.getheader("Content-Type").startswith("text/event-stream")
                try:
                    first = True
                    for block in read_blocks(resp):
                        if first:
                            assert "retry" in block, block
                            self.connected.release()
                            first = False
                        self.blocks.append(block)
                    self.closed_by_server = True
                finally:
                    conn.close()
                return
            raise AssertionError("no worker had room for the stream")
        except BaseException as exc:  # noqa: BLE001 - reported by the test
            self.error = exc
            self.connected.release()

    @property
    def events(self) -> list[dict[str, Any]]:
        return [b for b in self.blocks if "data" in b]


def _check_redacted(events: list[dict], viewer: int | None, raw: dict[int, dict]) -> None:
    """A seat sees its own sealed bid in bid_committed and never another's; spectators none."""
    for e in events:
        assert "_private" not in e and "private" not in e
        if e["type"] == "bid_committed":
            truth = raw[e["seq"]]["_private"][str(e["seat"])]["bid"]
            if viewer == e["seat"]:
                assert e["bid"] == truth
            else:
                assert "bid" not in e, (viewer, e)


def test_fifty_open_streams_do_not_stall_play(stream_server, redis_client):
    http = Http(stream_server, timeout=REQUEST_TIMEOUT)
    status, _, created = http.request("POST", "/v1/games", {
        "ruleset": "turandot", "players": 4, "seed": 77, "options": {"first_maestro": "random"}})
    assert status == 201
    gid = created["game"]["id"]
    tokens = []
    for i in range(4):
        status, _, joined = http.request("POST", f"/v1/games/{gid}/seats", {"name": f"P{i}"})
        assert status == 201
        tokens.append(joined["token"])
    # 50 streams: 10 per seat (bearer token or ?after=0), 10 spectators
    connected = threading.Semaphore(0)
    readers: list[tuple[int | None, StreamReader]] = []
    for i in range(STREAMS):
        viewer = i % 5 if i % 5 < 4 else None
        headers = auth(tokens[viewer]) if viewer is not None else {}
        path = f"/v1/games/{gid}/events" + ("?after=0" if i % 2 else "")
        readers.append((viewer, StreamReader(stream_server, path, headers, connected)))
    for _, r in readers:
        r.start()
    for _ in readers:
        assert connected.acquire(timeout=60), "a stream did not open"
    assert all(r.error is None for _, r in readers), [r.error for _, r in readers if r.error]
    assert all(r.is_alive() for _, r in readers), "every stream is open before play starts"

    # the whole game, over HTTP, while the 50 streams are open: every request answers in time
    rng = random.Random(77)
    moves = 0
    started = time.monotonic()
    while True:
        status, _, view = http.request("GET", f"/v1/games/{gid}")
        assert status == 200
        if view["status"] == "finished":
            break
        s = rng.choice([p["seat"] for p in view["pending"]])
        status, _, actions = http.request("GET", f"/v1/games/{gid}/actions",
                                          headers=auth(tokens[s]))
        assert status == 200
        status, _, body = http.request("POST", f"/v1/games/{gid}/moves",
                                       random_move(actions, rng), headers=auth(tokens[s]))
        assert status == 200, body
        moves += 1
        assert moves < 300
    played_in = time.monotonic() - started
    http.close()

    for _, r in readers:
        r.join(60)
    assert not any(r.is_alive() for _, r in readers), "a stream did not end with the game"
    assert all(r.error is None for _, r in readers), [r.error for _, r in readers if r.error]
    raw = dict(raw_events(redis_client, gid))
    last = doc_of(redis_client, gid)["seq"]
    feeds: dict[int | None, list] = {}
    for viewer, r in readers:
        assert r.closed_by_server
        events = r.events
        ids = [int(b["id"]) for b in events]
        assert ids == list(range(1, last + 1)), "every event once, in order"
        assert [b["data"]["seq"] for b in events] == ids
        assert all(b["event"] == b["data"]["type"] for b in events)
        assert events[-1]["event"] == "game_finished"
        data = [b["data"] for b in events]
        _check_redacted(data, viewer, raw)
        if viewer not in feeds:
            conn = Http(stream_server, timeout=REQUEST_TIMEOUT)
            status, _, feed = conn.request(
                "GET", f"/v1/games/{gid}/events",
                headers=auth(tokens[viewer]) if viewer is not None else {})
            conn.close()
            assert status == 200
            feeds[viewer] = feed["events"]
        assert data == feeds[viewer], "the stream is the viewer's JSON feed"
    assert len(feeds) == 5
    print(f"{moves} moves with {STREAMS} open streams in {played_in:.2f}s; "
          f"{sum(r.refused for _, r in readers)} stream(s) retried after 503")

    # a stream resumed with Last-Event-ID on the live server: the rest, then the server closes
    conn, resp = open_raw_stream(stream_server, f"/v1/games/{gid}/events?after=1",
                                 {"Last-Event-ID": "17", **auth(tokens[2])}, timeout=30)
    assert resp.status == 200
    blocks = list(read_blocks(resp))
    conn.close()
    assert [b["data"] for b in blocks if "data" in b] == feeds[2][17:]


def test_last_event_id_resumes_without_gaps_or_duplicates(client, redis_client):
    base = streams.open_streams()
    created, tokens = setup_game(client, [None, "greedy", "random"], seed=5)
    gid = created["game"]["id"]
    game_url = f"/v1/games/{gid}"
    url = f"{game_url}/events"
    rng = random.Random(5)
    # during play: read everything so far, move, resume from the last id seen
    seen: list[dict] = []
    for _ in range(6):
        before = client.get(url, headers=auth(tokens[0])).get_json()
        stream = TestStream(client, url, {**auth(tokens[0]),
                                          **({"Last-Event-ID": seen[-1]["id"]} if seen else {})})
        try:
            assert stream.status == 200
            fresh = stream.events(before["last_seq"] - (int(seen[-1]["id"]) if seen else 0))
        finally:
            stream.close()
        seen += fresh
        actions = client.get(f"{game_url}/actions", headers=auth(tokens[0])).get_json()
        assert client.post(f"{game_url}/moves", json=random_move(actions, rng),
                           headers=auth(tokens[0])).status_code == 200
    feed = client.get(url, headers=auth(tokens[0])).get_json()["events"]
    assert [int(f["id"]) for f in seen] == list(range(1, len(seen) + 1))
    assert [f["data"] for f in seen] == feed[:len(seen)]

    play_humans(client, gid, tokens, rng)
    feed = client.get(url, headers=auth(tokens[0])).get_json()["events"]
    # a finished game: read some, drop the connection, resume: the stream ends by itself
    first = TestStream(client, url, auth(tokens[0]))
    part = first.events(10)
    first.close()
    second = TestStream(client, f"{url}?after=3", {"Last-Event-ID": part[-1]["id"],
                                                   **auth(tokens[0])})
    rest = [b for b in second.rest() if "data" in b]
    assert second.ended
    assert [b["data"] for b in part + rest] == feed
    assert [int(b["id"]) for b in part + rest] == list(range(1, len(feed) + 1))
    # without Last-Event-ID, ?after= says where to start; a bad Last-Event-ID is ignored
    for headers in ({}, {"Last-Event-ID": "not-a-number"}):
        third = TestStream(client, f"{url}?after=30", {**headers, **auth(tokens[0])})
        assert [b["data"] for b in third.rest() if "data" in b] == feed[30:]
    assert streams.open_streams() == base


def test_heartbeats_live_delivery_and_deadlines_applied_by_an_idle_stream(app_factory,
                                                                         redis_client):
    base = streams.open_streams()
    clock = FakeClock()
    app = app_factory(stream_heartbeat_seconds=0.05, stream_poll_ms=20, clock=clock)
    client = app.test_client()
    created, tokens = setup_game(client, [None, None], seed=6, first_maestro=0,
                                 move_seconds=30)
    gid = created["game"]["id"]
    stream = TestStream(client, f"/v1/games/{gid}/events", auth(tokens[1]))
    try:
        assert stream.status == 200
        assert stream.resp.headers["Cache-Control"] == "no-store"
        assert stream.next_block() == {"retry": 2000}
        backlog = stream.events(doc_of(redis_client, gid)["seq"])
        assert [e["event"] for e in backlog[-2:]] == ["game_started", "round_started"]
        beats = 0
        for _ in range(100):
            block = stream.next_block()
            assert "data" not in block, "no event while nobody moves"
            beats += block == {"comment": "heartbeat"}
            if beats == 3:
                break
        assert beats == 3
        # a move made while the stream is open shows up on it (its bid hidden from seat 1)
        move = {"type": "bid", "slot": 2, "money": 1, "bluff": False}
        assert client.post(f"/v1/games/{gid}/moves", json=move,
                           headers=auth(tokens[0])).status_code == 200
        (frame,) = stream.events(1)
        assert frame["event"] == "bid_committed" and frame["data"]["seat"] == 0
        assert "bid" not in frame["data"]
        # nobody else touches the game: the idle stream applies the passed deadline itself
        clock.advance(30)
        passed, commit = stream.events(2)
        assert passed["data"] == {"seq": int(passed["id"]), "type": "deadline_passed", "seat": 1,
                                  "kinds": ["bid"]}
        assert commit["event"] == "bid_committed"
        assert commit["data"]["bid"] == {"slot": 1, "money": 0, "bluff": False}
        assert doc_of(redis_client, gid)["moves"][-1][2] == "deadline"
    finally:
        stream.close()
    assert streams.open_streams() == base


def test_a_worker_over_its_stream_budget_answers_503(app_factory):
    """Two streams a worker: the spectators' share (one) taken, a second spectator waits
    (503); a seat's stream still opens, and the worker is then full (503 for anyone)."""
    base = streams.open_streams()
    app = app_factory(max_streams_per_worker=base + 2, spectator_streams_share=0.5)
    client = app.test_client()
    created = create(client, players=2, seed=8)
    gid = created["game"]["id"]
    tokens = [seat(client, gid, name)["token"] for name in ("Anna", "Bruno")]
    url = f"/v1/games/{gid}/events"
    first = TestStream(client, url)
    mine = None
    try:
        assert first.status == 200 and first.next_block() == {"retry": 2000}
        refused = client.get(url, headers=SSE)
        assert_problem(refused, 503, "too_many_streams")
        assert int(refused.headers["Retry-After"]) > 0
        mine = TestStream(client, url, auth(tokens[0]))
        assert mine.status == 200, "room is kept for the seats' own streams"
        full = client.get(url, headers={**SSE, **auth(tokens[1])})
        assert_problem(full, 503, "too_many_streams")
        # ordinary requests are still served, the JSON feed included
        assert client.get(url).status_code == 200
        assert client.get(f"/v1/games/{gid}").status_code == 200
    finally:
        if mine is not None:  # the test client's request contexts are a stack
            mine.close()
        first.close()
    again = TestStream(client, url)
    assert again.status == 200
    again.close()
    assert streams.open_streams() == base


def test_strangers_cannot_take_a_seats_stream_slots(app_factory):
    """The finding: anonymous spectator streams of a public game had no cap per address or
    per game, so strangers filled a worker's slots and the seated player's own stream got 503.
    Now streams without a seat take at most their share of a worker's slots, a few per
    address and per game; the seats' streams have the rest."""
    base = streams.open_streams()
    app = app_factory(max_streams_per_worker=base + 6, spectator_streams_share=0.5,
                      spectator_streams_per_address=2, spectator_streams_per_game=2,
                      trusted_proxies=1)
    client = app.test_client()
    games = [create(client, players=2, seed=s)["game"]["id"] for s in (8, 9)]
    tokens = [seat(client, games[0], name)["token"] for name in ("Anna", "Bruno")]
    url = [f"/v1/games/{gid}/events" for gid in games]

    def stranger(address: str, game: int) -> TestStream:
        return TestStream(client, url[game], {"X-Forwarded-For": address})

    opened: list[TestStream] = []
    try:
        opened += [stranger("203.0.113.7", 0), stranger("203.0.113.7", 1)]
        assert [s.status for s in opened] == [200, 200]
        body = assert_problem(client.get(url[1], headers={**SSE, "X-Forwarded-For":
                                                          "203.0.113.7"}), 429,
                              "too_many_streams")
        assert "one address" in body["detail"]
        opened.append(stranger("198.51.100.1", 0))
        assert opened[-1].status == 200
        body = assert_problem(client.get(url[0], headers={**SSE, "X-Forwarded-For":
                                                          "198.51.100.2"}), 429,
                              "too_many_streams")
        assert "one game" in body["detail"]
        # three strangers' streams: the spectators' share of six slots is full
        assert_problem(client.get(url[1], headers={**SSE, "X-Forwarded-For": "192.0.2.9"}),
                       503, "too_many_streams")
        # the seats' own streams still open, three of them, until the worker is full
        for token in (tokens[0], tokens[1], tokens[0]):
            opened.append(TestStream(client, url[0], auth(token)))
            assert opened[-1].status == 200
        assert_problem(client.get(url[0], headers={**SSE, **auth(tokens[1])}), 503,
                       "too_many_streams")
    finally:
        for stream in reversed(opened):  # the test client's request contexts are a stack
            stream.close()
    assert streams.open_streams() == base
    assert streams.SLOTS.watching == 0 and not streams.SLOTS.by_address \
        and not streams.SLOTS.by_game


def test_head_requests_do_not_use_up_stream_slots(app_factory):
    """A HEAD request with Accept: text/event-stream gets the stream's headers and no body; it
    used to keep its slot forever (the body generator never ran), until the worker refused
    every stream."""
    base = streams.open_streams()
    app = app_factory(max_streams_per_worker=base + 1, spectator_streams_share=1)
    client = app.test_client()
    gid = create(client, players=2, seed=9)["game"]["id"]
    seat(client, gid, "A")
    for _ in range(5):
        head = client.head(f"/v1/games/{gid}/events", headers=SSE)
        assert head.status_code == 200 and head.mimetype == "text/event-stream"
        head.close()
        assert streams.open_streams() == base
    stream = TestStream(client, f"/v1/games/{gid}/events")
    assert stream.status == 200
    stream.close()
    assert streams.open_streams() == base


def test_a_stream_waiting_when_the_game_is_archived_gets_the_last_events(app_factory,
                                                                      redis_client):
    """The finishing move folds the event stream into the game's archive; a stream whose wait
    begins after that still delivers the final events (from the archive), then ends."""
    app = app_factory(stream_poll_ms=20, stream_max_seconds=3)  # a miss ends, never hangs
    client = app.test_client()
    created, tokens = setup_game(client, [None, None], seed=8)
    url = f"/v1/games/{created['game']['id']}"
    view, last = play_to_last_move(client, url, tokens, random.Random(8))
    stream = TestStream(client, f"{url}/events", auth(tokens[0]))
    try:
        assert stream.next_block() == {"retry": 2000}
        backlog = stream.events(view["last_seq"])  # the generator now waits for the next pull
        final = client.post(f"{url}/moves", json={"type": "cast", "roles": None},
                            headers=auth(tokens[last]))
        assert final.status_code == 200
        assert not redis_client.exists(f"game:{{{created['game']['id']}}}:events")  # archived
        last_seq = final.get_json()["game"]["last_seq"]
        rest = [b for b in stream.rest() if "data" in b]
        assert [int(b["id"]) for b in backlog + rest] == list(range(1, last_seq + 1))
        assert rest[-1]["event"] == "game_finished" and stream.ended
    finally:
        stream.close()


def test_a_closed_client_frees_its_stream_slot_promptly(redis_url, tmp_path_factory,
                                                        gunicorn_server):
    """Streams whose clients have gone give their slots back within a wait on Redis (a
    second), not at the next heartbeat (15 s): a worker full of streams, all closed by their
    clients, admits as many new ones a moment later."""
    budget = 4
    # spectators' streams from one address, allowed the whole budget: this is about slots
    # given back, not how they are shared (test_strangers_cannot_take_a_seats_stream_slots)
    with gunicorn_server(redis_url, tmp_path_factory.mktemp("closed-streams"), workers=1,
                         threads=8, MAX_STREAMS_PER_WORKER=str(budget),
                         SPECTATOR_STREAMS_SHARE="1", SPECTATOR_STREAMS_PER_ADDRESS=str(budget),
                         SPECTATOR_STREAMS_PER_GAME=str(budget)) as base:
        http = Http(base)
        status, _, created = http.request("POST", "/v1/games", {"ruleset": "turandot",
                                                               "players": 2})
        assert status == 201
        path = f"/v1/games/{created['game']['id']}/events"

        def open_all() -> list | None:
            """The whole budget at once, or None (every stream opened closed again) when a
            slot is still taken."""
            opened = []
            for _ in range(budget):
                conn, resp = open_raw_stream(base, path, {}, timeout=10)
                if resp.status != 200:
                    assert resp.status == 503, (resp.status, resp.read())
                    resp.read()
                    for c in [*opened, conn]:
                        c.close()
                    return None
                assert next(read_blocks(resp)) == {"retry": 2000}
                opened.append(conn)
            return opened

        first = open_all()
        assert first is not None, "the worker's whole budget opens when nothing else is open"
        for conn in first:
            conn.close()
        # every slot is free again within 8 s of the clients leaving (heartbeats are 15 s);
        # between tries, the streams a failed try opened leave too (a wait on Redis: 1 s)
        deadline = time.monotonic() + 8
        while (again := open_all()) is None:
            assert time.monotonic() < deadline, "the closed streams still hold their slots"
            time.sleep(1.5)
        for conn in again:
            conn.close()


def test_a_seats_stream_ends_with_its_own_seat_left(app_factory, redis_client):
    """A player who leaves mid-game must not go on reading the seat on a stream opened before:
    the bot that takes the seat over commits sealed bids the old stream would show, redacted for
    that seat. The stream delivers the player's own ``seat_left`` and ends there, and the old
    token opens no new one."""
    base = streams.open_streams()
    app = app_factory(stream_max_seconds=5, stream_poll_ms=50)
    client = app.test_client()
    created, tokens = setup_game(client, [None, None, None], seed=8, first_maestro=2)
    gid = created["game"]["id"]
    url = f"/v1/games/{gid}/events"
    leaver = TestStream(client, url, auth(tokens[0]))
    try:
        backlog = doc_of(redis_client, gid)["seq"]
        assert leaver.events(backlog)[-1]["event"] == "round_started"
        gone = client.delete(f"/v1/games/{gid}/seats/0", headers=auth(tokens[0]))
        assert gone.status_code == 200, gone.get_data(as_text=True)
        # the others bid: the bot now at seat 0 commits its own sealed bid as the bids go round
        for token in tokens[1:]:
            move = {"type": "bid", "slot": 1, "money": 0, "bluff": False}
            assert client.post(f"/v1/games/{gid}/moves", json=move,
                               headers=auth(token)).status_code == 200
        raw = dict(raw_events(redis_client, gid))
        assert any(e["type"] == "bid_committed" and e["seat"] == 0
                   for seq, e in raw.items() if seq > backlog), "seat 0's bot bid since the leave"
        rest = [b for b in leaver.rest() if "data" in b]
        assert leaver.ended, "the stream of the seat that left is closed"
        assert [(b["data"]["type"], b["data"].get("seat")) for b in rest] == [("seat_left", 0)]
        assert TestStream(client, url, auth(tokens[0])).status == 401
    finally:
        leaver.close()
    assert streams.open_streams() == base
