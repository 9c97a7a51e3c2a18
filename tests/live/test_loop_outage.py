"""A loop survives a storage outage: the real reaper (``python -m impresario_engine reap --loop
0.5 --heartbeat FILE``) on a Redis of its own, with its append-only file on, while that Redis
is stopped (SIGTERM: the server exits) and started again on the same port with the same data.

The reaper keeps running, says once that the outage started and once that it ended (not once
per try), claims no turn meanwhile (its heartbeat file stays old: ``alive FILE`` fails, as the
readiness probe does; ``alive FILE --outage-ok``, the liveness probe, passes on its outage
file), and plays the deadline that fell due during the outage within 2 s of Redis's return. One
pass (no ``--loop``) on a Redis that is away ends with a line and status 1, no traceback.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pytest
import redis

from suite_helpers import UNLIMITED
from impresario_engine.store.embedded import EmbeddedRedis, free_port
from .live_helpers import doc_of, until

LOOP = 0.5
MOVE_SECONDS = 3
LOWEST_BID = {"type": "bid", "slot": 1, "money": 0, "bluff": False}


def _alive(heartbeat, *flags: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "impresario_engine", "alive", str(heartbeat),
                           "--within", "1", *flags], capture_output=True, text=True, timeout=30)



def _lines(path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(errors="replace").splitlines()
            if line.startswith("{")]


def _moves(client, gid) -> list:
    try:
        return doc_of(client, gid)["moves"]
    except redis.exceptions.ConnectionError:
        return []


@pytest.mark.slow
def test_the_reaper_waits_out_a_redis_restart_and_plays_what_fell_due(tmp_path):
    from impresario_engine.app import create_app

    data = tmp_path / "redis"
    server = EmbeddedRedis(data, appendonly=True).start()
    heartbeat, log_path = tmp_path / "heartbeat", tmp_path / "reaper.log"
    with open(log_path, "wb") as log:
        reaper = subprocess.Popen(
            [sys.executable, "-m", "impresario_engine", "reap", "--loop", str(LOOP), "--quiet",
             "--heartbeat", str(heartbeat)], env=dict(os.environ, REDIS_URL=server.url),
            stdout=log, stderr=subprocess.STDOUT)
    stored = redis.Redis.from_url(server.url)
    try:
        until(heartbeat.exists, 30, "the reaper's first turn")
        client = create_app({"redis_url": server.url, **UNLIMITED}).test_client()
        created = client.post("/v1/games", json={
            "ruleset": "turandot", "players": 2, "seed": 3,
            "options": {"first_maestro": 0, "move_seconds": MOVE_SECONDS}}).get_json()
        gid = created["game"]["id"]
        for i in range(2):
            assert client.post(f"/v1/games/{gid}/seats", json={"name": f"P{i}"}).status_code == 201
        due = time.monotonic() + MOVE_SECONDS
        assert doc_of(stored, gid)["moves"] == []

        server.stop()  # SIGTERM: Redis writes its append-only file and exits
        assert server.process is None
        time.sleep(MOVE_SECONDS + 1)  # the deadline passes while Redis is away
        assert time.monotonic() > due + 0.5
        assert reaper.poll() is None, log_path.read_text(errors="replace")
        # not ready: no turn claimed since Redis went away; alive, waiting for it
        ready = _alive(heartbeat)
        assert ready.returncode == 1, ready.stdout
        assert "waiting for its storage" in ready.stderr, ready.stderr
        live = _alive(heartbeat, "--outage-ok")
        assert live.returncode == 0 and "waiting for its storage" in live.stdout, live

        server = EmbeddedRedis(data, port=server.port, appendonly=True).start()
        back = time.monotonic()
        moves = until(lambda: _moves(stored, gid), 10, "the deadline played after the outage")
        played = time.monotonic() - back
        assert played < 2.0, f"the due deadline was played {played:.2f} s after Redis's return"
        assert moves == [[0, LOWEST_BID, "deadline"], [1, LOWEST_BID, "deadline"]]
        assert reaper.poll() is None
        until(lambda: _alive(heartbeat).returncode == 0, 5, "ready again")
        assert not (tmp_path / "heartbeat.outage").exists()
        time.sleep(2 * LOOP)  # a few more turns: no line of theirs about the outage
    finally:
        reaper.terminate()
        reaper.wait(timeout=30)
        server.stop()

    log = log_path.read_text(errors="replace")
    assert "Traceback" not in log, log
    lines = _lines(log_path)
    started = [line for line in lines if line.get("outage") == "started"]
    ended = [line for line in lines if line.get("outage") == "ended"]
    assert len(started) == 1 and len(ended) == 1, log
    assert started[0]["level"] == "warning" and "storage unavailable" in started[0]["msg"]
    assert ended[0]["seconds"] >= MOVE_SECONDS and ended[0]["failed_turns"] > 3, \
        "many tries failed, one line said so"
    assert lines.index(started[0]) < lines.index(ended[0])
    reports = [line for line in lines if "settled" in line]
    assert any(r["settled"] == 1 and r["moves"] == 2 for r in reports), log


def test_one_pass_on_a_redis_that_is_away_says_so_and_fails(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "impresario_engine", "reap"],
        env=dict(os.environ, REDIS_URL=f"redis://127.0.0.1:{free_port()}/0"),
        capture_output=True, text=True, timeout=60)
    assert done.returncode == 1, done
    assert "Traceback" not in done.stderr, done.stderr
    (line,) = [json.loads(text) for text in done.stderr.splitlines() if text.startswith("{")]
    assert line["level"] == "error" and "storage unavailable" in line["msg"], line
    assert done.stdout == ""
