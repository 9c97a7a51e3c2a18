"""Helpers of the fault tests: real processes, each test module with its own Redis and
its own gunicorn (the session's Redis and live server are never touched).

- ``Gunicorn``: the engine under gunicorn (gthread) on a free port against a given Redis URL;
  ``worker_pids()`` lists the worker processes (children of the master, read from /proc).
- ``Player``: a thread that creates a Turandot game, seats every player and plays random legal
  moves with an ``Idempotency-Key`` per intended move, retrying the same move with the same key
  after a failure (a dropped connection, a 503) exactly as a well-behaved client does. Every
  move the client saw accepted (a 200) is recorded: these are the acknowledged moves.
- ``check_game``: the stored game is valid — version, stored moves, event stream and the rules
  core's replay of the stored moves all agree — and no acknowledged move is missing.
"""

from __future__ import annotations

import http.client
import os
import random
import socket
import subprocess
import sys
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "service"))

from impresario_rules.turandot import TURANDOT  # noqa: E402
from impresario_engine.store import GameStore  # noqa: E402
from service_helpers import random_move  # noqa: E402  (tests/service)
from impresario_engine.serve import stop_process  # noqa: E402

PROBLEM = "application/problem+json"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def children(pid: int) -> list[int]:
    """The direct children of ``pid`` (from /proc; no psutil needed)."""
    out = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        # pid (comm) state ppid ...: comm may hold spaces, so split after its closing paren
        fields = stat.rsplit(")", 1)[1].split()
        if fields[0] != "Z" and int(fields[1]) == pid:
            out.append(int(entry))
    return sorted(out)


class Gunicorn:
    """The engine under gunicorn on a free port: ``start()``, ``stop()``, ``url``."""

    def __init__(self, redis_url: str, log_dir: Path, workers: int = 2, threads: int = 8,
                 env: dict[str, str] | None = None, app: str = "impresario_engine.wsgi:app"
                 ) -> None:
        """``app``: the WSGI app gunicorn serves (the engine's, unless a test wraps it)."""
        self.port = free_port()
        self.redis_url = redis_url
        self.log_path = log_dir / f"gunicorn-{self.port}.log"
        self.metrics = log_dir / f"metrics-{self.port}"
        self.workers = workers
        self.threads = threads
        self.extra_env = dict(env or {})
        self.app = app
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def start(self, timeout: float = 60) -> "Gunicorn":
        self.metrics.mkdir(parents=True, exist_ok=True)
        env = dict(os.environ)
        env.update({
            "REDIS_URL": self.redis_url,
            "BIND": f"127.0.0.1:{self.port}",
            "WEB_CONCURRENCY": str(self.workers),
            "GUNICORN_THREADS": str(self.threads),
            "PROMETHEUS_MULTIPROC_DIR": str(self.metrics),
            "LOG_LEVEL": "warning",
            # the suite's pace, not a person's: the limits on by default are off here
            "RATE_LIMIT_CREATE_PER_IP": "0",
            "AUTH_FAILURES_PER_IP": "0",
            **self.extra_env,
        })
        self._log = open(self.log_path, "ab")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-c", "python:impresario_engine.gunicorn_conf",
             self.app], env=env, stdout=self._log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"gunicorn exited: {self.log()}")
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"gunicorn did not answer /healthz: {self.log()}")
            status, _, _ = request(self.url, "GET", "/healthz", timeout=1, swallow=True)
            if status == 200 and len(self.worker_pids()) == self.workers:
                return self
            time.sleep(0.1)

    def worker_pids(self) -> list[int]:
        return children(self.proc.pid) if self.proc and self.proc.poll() is None else []

    def stop(self) -> None:
        proc, self.proc = self.proc, None
        stop_process(proc)
        if getattr(self, "_log", None):
            self._log.close()


def request(base_url: str, method: str, path: str, body: Any = None,
            headers: dict[str, str] | None = None, timeout: float = 15.0,
            swallow: bool = False) -> tuple[int | None, dict[str, str], Any]:
    """One request on a fresh connection: (status, lower-cased headers, decoded body). A
    transport failure (refused, reset, timed out) raises, or gives ``(None, {}, repr)`` with
    ``swallow``."""
    host, port = base_url.removeprefix("http://").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=timeout)
    try:
        hdrs = dict(headers or {})
        data = None
        if body is not None:
            data = orjson.dumps(body)
            hdrs["Content-Type"] = "application/json"
        conn.request(method, path, body=data, headers=hdrs)
        resp = conn.getresponse()
        raw = resp.read()
        out_headers = {k.lower(): v for k, v in resp.getheaders()}
        ctype = out_headers.get("content-type", "")
        payload: Any = raw
        if raw and ("json" in ctype):
            payload = orjson.loads(raw)
        return resp.status, out_headers, payload
    except (OSError, http.client.HTTPException) as exc:
        if swallow:
            return None, {}, repr(exc)
        raise
    finally:
        conn.close()


@dataclass
class Outcome:
    """One HTTP exchange seen by a player (for the outage checks)."""

    at: float
    seconds: float
    method: str
    path: str
    status: int | None
    headers: dict[str, str]
    body: Any


