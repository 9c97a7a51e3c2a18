"""Fault (a): ``kill -9`` a gunicorn worker in the middle of concurrent games.

Eight games are played at once against gunicorn (2 workers x 8 threads) on a Redis of this
module's own. While they play, one worker is killed with SIGKILL, then the other: whatever that
worker was doing is lost with it (the client sees a dropped connection and retries the same move
with the same Idempotency-Key). The master starts new workers; the games go on to the end.

Afterwards every game is valid (version, stored moves, event stream and the rules core's replay
of the stored moves agree) and every move a client saw accepted is stored where it was told.
"""

from __future__ import annotations

import os
import signal
import time

import pytest

from fault_helpers import Player, check_game, start_players

pytestmark = pytest.mark.slow

GAMES = [(3, 11), (4, 12), (5, 13), (2, 14), (3, 15), (4, 16), (5, 17), (2, 18)]


#: this module's Redis (the ``redis_server`` fixture of conftest.py)
REDIS_OPTIONS = {"appendonly": False}


def test_kill_worker_mid_games(server, redis_server):
    import redis

    players = [Player(server.url, n, seed) for n, seed in GAMES]
    threads = start_players(players)
    killed: list[int] = []
    for _ in range(2):  # kill the workers one after the other, while the games are in play
        deadline = time.monotonic() + 20
        while sum(len(p.acked) for p in players) < 40 * (len(killed) + 1):
            assert time.monotonic() < deadline, "the games do not progress"
            time.sleep(0.05)
        workers = [w for w in server.worker_pids() if w not in killed]
        assert workers, server.log()
        victim = workers[0]
        os.kill(victim, signal.SIGKILL)
        killed.append(victim)
    for t in threads:
        t.join(timeout=120)
    errors = [(p.id, repr(p.error)) for p in players if p.error]
    assert not errors, errors
    assert all(p.finished for p in players)

    # the master replaced the killed workers
    deadline = time.monotonic() + 20
    while len(server.worker_pids()) < 2 or set(killed) & set(server.worker_pids()):
        assert time.monotonic() < deadline, server.log()
        time.sleep(0.1)

    client = redis.Redis.from_url(redis_server.url)
    for p in players:
        doc = check_game(client, p)
        assert doc["status"] == "finished"
        # the client retried every move until it was accepted: each stored move is acknowledged
        assert len(p.acked) == len(doc["moves"]), (p.id, len(p.acked), len(doc["moves"]))
    dropped = sum(p.failures for p in players)
    print(f"worker kill: {len(players)} games, {sum(len(p.acked) for p in players)} moves "
          f"acknowledged, {dropped} requests dropped by the kills and retried")
    client.close()
