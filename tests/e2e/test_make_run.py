"""``make run`` (``python -m impresario_engine.serve``) runs the reaper beside the engine, as the
cluster does: a bot whose think time is over moves with nobody asking for the game."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import requests

from conftest import _free_port, _healthy


def test_a_thinking_bot_moves_with_nobody_watching(redis_url, tmp_path):
    port = _free_port()
    log = tmp_path / "serve.log"
    env = {**os.environ, "REDIS_URL": redis_url, "LOG_LEVEL": "warning"}
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)
    with open(log, "wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "impresario_engine.serve", "--port",
                                 str(port), "--workers", "1", "--reap-every", "0.3"],
                                env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while not _healthy(port):
            assert proc.poll() is None, log.read_text(errors="replace")
            assert time.monotonic() < deadline, log.read_text(errors="replace")
            time.sleep(0.1)
        base = f"http://127.0.0.1:{port}"
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
        # nobody asks for the game now: only the reaper can play the bot's bid
        deadline = time.monotonic() + 30
        reaped = []
        while not reaped:
            assert time.monotonic() < deadline, log.read_text(errors="replace")
            time.sleep(0.2)
            reaped = [json.loads(line) for line in log.read_text(errors="replace").splitlines()
                      if line.startswith("{") and '"moves"' in line]
            reaped = [r for r in reaped if r["moves"] >= 1]
        view = requests.get(f"{base}/v1/games/{gid}", headers=mine, timeout=10).json()
        assert view["version"] > version
        assert view["round"] == 2 or view["phase"] != "bidding"  # both bids are in: resolved
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    assert proc.returncode == 0 or proc.returncode < 0, log.read_text(errors="replace")
