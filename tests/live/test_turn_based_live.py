"""A turn-based game as deployed: gunicorn and its reaper, and the outbox's sender (``python -m
impresario_engine notify --loop``), with Web Push to a local push service that decrypts what it
gets (tests/service/push_service.py). A subscribed player's "your move" and "game over" reach
their browser through the sender alone, in their language, while the game's time banks show
in every view."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest
import requests
from py_vapid import Vapid

from impresario_engine.table.notices import TEXTS
from push_service import PushService
from impresario_engine.serve import stop_process

DAY = 86400


@pytest.fixture(scope="module")
def push_env(tmp_path_factory) -> dict[str, str]:
    key = Vapid()
    key.generate_keys()
    path = tmp_path_factory.mktemp("vapid") / "vapid.pem"
    path.write_bytes(key.private_pem())
    return {"VAPID_PRIVATE_KEY_FILE": str(path), "VAPID_SUBJECT": "mailto:ops@example.test",
            "PUSH_ALLOW_PRIVATE": "1"}


@pytest.fixture(scope="module")
def push_server(redis_url, tmp_path_factory, gunicorn_server, push_env):
    with gunicorn_server(redis_url, tmp_path_factory.mktemp("push-gunicorn"), workers=2,
                         threads=4, **push_env) as url:
        yield url


@pytest.fixture
def sender(redis_url, push_env, tmp_path):
    log = open(tmp_path / "sender.log", "wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "impresario_engine", "notify", "--loop", "0.2", "--quiet"],
        env={**os.environ, "REDIS_URL": redis_url, "LOG_LEVEL": "warning", **push_env},
        stdout=log, stderr=subprocess.STDOUT)
    log.close()
    yield proc
    stop_process(proc, timeout=10)


def _until(check, seconds: float, why: str):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        found = check()
        if found:
            return found
        time.sleep(0.1)
    raise AssertionError(f"timed out: {why}")


def test_a_subscribed_players_turn_based_game_tells_them_through_the_sender(push_server, sender):
    base = push_server
    key = requests.get(f"{base}/v1/push/vapid-public-key", timeout=10).json()["public_key"]
    made = requests.post(f"{base}/v1/players", json={"name": "Anna"}, timeout=10).json()
    bearer = {"Authorization": f"Bearer {made['token']}"}
    with PushService(key) as service:
        phone = service.browser("anna-phone")
        assert requests.post(f"{base}/v1/me/push-subscriptions", headers=bearer, timeout=10,
                             json=phone.subscription("it")).status_code == 201
        created = requests.post(f"{base}/v1/games", headers=bearer, timeout=10, json={
            "ruleset": "turandot", "players": 3,
            "options": {"move_seconds": DAY, "bank_seconds": 3 * DAY,
                        "bank_refill_seconds": 3600, "bot_seconds": 0}}).json()
        gid, host = created["game"]["id"], {"Authorization": f"Bearer {created['host_token']}"}
        seat = requests.post(f"{base}/v1/games/{gid}/seats", json={"name": "Anna"},
                             headers=bearer, timeout=10).json()
        mine = {"Authorization": f"Bearer {seat['token']}"}
        for name in ("Robo", "Rita"):
            assert requests.post(f"{base}/v1/games/{gid}/seats", headers=host, timeout=10,
                                 json={"name": name, "bot": "easy"}).status_code == 201
        view = requests.get(f"{base}/v1/games/{gid}", timeout=10).json()
        assert view["banks"] == [3 * DAY] * 3 and view["bank_refill_seconds"] == 3600

        def told(kind: str):
            return [r["message"] for r in service.received if r["message"]["kind"] == kind]

        first = _until(lambda: told("your_move"), 30, "no 'your move' through the sender")[0]
        assert first["title"] == TEXTS["it"]["your_move.title"].format(ruleset="Turandot")
        assert first["game"] == gid and first["lang"] == "it"
        # Anna plays her defaults to the end: the bots answer at once
        for _ in range(400):
            view = requests.get(f"{base}/v1/games/{gid}", timeout=10).json()
            if view["status"] == "finished":
                break
            actions = requests.get(f"{base}/v1/games/{gid}/actions", headers=mine,
                                   timeout=10).json()
            if actions["default"] is None:
                time.sleep(0.05)
                continue
            requests.post(f"{base}/v1/games/{gid}/moves", json=actions["default"],
                          headers=mine, timeout=10)
        assert view["status"] == "finished"
        over = _until(lambda: told("game_over"), 30, "no 'game over' through the sender")
        assert len(over) == 1 and over[0]["body"].startswith(f"La partita {gid} è finita")
        assert service.errors == []
        # one notice in the browser's tray for the seat, each turn's replacing the last
        assert {m["tag"] for m in told("your_move")} == {f"{gid}:{seat['seat']}"}
