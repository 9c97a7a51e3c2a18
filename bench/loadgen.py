"""A multi-process HTTP load generator with keep-alive ``http.client`` connections.

``run(job)`` forks ``job.procs`` processes; each runs its share of ``job.clients`` client threads,
one persistent connection per client. Every client loops until the end of the window; only the
requests that complete inside the measured window (after the warm-up) are counted. Modes:

- ``engine``: each client owns whole 4-seat Turandot games (one at a time) and plays them to the
  end through ``POST /v1/games/<id>/moves``: the lowest legal bid for every seat (slot 1, no money,
  no bluff), and every decision the rules then hand out (office hires, nomination, firing,
  casting) read from the previous move's response, so rounds resolve and games finish. A finished
  game is reset to its start in Redis (outside the timings) and played again, so the number of
  live games stays what the bench installed. Every POST carries an ``Idempotency-Key`` as the SDK
  sends one, unless ``job.idempotency`` is off.
- ``floor``: ``POST /floor/k<i>`` (bench/floor.py) on a key of the client's own.
- ``healthz``: ``GET /healthz`` (the generator's own ceiling).

The generator measures its own CPU time (``getrusage``) over the window, so its cost per request
is reported next to the server's.
"""

from __future__ import annotations

import http.client
import multiprocessing as mp
import resource
import threading
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

import orjson

BID = {"type": "bid", "slot": 1, "money": 0, "bluff": False}


@dataclass
class Template:
    """A started 4-seat game as stored in Redis: version, document and events; seat tokens."""

    version: bytes
    doc: dict[str, Any]
    events: list[tuple[bytes, dict]]
    tokens: list[str]
    players: int


@dataclass
class Job:
    mode: str
    port: int
    clients: int
    seconds: float
    warmup: float = 1.5
    procs: int = 2
    redis_url: str = ""
    # engine: per client, the games it owns [(game_id, template index)]
    games: list[list[tuple[str, int]]] = field(default_factory=list)
    templates: list[Template] = field(default_factory=list)
    idempotency: bool = True
    ttl_ms: int = 30 * 86400 * 1000


def game_key(gid: str) -> str:
    return "game:{" + gid + "}"


def events_key(gid: str) -> str:
    return "game:{" + gid + "}:events"


def install_game(pipe, gid: str, t: Template, ttl_ms: int) -> None:
    """Queue on a pipeline the commands that (re)create game ``gid`` as a copy of ``t``."""
    doc = dict(t.doc)
    doc["id"] = gid
    pipe.delete(game_key(gid), events_key(gid), game_key(gid) + ":idem")  # archived or not
    pipe.hset(game_key(gid), mapping={"v": t.version, "doc": orjson.dumps(doc)})
    pipe.pexpire(game_key(gid), ttl_ms)
    for eid, fields in t.events:
        pipe.xadd(events_key(gid), fields, id=eid)
    if t.events:
        pipe.pexpire(events_key(gid), ttl_ms)


