"""``make bench``: the speed of Impresario, measured in one run, written to bench/results.json.

Steps (each prints its progress on stderr):
 1. rules core in process: random full Turandot games/s and actions/s for 2-5 players;
 2. HTTP through gunicorn as shipped (impresario_engine.gunicorn_conf defaults, embedded Redis
    with its append-only file, as ``make run``): bids/s and p50/p99 at 1, 16 and 64 clients on
    4-seat games that really progress, interleaved with the same figures for the floor
    (bench/floor.py, same gunicorn config, same Redis), and the generator's own ceiling
    against /healthz (wrk if installed, and the Python generator itself);
 3. storage: bytes in Redis per finished game, key by key, for 2-5 players; and the list of
    games (bench/lobby.py): time per page and games read per page with 100 and with 10,000
    games, and the bytes its lists take;
 4. scale: bids/s with 100 live games vs 10,000 live games in Redis (A/B/A/B);
 5. the SDK: tournament games/s with bots over HTTP (impresario.tournament.run_tournament);
    and the event streams one pod holds (bench/streams.py: opened at once until refused, then
    closed by their clients and opened again);
 6. profiles (py-spy) of the gunicorn workers under load (engine and floor) and of the rules loop;
    what the table's guards cost in process (bench/features.py: sealing, lapse notes, stream
    slots); what players cost in process (bench/players.py: a rated game's last move, a page
    of a player's games, quick match); what a Web Push notice costs (bench/push.py: to a
    local push service); and instructions per request in process, engine and floor (valgrind, when
    installed: counts that other tenants of the machine cannot disturb);
 7. the outbox (bench/outbox.py): instructions per bid move with a webhook and without, a move
    without one against the code before the outbox (outbox.BEFORE_OUTBOX; at most 3 % more),
    and Redis's own time per write script with and without the outbox entry;
 then the plot (bench/throughput.png) and the table.

Every server binds 127.0.0.1 and is stopped at the end, also on failure or Ctrl-C.
``BENCH_QUICK=1`` shortens every window (a smoke run, not for figures).
"""

from __future__ import annotations

import atexit
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import redis  # noqa: E402

import bot_tables  # noqa: E402
import loadgen  # noqa: E402
import rules_core  # noqa: E402
import streams  # noqa: E402
from common import (CONCURRENCY, HERE, OUT, POOL, QUICK, ROOT, ROUNDS, RULES_SECONDS,  # noqa: E402
                    SCALE_CLIENTS, SCALE_ROUNDS, SCALE_WINDOW, TARGETS, TEMPLATES, WARMUP, WINDOW,
                    cleanup, cleanups, log)
from games import (create_started, delete_games, doc_sizes_over_a_game, install_pool,  # noqa: E402
                   make_service, read_template, split)
from profile_step import step_profiles  # noqa: E402
from servers import Gunicorn, cpu_seconds, git_state, loadavg, machine  # noqa: E402
from storage_step import step_storage  # noqa: E402
from summary import table, verdict  # noqa: E402
from impresario_engine.config import Config  # noqa: E402
from impresario_engine.store.embedded import EmbeddedRedis  # noqa: E402


def _on_signal(signum, _frame):
    cleanup()
    sys.exit(128 + signum)


# ------------------------------------------------------------------------------- steps
def step_rules() -> list[dict]:
    out = []
    for n in (2, 3, 4, 5):
        r = rules_core.measure(n, RULES_SECONDS)
        log(f"rules core {n}p: {r['games_per_s']:.0f} games/s, {r['actions_per_s']:.0f} actions/s "
            f"(per CPU-second: {r['games_per_cpu_s']:.0f} games, {r['actions_per_cpu_s']:.0f} "
            f"actions)")
        out.append(r)
    return out


def step_rules_beside() -> list[dict]:
    """Word Jam and Muzicando through the same loop, printed beside Turandot's figures."""
    out = rules_core.beside(RULES_SECONDS)
    for r in out:
        log(f"rules core, {r['ruleset']} {r['players']}p: {r['games_per_s']:.1f} games/s, "
            f"{r['actions_per_s']:.0f} actions/s (per CPU-second: {r['games_per_cpu_s']:.1f} "
            f"games, {r['actions_per_cpu_s']:.0f} actions)")
    return out


def step_rules_marks() -> list[dict]:
    """OpenSpiel's goofspiel and the contract's floor, in the same minutes as Turandot's
    figures (bench/rules_core.py): the rules core's games per CPU-second ÷ each."""
    out = rules_core.marks(RULES_SECONDS)
    for r in out:
        if "error" in r:
            log(f"rules core mark {r['mark']}: {r['error']}")
        else:
            log(f"rules core mark {r['mark']} {r['players']}p: {r['games_per_cpu_s']:.0f} games "
                f"per CPU-second")
    return out


