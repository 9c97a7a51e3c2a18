"""Step 6 of ``make bench`` (bench/run.py): py-spy profiles of the gunicorn workers under load
(engine and floor) and of the rules loop, as shares of the groups below."""

from __future__ import annotations

import sys
import time
from typing import Any

import loadgen
import profiles
from common import HERE, OUT, QUICK, WARMUP, log
from games import split
from servers import Gunicorn


# what a gthread worker spends its CPU on while serving moves (py-spy --gil): inclusive shares
ENGINE_GROUPS = {
    "gunicorn request handling (all of a request)": ["ThreadWorker.handle"],
    "the move route (api/move_route.py, all of a move but gunicorn's)": ["MoveRoute.__call__"],
    "play.act (the use case)": ["play.py:act"],
    "store read: Redis round trip + orjson.loads (GameStore.read)": ["GameStore.read"],
    "store write: orjson.dumps + Redis round trip (GameStore.write)": ["GameStore.write"],
    "all Redis calls (redis-py execute_command)": ["Redis.execute_command"],
    "the move's check (Ruleset.prepare, its declaration's function)": ["Ruleset.prepare"],
    "rules: play (the new state)": ["Ruleset.play"],
    "rules: pending / turn bookkeeping (record.py apply_move outside play)": ["record.py:apply_move"],
    "view building (views.py game_view, Turandot.view)": ["views.py:game_view"],
    "event redaction (views.py numbered)": ["views.py:numbered"],
    "idempotency record (what the answer was made of)": ["idempotency.py:move_record"],
    "authentication (token sha256 + compare)": ["access.py:authenticate", "token_hash"],
    "request fingerprint (sha256 of the body)": ["http.py:fingerprint"],
    "Prometheus metrics (observe)": ["ops.py:observe", "metrics.py"],
    "request logging / edge middleware (api/edge.py, logging)": ["edge.py", "logging/__init__"],
}

FLOOR_GROUPS = {
    "gunicorn request handling (all of a request)": ["ThreadWorker.handle"],
    "Flask app (Flask.wsgi_app)": ["Flask.wsgi_app"],
    "the floor view (floor.py move)": ["floor.py:move"],
    "all Redis calls (redis-py execute_command)": ["Redis.execute_command"],
}


def step_profiles(engine: Gunicorn, floor: Gunicorn, redis_pid: int, templates, games,
                  redis_url: str) -> dict:
    out: dict[str, Any] = {}
    secs = 4 if QUICK else 12
    for name, server, job in (
        ("engine_workers_16_clients", engine,
         loadgen.Job("engine", engine.port, 16, secs + 4, WARMUP, redis_url=redis_url,
                     games=split(games, 16), templates=templates)),
        ("floor_workers_16_clients", floor,
         loadgen.Job("floor", floor.port, 16, secs + 4, WARMUP)),
    ):
        path = OUT / f"profile-{name}.txt"
        path.unlink(missing_ok=True)
        box: dict[str, Any] = {}

        def window(start: float, end: float, server=server, path=path, box=box) -> dict:
            time.sleep(max(0.0, start - time.monotonic()))
            box["res"] = profiles.record(path, secs, pid=server.proc.pid, subprocesses=True,
                                         rate=200, gil=True)
            return {}

        log(f"profiling {name} with py-spy for {secs}s under load")
        res = loadgen.run(job, window)
        ok, msg = box.get("res", (False, "not run"))
        if ok:
            out[name] = profiles.summarise(
                path, groups=ENGINE_GROUPS if "engine" in name else FLOOR_GROUPS)
            out[name]["rps_while_profiled"] = res["rps"]
        else:
            out[name] = {"error": msg}
            log(f"py-spy failed: {msg}")
    path = OUT / "profile-rules-core-4p.txt"
    path.unlink(missing_ok=True)
    log("profiling the in-process rules loop (4 players) with py-spy")
    ok, msg = profiles.record(path, 8, cmd=[sys.executable, str(HERE / "rules_core.py"),
                                            "--ruleset", "turandot", "--players", "4",
                                            "--seconds", str(3 if QUICK else 6)],
                              rate=250)
    out["rules_core_4p"] = profiles.summarise(path, within="rules_core.py:measure", groups={
        # the functions of the rules package (py-spy names a frame "path.py:Class.function")
        "apply (check + new state)": ["Ruleset.apply"],
        "  a move's check (Ruleset.prepare: its declaration's function)": ["Ruleset.prepare"],
        "  bid": ["moves.py:bid"],
        "  resolve (reveal + hiring)": ["round.py:resolve"],
        "  assign_office": ["moves.py:assign_office"],
        "  cast (incl. final score)": ["moves.py:cast"],
        "sample_action": ["spaces.py:sample_action"],
        "pending": ["state.py:pending"],
        "new_game (shuffle)": ["Turandot.new_game"],
        "scoring (score / score_cast / best_arrangement)": ["scoring.py"],
        "the game's own RNG (rng.py)": ["rng.py"],
        "random module (sampling)": ["random.py"],
    }) if ok else {"error": msg}
    return out
