"""What the outbox costs a move (``make bench``, or alone: ``python bench/outbox.py``).

1. Instructions per bid move in the engine's process (valgrind, counted as
   ``instructions.by_type`` counts a kind: only the moves made through ``operator.call``), for
   a game that notifies nobody and for one with a webhook (its writes append an outbox entry
   in write.lua). With ``BASE_REF`` (default: :data:`BEFORE_OUTBOX`, the last commit before
   the outbox) the same count on that commit's engine too: the move of a game without an
   endpoint must not grow by more than ``LIMIT`` (3 %).
2. Redis's own time per write script (``INFO commandstats``, EVALSHA's ``usec_per_call``) and
   the wall-clock time of a write from here, without and with the outbox entry: what Redis
   does for it (the XADD), which valgrind in the engine's process never sees.
"""

from __future__ import annotations

import operator
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
LIMIT = 0.03
#: the last commit whose moves wrote no outbox: the baseline a move without an endpoint is
#: held to (``BASE_REF`` names another)
BEFORE_OUTBOX = "2d565e74ab6a3e17011fe84ac176eeb008926093"
WRITES = 3000


def counted(notify: bool, n: int) -> int:
    """The counted run: ``n`` bid moves through ``operator.call``, in games that notify or
    not (a webhook registered, uncounted, before their seats are taken)."""
    sys.path.insert(0, str(HERE))
    import instructions
    import loadgen

    _app, post = instructions._engine()
    done = games = 0
    while done < n:
        gid = post("/v1/games", {"ruleset": "turandot", "players": 4, "seed": games}, [])
        host, gid = gid["host_token"], gid["game"]["id"]
        if notify:
            post(f"/v1/games/{gid}/webhooks", {"url": "http://127.0.0.1:9/hook"},
                 [("Authorization", f"Bearer {host}")])
        tokens = [post(f"/v1/games/{gid}/seats", {"name": f"P{i}"}, [])["token"]
                  for i in range(4)]
        games += 1
        view: dict[str, Any] = {"pending": [{"seat": s, "kinds": ["bid"]} for s in range(4)],
                                "players": [0] * 4}
        step = 0
        while done < n and view.get("status") != "finished":
            seat, move = loadgen.decide(view)
            headers = [("Authorization", "Bearer " + tokens[seat]),
                       ("Idempotency-Key", f"{gid}-{step}")]
            path = f"/v1/games/{gid}/moves"
            if move["type"] == "bid":
                view = operator.call(post, path, move, headers)["game"]
                done += 1
            else:
                view = post(path, move, headers)["game"]
            step += 1
    return done


def _count(redis_url: str, notify: bool, n: int, engine_src: Path | None) -> int:
    import re

    env = dict(os.environ, REDIS_URL=redis_url, WEBHOOK_ALLOW_PRIVATE="1",
               WEBHOOK_ALLOW_HTTP_HOSTS="127.0.0.1", RATE_LIMIT_CREATE_PER_IP="0")
    if engine_src is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(engine_src), env.get("PYTHONPATH", "")])
    proc = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
         "--toggle-collect=_operator_call", sys.executable, str(Path(__file__).resolve()),
         "count", "1" if notify else "0", str(n)],
        env=env, capture_output=True, text=True, timeout=900)
    found = re.search(r"Collected : (\d+)", proc.stderr)
    if proc.returncode != 0 or not found:
        raise RuntimeError(f"valgrind run failed: {proc.stderr[-800:]}")
    return int(found.group(1))


def _base_source(ref: str | None) -> tuple[str, Path] | None:
    """The engine's sources at ``ref`` (default: :data:`BEFORE_OUTBOX`), extracted (None
    outside a git checkout that has it)."""
    try:
        ref = ref or BEFORE_OUTBOX
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, check=True,
                              capture_output=True, text=True).stdout.strip()
        if not ref or ref == head:
            return None
        folder = Path(tempfile.mkdtemp(prefix="impresario-base-"))
        archive = subprocess.run(["git", "archive", ref, "services/engine/src"], cwd=ROOT,
                                 check=True, capture_output=True).stdout
        with tarfile.open(fileobj=__import__("io").BytesIO(archive)) as tar:
            tar.extractall(folder)
        return ref, folder / "services/engine/src"
    except (subprocess.CalledProcessError, OSError):
        return None