def measure_point(job: loadgen.Job, server: Gunicorn, redis_pid: int) -> dict:
    samples = {}

    def window(start: float, end: float) -> dict:
        time.sleep(max(0.0, start - time.monotonic()))
        samples["s"] = (server.cpu(), cpu_seconds(redis_pid))
        time.sleep(max(0.0, end - time.monotonic()))
        samples["e"] = (server.cpu(), cpu_seconds(redis_pid))
        return {}

    res = loadgen.run(job, window)
    srv = samples["e"][0] - samples["s"][0]
    red = samples["e"][1] - samples["s"][1]
    n = max(1, res["requests"])
    res.update({"server_cpu_s": srv, "redis_cpu_s": red,
                "server_cpu_ms_per_req": 1000 * srv / n, "redis_cpu_ms_per_req": 1000 * red / n,
                "cpu_busy_fraction": (srv + red + res["generator_cpu_s"])
                / (job.seconds * (os.cpu_count() or 1))})
    return res


def show(tag: str, r: dict) -> None:
    log(f"{tag}: {r['rps']:.0f} req/s ({r['bid_rps']:.0f} bids/s), p50 {r['p50_ms']:.1f} ms, "
        f"p99 {r['p99_ms']:.1f} ms, errors {r['errors']}, server {r['server_cpu_ms_per_req']:.2f} "
        f"ms CPU/req, redis {r['redis_cpu_ms_per_req']:.2f}, generator "
        f"{r['generator_cpu_ms_per_req']:.2f}")


def wrk_healthz(port: int, conns: int) -> dict | None:
    exe = shutil.which("wrk")
    if exe is None:
        return None
    dur = int(WINDOW)
    proc = subprocess.run([exe, "-t2", f"-c{conns}", f"-d{dur}s", "--latency", "-s",
                           str(HERE / "healthz.lua"), f"http://127.0.0.1:{port}/healthz"],
                          capture_output=True, text=True, timeout=dur + 60)
    m = re.search(r"WRKJSON (\{.*\})", proc.stdout)
    if not m:
        return {"error": proc.stdout[-500:] + proc.stderr[-500:]}
    d = json.loads(m.group(1))
    secs = d["duration_us"] / 1e6
    return {"mode": "healthz-wrk", "clients": conns, "rps": d["requests"] / secs,
            "p50_ms": d["p50_us"] / 1000, "p99_ms": d["p99_us"] / 1000, "errors": d["errors"]}


def step_sdk(url: str) -> dict:
    from impresario import Client
    from impresario.tournament import run_tournament

    games = 3 if QUICK else 12
    client = Client(url)
    run_tournament(client, ["greedy", "random", "random", "random"], games=1, seed=99)  # warm
    r = run_tournament(client, ["greedy", "random", "random", "random"], games=games, seed=1)
    out = {"games": r["games"], "seconds": r["seconds"], "games_per_s": r["games_per_second"],
           "bots": ["greedy", "random", "random", "random"]}
    log(f"SDK tournament: {out['games_per_s']:.2f} games/s ({games} games, 4 bots)")
    return out


