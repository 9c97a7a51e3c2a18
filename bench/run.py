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
    slots); and instructions per request in process, engine and floor (valgrind, when
    installed: counts that other tenants of the machine cannot disturb);
 then the plot (bench/throughput.png) and the table.

Every server binds 127.0.0.1 and is stopped at the end, also on failure or Ctrl-C.
``BENCH_QUICK=1`` shortens every window (a smoke run, not for figures).
"""

from __future__ import annotations

import atexit
import json
import os
import platform
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
OUT = HERE / "out"
sys.path.insert(0, str(HERE))

import orjson  # noqa: E402
import redis  # noqa: E402

import bot_tables  # noqa: E402
import loadgen  # noqa: E402
import profiles  # noqa: E402
import rules_core  # noqa: E402
import streams  # noqa: E402
from impresario_engine.config import Config  # noqa: E402
from impresario_rules.turandot import TURANDOT  # noqa: E402
from impresario_engine.usecases import create, idempotency, play, seats  # noqa: E402
from impresario_engine.usecases.unit import Engine, load  # noqa: E402
from impresario_engine.store import GameStore, connect  # noqa: E402
from impresario_engine.store.embedded import EmbeddedRedis  # noqa: E402

QUICK = os.environ.get("BENCH_QUICK") == "1"
WINDOW = 2.0 if QUICK else 5.0        # measured seconds per window
ROUNDS = 1 if QUICK else 3            # windows per HTTP point, engine and floor alternating
WARMUP = 1.0 if QUICK else 1.5
RULES_SECONDS = 1.0 if QUICK else 3.0
SCALE_WINDOW = 2.0 if QUICK else 5.0
SCALE_ROUNDS = 1 if QUICK else 3
CONCURRENCY = (1, 16, 64)
SCALE_CLIENTS = 16
TEMPLATES = 8
POOL = 128                            # live games played by the HTTP clients
TARGETS = {"engine_floor_rps": 0.8, "engine_floor_p99": 2.0, "rules_4p_games_per_cpu_s": 6000,
           "bytes_per_game": 4096, "scale_ratio": 0.9}

_cleanup: list[Any] = []


def log(msg: str) -> None:
    print(f"[bench {time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def cleanup() -> None:
    while _cleanup:
        fn = _cleanup.pop()
        try:
            fn()
        except Exception as exc:  # noqa: BLE001 - keep stopping the others
            log(f"cleanup: {exc!r}")


def _on_signal(signum, _frame):
    cleanup()
    sys.exit(128 + signum)


# ------------------------------------------------------------------------------- machine
def machine() -> dict[str, Any]:
    cpu = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = 0
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal"):
                mem = int(line.split()[1]) * 1024
    except OSError:
        pass
    return {"nproc": os.cpu_count(), "cpu_model": cpu, "memory_gib": round(mem / 2**30, 1),
            "python": platform.python_version(), "platform": platform.platform(),
            "wrk": shutil.which("wrk") is not None}


def git_state() -> dict[str, Any]:
    """The commit measured, and whether the engine's code had uncommitted changes then."""
    def git(*args: str) -> str:
        try:
            return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True,
                                  timeout=20).stdout
        except (OSError, subprocess.TimeoutExpired):
            return ""
    dirty = [line[3:] for line in git("status", "--porcelain", "--", "services", "rules"
                                      ).splitlines()
             if len(line) > 3]
    return {"commit": git("rev-parse", "--short", "HEAD").strip(), "engine_dirty_files": dirty}


def loadavg() -> list[float]:
    try:
        return [float(x) for x in Path("/proc/loadavg").read_text().split()[:3]]
    except OSError:
        return []