@dataclass
class Player:
    """Plays one game over HTTP; see the module docstring."""

    base_url: str
    players: int
    seed: int
    options: dict[str, Any] = field(default_factory=lambda: {"first_maestro": "random"})
    pause: float = 0.0
    deadline: float = 90.0
    id: str = ""
    tokens: list[str] = field(default_factory=list)
    acked: list[tuple[int, int, dict]] = field(default_factory=list)  # (version, seat, move)
    outcomes: list[Outcome] = field(default_factory=list)
    failures: int = 0
    error: BaseException | None = None
    finished: bool = False
    last: tuple[int, str, dict, dict] | None = None  # seat, Idempotency-Key, move, response
    stop: threading.Event = field(default_factory=threading.Event)

    def call(self, method: str, path: str, body: Any = None, token: str | None = None,
             key: str | None = None) -> tuple[int | None, dict[str, str], Any]:
        headers = {}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        if key:
            headers["Idempotency-Key"] = key
        started = time.monotonic()
        status, hdrs, payload = request(self.base_url, method, path, body, headers, swallow=True)
        self.outcomes.append(Outcome(time.time(), time.monotonic() - started, method, path,
                                     status, hdrs, payload))
        return status, hdrs, payload

    def until_ok(self, method: str, path: str, body: Any = None, token: str | None = None,
                 key: str | None = None, ok: tuple[int, ...] = (200, 201)) -> Any:
        """Repeat one request (same Idempotency-Key) until it succeeds: transport errors and
        503s are retried; anything else is a failure of the test."""
        end = time.monotonic() + self.deadline
        while True:
            status, _, payload = self.call(method, path, body, token, key)
            if status in ok:
                return payload
            if status is not None and status != 503:
                raise AssertionError(f"{method} {path} -> {status}: {payload!r}")
            self.failures += 1
            if time.monotonic() > end:
                raise AssertionError(f"{method} {path} still failing after {self.deadline}s: "
                                     f"{status} {payload!r}")
            time.sleep(0.05)

    def run(self) -> None:
        try:
            self._play()
        except BaseException as exc:  # noqa: BLE001 - reported by the test
            self.error = exc

    def _play(self) -> None:
        rng = random.Random(f"{self.seed}:{len(self.acked)}")
        if not self.id:  # a new game; else carry on with the one it has (after a stop)
            created = self.until_ok("POST", "/v1/games", {
                "ruleset": "turandot", "players": self.players, "seed": self.seed,
                "options": self.options}, key=f"create-{uuid.uuid4()}")
            self.id = created["game"]["id"]
            for i in range(self.players):
                joined = self.until_ok("POST", f"/v1/games/{self.id}/seats", {"name": f"P{i}"},
                                       key=f"join-{uuid.uuid4()}")
                self.tokens.append(joined["token"])
        base = f"/v1/games/{self.id}"
        while not self.stop.is_set():
            view = self.until_ok("GET", base)
            if view["status"] == "finished":
                self.finished = True
                return
            seat = rng.choice([p["seat"] for p in view["pending"]])
            actions = self.until_ok("GET", f"{base}/actions", token=self.tokens[seat])
            if not actions["moves"]:
                continue
            move = random_move(actions, rng)
            key = f"move-{uuid.uuid4()}"
            result = self.until_ok("POST", f"{base}/moves", move, token=self.tokens[seat],
                                   key=key)
            self.acked.append((result["version"], seat, move))
            self.last = (seat, key, move, result)
            if self.pause:
                time.sleep(self.pause)


def start_players(players: list[Player]) -> list[threading.Thread]:
    threads = [threading.Thread(target=p.run, daemon=True) for p in players]
    for t in threads:
        t.start()
    return threads


def stored(redis_client, game_id: str) -> tuple[int, dict[str, Any]]:
    version, doc, _ = GameStore(redis_client).read(game_id)  # plain, or archived once finished
    assert doc is not None, f"game {game_id} is not in Redis"
    return version, doc


def check_game(redis_client, p: Player) -> dict[str, Any]:
    """The stored game agrees with itself and with what its client was told; returns its doc."""
    version, doc = stored(redis_client, p.id)
    moves = doc["moves"]
    # the version counts the creation, each seat taken and each move: nothing half-applied
    assert version == 1 + p.players + len(moves), (p.id, version, len(moves))
    # the game replays from its stored moves to its stored state
    state, _ = TURANDOT.new_game(doc["players"], doc["options"], doc["seed"])
    for seat, move, by in moves:
        assert by == "seat", (p.id, by)
        state, _ = TURANDOT.apply(state, seat, move)
    assert state == doc["state"], f"game {p.id} does not replay from its moves"
    assert (doc["status"] == "finished") == TURANDOT.is_finished(state)
    # the event stream is numbered 1..seq with nothing missing and nothing extra
    raw = GameStore(redis_client).events(p.id)  # from the stream, or its archive
    seqs = [seq for seq, _ in raw]
    assert seqs == list(range(1, doc["seq"] + 1)), (p.id, seqs[-3:], doc["seq"])
    events = [event for _, event in raw]
    assert sum(e["type"] == "seat_taken" for e in events) == p.players
    # every acknowledged move is stored, at the version the client was told, and in order
    for ack_version, seat, move in p.acked:
        index = ack_version - (p.players + 2)
        assert 0 <= index < len(moves), (p.id, ack_version, len(moves))
        assert moves[index] == [seat, move, "seat"], (p.id, ack_version, moves[index], move)
    acked_versions = [v for v, _, _ in p.acked]
    assert acked_versions == sorted(set(acked_versions)), "a version was acknowledged twice"
    return doc


def finish_and_check(players: list, threads: list, redis_url: str) -> None:
    """Let the players finish, then check every game against Redis: valid, replayable, and
    holding exactly the moves the players saw acknowledged."""
    import redis

    for t in threads:
        t.join(timeout=120)
    assert not any(p.error for p in players), [repr(p.error) for p in players if p.error]
    assert all(p.finished for p in players)
    client = redis.Redis.from_url(redis_url)
    try:
        for p in players:
            doc = check_game(client, p)
            assert len(p.acked) == len(doc["moves"]), (p.id, len(p.acked), len(doc["moves"]))
    finally:
        client.close()
