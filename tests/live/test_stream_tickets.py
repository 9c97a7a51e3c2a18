"""Stream tickets (``POST /v1/games/{id}/stream-tickets``), what a browser's EventSource opens a
seat's own stream with, and the end of a finished game's stream (204 No Content).

A ticket opens one stream of one game, once, as the token that asked for it: the stream is the
token's own, redaction included (seat 0's ticket never shows seat 1's secrets); it is refused
with 401 ``invalid_ticket`` when unknown, expired (the app's clock is moved, never waited for),
used, of another game, beside another credential or on a request that is not a stream, and
those refusals count as failed authentications. Against a real Redis throughout, and a real
gunicorn for the race between two streams that bring the same ticket.
"""

from __future__ import annotations

import threading

import pytest

from impresario_engine.api import streams
from .live_helpers import (SSE, TestStream, doc_of, open_raw_stream, play_humans, raw_events,
                           read_blocks, setup_game)
from service_helpers import assert_problem, auth

BID = {"type": "bid", "slot": 1, "money": 0, "bluff": False}


def ticket_for(client, gid: str, token: str | None) -> dict:
    resp = client.post(f"/v1/games/{gid}/stream-tickets", headers=auth(token))
    assert resp.status_code == 201, resp.get_data(as_text=True)
    body = resp.get_json()
    assert set(body) == {"ticket", "expires_at", "url"}
    assert body["url"] == f"/v1/games/{gid}/events?ticket={body['ticket']}"
    assert resp.headers["Cache-Control"] == "no-store"
    return body


def read(client, url: str, token: str | None, count: int) -> list[tuple[int, str, dict]]:
    """The first ``count`` events of a stream (the test client serves one stream at a time)."""
    stream = TestStream(client, url, auth(token))
    try:
        assert stream.status == 200, stream.resp.get_data(as_text=True)
        assert stream.resp.headers["Content-Type"].startswith("text/event-stream")
        return [(int(f["id"]), f["event"], f["data"]) for f in stream.events(count)]
    finally:
        stream.close()


def three_seats(client):
    """A 3-player Turandot in its first bidding, seats 0 and 1 having committed sealed bids
    (seat 2 has not: nothing is revealed yet)."""
    created, tokens = setup_game(client, [None, None, None], seed=11, first_maestro=2)
    gid = created["game"]["id"]
    for token in tokens[:2]:
        resp = client.post(f"/v1/games/{gid}/moves", json=BID, headers=auth(token))
        assert resp.status_code == 200, resp.get_data(as_text=True)
    return created, tokens, gid


def test_a_seats_ticket_opens_that_seats_own_stream_once(client, redis_client):
    base = streams.open_streams()
    created, tokens, gid = three_seats(client)
    url = f"/v1/games/{gid}/events"
    backlog = doc_of(redis_client, gid)["seq"]

    ticket = ticket_for(client, gid, tokens[0])
    seen = read(client, ticket["url"], None, backlog)
    # exactly the stream of seat 0's bearer token
    assert seen == read(client, url, tokens[0], backlog)

    # seat 0 sees its own sealed bid, and none of seat 1's secrets
    raw = dict(raw_events(redis_client, gid))
    committed = {e["seat"]: e for _, _, e in seen if e["type"] == "bid_committed"}
    assert committed[0]["bid"] == {"slot": 1, "money": 0, "bluff": False}
    assert "bid" not in committed[1]
    hidden = 0
    for seq, _type, event in seen:
        private = raw[seq].get("_private", {})
        for key in set(private.get("1", {})) - set(private.get("0", {})):
            assert key not in event, (seq, key, "seat 1's secret on seat 0's ticket stream")
            hidden += 1
        assert "_private" not in event
    assert hidden >= 1, "seat 1 had a secret in the backlog"

    # used once: the same ticket opens nothing more, and the refusal is problem JSON
    again = client.get(ticket["url"], headers=SSE)
    body = assert_problem(again, 401, "invalid_ticket")
    assert "used" in body["detail"]
    assert streams.open_streams() == base