# ------------------------------------------------------------------------------- processes
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cpu_seconds(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


def children(pid: int) -> list[int]:
    out = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                ppid = int((d / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            if ppid == pid:
                out.append(int(d.name))
    return out


class Gunicorn:
    """gunicorn with the engine's config on 127.0.0.1 (a process group of its own)."""

    def __init__(self, name: str, app: str, redis_url: str, cwd: Path) -> None:
        self.name = name
        self.port = free_port()
        self.metrics = Path(tempfile.mkdtemp(prefix=f"bench-{name}-metrics-"))
        env = dict(os.environ)
        for k in ("WEB_CONCURRENCY", "GUNICORN_THREADS", "PORT", "GUNICORN_MAX_REQUESTS"):
            env.pop(k, None)  # as shipped: the config's defaults
        env.update({"REDIS_URL": redis_url, "BIND": f"127.0.0.1:{self.port}",
                    "PROMETHEUS_MULTIPROC_DIR": str(self.metrics),
                    # one address creates every game here: the per-address creation limit
                    # (on by default) would measure itself, not the engine
                    "RATE_LIMIT_CREATE_PER_IP": "0"})
        env["PYTHONPATH"] = str(cwd) + os.pathsep + env.get("PYTHONPATH", "")
        self.log_path = OUT / f"{name}-gunicorn.log"
        self.log = open(self.log_path, "wb")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-c", "python:impresario_engine.gunicorn_conf",
             app], env=env, cwd=str(cwd), stdout=self.log, stderr=subprocess.STDOUT,
            start_new_session=True)
        _cleanup.append(self.stop)
        deadline = time.monotonic() + 60
        while not self._healthy():
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"{name} gunicorn did not start: "
                                   f"{self.log_path.read_text(errors='replace')[-2000:]}")
            time.sleep(0.1)
        time.sleep(0.5)
        self.workers = children(self.proc.pid)

    def _healthy(self) -> bool:
        import http.client
        try:
            conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=1)
            conn.request("GET", "/healthz")
            ok = conn.getresponse().status == 200
            conn.close()
            return ok
        except OSError:
            return False

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def cpu(self) -> float:
        self.workers = children(self.proc.pid) or self.workers
        return sum(cpu_seconds(p) for p in self.workers) + cpu_seconds(self.proc.pid)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        self.log.close()
        shutil.rmtree(self.metrics, ignore_errors=True)


# ------------------------------------------------------------------------------- games
def make_service(url: str) -> Engine:
    return Engine(GameStore(connect(url)), Config(redis_url=url))


def read_template(rds: redis.Redis, gid: str, tokens: list[str], players: int
                  ) -> loadgen.Template:
    v, doc = rds.hmget(loadgen.game_key(gid), "v", "doc")
    events = [(eid, fields) for eid, fields in rds.xrange(loadgen.events_key(gid))]
    return loadgen.Template(v, orjson.loads(doc), events, tokens, players)


def create_started(svc: Engine, players: int, seed: int) -> tuple[str, list[str]]:
    view, _host, _spec, _join = create.create_game(svc, "turandot", players, seed, None)
    tokens = [seats.join(svc, view["id"], f"P{i}").body["token"] for i in range(players)]
    return view["id"], tokens


def install_pool(rds: redis.Redis, templates: list[loadgen.Template], count: int,
                 prefix: str) -> list[tuple[str, int]]:
    games = []
    pipe = rds.pipeline(transaction=False)
    for i in range(count):
        gid = f"{prefix}{i:05d}"
        t = i % len(templates)
        loadgen.install_game(pipe, gid, templates[t], 30 * 86400 * 1000)
        games.append((gid, t))
        if i % 500 == 499:
            pipe.execute()
    pipe.execute()
    return games


def delete_games(rds: redis.Redis, gids: list[str]) -> None:
    pipe = rds.pipeline(transaction=False)
    for i, gid in enumerate(gids):
        pipe.delete(loadgen.game_key(gid), loadgen.events_key(gid),
                    loadgen.game_key(gid) + ":idem")
        if i % 1000 == 999:
            pipe.execute()
    pipe.execute()


def split(games: list[tuple[str, int]], clients: int) -> list[list[tuple[str, int]]]:
    return [games[i::clients] for i in range(clients)]


