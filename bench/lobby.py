"""The list of games (``GET /v1/games``) with 100 and with 10,000 games in Redis: time per page
(in process, through the Flask app), games read per page, and the bytes the lists and the
summaries take. A step of ``make bench`` (``bench/run.py``); alone, with its own embedded
Redis: ``.venv/bin/python bench/lobby.py`` (``BENCH_QUICK=1``: fewer pages).

What it shows: a page costs the same with 10,000 games as with 100 (a page reads
``limit + 1`` entries of each list it needs and one hash field per game shown: O(limit)), and
grows with ``limit``, not with the number of games or how deep the page is.
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

QUICK = os.environ.get("BENCH_QUICK") == "1"
SIZES = (100, 10_000)
PAGES = 40 if QUICK else 200  # timed requests per query
BOTS = {"turandot": "greedy", "wordjam": "wordsmith", "muzicando": "greedy"}
PLAYERS = {"turandot": 4, "wordjam": 5, "muzicando": 4}
QUERIES = [
    ("first page, limit 20", "/v1/games?limit=20"),
    ("first page, limit 100", "/v1/games?limit=100"),
    ("open games, limit 20", "/v1/games?status=open&limit=20"),
    ("open wordjam with bots, limit 20", "/v1/games?status=open&ruleset=wordjam&has_bots=true&limit=20"),
    ("playing, limit 20", "/v1/games?status=playing&limit=20"),
]


def _populate(svc, start: int, end: int) -> None:
    from impresario_engine.usecases import create, seats

    """Games ``start..end-1``: every ruleset, one player seated; every 4th with a bot seat,
    every 5th started (a 2-player Turandot, both seats taken), every 10th private."""
    for i in range(start, end):
        private = i % 10 == 9  # its players are seated by the host (or its join link)
        if i % 5 == 4:
            made = create.create_game(svc, "turandot", 2, i, None, private=private).body
            view, host = made["game"], made["host_token"]
            seats.join(svc, view["id"], "Ada", token=host if private else None)
            seats.join(svc, view["id"], "Bea", token=host if private else None)
            continue
        ruleset = ("turandot", "wordjam", "muzicando")[i % 3]
        made = create.create_game(svc, ruleset, PLAYERS[ruleset], i, None,
                                  private=private).body
        view, host = made["game"], made["host_token"]
        seats.join(svc, view["id"], "Ada", token=host if private else None)
        if i % 4 == 0:
            seats.join(svc, view["id"], "Robo", token=host, bot=BOTS[ruleset])


def _time(client, path: str, pages: int) -> dict[str, float]:
    times = []
    for _ in range(pages):
        t0 = time.perf_counter()
        resp = client.get(path)
        times.append((time.perf_counter() - t0) * 1000)
        assert resp.status_code == 200, resp.get_data(as_text=True)
    times.sort()
    return {"p50_ms": statistics.median(times), "p99_ms": times[int(0.99 * (len(times) - 1))],
            "mean_ms": statistics.fmean(times)}


def _lobby_bytes(rds) -> int:
    return sum(int(rds.memory_usage(k, samples=0) or 0) for k in rds.scan_iter("lobby:*"))


def run(url: str, log: Callable[[str], None] = print) -> dict[str, Any]:
    import redis

    from impresario_engine.app import create_app

    rds = redis.Redis.from_url(url)
    rds.flushdb()
    app = create_app({"redis_url": url, "log_requests": False})
    svc = app.extensions["impresario"]
    client = app.test_client()
    read: list[int] = []
    summaries = svc.store.summaries

    def counting(ids):
        read.append(len(ids))
        return summaries(ids)

    svc.store.summaries = counting
    out: dict[str, Any] = {"sizes": {}}
    done = 0
    for size in SIZES:
        t0 = time.monotonic()
        _populate(svc, done, size)
        done = size
        log(f"lobby: {size} games in Redis ({time.monotonic() - t0:.1f}s to add them)")
        rows = {}
        for label, path in QUERIES:
            read.clear()
            first = client.get(path).get_json()
            per_page = sum(read)
            row = {**_time(client, path, PAGES), "games": len(first["games"]),
                   "games_read": per_page}
            rows[label] = row
            log(f"lobby {size:>6} games, {label:<34} p50 {row['p50_ms']:.2f} ms, p99 "
                f"{row['p99_ms']:.2f} ms, {row['games']} shown, {per_page} read")
        # a deep page: the 20th page of open games (limit 20), reached by following next (the
        # last one there is with fewer games)
        path, depth = "/v1/games?status=open&limit=20", 1
        while depth < 20:
            body = client.get(path).get_json()
            if not body["next"]:
                break
            path, depth = body["next"], depth + 1
        read.clear()
        shown = len(client.get(path).get_json()["games"])
        per_page = sum(read)
        label = f"page {depth} of open games, limit 20"
        deep = {**_time(client, path, PAGES), "games": shown, "games_read": per_page}
        rows["deep page of open games, limit 20"] = {**deep, "page": depth}
        log(f"lobby {size:>6} games, {label:<34} p50 {deep['p50_ms']:.2f} ms, p99 "
            f"{deep['p99_ms']:.2f} ms, {shown} shown, {deep['games_read']} read")
        lobby_bytes = _lobby_bytes(rds)
        summary_bytes = [len(rds.hget(k, "lobby") or b"")
                         for k in list(rds.scan_iter("game:{*}", _type="hash"))[:500]]
        out["sizes"][str(size)] = {
            "queries": rows, "lobby_keys_bytes": lobby_bytes,
            "lobby_bytes_per_game": lobby_bytes / size,
            "summary_field_bytes_mean": statistics.fmean(summary_bytes),
            "used_memory": rds.info("memory")["used_memory"],
        }
        log(f"lobby {size:>6} games: lists {lobby_bytes} B ({lobby_bytes / size:.0f} B per "
            f"game), summary field {statistics.fmean(summary_bytes):.0f} B per game")
    small, large = (out["sizes"][str(s)]["queries"] for s in SIZES)
    out["ratio_10000_over_100"] = {k: large[k]["p50_ms"] / small[k]["p50_ms"] for k in small}
    rds.flushdb()
    return out


def table(r: dict[str, Any]) -> list[str]:
    lines = ["", "list of games (in process)      games  p50 ms  p99 ms  shown  read"]
    for size, s in r["sizes"].items():
        for label, q in s["queries"].items():
            if "page" in q:
                label = f"page {q['page']} of open games, limit 20"
            lines.append(f"  {label:<32}{size:>6}{q['p50_ms']:>8.2f}{q['p99_ms']:>8.2f}"
                         f"{q['games']:>7}{q['games_read']:>6}")
        lines.append(f"  lists {s['lobby_bytes_per_game']:.0f} B per game, summary field "
                     f"{s['summary_field_bytes_mean']:.0f} B per game ({size} games)")
    return lines


def main() -> int:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from impresario_engine.store.embedded import EmbeddedRedis

    folder = Path(tempfile.mkdtemp(prefix="lobby-bench-"))
    server = EmbeddedRedis(folder).start()
    try:
        result = run(server.url, lambda m: print(m, file=sys.stderr, flush=True))
    finally:
        server.stop()
    print("\n".join(table(result)))
    import json

    print(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