def test_the_hosts_ticket_shows_the_hosts_stream(client, redis_client):
    created, tokens, gid = three_seats(client)
    backlog = doc_of(redis_client, gid)["seq"]
    ticket = ticket_for(client, gid, created["host_token"])
    seen = read(client, ticket["url"], None, backlog)
    assert seen == read(client, f"/v1/games/{gid}/events", created["host_token"], backlog)
    assert all("bid" not in e for _, _, e in seen)


def test_a_ticket_expires_by_the_apps_clock(app_factory, clock, redis_client):
    client = app_factory(clock=clock).test_client()
    created, tokens, gid = three_seats(client)
    ticket = ticket_for(client, gid, tokens[0])
    assert ticket["expires_at"] == int(clock.now) + 60  # STREAM_TICKET_SECONDS by default
    clock.advance(60)
    assert_problem(client.get(ticket["url"], headers=SSE), 401, "invalid_ticket")

    fresh = ticket_for(client, gid, tokens[0])
    clock.advance(59)
    stream = TestStream(client, fresh["url"])
    try:
        assert stream.status == 200
        assert stream.events(1)[0]["id"] == "1"
    finally:
        stream.close()

    shorter = app_factory(clock=clock, stream_ticket_seconds=5).test_client()
    short = ticket_for(shorter, gid, tokens[0])
    assert short["expires_at"] == int(clock.now) + 5
    clock.advance(5)
    assert_problem(shorter.get(short["url"], headers=SSE), 401, "invalid_ticket")


def test_a_ticket_opens_only_its_own_games_stream(client, redis_client):
    created, tokens, gid = three_seats(client)
    other, other_tokens = setup_game(client, [None, None], seed=4)
    oid = other["game"]["id"]
    ticket = ticket_for(client, gid, tokens[0])
    # on another game, even one where nobody has that ticket
    assert_problem(client.get(f"/v1/games/{oid}/events?ticket={ticket['ticket']}", headers=SSE),
                   401, "invalid_ticket")
    # a game that does not exist: 404 first
    assert_problem(client.get(f"/v1/games/nope123/events?ticket={ticket['ticket']}",
                              headers=SSE), 404, "game_not_found")
    # a ticket nobody issued
    assert_problem(client.get(f"/v1/games/{gid}/events?ticket=made-up", headers=SSE),
                   401, "invalid_ticket")
    assert_problem(client.get(f"/v1/games/{gid}/events?ticket={'x' * 257}", headers=SSE),
                   401, "invalid_ticket")


def test_a_ticket_is_refused_off_a_stream_and_left_unused(client, redis_client):
    created, tokens, gid = three_seats(client)
    ticket = ticket_for(client, gid, tokens[0])
    t = ticket["ticket"]
    refused = [
        client.get(f"/v1/games/{gid}/events?ticket={t}"),  # the JSON feed
        client.get(f"/v1/games/{gid}?ticket={t}"),
        client.get(f"/v1/games/{gid}/actions?ticket={t}"),
        client.get(f"/v1/games/{gid}/score?ticket={t}"),
        client.post(f"/v1/games/{gid}/moves?ticket={t}", json=BID),
        # beside another credential: one or the other
        client.get(ticket["url"], headers={**SSE, **auth(tokens[1])}),
    ]
    for resp in refused:
        assert_problem(resp, 401, "invalid_ticket")
    before = client.get(f"/v1/games/{gid}", headers=auth(tokens[0])).get_json()["version"]
    # none of them used it up, and none changed the game
    stream = TestStream(client, ticket["url"])
    try:
        assert stream.status == 200
        assert stream.events(1)[0]["id"] == "1"
    finally:
        stream.close()
    assert client.get(f"/v1/games/{gid}", headers=auth(tokens[0])).get_json()["version"] \
        == before