def doc_sizes_over_a_game(svc: Engine, rds: redis.Redis) -> tuple[list[int], bytes]:
    """Play one 4-seat game as the HTTP clients do (lowest bids) in process: the stored document's
    size after every move, and the document at mid-game (the floor's blob)."""
    gid, tokens = create_started(svc, 4, 424242)
    sizes, docs = [], []
    view = {"pending": [{"seat": s, "kinds": ["bid"]} for s in range(4)], "players": [0] * 4}
    while True:
        seat, move = loadgen.decide(view)
        view = play.act(svc, gid, tokens[seat], move).body["game"]
        raw = rds.hget(loadgen.game_key(gid), "doc")
        sizes.append(len(raw))
        docs.append(raw)
        if view["status"] == "finished":
            break
    mid = sorted(range(len(sizes)), key=lambda i: sizes[i])[len(sizes) // 2]
    return sizes, docs[mid]


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


def step_storage(url: str, rds: redis.Redis) -> list[dict]:
    """Finished games played in process through the service, every POST with an
    Idempotency-Key as the SDK sends; MEMORY USAGE of each of the game's keys."""
    svc = make_service(url)
    out = []
    for n in (2, 3, 4, 5):
        rows = []
        for g in range(3):
            seed = 1000 * n + g
            rng = random.Random(seed)
            key = uuid.uuid4().hex
            idempotency.begin_create(svc, key, "fp")
            view, host, _, _ = create.create_game(svc, "turandot", n, seed, None)
            idempotency.finish_create(svc, key, "fp", {"game": view, "host_token": host})
            gid = view["id"]
            tokens = [seats.join(svc, gid, f"P{i}", uuid.uuid4().hex, f"fp{i}").body["token"]
                      for i in range(n)]
            moves = 0
            while True:
                state = load(svc, gid).doc["state"]
                if TURANDOT.is_finished(state):
                    break
                seat = min(TURANDOT.pending(state))
                action = TURANDOT.sample_action(state, seat, rng)
                play.act(svc, gid, tokens[seat], action, None, uuid.uuid4().hex, f"m{moves}")
                moves += 1
            keys = {"game_hash": loadgen.game_key(gid), "events": loadgen.events_key(gid),
                    "idempotency": loadgen.game_key(gid) + ":idem"}
            usage = {name: int(rds.memory_usage(k, samples=0) or 0) for name, k in keys.items()}
            usage["create_idempotency"] = int(rds.memory_usage(idempotency.create_key(key),
                                                               samples=0) or 0)
            usage["tokens"] = 0  # hashed inside the document: no key of their own
            store = GameStore(rds)
            doc = store.read(gid)[1]
            stored_doc, stored_events = rds.hmget(keys["game_hash"], "doc", "events")
            rows.append({
                **usage, "idempotency_records": rds.hlen(keys["idempotency"]), "moves": moves,
                "doc_json_bytes": len(orjson.dumps(doc)),
                "state_json_bytes": len(orjson.dumps(doc["state"])),
                "moves_log_json_bytes": len(orjson.dumps(doc["moves"])),
                "doc_stored_bytes": len(stored_doc),
                "events_stored_bytes": len(stored_events or b""),
                "archived": int(not rds.exists(keys["events"]) and stored_events is not None),
                "event_count": len(store.events(gid)),
            })
        avg = {k: sum(r[k] for r in rows) / len(rows) for k in rows[0]}
        avg["players"] = n
        avg["total_without_idempotency"] = avg["game_hash"] + avg["events"]
        avg["total"] = (avg["total_without_idempotency"] + avg["idempotency"]
                        + avg["create_idempotency"])
        log(f"storage {n}p: {avg['total_without_idempotency']:.0f} B per finished game kept "
            f"({avg['total']:.0f} B at the finish, with the idempotency records of its "
            f"replay window)")
        out.append(avg)
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
    _cleanup.append(server.stop)
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


def verdict(r: dict) -> dict:
    four = next(x for x in r["rules_core"] if x["players"] == 4)
    # what a finished game keeps for its lifetime; its idempotency records (and the create
    # record) expire after their windows (FINISHED_IDEMPOTENCY_SECONDS, IDEMPOTENCY_TTL_SECONDS)
    worst_bytes = max(x["total_without_idempotency"] for x in r["storage"])
    ev = r["engine_vs_floor"]
    return {
        "engine_floor_rps_16_64": {"value": [ev["16"]["moves_rps_ratio"], ev["64"]["moves_rps_ratio"]],
                                   "met": min(ev["16"]["moves_rps_ratio"],
                                              ev["64"]["moves_rps_ratio"]) >= 0.8},
        "engine_floor_p99_16_64": {"value": [ev["16"]["p99_ratio"], ev["64"]["p99_ratio"]],
                                   "met": max(ev["16"]["p99_ratio"], ev["64"]["p99_ratio"]) <= 2.0},
        "rules_4p_games_per_s": {"value": four["games_per_s"],
                                 "per_cpu_second": four["games_per_cpu_s"],
                                 **mark_ratios(four, r.get("rules_core_marks", [])),
                                 "met": four["games_per_cpu_s"]
                                 >= TARGETS["rules_4p_games_per_cpu_s"]},
        "bytes_per_finished_game": {"value": worst_bytes, "met": worst_bytes <= 4096},
        "scale_ratio": {"value": r["scale"]["ratio"], "met": r["scale"]["ratio"] >= 0.9},
    }


def mark_ratios(four: dict, marks: list[dict]) -> dict[str, float]:
    """Turandot's 4-player games per CPU-second ÷ each mark measured in the run (``over_<mark>``),
    and the target's own ratio to each (``target_over_<mark>``)."""
    out = {}
    for m in marks:
        if "games_per_cpu_s" in m:
            out[f"over_{m['mark']}"] = round(four["games_per_cpu_s"] / m["games_per_cpu_s"], 3)
            out[f"target_over_{m['mark']}"] = round(
                TARGETS["rules_4p_games_per_cpu_s"] / m["games_per_cpu_s"], 3)
    return out


def table(r: dict) -> str:
    lines = ["", "== Impresario bench ==",
             f"machine: {r['machine']['nproc']} CPUs, {r['machine']['cpu_model']}, "
             f"{r['machine']['memory_gib']} GiB, Python {r['machine']['python']}", "",
             "rules core (in process)      games/s   actions/s   games/CPU-s  actions/CPU-s"]
    for x in r["rules_core"]:
        lines.append(f"  {x['players']} players               {x['games_per_s']:9.0f} "
                     f"{x['actions_per_s']:11.0f}{x['games_per_cpu_s']:14.0f}"
                     f"{x['actions_per_cpu_s']:15.0f}")
    for x in r.get("rules_core_beside", []):
        lines.append(f"  {x['ruleset']} {x['players']} players{'':<{14 - len(x['ruleset'])}}"
                     f"{x['games_per_s']:9.1f}{x['actions_per_s']:11.0f}"
                     f"{x['games_per_cpu_s']:14.1f}{x['actions_per_cpu_s']:15.0f}")
    ratios = r["verdict"]["rules_4p_games_per_s"]
    for m in r.get("rules_core_marks", []):
        if "games_per_cpu_s" in m:
            name = f"mark: {m['mark']} {m['players']}p"
            lines.append(f"  {name:<27}{m['games_per_s']:9.0f}{m['actions_per_s']:11.0f}"
                         f"{m['games_per_cpu_s']:14.0f}{m['actions_per_cpu_s']:15.0f}"
                         f"   (Turandot 4p / this: {ratios['over_' + m['mark']]:.2f})")
        else:
            lines.append(f"  mark: {m['mark']}: {m['error']}")
    lines += ["", "HTTP (gunicorn as shipped)   clients  req/s  bids/s  p50 ms  p99 ms  "
              "srv CPU ms/req  redis  gen"]
    for x in r["http"] + r["generator_ceiling"]:
        lines.append(f"  {x['mode']:<27}{x['clients']:>6}{x['rps']:>7.0f}"
                     f"{x.get('bid_rps', float('nan')):>8.0f}{x['p50_ms']:>8.1f}{x['p99_ms']:>8.1f}"
                     f"{x.get('server_cpu_ms_per_req', float('nan')):>16.2f}"
                     f"{x.get('redis_cpu_ms_per_req', float('nan')):>7.2f}"
                     f"{x.get('generator_cpu_ms_per_req', float('nan')):>6.2f}")
    lines += ["", "engine / floor               clients  moves/s ratio  bids/s ratio  p99 ratio"
              "  CPU-cost ratio (floor/engine)"]
    for c, x in r["engine_vs_floor"].items():
        lines.append(f"  {'':<27}{c:>6}{x['moves_rps_ratio']:>14.2f}{x['bid_rps_ratio']:>14.2f}"
                     f"{x['p99_ratio']:>11.2f}{x['cpu_capacity_ratio']:>14.2f}")
    ins = r.get("instructions", {})
    if "engine" in ins:
        lines += ["", "instructions per request, in process (valgrind): engine "
                  f"{ins['engine'] / 1e6:.2f} M (no Idempotency-Key {ins['engine-no-key'] / 1e6:.2f} M, "
                  f"no request log {ins['engine-no-log'] / 1e6:.2f} M), floor {ins['floor'] / 1e6:.2f} M "
                  f"-> floor/engine {ins['floor_over_engine']:.2f}"]
    kinds = r.get("instructions_by_type", {})
    if "kinds" in kinds:
        lines += ["", f"instructions per move, by kind (valgrind, {kinds['requests']} each, with "
                  f"an Idempotency-Key; floor {kinds['floor'] / 1e6:.2f} M per request)"]
        for kind, x in kinds["kinds"].items():
            lines.append(f"  {kind:<27}{x['instructions'] / 1e6:>8.2f} M   floor/engine "
                         f"{x['floor_over_engine']:.2f}")
    if "features" in r:
        import features
        lines += features.table(r["features"])
    lines += ["", "storage per finished game    players  at finish B  kept B   hash  "
              "events  idem records"]
    for x in r["storage"]:
        lines.append(f"  {'':<27}{x['players']:>6}{x['total']:>13.0f}"
                     f"{x['total_without_idempotency']:>8.0f}{x['game_hash']:>7.0f}"
                     f"{x['events']:>8.0f}{x['idempotency']:>14.0f}")
    if "lobby" in r:
        import lobby
        lines += lobby.table(r["lobby"])
    s = r["scale"]
    lines += ["", f"scale: {s['bid_rps_100']:.0f} bids/s with 100 live games, "
              f"{s['bid_rps_10000']:.0f} with 10,000 -> ratio {s['ratio']:.2f} "
              f"(CPU-cost ratio {s['cpu_capacity_ratio']:.2f})",
              f"SDK tournament: {r['sdk_tournament']['games_per_s']:.2f} games/s "
              f"(4 bots over HTTP, one client)"]
    if "bot_tables" in r:
        b = r["bot_tables"]
        lines += [f"human moves: p99 {b['four_humans']['p99_ms']:.1f} ms at tables of four "
                  f"humans, {b['three_hard_bots']['p99_ms']:.1f} ms beside three hard bots "
                  f"(ratio {b['p99_ratio']})"]
    lines += ["", "targets:"]
    for k, v in r["verdict"].items():
        val = v["value"]
        val = ", ".join(f"{x:.2f}" for x in val) if isinstance(val, list) else f"{val:.2f}"
        lines.append(f"  {k:<28} {val:>16}  {'met' if v['met'] else 'NOT MET'}")
    return "\n".join(lines)


if __name__ == "__main__":
    try:
        sys.exit(main())
    finally:
        cleanup()
