"""Instructions per request, engine move against floor, counted by valgrind: noise-free.

Wall-clock and even CPU-time figures drift on a shared machine; the number of instructions a
request executes does not. ``run(redis_url)`` runs this file under ``valgrind --tool=callgrind``
once per mode, each time as: set up (the app, 14 started 4-seat games), then N requests called
straight into the WSGI app in process (no gunicorn, no HTTP client: the same for engine and
floor), and once with N = 0 (the set-up alone, the same for every mode); the difference
divided by N is the cost of one request.

Modes: ``engine`` (moves played like the HTTP clients' with an Idempotency-Key each),
``engine-no-key`` (no Idempotency-Key), ``engine-no-log`` (``LOG_REQUESTS=0``), ``floor`` (the
floor's POST). Redis runs in its own process, so its work is not counted, for either side.

``python bench/instructions.py <mode> <n>`` with ``REDIS_URL`` set is one counted run.

**By move type** (:func:`by_type`): one run per kind of Turandot move (bid, assign_office,
nominate, fire_director, cast) and one for the floor, each under ``--toggle-collect`` of
``operator.call``'s C function: only the requests made through ``operator.call`` are counted
(the moves of that kind, with an Idempotency-Key; the others are played uncounted), so a run
gives instructions per move of its kind directly, with no set-up to subtract. The floor's
request ÷ each kind's is the ratio the throughput target asks for, kind by kind.
"""

from __future__ import annotations

import io
import operator
import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
MODES = ("engine", "engine-no-key", "engine-no-log", "floor")
#: the kinds of Turandot move, counted one run each by :func:`by_type`
KINDS = ("bid", "assign_office", "nominate", "fire_director", "cast")
TOGGLE = "_operator_call"  # operator.call's C function: what --toggle-collect counts inside
GAMES = 14  # 14 games of ~45 moves: room for 600 moves


def _environ(method: str, path: str, body: bytes, headers: list[tuple[str, str]]) -> dict:
    env = {"REQUEST_METHOD": method, "PATH_INFO": path, "QUERY_STRING": "",
           "SERVER_NAME": "127.0.0.1", "SERVER_PORT": "8000", "SERVER_PROTOCOL": "HTTP/1.1",
           "wsgi.url_scheme": "http", "wsgi.input": io.BytesIO(body), "wsgi.errors": sys.stderr,
           "wsgi.multithread": True, "wsgi.multiprocess": True, "wsgi.run_once": False,
           "wsgi.version": (1, 0), "REMOTE_ADDR": "127.0.0.1",
           "CONTENT_LENGTH": str(len(body)), "CONTENT_TYPE": "application/json"}
    for name, value in headers:
        env["HTTP_" + name.upper().replace("-", "_")] = value
    return env


def _call(app, env: dict) -> tuple[str, bytes]:
    status: list[str] = []
    out = app(env, lambda s, h, exc=None: status.append(s))
    data = b"".join(out)
    if hasattr(out, "close"):
        out.close()
    return status[0], data


def _engine() -> Any:
    """The engine's app, in process, and a ``post(path, body, headers)`` into it."""
    import orjson

    from impresario_engine.app import create_app

    sink = io.StringIO()
    real, sys.stderr = sys.stderr, sink  # the request log goes to the stream bound now
    try:
        # one address creates every game here: the creation limit (a defence against floods,
        # on by default) is off, as for the HTTP step's gunicorn; the moves counted are the same
        app = create_app({"redis_url": os.environ["REDIS_URL"], "rate_limit_create_per_ip": 0})
    finally:
        sys.stderr = real

    def post(path: str, body: Any, headers: list[tuple[str, str]]) -> Any:
        status, data = _call(app, _environ("POST", path, orjson.dumps(body), headers))
        assert status[:3] in ("200", "201"), (path, status, data[:300])
        return orjson.loads(data)

    return app, post


def counted_run(mode: str, n: int) -> int:
    """The run valgrind counts: set up, then ``n`` requests; returns the requests made."""
    sys.path.insert(0, str(HERE))
    import floor  # noqa: F401  (needs REDIS_URL)
    import loadgen

    _app, post = _engine()

    games = []
    for g in range(GAMES):
        created = post("/v1/games", {"ruleset": "turandot", "players": 4, "seed": g}, [])
        gid = created["game"]["id"]
        tokens = [post(f"/v1/games/{gid}/seats", {"name": f"P{i}"}, [])["token"]
                  for i in range(4)]
        games.append((gid, tokens))
    if mode == "floor":
        import redis

        rds = redis.Redis.from_url(os.environ["REDIS_URL"])
        rds.hset("floor:{icount}", mapping={"v": 1, "doc": rds.hget(loadgen.game_key(
            games[0][0]), "doc")})
        for _ in range(n):
            status, _data = _call(floor.app, _environ("POST", "/floor/icount", b"{}", []))
            assert status.startswith("200"), status
        return n
    done = 0
    for gid, tokens in games:
        view = {"pending": [{"seat": s, "kinds": ["bid"]} for s in range(4)], "players": [0] * 4}
        while done < n:
            seat, move = loadgen.decide(view)
            headers = [("Authorization", "Bearer " + tokens[seat])]
            if mode != "engine-no-key":
                headers.append(("Idempotency-Key", f"{gid}-{done}"))
            view = post(f"/v1/games/{gid}/moves", move, headers)["game"]
            done += 1
            if view["status"] == "finished":
                break
    assert done == n, f"only {done} of {n} moves fitted in {GAMES} games"
    return done


