"""``make run`` (``python -m impresario_engine.serve``) runs the reaper beside the engine, as the
cluster does: a bot whose think time is over moves with nobody asking for the game."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import redis
import requests

from impresario_engine.store.embedded import free_port
from suite_helpers import healthy


def test_a_thinking_bot_moves_with_nobody_watching(redis_url, tmp_path):
    # a database of its own on the worker's Redis: the games other tests left there (a fast
    # Word Jam plays on by its deadlines) would be the reaper's work too, before this game's
    redis_url = redis_url.rsplit("/", 1)[0] + "/15"
    redis.Redis.from_url(redis_url).flushdb()
    port, metrics = free_port(), free_port()
    log = tmp_path / "serve.log"
    env = {**os.environ, "REDIS_URL": redis_url, "LOG_LEVEL": "warning"}
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)
    with open(log, "wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "impresario_engine.serve", "--port",
                                 str(port), "--workers", "1", "--reap-every", "0.3",
                                 "--metrics-port", str(metrics)],
                                env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while not healthy(port):
            assert proc.poll() is None, log.read_text(errors="replace")
            assert time.monotonic() < deadline, log.read_text(errors="replace")
            time.sleep(0.1)
        base = f"http://127.0.0.1:{port}"
        # /metrics on its own port, never on the API's (it answered there)
        assert requests.get(f"{base}/metrics", timeout=10).status_code == 404
        scraped = requests.get(f"http://127.0.0.1:{metrics}/metrics", timeout=10)
        assert scraped.status_code == 200 and "impresario_http_requests_total" in scraped.text
        created = requests.post(f"{base}/v1/games", json={
            "ruleset": "turandot", "players": 2, "seed": 5, "options": {"bot_seconds": 1}},
            timeout=10).json()
        gid, host = created["game"]["id"], created["host_token"]
        auth = {"Authorization": f"Bearer {host}"}
        me = requests.post(f"{base}/v1/games/{gid}/seats", json={"name": "Anna"}, headers=auth,
                           timeout=10).json()
        requests.post(f"{base}/v1/games/{gid}/seats", json={"name": "Robo", "bot": "medium"},
                      headers=auth, timeout=10).raise_for_status()
        mine = {"Authorization": f"Bearer {me['token']}"}
        moved = requests.post(f"{base}/v1/games/{gid}/moves", headers=mine, timeout=10, json={
            "type": "bid", "slot": 1, "money": 0, "bluff": False})
        assert moved.status_code == 200, moved.text
        version = moved.json()["game"]["version"]
        # nobody asks for the game now: only the reaper can play the bot's bid. The game's
        # version is read in Redis itself (asking the engine would play the bid on the way);
        # the reaper's log is not enough: this Redis holds other tests' games too
        stored = redis.Redis.from_url(redis_url)

        def reaped() -> bool:  # the reaper said it played moves, and this game moved on
            lines = [json.loads(line) for line in log.read_text(errors="replace").splitlines()
                     if line.startswith("{") and '"moves"' in line]
            return any(r["moves"] >= 1 for r in lines) \
                and int(stored.hget(f"game:{{{gid}}}", "v")) > version

        # a bound on "at all", not on speed: the reaper runs at a lower CPU priority (reap
        # --nice 10), and beside the other worker's tests it starts and searches slowly
        deadline = time.monotonic() + 120
        while not reaped():
            assert time.monotonic() < deadline, log.read_text(errors="replace")
            time.sleep(0.2)
        view = requests.get(f"{base}/v1/games/{gid}", headers=mine, timeout=10).json()
        assert view["version"] > version
        assert view["round"] == 2 or view["phase"] != "bidding"  # both bids are in: resolved
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    assert proc.returncode == 0 or proc.returncode < 0, log.read_text(errors="replace")