def decide(view: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    """The next move of a game played with the lowest bids: (seat, move)."""
    entry = view["pending"][0]
    seat, kind = entry["seat"], entry["kinds"][0]
    if kind == "bid":
        return seat, BID
    if kind == "assign_office":
        slots = [c["slot"] for c in view["table"] if c["card"] is not None]
        return seat, {"type": "assign_office",
                      "assignments": [{"seat": s, "slot": p}
                                      for s, p in zip(view["waiting"], slots)]}
    if kind == "nominate":
        return seat, {"type": "nominate", "seat": (seat + 1) % len(view["players"])}
    if kind == "fire_director":
        ids = [d["id"] for d in view["directors"]]
        return seat, {"type": "fire_director", "director": "neutral" if "neutral" in ids else ids[0]}
    if kind == "cast":
        return seat, {"type": "cast", "roles": None}
    raise RuntimeError(f"unexpected decision {kind!r}")


class _Conn:
    def __init__(self, port: int) -> None:
        self.port = port
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def request(self, method: str, path: str, body: bytes | None, headers: dict[str, str]
                ) -> tuple[int, bytes]:
        for attempt in range(3):
            try:
                self.conn.request(method, path, body, headers)
                resp = self.conn.getresponse()
                return resp.status, resp.read()
            except (http.client.HTTPException, OSError):
                self.conn.close()
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
                if attempt == 2:
                    raise
        raise AssertionError


class _Recorder:
    def __init__(self, start: float, end: float) -> None:
        self.start, self.end = start, end
        self.all: list[float] = []
        self.bids: list[float] = []
        self.errors = 0
        self.first_error = ""

    def add(self, t0: float, t1: float, bid: bool, status: int, body: bytes = b"") -> None:
        if self.start <= t1 < self.end:
            lat = t1 - t0
            self.all.append(lat)
            if bid:
                self.bids.append(lat)
            if status >= 400:
                self.errors += 1
                if not self.first_error:
                    self.first_error = f"{status} {body[:300]!r}"


def _engine_client(job: Job, games: list[tuple[str, int]], rec: _Recorder, rds) -> None:
    conn = _Conn(job.port)
    base = {"Content-Type": "application/json"}
    gi = 0

    def start(i: int):
        gid, ti = games[i % len(games)]
        pipe = rds.pipeline(transaction=False)
        install_game(pipe, gid, job.templates[ti], job.ttl_ms)
        pipe.execute()
        t = job.templates[ti]
        return gid, t, {"pending": [{"seat": s, "kinds": ["bid"]} for s in range(t.players)],
                        "players": [None] * t.players}

    gid, t, view = start(gi)
    path = f"/v1/games/{gid}/moves"
    while True:
        now = time.monotonic()
        if now >= rec.end:
            break
        seat, move = decide(view)
        headers = dict(base)
        headers["Authorization"] = "Bearer " + t.tokens[seat]
        if job.idempotency:
            headers["Idempotency-Key"] = uuid.uuid4().hex
        t0 = time.monotonic()
        status, body = conn.request("POST", path, orjson.dumps(move), headers)
        t1 = time.monotonic()
        rec.add(t0, t1, move is BID, status, body)
        if status == 200:
            view = orjson.loads(body)["game"]
        else:  # should not happen: re-read the game (counted as a request too)
            t0 = time.monotonic()
            status, body = conn.request("GET", f"/v1/games/{gid}",
                                        None, {"Authorization": "Bearer " + t.tokens[0]})
            t1 = time.monotonic()
            rec.add(t0, t1, False, status, body)
            if status != 200:
                time.sleep(0.05)
                continue
            view = orjson.loads(body)
        if view["status"] == "finished":
            gi += 1
            gid, t, view = start(gi)
            path = f"/v1/games/{gid}/moves"


def _simple_client(job: Job, index: int, rec: _Recorder) -> None:
    conn = _Conn(job.port)
    if job.mode == "floor":
        method, path, body = "POST", f"/floor/k{index}", b""
    else:
        method, path, body = "GET", "/healthz", None
    while time.monotonic() < rec.end:
        t0 = time.monotonic()
        status, data = conn.request(method, path, body, {})
        t1 = time.monotonic()
        rec.add(t0, t1, job.mode == "floor", status, data)


def _proc_main(job: Job, mine: list[int], start: float, end: float, out) -> None:
    rds = None
    if job.mode == "engine":
        import redis
        rds = redis.Redis.from_url(job.redis_url)
    recs = [_Recorder(start, end) for _ in mine]
    failures: list[str] = []

    def body(i: int, rec: _Recorder) -> None:
        try:
            if job.mode == "engine":
                _engine_client(job, job.games[i], rec, rds)
            else:
                _simple_client(job, i, rec)
        except Exception as exc:  # noqa: BLE001 - reported to the orchestrator
            failures.append(f"client {i}: {exc!r}")

    threads = [threading.Thread(target=body, args=(i, r), daemon=True) for i, r in zip(mine, recs)]
    for th in threads:
        th.start()
    cpu = {}

    def sample(name: str, when: float) -> None:
        time.sleep(max(0.0, when - time.monotonic()))
        ru = resource.getrusage(resource.RUSAGE_SELF)
        cpu[name] = ru.ru_utime + ru.ru_stime

    sample("start", start)
    sample("end", end)
    for th in threads:
        th.join(timeout=60)
    out.put({
        "all": [x for r in recs for x in r.all],
        "bids": [x for r in recs for x in r.bids],
        "errors": sum(r.errors for r in recs),
        "first_error": next((r.first_error for r in recs if r.first_error), ""),
        "failures": failures,
        "cpu": cpu.get("end", 0.0) - cpu.get("start", 0.0),
    })


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    s = sorted(values)
    k = min(len(s) - 1, max(0, int(round(q / 100 * (len(s) - 1)))))
    return s[k]


def merge(parts: list[dict[str, Any]]) -> dict[str, Any]:
    """One figure from several windows of the same job (totals over the summed time, latency
    percentiles over the pooled samples, CPU summed)."""
    lat_all = [x for p in parts for x in p["_lat_all"]]
    lat_bid = [x for p in parts for x in p["_lat_bid"]]
    secs = sum(p["seconds"] for p in parts)
    res = {k: parts[0][k] for k in ("mode", "clients")}
    res.update({
        "seconds": secs, "windows": len(parts),
        "requests": len(lat_all), "bids": len(lat_bid),
        "rps": len(lat_all) / secs, "bid_rps": len(lat_bid) / secs,
        "rps_per_window": [p["rps"] for p in parts],
        "errors": sum(p["errors"] for p in parts),
        "first_error": next((p["first_error"] for p in parts if p["first_error"]), ""),
        "p50_ms": percentile(lat_bid or lat_all, 50) * 1000,
        "p99_ms": percentile(lat_bid or lat_all, 99) * 1000,
        "all_p50_ms": percentile(lat_all, 50) * 1000,
        "all_p99_ms": percentile(lat_all, 99) * 1000,
    })
    n = max(1, len(lat_all))
    for k in ("generator_cpu_s", "server_cpu_s", "redis_cpu_s"):
        if k in parts[0]:
            res[k] = sum(p[k] for p in parts)
            res[k.replace("_s", "_ms_per_req")] = 1000 * res[k] / n
    return res


def run(job: Job, on_window=None) -> dict[str, Any]:
    """Run ``job``; ``on_window(start, end)`` is called in this process while the load runs
    (to sample server CPU over the measured window). Returns the figures."""
    ctx = mp.get_context("fork")
    procs = max(1, min(job.procs, job.clients))
    t_start = time.monotonic() + 0.3 + job.warmup
    t_end = t_start + job.seconds
    out = ctx.Queue()
    children = []
    for p in range(procs):
        mine = [i for i in range(job.clients) if i % procs == p]
        proc = ctx.Process(target=_proc_main, args=(job, mine, t_start, t_end, out), daemon=True)
        proc.start()
        children.append(proc)
    extra = on_window(t_start, t_end) if on_window else None
    parts = []
    try:
        for _ in children:
            parts.append(out.get(timeout=job.seconds + job.warmup + 120))
    finally:
        for proc in children:
            proc.join(timeout=10)
            if proc.is_alive():
                proc.kill()
    lat_all = [x for p in parts for x in p["all"]]
    lat_bid = [x for p in parts for x in p["bids"]]
    failures = [f for p in parts for f in p["failures"]]
    res = {
        "mode": job.mode, "clients": job.clients, "seconds": job.seconds,
        "requests": len(lat_all), "bids": len(lat_bid),
        "rps": len(lat_all) / job.seconds, "bid_rps": len(lat_bid) / job.seconds,
        "errors": sum(p["errors"] for p in parts),
        "first_error": next((p["first_error"] for p in parts if p["first_error"]), ""),
        "failures": failures[:5],
        "p50_ms": percentile(lat_bid or lat_all, 50) * 1000,
        "p99_ms": percentile(lat_bid or lat_all, 99) * 1000,
        "all_p50_ms": percentile(lat_all, 50) * 1000,
        "all_p99_ms": percentile(lat_all, 99) * 1000,
        "generator_cpu_s": sum(p["cpu"] for p in parts),
    }
    res["generator_cpu_ms_per_req"] = (1000 * res["generator_cpu_s"] / len(lat_all)
                                       if lat_all else float("nan"))
    res["_lat_all"], res["_lat_bid"] = lat_all, lat_bid
    if extra is not None:
        res.update(extra)
    if failures:
        raise RuntimeError(f"load generator clients failed: {failures[:3]}")
    return res