def counted_kind(kind: str, n: int) -> int:
    """The run :func:`by_type` counts: games played with the load generator's choices until
    ``n`` moves of ``kind`` were made, each of them (only them) through ``operator.call``
    (``kind`` "floor": ``n`` floor requests so)."""
    sys.path.insert(0, str(HERE))
    import floor
    import loadgen

    _app, post = _engine()

    if kind == "floor":
        import redis

        gid = post("/v1/games", {"ruleset": "turandot", "players": 4, "seed": 0}, [])
        rds = redis.Redis.from_url(os.environ["REDIS_URL"])
        rds.hset("floor:{icount}", mapping={"v": 1, "doc": rds.hget(loadgen.game_key(
            gid["game"]["id"]), "doc")})
        env = _environ("POST", "/floor/icount", b"{}", [])
        for _ in range(n):
            env["wsgi.input"] = io.BytesIO(b"{}")
            status, _data = operator.call(_call, floor.app, env)
            assert status.startswith("200"), status
        return n
    done = games = 0
    while done < n:
        assert games < 200, f"only {done} moves of {kind} in {games} games"
        gid = post("/v1/games", {"ruleset": "turandot", "players": 4, "seed": games}, [])[
            "game"]["id"]
        tokens = [post(f"/v1/games/{gid}/seats", {"name": f"P{i}"}, [])["token"]
                  for i in range(4)]
        games += 1
        view = {"pending": [{"seat": s, "kinds": ["bid"]} for s in range(4)],
                "players": [0] * 4}
        step = 0
        while done < n and view.get("status") != "finished":
            seat, move = loadgen.decide(view)
            headers = [("Authorization", "Bearer " + tokens[seat]),
                       ("Idempotency-Key", f"{gid}-{step}")]
            path = f"/v1/games/{gid}/moves"
            if move["type"] == kind and done < n:
                view = operator.call(post, path, move, headers)["game"]
                done += 1
            else:
                view = post(path, move, headers)["game"]
            step += 1
    return done


def _count(mode: str, n: int, redis_url: str) -> int:
    env = dict(os.environ, REDIS_URL=redis_url)
    if mode == "engine-no-log":
        env["LOG_REQUESTS"] = "0"
    proc = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
         sys.executable, str(Path(__file__).resolve()), mode, str(n)],
        env=env, capture_output=True, text=True, timeout=900)
    found = re.search(r"Collected : (\d+)", proc.stderr)
    if proc.returncode != 0 or not found:
        raise RuntimeError(f"valgrind run {mode} {n} failed: {proc.stderr[-800:]}")
    return int(found.group(1))


def _count_kind(kind: str, n: int, redis_url: str) -> int:
    env = dict(os.environ, REDIS_URL=redis_url)
    proc = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
         f"--toggle-collect={TOGGLE}", sys.executable, str(Path(__file__).resolve()),
         "kind", kind, str(n)],
        env=env, capture_output=True, text=True, timeout=900)
    found = re.search(r"Collected : (\d+)", proc.stderr)
    if proc.returncode != 0 or not found:
        raise RuntimeError(f"valgrind run {kind} {n} failed: {proc.stderr[-800:]}")
    return int(found.group(1))


def by_type(redis_url: str, n: int = 40, log=print) -> dict[str, Any]:
    """Instructions per move of each kind, and per floor request (see the module's doc)."""
    if shutil.which("valgrind") is None:
        return {"error": "valgrind is not installed (apt-get install valgrind)"}
    jobs = ("floor", *KINDS)
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        counts = dict(zip(jobs, pool.map(lambda k: _count_kind(k, n, redis_url), jobs)))
    out: dict[str, Any] = {"requests": n, "floor": counts["floor"] / n, "kinds": {}}
    for kind in KINDS:
        per = counts[kind] / n
        out["kinds"][kind] = {"instructions": per, "floor_over_engine": out["floor"] / per}
        log(f"instructions per {kind} move: {per / 1e6:.2f} M (floor/engine "
            f"{out['floor'] / per:.2f})")
    log(f"instructions per floor request: {out['floor'] / 1e6:.2f} M")
    return out


def run(redis_url: str, n: int = 450, log=print) -> dict[str, Any]:
    """Instructions per request for each mode (and the floor ratio); {"error"} without valgrind."""
    if shutil.which("valgrind") is None:
        return {"error": "valgrind is not installed (apt-get install valgrind)"}
    # one run with N = 0 is every mode's set-up (the same app and games; no request made)
    jobs = [("engine", 0)] + [(m, n) for m in MODES]
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        counts = dict(zip(jobs, pool.map(lambda j: _count(j[0], j[1], redis_url), jobs)))
    out: dict[str, Any] = {"requests": n, "setup": counts[("engine", 0)]}
    for m in MODES:
        out[m] = (counts[(m, n)] - counts[("engine", 0)]) / n
        log(f"instructions per request, {m}: {out[m] / 1e6:.2f} M")
    out["floor_over_engine"] = out["floor"] / out["engine"]
    out["idempotency_share"] = 1 - out["engine-no-key"] / out["engine"]
    out["request_log_share"] = 1 - out["engine-no-log"] / out["engine"]
    return out


if __name__ == "__main__":
    if sys.argv[1] == "kind":
        counted_kind(sys.argv[2], int(sys.argv[3]))
    else:
        counted_run(sys.argv[1], int(sys.argv[2]))