def test_a_head_request_leaves_the_ticket_for_its_stream(client, redis_client):
    """A HEAD reads no stream: it used the ticket up all the same, and the browser's stream
    that came next was refused."""
    created, tokens, gid = three_seats(client)
    ticket = ticket_for(client, gid, tokens[0])
    head = client.head(ticket["url"], headers=SSE)
    assert head.status_code == 401 and not head.get_data()
    stream = TestStream(client, ticket["url"])
    try:
        assert stream.status == 200
        assert stream.events(1)[0]["id"] == "1"
    finally:
        stream.close()


def test_asking_for_a_ticket_needs_a_token_of_the_game(client, redis_client):
    created, tokens, gid = three_seats(client)
    other, _ = setup_game(client, [None, None], seed=4)
    path = f"/v1/games/{gid}/stream-tickets"
    resp = client.post(path)
    assert_problem(resp, 401, "missing_token")
    assert resp.headers["WWW-Authenticate"] == "Bearer"
    assert_problem(client.post(path, headers=auth("not-a-token")), 401, "invalid_token")
    assert_problem(client.post(path, headers=auth(other["host_token"])), 401, "invalid_token")
    assert_problem(client.post("/v1/games/nope123/stream-tickets", headers=auth(tokens[0])),
                   404, "game_not_found")
    # a private game's spectator token gets one too: the spectator's stream
    private, ptokens = setup_game(client, [None, None], seed=5, private=True)
    pid = private["game"]["id"]
    spectator = ticket_for(client, pid, private["spectator_token"])
    stream = TestStream(client, spectator["url"])
    try:
        assert stream.status == 200
        assert all("bid" not in f["data"] for f in stream.events(2))
    finally:
        stream.close()


def test_a_seat_that_left_cannot_use_a_ticket_asked_for_before(client, redis_client):
    created, tokens, gid = three_seats(client)
    ticket = ticket_for(client, gid, tokens[0])
    gone = client.delete(f"/v1/games/{gid}/seats/0", headers=auth(tokens[0]))
    assert gone.status_code == 200, gone.get_data(as_text=True)
    body = assert_problem(client.get(ticket["url"], headers=SSE), 401, "invalid_ticket")
    assert "no longer valid" in body["detail"]
    assert_problem(client.post(f"/v1/games/{gid}/stream-tickets", headers=auth(tokens[0])),
                   401, "invalid_token")


def test_a_ticket_streams_end_with_the_seats_own_seat_left(app_factory, redis_client):
    client = app_factory(stream_max_seconds=5, stream_poll_ms=50).test_client()
    created, tokens, gid = three_seats(client)
    backlog = doc_of(redis_client, gid)["seq"]
    ticket = ticket_for(client, gid, tokens[0])
    stream = TestStream(client, ticket["url"])
    try:
        stream.events(backlog)
        assert client.delete(f"/v1/games/{gid}/seats/0",
                             headers=auth(tokens[0])).status_code == 200
        assert client.post(f"/v1/games/{gid}/moves", json=BID,
                           headers=auth(tokens[2])).status_code == 200
        rest = [b["data"] for b in stream.rest() if "data" in b]
        assert stream.ended
        assert [(e["type"], e.get("seat")) for e in rest] == [("seat_left", 0)]
    finally:
        stream.close()


def test_wrong_tickets_count_as_failed_authentications(app_factory, redis_client,
                                                       one_rate_window):
    client = app_factory(auth_failures_per_ip=3).test_client()
    created, tokens, gid = three_seats(client)
    good = ticket_for(client, gid, tokens[0])
    codes = [client.get(f"/v1/games/{gid}/events?ticket=guess{i}", headers=SSE).get_json()["code"]
             for i in range(5)]
    assert codes[:3] == ["invalid_ticket"] * 3
    assert codes[3:] == ["auth_rate_limited"] * 2
    # a ticket that validates is still served from that address
    stream = TestStream(client, good["url"])
    try:
        assert stream.status == 200
    finally:
        stream.close()


