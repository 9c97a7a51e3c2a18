"""Fault (b): Redis goes away in the middle of a load, then comes back.

Games are played at once against gunicorn (2 workers x 8 threads) on a Redis of this module's
own (append-only file on). In the middle of the load Redis is

- stopped (the process exits; connections are refused), then started again on the same port
  and data, and
- frozen (SIGSTOP: connections hang, nothing answers), then thawed (SIGCONT).

While it is away every request that needs it gets a 503 problem JSON with ``Retry-After``
within a bounded time (the clients use a timeout: no 500, no hang, no dropped connection) and
``/readyz`` fails with 503 while ``/healthz`` still answers. When Redis is back the clients'
retries (same Idempotency-Key) go through and the games finish; every game's version, stored
moves and event stream agree, it replays from its moves, and no acknowledged move is lost.
"""

from __future__ import annotations

import os
import signal
import time

import pytest

from fault_helpers import (PROBLEM, Gunicorn, Player, finish_and_check, request,
                           start_players)

pytestmark = pytest.mark.slow

GAMES = [(5, 21), (4, 22), (3, 23), (5, 24), (4, 25), (2, 26)]
OUTAGE_SECONDS = 3.0
#: a request must be answered within this while Redis is away (redis_timeout is 5 s)
BOUND_SECONDS = 8.0


#: this module's Redis (the ``redis_server`` fixture of conftest.py)
REDIS_OPTIONS = {"appendonly": True}


def _wait_for_moves(players: list[Player], count: int, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while sum(len(p.acked) for p in players) < count:
        assert time.monotonic() < deadline, "the games do not progress"
        assert not any(p.error for p in players), [repr(p.error) for p in players if p.error]
        time.sleep(0.05)


def _assert_unavailable(status, headers, body, seconds, what) -> None:
    assert status == 503, (what, status, body)
    assert headers.get("content-type", "").startswith(PROBLEM), (what, headers)
    assert int(headers["retry-after"]) > 0, (what, headers)
    assert body["status"] == 503 and body["code"] in ("storage_unavailable", "contention"), body
    assert seconds < BOUND_SECONDS, (what, seconds)


def _probe_outage(server: Gunicorn, seconds: float) -> dict[str, int]:
    """Requests of every kind while Redis is away: each answered quickly with a 503."""
    seen = {"readyz": 0, "requests": 0}
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        started = time.monotonic()
        status, headers, body = request(server.url, "GET", "/readyz", timeout=15)
        _assert_unavailable(status, headers, body, time.monotonic() - started, "readyz")
        seen["readyz"] += 1
        assert request(server.url, "GET", "/healthz", timeout=5)[0] == 200
        for method, path, payload in (
                ("POST", "/v1/games", {"ruleset": "turandot", "players": 3}),
                ("GET", "/v1/games/abcdefghijkl", None),
                ("POST", "/v1/games/abcdefghijkl/seats", {"name": "Zed"})):
            started = time.monotonic()
            status, headers, body = request(server.url, method, path, payload, timeout=15)
            _assert_unavailable(status, headers, body, time.monotonic() - started, path)
            seen["requests"] += 1
    return seen


def _check_outcomes(players: list[Player], start: float, end: float) -> dict[str, int]:
    """What the players saw: never a 500 or a dropped connection; during the outage only 503
    problems, each within the bound."""
    counts = {"during": 0, "503": 0}
    for p in players:
        for o in p.outcomes:
            assert o.status is not None, (o.method, o.path, o.body)  # no hang, no reset
            assert o.status < 500 or o.status == 503, (o.method, o.path, o.status, o.body)
            assert o.seconds < BOUND_SECONDS, (o.method, o.path, o.seconds)
            if o.status == 503:
                counts["503"] += 1
                _assert_unavailable(o.status, o.headers, o.body, o.seconds, o.path)
            if start + 0.5 < o.at - o.seconds and o.at < end - 0.5:  # sent and answered inside
                counts["during"] += 1
                assert o.status == 503, (o.method, o.path, o.status, o.body)
    return counts


def _wait_ready(server: Gunicorn, timeout: float = 30) -> float:
    started = time.monotonic()
    while request(server.url, "GET", "/readyz", timeout=10)[0] != 200:
        assert time.monotonic() - started < timeout, "the service did not recover"
        time.sleep(0.05)
    return time.monotonic() - started


def test_redis_stopped_mid_load(server, redis_server):
    players = [Player(server.url, n, seed, pause=0.01) for n, seed in GAMES]
    threads = start_players(players)
    _wait_for_moves(players, 60)
    assert not any(p.finished for p in players), "the games ended before the outage"

    down = time.time()
    redis_server.stop()  # SIGTERM: redis-server exits; connections are refused
    seen = _probe_outage(server, OUTAGE_SECONDS)
    up = time.time()
    redis_server.start()
    recovered = _wait_ready(server)

    finish_and_check(players, threads, redis_server.url)
    counts = _check_outcomes(players, down, up)
    assert counts["during"] > 0 and counts["503"] > 0, counts
    print(f"redis stopped {up - down:.1f}s: probes {seen}, players {counts}, ready again "
          f"{recovered:.2f}s after restart; {sum(len(p.acked) for p in players)} moves")


def test_redis_frozen_mid_load(server, redis_server):
    """SIGSTOP: Redis accepts connections but answers nothing; requests time out into 503s."""
    players = [Player(server.url, n, seed + 100, pause=0.01) for n, seed in GAMES]
    threads = start_players(players)
    _wait_for_moves(players, 60)
    assert not any(p.finished for p in players), "the games ended before the outage"

    pid = redis_server.process.pid
    down = time.time()
    os.kill(pid, signal.SIGSTOP)
    try:
        seen = _probe_outage(server, OUTAGE_SECONDS)
    finally:
        up = time.time()
        os.kill(pid, signal.SIGCONT)
    recovered = _wait_ready(server)

    finish_and_check(players, threads, redis_server.url)
    counts = _check_outcomes(players, down, up)
    assert counts["503"] > 0, counts
    print(f"redis frozen {up - down:.1f}s: probes {seen}, players {counts}, ready again "
          f"{recovered:.2f}s after thaw; {sum(len(p.acked) for p in players)} moves")
