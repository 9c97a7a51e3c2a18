"""The SDK's hand-written layer against a scripted HTTP server: retries with backoff that honour
Retry-After, one Idempotency-Key per POST kept across retries, the error hierarchy, and the
event stream's reconnection with Last-Event-ID."""

from __future__ import annotations

import asyncio
import email.utils
import json
import logging
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from suite_helpers import in_own_thread
import requests

from impresario import (APIConnectionError, Client, Conflict, IllegalMove, NotFound,
                        RateLimited, ServiceUnavailable)
from impresario._generated.operations import UnexpectedResponse
from impresario.events import parse_sse, stream_events


class Scripted:
    """A local server answering each request with the next scripted (status, headers, body)."""

    def __init__(self, script):
        self.script = list(script)
        self.requests: list[dict] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def _serve(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                outer.requests.append({"method": self.command, "path": self.path,
                                       "headers": dict(self.headers), "body": body,
                                       "at": time.monotonic()})
                status, headers, payload = outer.script.pop(0)
                if callable(payload):
                    payload(self)
                    return
                data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
                self.send_response(status)
                for k, v in headers.items():
                    self.send_header(k, v)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_POST = _serve

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


PROBLEM = {"Content-Type": "application/problem+json", "X-Request-ID": "rid-1"}


def problem(status, code):
    return {"type": "x", "title": "t", "status": status, "code": code, "detail": f"{code}!",
            "request_id": "rid-1"}


@pytest.fixture
def scripted():
    servers = []

    def make(script):
        server = Scripted(script)
        servers.append(server)
        return server

    yield make
    for s in servers:
        s.close()


def test_retries_503_and_429_honouring_retry_after_with_one_idempotency_key(scripted):
    server = scripted([
        (503, {**PROBLEM, "Retry-After": "1"}, problem(503, "storage_unavailable")),
        (429, {**PROBLEM, "Retry-After": "0"}, problem(429, "rate_limited")),
        (201, {"Content-Type": "application/json"}, {"game": {"id": "g1"}, "host_token": "h"}),
    ])
    client = Client(server.url, max_retries=3, backoff=0.01)
    result = client.request("POST", "/v1/games", json={"ruleset": "turandot", "players": 2})
    assert result["game"]["id"] == "g1"
    keys = {r["headers"]["Idempotency-Key"] for r in server.requests}
    assert len(server.requests) == 3 and len(keys) == 1  # the same key on every retry
    assert server.requests[1]["at"] - server.requests[0]["at"] >= 0.9  # Retry-After: 1 honoured


def test_gives_up_after_max_retries_with_the_last_error(scripted):
    server = scripted([(503, PROBLEM, problem(503, "contention"))] * 3)
    client = Client(server.url, max_retries=2, backoff=0.01)
    with pytest.raises(ServiceUnavailable) as err:
        client.request("GET", "/v1/games/x")
    assert err.value.status == 503 and err.value.code == "contention"
    assert err.value.request_id == "rid-1" and len(server.requests) == 3


@pytest.mark.parametrize("status,code,cls", [(409, "not_your_turn", Conflict),
                                             (422, "empty_bid", IllegalMove),
                                             (404, "game_not_found", NotFound)])
def test_errors_carry_status_code_detail_and_request_id_and_are_not_retried(scripted, status,
                                                                             code, cls):
    server = scripted([(status, PROBLEM, problem(status, code))])
    client = Client(server.url, max_retries=3, backoff=0.01)
    with pytest.raises(cls) as err:
        client.request("POST", "/v1/games/g/moves", json={"type": "bid"})
    assert (err.value.status, err.value.code, err.value.detail) == (status, code, f"{code}!")
    assert err.value.request_id == "rid-1" and "rid-1" in str(err.value)
    assert len(server.requests) == 1


def test_connection_errors_are_retried_then_raised():
    client = Client("http://127.0.0.1:9", max_retries=1, backoff=0.01, timeout=0.5)
    with pytest.raises(APIConnectionError):
        client.request("GET", "/healthz")


def test_settings_belong_to_each_client():
    a = Client("http://a", timeout=1, max_retries=0, token="x")
    b = Client("http://b")
    assert (a.timeout, a.max_retries, a.token) == (1, 0, "x")
    assert (b.timeout, b.max_retries, b.token) == (10.0, 3, None)


def test_parse_sse_fields_comments_and_multiline_data():
    text = ["retry: 1500", "", ": heartbeat", "", "id: 3", "event: bid_committed",
            'data: {"seq": 3,', 'data:  "type": "bid_committed"}', ""]
    parsed = list(parse_sse(iter(text)))
    assert parsed == [("3", "bid_committed", '{"seq": 3,\n "type": "bid_committed"}', None)]


#: each scripted event's fields besides seq and type, as the spec requires them (the SDK checks
#: every streamed event against its model)
FIELDS = {"round_started": {"round": 1, "maestro": 0, "table": ["S01", "S02", "S03", "S04"]},
          "bid_committed": {"round": 1, "seat": 1, "face_down": 0},
          "bids_revealed": {"round": 1, "bids": []},
          "game_finished": {"totals": [10, 8, 7], "winners": [0]},
          "seat_left": {"name": "Anna", "bot": None},
          "round_ended": {"round": 1, "next_maestro": 1}}


def _sse(frames, close=True):
    def write(handler):
        handler.send_response(200)
        handler.send_header("Content-Type", "text/event-stream")
        handler.end_headers()
        handler.wfile.write(b"retry: 10\n\n")
        for seq, etype, *more in frames:
            data = json.dumps({"seq": seq, "type": etype, **FIELDS[etype],
                               **(more[0] if more else {})})
            handler.wfile.write(f"id: {seq}\nevent: {etype}\ndata: {data}\n\n".encode())
            handler.wfile.flush()
        handler.close_connection = True
    return write


def test_event_stream_reconnects_with_last_event_id_until_the_game_ends(scripted):
    server = scripted([
        (200, {}, _sse([(1, "round_started"), (2, "bid_committed")])),
        (200, {}, _sse([(3, "bids_revealed"), (4, "game_finished")])),
    ])
    client = Client(server.url)
    events = list(stream_events(client, "g", token="t"))
    assert [(e.seq, e.type) for e in events] == [(1, "round_started"), (2, "bid_committed"),
                                                 (3, "bids_revealed"), (4, "game_finished")]
    assert server.requests[0]["headers"]["Last-Event-ID"] == "0"
    assert server.requests[1]["headers"]["Last-Event-ID"] == "2"
    assert server.requests[1]["headers"]["Authorization"] == "Bearer t"


def test_a_streamed_event_is_checked_against_its_model(scripted):
    """Each event is typed as the spec's Event union once its top level is checked: an event
    missing a field its model requires is refused at once, not a KeyError in a bot later."""
    server = scripted([(200, {}, _sse([(1, "round_started"), (2, "game_finished")]))])
    events = list(stream_events(Client(server.url), "g", token="t"))
    assert events[0].data["type"] == "round_started" and events[0].data["table"][0] == "S01"
    broken = scripted([(200, {}, lambda handler: _raw_sse(
        handler, {"seq": 1, "type": "round_started", "round": 1}))])
    with pytest.raises(UnexpectedResponse, match="required keys missing"):
        list(stream_events(Client(broken.url), "g", token="t"))


def _raw_sse(handler, event):
    handler.send_response(200)
    handler.send_header("Content-Type", "text/event-stream")
    handler.end_headers()
    handler.wfile.write(f"id: {event['seq']}\ndata: {json.dumps(event)}\n\n".encode())
    handler.close_connection = True


def test_a_seats_event_stream_ends_at_its_own_seat_left(scripted):
    """The server ends a seat's stream after that seat's seat_left and refuses the token after:
    the SDK stops there instead of reconnecting into a 401; another seat's leave goes on."""
    server = scripted([
        (200, {}, _sse([(1, "round_started"), (2, "seat_left", {"seat": 1}),
                        (3, "seat_left", {"seat": 0})])),
        (401, PROBLEM, problem(401, "invalid_token")),
    ])
    client = Client(server.url)
    events = list(stream_events(client, "g", token="t", seat=0))
    assert [(e.seq, e.type) for e in events] == [(1, "round_started"), (2, "seat_left"),
                                                 (3, "seat_left")]
    assert len(server.requests) == 1


def test_an_event_stream_answered_204_is_over(scripted):
    """A finished game's stream answers 204 once the caller has every event: the SDK stops
    there, without reconnecting and without asking for the view."""
    server = scripted([
        (200, {}, _sse([(5, "round_ended")])),
        (204, {}, b""),
    ])
    client = Client(server.url)
    events = list(stream_events(client, "g", token="t", after=4))
    assert [(e.seq, e.type) for e in events] == [(5, "round_ended")]
    assert [r["headers"]["Last-Event-ID"] for r in server.requests] == ["4", "5"]
    assert all(r["path"].startswith("/v1/games/g/events") for r in server.requests)

    caught_up = scripted([(204, {}, b"")])
    assert list(stream_events(Client(caught_up.url), "g", after=9)) == []
    assert len(caught_up.requests) == 1


def test_a_stream_ticket_is_asked_for_with_the_seats_token(scripted):
    ticket = {"ticket": "tk", "expires_at": 1767225660, "url": "/v1/games/g/events?ticket=tk"}
    server = scripted([(201, {"Content-Type": "application/json"}, ticket)])
    from impresario.client import Seat

    seat = Seat(Client(server.url), "g", 0, "seat-token")
    assert seat.stream_ticket() == ticket
    (request,) = server.requests
    assert (request["method"], request["path"]) == ("POST", "/v1/games/g/stream-tickets")
    assert request["headers"]["Authorization"] == "Bearer seat-token"


CREATE_LIMITED = (429, {**PROBLEM, "Retry-After": "30"}, problem(429, "create_rate_limited"))
CREATED = (201, {"Content-Type": "application/json"}, {"game": {"id": "g1"}, "host_token": "h"})


def test_a_429s_retry_after_is_capped_by_max_backoff_logged_once_and_counted(scripted, caplog):
    """The engine's create limit answers Retry-After up to 60 s: the client waits at most
    max_backoff (not 30 s), says so in one WARNING line and counts it."""
    server = scripted([CREATE_LIMITED, CREATED])
    client = Client(server.url, max_retries=3, backoff=0.05, max_backoff=0.2)
    caplog.set_level(logging.DEBUG, logger="impresario")
    started = time.monotonic()
    created = client.request("POST", "/v1/games?join=secret", json={"ruleset": "turandot"},
                             token="host-secret")
    assert created["game"]["id"] == "g1"
    assert time.monotonic() - started < 1.5
    waited = server.requests[1]["at"] - server.requests[0]["at"]
    assert 0.15 <= waited < 1.0
    records = [r for r in caplog.records if r.name == "impresario.client"]
    assert len(records) == 1 and records[0].levelno == logging.WARNING
    line = records[0].getMessage()
    assert "429 create_rate_limited" in line and "POST /v1/games " in line
    assert "RATE_LIMIT_CREATE_PER_IP" in line and "attempt 1 of 3" in line
    assert "in 0.20 s" in line
    assert "secret" not in line  # neither the bearer token nor the query string
    assert client.throttled.retries == 1 and client.throttled.last_code == "create_rate_limited"
    assert 0.15 <= client.throttled.seconds <= 0.2


def test_honour_retry_after_waits_the_whole_retry_after(scripted):
    server = scripted([(429, {**PROBLEM, "Retry-After": "1"}, problem(429, "rate_limited")),
                       CREATED])
    client = Client(server.url, backoff=0.01, max_backoff=0.1, honour_retry_after=True)
    client.request("POST", "/v1/games", json={})
    assert server.requests[1]["at"] - server.requests[0]["at"] >= 0.9
    assert client.throttled.seconds >= 1.0 and client.throttled.last_code == "rate_limited"


def test_without_retries_a_429_raises_rate_limited_with_its_retry_after(scripted, caplog):
    server = scripted([CREATE_LIMITED])
    client = Client(server.url, max_retries=0)
    caplog.set_level(logging.DEBUG, logger="impresario")
    with pytest.raises(RateLimited) as err:
        client.request("POST", "/v1/games", json={})
    assert err.value.retry_after == 30.0 and err.value.code == "create_rate_limited"
    assert err.value.setting == "RATE_LIMIT_CREATE_PER_IP"
    assert "RATE_LIMIT_CREATE_PER_IP" in str(err.value)
    assert len(server.requests) == 1
    assert client.throttled.retries == 0 and client.throttled.seconds == 0.0
    assert not [r for r in caplog.records if r.name == "impresario.client"]


def test_retry_after_as_an_http_date_and_on_a_503(scripted):
    when = email.utils.formatdate(time.time() + 20, usegmt=True)
    server = scripted([(503, {**PROBLEM, "Retry-After": when}, problem(503, "contention"))])
    with pytest.raises(ServiceUnavailable) as err:
        Client(server.url, max_retries=0).request("GET", "/v1/games/g")
    assert 18 <= err.value.retry_after <= 20


def test_connection_errors_are_logged_per_retry(caplog):
    client = Client("http://127.0.0.1:9", max_retries=2, backoff=0.01, timeout=0.5)
    caplog.set_level(logging.DEBUG, logger="impresario")
    with pytest.raises(APIConnectionError):
        client.request("GET", "/v1/games/g?spectator=s3cret")
    lines = [r.getMessage() for r in caplog.records if r.name == "impresario.client"]
    assert len(lines) == 2 and all("connection error" in line for line in lines)
    assert "attempt 2 of 2" in lines[1] and not any("s3cret" in line for line in lines)
    assert client.throttled.retries == 0  # a connection error is not throttling


def test_the_happy_path_logs_nothing_above_debug(scripted, caplog):
    server = scripted([CREATED])
    caplog.set_level(logging.DEBUG, logger="impresario")
    Client(server.url).request("POST", "/v1/games", json={})
    assert not [r for r in caplog.records if r.levelno > logging.DEBUG]


def _open_pools(session: requests.Session) -> int:
    return len(session.get_adapter("http://127.0.0.1").poolmanager.pools)


def test_with_client_closes_the_session_it_made_and_never_the_callers(scripted):
    server = scripted([CREATED, CREATED])
    with Client(server.url) as client:
        client.request("POST", "/v1/games", json={})
        own = client.session
        assert _open_pools(own) == 1
    assert _open_pools(own) == 0  # closed: its connections are gone

    mine = requests.Session()
    with Client(server.url, session=mine) as client:
        client.request("POST", "/v1/games", json={})
    assert _open_pools(mine) == 1  # left open: the caller's to close
    mine.close()


# -- the AsyncClient: the same policy, errors and stream over httpx --------------------------
def test_the_async_client_retries_a_429_as_the_sync_one_does(scripted, caplog):
    from impresario.aio import AsyncClient

    server = scripted([CREATE_LIMITED, CREATED, CREATE_LIMITED])
    caplog.set_level(logging.DEBUG, logger="impresario")

    async def main():
        async with AsyncClient(server.url, backoff=0.05, max_backoff=0.2) as client:
            created = await client.request("POST", "/v1/games", json={}, token="host-secret")
            client.max_retries = 0
            with pytest.raises(RateLimited) as err:
                await client.request("POST", "/v1/games", json={})
            return created, err.value, client.throttled

    created, err, throttled = in_own_thread(asyncio.run, main())
    assert created["game"]["id"] == "g1"
    assert 0.15 <= server.requests[1]["at"] - server.requests[0]["at"] < 1.0
    assert len({r["headers"]["Idempotency-Key"] for r in server.requests[:2]}) == 1
    (record,) = [r for r in caplog.records if r.name == "impresario.client"]
    assert record.levelno == logging.WARNING and "429 create_rate_limited" in record.getMessage()
    assert "secret" not in record.getMessage()
    assert (err.retry_after, err.code, err.request_id) == (30.0, "create_rate_limited", "rid-1")
    assert throttled.retries == 1 and throttled.last_code == "create_rate_limited"


@pytest.mark.parametrize("status,code,cls", [(404, "game_not_found", NotFound),
                                             (422, "empty_bid", IllegalMove)])
def test_the_async_client_raises_the_sync_clients_errors(scripted, status, code, cls):
    from impresario.aio import AsyncClient

    server = scripted([(status, PROBLEM, problem(status, code))])

    async def main():
        async with AsyncClient(server.url) as client:
            await client.seat("g", 0, "t").move({"type": "bid", "slot": 1, "money": 0})

    with pytest.raises(cls) as err:
        in_own_thread(asyncio.run, main())
    assert (err.value.status, err.value.code, err.value.request_id) == (status, code, "rid-1")


def test_the_async_event_stream_reconnects_with_last_event_id_until_the_game_ends(scripted):
    from impresario.aio import AsyncClient

    server = scripted([
        (200, {}, _sse([(1, "round_started"), (2, "bid_committed")])),
        (503, {**PROBLEM, "Retry-After": "0"}, problem(503, "too_many_streams")),
        (200, {}, _sse([(3, "bids_revealed"), (4, "game_finished")])),
    ])

    async def main():
        async with AsyncClient(server.url) as client:
            return [(e.seq, e.type) async for e in client.seat("g", 0, "t").stream()]

    assert in_own_thread(asyncio.run, main()) == [(1, "round_started"), (2, "bid_committed"),
                                   (3, "bids_revealed"), (4, "game_finished")]
    assert [r["headers"]["Last-Event-ID"] for r in server.requests] == ["0", "2", "2"]
    assert server.requests[2]["headers"]["Authorization"] == "Bearer t"