def test_one_ticket_opens_one_stream_when_two_bring_it_at_once(stream_server, redis_client):
    import requests

    base = stream_server
    created = requests.post(f"{base}/v1/games", json={"ruleset": "turandot", "players": 2,
                                                      "seed": 3}).json()
    gid = created["game"]["id"]
    token = requests.post(f"{base}/v1/games/{gid}/seats", json={"name": "Anna"}).json()["token"]
    ticket = requests.post(f"{base}/v1/games/{gid}/stream-tickets",
                           headers=auth(token)).json()
    statuses: list[int] = []
    start = threading.Barrier(8)
    lock = threading.Lock()

    def bring() -> None:
        start.wait()
        conn, resp = open_raw_stream(base, ticket["url"], {}, timeout=30)
        try:
            with lock:
                statuses.append(resp.status)
        finally:
            conn.close()

    threads = [threading.Thread(target=bring) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert sorted(statuses) == [200] + [401] * 7


# ------------------------------------------------------------------ the end of a finished game
@pytest.mark.parametrize("viewer", ["seat", "host", "spectator"])
def test_a_finished_games_stream_ends_with_204_once_everything_was_seen(client, redis_client,
                                                                        viewer):
    import random

    created, tokens = setup_game(client, [None, "greedy"], seed=6)
    gid = created["game"]["id"]
    play_humans(client, gid, tokens, random.Random(6))
    token = {"seat": tokens[0], "host": created["host_token"], "spectator": None}[viewer]
    url = f"/v1/games/{gid}/events"
    last = client.get(url, headers=auth(token)).get_json()["last_seq"]

    # behind: the rest, then the server closes the stream (no waiting for more)
    behind = TestStream(client, url, {"Last-Event-ID": str(last - 2), **auth(token)})
    rest = [b["data"] for b in behind.rest() if "data" in b]
    assert behind.status == 200 and behind.ended
    assert [e["seq"] for e in rest] == [last - 1, last]
    assert rest[-1]["type"] == "game_finished"

    # caught up (Last-Event-ID, else after; at or past the last): 204, no body
    for headers, query in (({"Last-Event-ID": str(last)}, ""), ({}, f"?after={last}"),
                           ({"Last-Event-ID": str(last + 5)}, "?after=1")):
        done = client.get(url + query, headers={**SSE, **headers, **auth(token)})
        assert done.status_code == 204, done.get_data(as_text=True)
        assert done.get_data() == b""
    # the JSON feed is unchanged: 200 and no events
    feed = client.get(f"{url}?after={last}", headers=auth(token))
    assert feed.status_code == 200 and feed.get_json()["events"] == []
    # and the same by a ticket
    if token is not None:
        ticket = ticket_for(client, gid, token)
        done = client.get(f"{ticket['url']}&after={last}", headers=SSE)
        assert done.status_code == 204
        assert_problem(client.get(f"{ticket['url']}&after={last}", headers=SSE), 401,
                       "invalid_ticket")


def test_the_sdk_asks_for_tickets_and_ends_a_finished_stream_at_204(stream_server):
    from impresario import Client

    client = Client(stream_server)
    game = client.create_game("turandot", players=2, seed=9)
    anna, bruno = game.join("Anna"), game.join("Bruno")
    ticket = anna.stream_ticket()
    assert ticket["url"] == f"/v1/games/{game.id}/events?ticket={ticket['ticket']}"
    conn, resp = open_raw_stream(stream_server, ticket["url"], {}, timeout=30)
    try:
        assert resp.status == 200
        first = next(read_blocks(resp))
        assert first == {"retry": 2000}
    finally:
        conn.close()
    seats = [anna, bruno]
    while anna.view()["status"] != "finished":
        for s in seats:
            default = s.actions()["default"]
            if default:
                s.safe_move(default)
    everything = list(anna.stream())
    assert everything[-1].type == "game_finished"
    # every event seen: the server answers 204 and the SDK stops at once
    assert list(anna.stream(after=everything[-1].seq)) == []
