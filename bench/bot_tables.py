"""A human's move at a table of searching bots: does it wait for them?

Two kinds of 4-player Turandot table, played at once by clients over HTTP against gunicorn:
four human seats, and one human with three ``hard`` bots (Turandot's search). Each human plays
a uniformly drawn legal move as soon as it may; only its ``POST /moves`` is timed. The hard bots
think at least ``SEARCH_SECONDS``; then the reaper, a process of its own, makes their searches
(never a request), so the two tables' move latencies should match.

    python bench/bot_tables.py URL               # against a running engine (make run: its reaper)
    python bench/bot_tables.py URL REDIS_URL     # and a reaper started here on that Redis
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import threading
import time
from typing import Any, Callable

import requests


#: rounds of each kind of table, in turn
ROUNDS = 3


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def _seat_moves(base: str, gid: str, token: str, rng: random.Random, times: list[float],
                deadline: float) -> None:
    """Play one human seat to the end: poll the view, move when pending, time each move."""
    http = requests.Session()
    http.headers["Authorization"] = f"Bearer {token}"
    while time.monotonic() < deadline:
        view = http.get(f"{base}/v1/games/{gid}", timeout=30).json()
        if view["status"] == "finished":
            return
        me = view["you"]["seat"]
        if not any(p["seat"] == me for p in view["pending"]):
            time.sleep(0.05)
            continue
        actions = http.get(f"{base}/v1/games/{gid}/actions", timeout=30).json()
        if not actions["moves"]:
            continue
        move = _uniform(actions, rng)
        start = time.perf_counter()
        resp = http.post(f"{base}/v1/games/{gid}/moves", json=move, timeout=30,
                         headers={"If-Match": str(view["version"])})
        elapsed = time.perf_counter() - start
        if resp.status_code == 200:
            times.append(elapsed)


def _uniform(actions: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    from impresario_rules.turandot.bots import uniform
    return uniform({}, actions, rng)


def _table(base: str, bots: int, seed: int) -> tuple[str, list[str]]:
    created = requests.post(f"{base}/v1/games", json={
        "ruleset": "turandot", "players": 4, "seed": seed}, timeout=30).json()
    gid, host = created["game"]["id"], created["host_token"]
    tokens = []
    for i in range(4):
        body: dict[str, Any] = {"name": f"P{i}"}
        if i >= 4 - bots:
            body = {"name": f"Bot{i}", "bot": "hard"}
        joined = requests.post(f"{base}/v1/games/{gid}/seats", json=body, timeout=30,
                               headers={"Authorization": f"Bearer {host}"}).json()
        if joined.get("token"):
            tokens.append(joined["token"])
    return gid, tokens


def play_tables(base: str, bots: int, tables: int, seed0: int, times: list[float],
                seconds: float = 120.0) -> None:
    """``tables`` concurrent tables with ``bots`` hard bots each, played to their end (or for
    ``seconds``); each human move's latency is added to ``times``."""
    threads = []
    deadline = time.monotonic() + seconds
    for t in range(tables):
        gid, tokens = _table(base, bots, seed0 + t)
        for k, token in enumerate(tokens):
            th = threading.Thread(target=_seat_moves, daemon=True, args=(
                base, gid, token, random.Random((seed0 + t) * 10 + k), times, deadline))
            threads.append(th)
    for th in threads:
        th.start()
    for th in threads:
        th.join()


def summary(bots: int, tables: int, times: list[float], seconds: float) -> dict[str, Any]:
    return {"hard_bots": bots, "tables": tables, "human_moves": len(times),
            "seconds": round(seconds, 1),
            "p50_ms": round(_percentile(times, 0.5) * 1000, 2),
            "p99_ms": round(_percentile(times, 0.99) * 1000, 2),
            "max_ms": round(max(times, default=0.0) * 1000, 2)}


def reaper(redis_url: str) -> subprocess.Popen:
    """The reaper as deployed (``reap --loop 1 --quiet``) on ``redis_url``."""
    return subprocess.Popen(
        [sys.executable, "-m", "impresario_engine", "reap", "--loop", "1", "--quiet"],
        env={**os.environ, "REDIS_URL": redis_url}, stdout=subprocess.DEVNULL)


def run(base: str, log: Callable[[str], None] = print, redis_url: str | None = None
        ) -> dict[str, Any]:
    """Both tables; the ratio of the human move's p99 with three hard bots to without. With
    ``redis_url`` a reaper runs beside them (else the engine's own must: ``make run``'s)."""
    background = reaper(redis_url) if redis_url else None
    try:
        return _both(base, log)
    finally:
        if background is not None:
            background.terminate()
            background.wait(10)


def _both(base: str, log: Callable[[str], None], rounds: int = ROUNDS) -> dict[str, Any]:
    """Rounds of both kinds of table in turn (so a slow minute of a shared machine falls on
    both), each kind's moves pooled: a p99 over several hundred moves."""
    alone: list[float] = []
    hard: list[float] = []
    spent = [0.0, 0.0]
    for r in range(rounds):
        for i, (bots, tables, times) in enumerate(((0, 6, alone), (3, 24, hard))):
            started = time.perf_counter()
            play_tables(base, bots, tables, 9000 + 100 * r + 50 * i, times)
            spent[i] += time.perf_counter() - started
    four = summary(0, 6 * rounds, alone, spent[0])
    three = summary(3, 24 * rounds, hard, spent[1])
    log(f"human moves, 4 humans a table: {four['human_moves']} moves, p50 {four['p50_ms']} "
        f"ms, p99 {four['p99_ms']} ms")
    log(f"human moves, 1 human + 3 hard bots: {three['human_moves']} moves, p50 "
        f"{three['p50_ms']} ms, p99 {three['p99_ms']} ms")
    return {"four_humans": four, "three_hard_bots": three, "rounds": rounds,
            "p99_ratio": round(three["p99_ms"] / four["p99_ms"], 2) if four["p99_ms"] else None}


if __name__ == "__main__":
    print(json.dumps(run(sys.argv[1], redis_url=sys.argv[2] if len(sys.argv) > 2 else None),
                     indent=2))
