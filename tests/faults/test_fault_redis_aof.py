"""Fault (c): Redis restarts with its append-only file (``appendonly yes``, ``appendfsync
always``): the games survive.

1. Games are played part of the way, then paused. Redis is killed (SIGKILL, a crash: nothing is
   flushed on the way out) and started again on the same port and data. Every game looks exactly
   as before to every viewer (view, ETag, event feed), every seat token still works, and the
   last move's Idempotency-Key still replays its response.
2. The games carry on; in the middle of the load Redis is killed and restarted again. The clients
   retry their moves with the same keys, the games finish, and every move a client saw
   accepted is stored (appendfsync always: an acknowledged write is on disk); every game is
   valid and replays from its moves.
"""

from __future__ import annotations

import time

import pytest

from fault_helpers import (Gunicorn, Player, finish_and_check, request,
                           start_players)

pytestmark = pytest.mark.slow

GAMES = [(5, 31), (4, 32), (3, 33), (2, 34), (4, 35)]


#: this module's Redis (the ``redis_server`` fixture of conftest.py)
REDIS_OPTIONS = {"appendonly": True, "extra_args": ["--appendfsync", "always"]}


def _crash_and_restart(redis_server, server: Gunicorn) -> None:
    redis_server.kill()  # SIGKILL
    redis_server.start()
    deadline = time.monotonic() + 30
    while request(server.url, "GET", "/readyz", swallow=True)[0] != 200:
        assert time.monotonic() < deadline, "the service did not recover"
        time.sleep(0.05)


def _snapshot(base_url: str, p: Player) -> dict:
    out = {}
    for token in [None, *p.tokens]:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        status, hdrs, view = request(base_url, "GET", f"/v1/games/{p.id}", headers=headers)
        assert status == 200, view
        status, _, feed = request(base_url, "GET", f"/v1/games/{p.id}/events?after=0",
                                  headers=headers)
        assert status == 200, feed
        out[token] = (hdrs["etag"], view, feed)
    return out


def test_games_survive_redis_restarts(server, redis_server):
    players = [Player(server.url, n, seed, pause=0.01) for n, seed in GAMES]
    threads = start_players(players)
    deadline = time.monotonic() + 30
    while min(len(p.acked) for p in players) < 8:
        assert time.monotonic() < deadline, "the games do not progress"
        time.sleep(0.05)
    for p in players:
        p.stop.set()
    for t in threads:
        t.join(timeout=60)
    assert not any(p.error for p in players), [repr(p.error) for p in players if p.error]
    assert not any(p.finished for p in players)

    # 1. a crash while the games are paused: everything is as it was
    before = {p.id: _snapshot(server.url, p) for p in players}
    _crash_and_restart(redis_server, server)
    for p in players:
        assert _snapshot(server.url, p) == before[p.id], f"game {p.id} changed across a restart"
        for seat, token in enumerate(p.tokens):
            status, _, actions = request(server.url, "GET", f"/v1/games/{p.id}/actions",
                                         headers={"Authorization": f"Bearer {token}"})
            assert status == 200 and actions["seat"] == seat, actions
        seat, key, move, result = p.last
        status, hdrs, replay = request(
            server.url, "POST", f"/v1/games/{p.id}/moves", move,
            headers={"Authorization": f"Bearer {p.tokens[seat]}", "Idempotency-Key": key})
        assert status == 200 and hdrs.get("idempotent-replayed") == "true", (status, replay)
        assert replay == result

    # 2. a crash in the middle of the load: the clients retry, the games finish
    for p in players:
        p.stop.clear()
    threads = start_players(players)
    target = sum(len(p.acked) for p in players) + 40
    deadline = time.monotonic() + 30
    while sum(len(p.acked) for p in players) < target:
        assert time.monotonic() < deadline, "the games do not progress"
        time.sleep(0.02)
    _crash_and_restart(redis_server, server)
    finish_and_check(players, threads, redis_server.url)
    retried = sum(p.failures for p in players)
    print(f"AOF restarts: {len(players)} games survived two crashes; "
          f"{sum(len(p.acked) for p in players)} moves, {retried} requests retried")


def test_the_append_only_file_is_its_owners_alone(redis_server):
    """The embedded Redis (make run's) keeps every game's secrets in its data folder: the
    folder and every file in it are readable by their owner only (the append-only file was
    0644), files an older version left open included."""
    import os
    import stat

    import redis

    from impresario_engine.store.embedded import EmbeddedRedis

    folder = redis_server.data_dir.parent / "owner-only"
    folder.mkdir()
    old = folder / "left-by-an-older-version.aof"
    old.write_text("x")
    os.chmod(old, 0o644)
    with EmbeddedRedis(folder, appendonly=True) as server:
        client = redis.Redis.from_url(server.url)
        client.set("game:{x}", b"secret")
        client.close()
        files = [p for p in folder.rglob("*")]
        assert any("appendonly" in p.name or p.suffix == ".aof" for p in files), files
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700
        for path in files:
            mode = stat.S_IMODE(path.stat().st_mode)
            assert not mode & 0o077, f"{path.name} is {oct(mode)}"