# ------------------------------------------------------------------------------- main
def main() -> int:
    OUT.mkdir(exist_ok=True)
    atexit.register(cleanup)
    signal.signal(signal.SIGTERM, _on_signal)
    started = time.time()
    results: dict[str, Any] = {"machine": machine(), "quick": QUICK,
                               "started": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
                               "targets": TARGETS}
    results["git"] = git_state()
    log(f"machine: {results['machine']}; git {results['git']}")

    log("1/6 rules core")
    results["rules_core"] = step_rules()
    results["rules_core_beside"] = step_rules_beside()
    results["rules_core_marks"] = step_rules_marks()

    log("starting the embedded Redis (append-only file on, as `make run`)")
    rdir = OUT / "redis"
    shutil.rmtree(rdir, ignore_errors=True)
    server = EmbeddedRedis(rdir).start()
    cleanups.append(server.stop)
    url = server.url
    rpid = server.process.pid
    rds = redis.Redis.from_url(url)

    log("3/6 storage per finished game")
    results["storage"] = step_storage(url, rds)

    log("3/6 (continued) the list of games with 100 and 10,000 games (bench/lobby.py)")
    import lobby
    results["lobby"] = lobby.run(url, log)

    svc = make_service(url)
    templates = []
    for i in range(TEMPLATES):
        gid, tokens = create_started(svc, 4, 7000 + i)
        templates.append(read_template(rds, gid, tokens, 4))
    sizes, blob = doc_sizes_over_a_game(svc, rds)
    results["game_doc_bytes"] = {"min": min(sizes), "max": max(sizes),
                                 "mean": sum(sizes) / len(sizes), "floor_blob": len(blob)}
    log(f"stored game document: {min(sizes)}..{max(sizes)} B over a game; floor blob "
        f"{len(blob)} B (mid-game)")
    for i in range(max(CONCURRENCY)):
        rds.hset(f"floor:{{k{i}}}", mapping={"v": 0, "doc": blob})
    games = install_pool(rds, templates, POOL, "pool")

    log("starting gunicorn: engine (impresario_engine.wsgi:app) and floor (bench/floor.py)")
    engine = Gunicorn("engine", "impresario_engine.wsgi:app", url, ROOT)
    floor = Gunicorn("floor", "floor:app", url, HERE)
    results["gunicorn"] = {"engine_workers": len(engine.workers),
                           "floor_workers": len(floor.workers),
                           "threads": 64}
    log(f"engine on {engine.url} ({len(engine.workers)} workers), floor on {floor.url}")

    log(f"2/6 HTTP: engine and floor alternating, {ROUNDS} windows of {WINDOW:.0f}s each, "
        f"at {', '.join(map(str, CONCURRENCY))} clients")
    http_rows = []
    for c in CONCURRENCY:
        parts: dict[str, list] = {"engine": [], "floor": []}
        for k in range(ROUNDS):
            job = loadgen.Job("engine", engine.port, c, WINDOW, WARMUP, redis_url=url,
                              games=split(games, c), templates=templates)
            r = measure_point(job, engine, rpid)
            show(f"engine  c={c} window {k + 1}", r)
            parts["engine"].append(r)
            r = measure_point(loadgen.Job("floor", floor.port, c, WINDOW, WARMUP), floor, rpid)
            show(f"floor   c={c} window {k + 1}", r)
            parts["floor"].append(r)
        for mode in ("engine", "floor"):
            m = loadgen.merge(parts[mode])
            show(f"{mode:<7} c={c} (all windows)", m)
            http_rows.append(m)
    job = loadgen.Job("engine", engine.port, 16, WINDOW, WARMUP, redis_url=url,
                      games=split(games, 16), templates=templates, idempotency=False)
    r = loadgen.merge([measure_point(job, engine, rpid)])
    r["mode"] = "engine-no-idempotency-key"
    show("engine  c=16 without Idempotency-Key", r)
    http_rows.append(r)
    results["http"] = http_rows

    log("generator ceiling against the engine's /healthz")
    ceiling = []
    r = loadgen.merge([measure_point(loadgen.Job("healthz", engine.port, 64, WINDOW, WARMUP),
                                     engine, rpid)])
    r["mode"] = "healthz-python"
    show("python generator /healthz c=64", r)
    ceiling.append(r)
    w = wrk_healthz(engine.port, 64)
    if w is not None:
        log(f"wrk /healthz c=64: {w.get('rps', 0):.0f} req/s, p99 {w.get('p99_ms', 0):.1f} ms")
        ceiling.append(w)
    else:
        log("wrk is not installed: the Python generator's own figure stands alone")
    results["generator_ceiling"] = ceiling

    ratios = {}
    for c in CONCURRENCY:
        e = next(x for x in http_rows if x["mode"] == "engine" and x["clients"] == c)
        f = next(x for x in http_rows if x["mode"] == "floor" and x["clients"] == c)
        e_cost = e["server_cpu_ms_per_req"] + e["redis_cpu_ms_per_req"]
        f_cost = f["server_cpu_ms_per_req"] + f["redis_cpu_ms_per_req"]
        ratios[str(c)] = {"moves_rps_ratio": e["rps"] / f["rps"],
                          "bid_rps_ratio": e["bid_rps"] / f["rps"],
                          "p99_ratio": e["p99_ms"] / f["p99_ms"],
                          "cpu_capacity_ratio": f_cost / max(1e-9, e_cost)}
    results["engine_vs_floor"] = ratios

    log(f"4/6 scale: 100 vs 10,000 live games ({SCALE_ROUNDS}x A/B, {SCALE_CLIENTS} clients)")
    rds.flushdb()
    for i in range(max(CONCURRENCY)):
        rds.hset(f"floor:{{k{i}}}", mapping={"v": 0, "doc": blob})
    live = install_pool(rds, templates, 100, "live")
    idle_ids = [f"idle{i:05d}" for i in range(10_000 - 100)]
    scale_parts: dict[int, list] = {100: [], 10000: []}
    for k in range(SCALE_ROUNDS):
        for label in (100, 10000):
            if label == 10000:
                t0 = time.monotonic()
                install_pool(rds, templates, len(idle_ids), "idle")
                log(f"installed {len(idle_ids)} more live games in {time.monotonic() - t0:.1f}s "
                    f"(dbsize {rds.dbsize()}, used_memory "
                    f"{rds.info('memory')['used_memory_human']})")
            job = loadgen.Job("engine", engine.port, SCALE_CLIENTS, SCALE_WINDOW, WARMUP,
                              redis_url=url, games=split(live, SCALE_CLIENTS),
                              templates=templates)
            r = measure_point(job, engine, rpid)
            show(f"scale {label} live games, window {k + 1}", r)
            scale_parts[label].append(r)
            if label == 10000:
                delete_games(rds, idle_ids)
    s100, s10k = loadgen.merge(scale_parts[100]), loadgen.merge(scale_parts[10000])
    results["scale"] = {"live_100": s100, "live_10000": s10k,
                        "bid_rps_100": s100["bid_rps"], "bid_rps_10000": s10k["bid_rps"],
                        "ratio": s10k["bid_rps"] / s100["bid_rps"],
                        "cpu_capacity_ratio": (
                            (s100["server_cpu_ms_per_req"] + s100["redis_cpu_ms_per_req"])
                            / (s10k["server_cpu_ms_per_req"] + s10k["redis_cpu_ms_per_req"]))}

    log("5/6 SDK tournament over HTTP")
    results["sdk_tournament"] = step_sdk(engine.url)
    log("a human's move at a table of three hard bots, against four human seats")
    results["bot_tables"] = bot_tables.run(engine.url, log, redis_url=url)
    log("event streams one pod holds (gunicorn as shipped)")
    results["streams_per_pod"] = streams.run(engine.port, len(engine.workers),
                                             Config().max_streams_per_worker, log)

    log("6/6 profiles")
    games = install_pool(rds, templates, POOL, "prof")
    results["profiles"] = step_profiles(engine, floor, rpid, templates, games, url)
    log("the move endpoint in process (Flask test client): CPU per move and pyinstrument")
    import inprocess
    results["profiles"]["engine_in_process"] = inprocess.run(
        url, rds, install_pool(rds, templates, 8, "inproc"), templates, 2.0 if QUICK else 5.0)
    log(f"in process: {results['profiles']['engine_in_process']['cpu_ms_per_move']:.2f} ms CPU "
        f"per move")

    log("what the table's guards cost in process (sealing, lapse notes, stream slots)")
    import features
    results["features"] = features.run(tempfile.mkdtemp(prefix="impresario-bench-"), log)
    log("what players cost in process (a rated game's last move, my games, quick match)")
    import players
    results["players"] = players.run(url, log)
    log("what the Web Push channel costs in process (a notice to a local push service)")
    import push
    results["push"] = push.run(url, log)

    engine.stop()
    floor.stop()
    log("instructions per request in process, engine and floor (valgrind; ~2 minutes)")
    import instructions
    try:
        results["instructions"] = instructions.run(url, 150 if QUICK else 450, log)
    except RuntimeError as exc:  # the other figures stand without the counts
        log(f"instruction counts failed: {exc}")
        results["instructions"] = {"error": str(exc)}
    log("instructions per move of each kind, and per floor request (valgrind; ~3 minutes)")
    try:
        results["instructions_by_type"] = instructions.by_type(url, 20 if QUICK else 40, log)
    except RuntimeError as exc:
        log(f"instruction counts by kind failed: {exc}")
        results["instructions_by_type"] = {"error": str(exc)}
    log("the outbox's cost per move: with a webhook and without, and a move without one "
        "against the code before the outbox (valgrind; ~5 minutes)")
    import outbox
    try:
        results["outbox"] = outbox.run(url, 20 if QUICK else 40, log)
    except RuntimeError as exc:
        log(f"the outbox's counts failed: {exc}")
        results["outbox"] = {"error": str(exc)}
    server.stop()
    results["elapsed_s"] = time.time() - started
    results["loadavg_at_end"] = loadavg()
    results["verdict"] = verdict(results)
    (HERE / "results.json").write_text(json.dumps(results, indent=1, default=float))
    try:
        import plot
        plot.plot(results, HERE / "throughput.png")
    except Exception as exc:  # noqa: BLE001 - the figures stand without the picture
        log(f"plot failed: {exc!r}")
    print(table(results))
    log(f"done in {results['elapsed_s']:.0f}s: bench/results.json, bench/throughput.png")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    finally:
        cleanup()
