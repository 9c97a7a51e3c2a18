"""``impresario wait GAME_ID`` against the real service (live_server): it returns at once, with
the terminal's bell, when the move is the player's already; else it follows the game's event
stream and rings once the others have moved and the player's turn comes; a game that is not
the player's is refused with a clear message and exit 1."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import requests

CLI = [sys.executable, "-m", "impresario.cli"]


def _env(player_file) -> dict[str, str]:
    return {**os.environ, "LANGUAGE": "en", "IMPRESARIO_PLAYER_FILE": str(player_file)}


def _api(base: str, method: str, path: str, token: str | None = None, **kw):
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    resp = requests.request(method, base + path, headers=headers, timeout=30, **kw)
    assert resp.status_code < 300, f"{method} {path} -> {resp.status_code} {resp.text}"
    return resp.json() if resp.content else None


def _pending(base: str, game_id: str) -> list[int]:
    return [p["seat"] for p in _api(base, "GET", f"/v1/games/{game_id}")["pending"]]


def _move(base: str, game_id: str, token: str) -> None:
    actions = _api(base, "GET", f"/v1/games/{game_id}/actions", token)
    _api(base, "POST", f"/v1/games/{game_id}/moves", token, json=actions["default"])


def test_wait_rings_when_it_is_the_players_move(live_server, tmp_path):
    env = _env(tmp_path / "p.json")
    made = subprocess.run([*CLI, "--url", live_server, "player", "--name", "Anna"], env=env,
                          capture_output=True, text=True, timeout=60)
    assert made.returncode == 0, made.stderr
    (kept,) = json.loads((tmp_path / "p.json").read_text())["engines"].values()
    token = kept["token"]
    game = _api(live_server, "POST", "/v1/games", token,
                json={"ruleset": "turandot", "players": 3, "seed": 5})
    gid = game["game"]["id"]
    tokens = {0: _api(live_server, "POST", f"/v1/games/{gid}/seats", game["host_token"],
                      json={"name": "Anna"})["token"]}
    for seat, name in ((1, "Bo"), (2, "Cy")):
        tokens[seat] = _api(live_server, "POST", f"/v1/games/{gid}/seats",
                            json={"name": name})["token"]
    assert 0 in _pending(live_server, gid)

    now = subprocess.run([*CLI, "--url", live_server, "wait", gid], env=env,
                         capture_output=True, text=True, timeout=60)
    assert now.returncode == 0, now.stderr
    assert now.stdout.startswith("\a") and f"Your move at game {gid} (turandot)" in now.stdout

    _move(live_server, gid, tokens[0])  # Anna bids: the others' turn
    assert 0 not in _pending(live_server, gid)
    waiting = subprocess.Popen([*CLI, "--url", live_server, "wait", gid], env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        time.sleep(2)
        assert waiting.poll() is None, waiting.communicate()
        for _ in range(50):  # the others move until Anna's turn comes
            pending = _pending(live_server, gid)
            if 0 in pending:
                break
            _move(live_server, gid, tokens[min(pending)])
        assert 0 in _pending(live_server, gid)
        out, err = waiting.communicate(timeout=30)
    finally:
        if waiting.poll() is None:
            waiting.kill()
    assert waiting.returncode == 0, err
    assert out.startswith("\a") and f"Your move at game {gid}" in out

    other = subprocess.run([*CLI, "--url", live_server, "wait", "zzzzzzzzzzzz"], env=env,
                           capture_output=True, text=True, timeout=60)
    assert other.returncode == 1 and other.stdout == ""
    assert "game zzzzzzzzzzzz is not one of your games ('impresario games' lists them)" in \
        other.stderr


def test_wait_asks_a_private_game_every_poll_seconds(live_server, tmp_path):
    """A private game's stream needs a token of the game: the command asks the player's games
    every --poll seconds instead, and rings all the same."""
    env = _env(tmp_path / "p.json")
    assert subprocess.run([*CLI, "--url", live_server, "player", "--name", "Anna"], env=env,
                          capture_output=True, text=True, timeout=60).returncode == 0
    (kept,) = json.loads((tmp_path / "p.json").read_text())["engines"].values()
    game = _api(live_server, "POST", "/v1/games", kept["token"],
                json={"ruleset": "turandot", "players": 3, "seed": 6, "private": True})
    gid, join = game["game"]["id"], game["join_token"]
    tokens = {0: _api(live_server, "POST", f"/v1/games/{gid}/seats", game["host_token"],
                      json={"name": "Anna"})["token"]}
    for seat, name in ((1, "Bo"), (2, "Cy")):
        tokens[seat] = _api(live_server, "POST", f"/v1/games/{gid}/seats?join={join}",
                            json={"name": name})["token"]

    def pending() -> list[int]:
        view = _api(live_server, "GET", f"/v1/games/{gid}", tokens[1])
        return [p["seat"] for p in view["pending"]]

    _move(live_server, gid, tokens[0])
    assert 0 not in pending()
    waiting = subprocess.Popen([*CLI, "--url", live_server, "wait", gid, "--poll", "0.3"],
                               env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True)
    try:
        time.sleep(1.5)
        assert waiting.poll() is None, waiting.communicate()
        for _ in range(50):
            now = pending()
            if 0 in now:
                break
            _move(live_server, gid, tokens[min(now)])
        out, err = waiting.communicate(timeout=30)
    finally:
        if waiting.poll() is None:
            waiting.kill()
    assert waiting.returncode == 0, err
    assert out.startswith("\a") and f"Your move at game {gid}" in out