def redis_side(redis_url: str, log=print) -> dict[str, Any]:
    """EVALSHA's usec_per_call in Redis, and a write's wall-clock time from here, per mode."""
    import redis

    from impresario_engine.store import GameStore, connect

    admin = redis.Redis.from_url(redis_url)
    store = GameStore(connect(redis_url))
    doc = {"id": "x", "seq": 3, "state": {"pad": "x" * 2000}}
    events = [{"type": "bid_committed", "seat": s} for s in range(3)]
    out: dict[str, Any] = {}
    for notify in (False, True, False, True):  # twice each: the second counts (warm)
        admin.config_resetstat()
        started = time.perf_counter()
        for i in range(WRITES):
            gid = f"bench-outbox-{int(notify)}-{i}"
            store.write(gid, None, {**doc, "id": gid, "notify": notify}, events, 1, 60,
                        notify=notify)
        took = (time.perf_counter() - started) / WRITES * 1e6
        stats = admin.info("commandstats").get("cmdstat_evalsha", {})
        out["with_outbox" if notify else "without"] = {
            "redis_usec_per_write": stats.get("usec_per_call"),
            "wall_usec_per_write": round(took, 1)}
        for i in range(WRITES):
            gid = f"bench-outbox-{int(notify)}-{i}"
            admin.delete(f"game:{{{gid}}}", f"game:{{{gid}}}:events",
                         f"game:{{{gid}}}:idem")
    admin.delete(GameStore.OUTBOX)
    for mode, figures in out.items():
        log(f"outbox, Redis side, {mode}: {figures['redis_usec_per_write']} µs per write in "
            f"Redis, {figures['wall_usec_per_write']} µs per write from the client")
    return out


def run(redis_url: str, n: int = 40, log=print) -> dict[str, Any]:
    out: dict[str, Any] = {"moves": n, "limit": LIMIT}
    out["redis"] = redis_side(redis_url, log)
    if shutil.which("valgrind") is None:
        out["instructions"] = {"error": "valgrind is not installed (apt-get install valgrind)"}
        return out
    from concurrent.futures import ThreadPoolExecutor

    base = _base_source(os.environ.get("BASE_REF"))
    jobs = {"without_endpoint": (False, None), "with_endpoint": (True, None)}
    if base is not None:
        jobs["base"] = (False, base[1])
        out["base_ref"] = base[0]
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        found = dict(zip(jobs, pool.map(lambda j: _count(redis_url, j[0], n, j[1]),
                                        jobs.values())))
    counts: dict[str, float] = {k: v / n for k, v in found.items()}
    if base is not None:
        shutil.rmtree(base[1].parents[2], ignore_errors=True)
    out["instructions"] = counts
    for mode, per in counts.items():
        log(f"instructions per bid move, {mode}: {per / 1e6:.3f} M")
    log(f"an endpoint's outbox entry: {counts['with_endpoint'] / counts['without_endpoint'] - 1:+.2%} "
        "instructions per move in the engine's process (its XADD runs in Redis)")
    if "base" in counts:
        growth = counts["without_endpoint"] / counts["base"] - 1
        out["growth_without_endpoint"] = growth
        out["within_limit"] = growth <= LIMIT
        log(f"a move without an endpoint against {base[0][:10]}: {growth:+.2%} "
            f"({'within' if growth <= LIMIT else 'BEYOND'} the {LIMIT:.0%} limit)")
    return out


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "count":
        counted(sys.argv[2] == "1", int(sys.argv[3]))
    else:
        sys.path[:0] = [str(ROOT / "services/engine/src"), str(ROOT / "rules/src")]
        url = os.environ.get("REDIS_URL")
        server = None
        if not url:
            from impresario_engine.store.embedded import EmbeddedRedis

            server = EmbeddedRedis(tempfile.mkdtemp(prefix="impresario-bench-"),
                                   appendonly=False).start()
            url = server.url
        try:
            import json

            print(json.dumps(run(url, int(os.environ.get("OUTBOX_MOVES", "40"))), indent=1))
        finally:
            if server is not None:
                server.stop()
