"""What every request passes through before and after its view: a request id, rate limits,
CORS, security headers, metrics and one structured log line.

- Request id: the client's ``X-Request-ID`` when sane, else a new one; echoed in the response
  header and in problem JSON, and on the log line.
- Rate limits: fixed one-minute windows counted in Redis, so every worker and pod shares them;
  429 problem JSON with ``Retry-After`` beyond the limit. Games created per client address (on
  by default), requests per token and per client address (off unless configured).
- Failed authentications (on by default): each 401 ``invalid_token`` or ``invalid_ticket``
  or 403 ``invalid_join_token`` counts against the client's address and the game in Redis; past
  ``auth_failures_per_ip`` in a minute, the worker that sees it answers that address's further
  failures on that game 429 ``auth_rate_limited`` until the minute ends. A credential that
  validates is always served: a guesser sharing a player's address (a NAT) cannot lock the
  player out. Successful requests cost nothing more; across W workers a guesser gets at most
  ``auth_failures_per_ip + W`` answers that tell a wrong guess a minute.
- CORS: only origins in the configured allow-list get CORS headers; preflights are answered.
  ``OPTIONS`` without an allowed origin answers 204 with ``Allow`` (never Flask's HTML default).
- Logs: one JSON line per request (method, path without the query string, status, duration,
  request id), written in batches (:class:`RequestLog`, ``LOG_BATCH_SECONDS``). Tokens travel
  in headers and are never logged; the query string (where a spectator link carries its
  token) is never logged either.
"""

from __future__ import annotations

import atexit
import hashlib
import logging
import os
import threading
import time
import weakref

import orjson

from flask import Flask, Response, g, request
from werkzeug.exceptions import NotFound

from ..config import Config
from ..store import StoreUnavailable
from . import ops
from .errors import ApiError, Problem, respond
from .http import API_CSP, SECURITY_HEADERS

log = logging.getLogger("impresario_engine.requests")

EXPOSED = "ETag, Location, X-Request-ID, Idempotent-Replayed, Retry-After"
ALLOWED_HEADERS = "Authorization, Content-Type, If-Match, If-None-Match, Idempotency-Key, " \
                  "Last-Event-ID, X-Request-ID"



#: the problem codes of a failed authentication (a guessed token, join link or stream ticket)
AUTH_FAILURES = frozenset({"invalid_token", "invalid_join_token", "invalid_ticket",
                           "invalid_device_code", "invalid_player_token"})


def client_address() -> str:
    """The client's address as the limits count it (``X-Forwarded-For`` only through
    ``TRUSTED_PROXIES``)."""
    return request.remote_addr or "unknown"


def _retry_after() -> str:
    return str(60 - int(time.time() % 60) or 1)


def _count(store, kind: str, ident: str) -> int | None:
    """One more hit in this minute's window of ``kind`` for ``ident``; None when Redis is away
    (play is never refused because the limiter's store hiccups; the request will tell)."""
    window = int(time.time() // 60)
    try:
        return store.count_hit(f"rate:{{{kind}:{ident}}}:{window}", 61)
    except StoreUnavailable:
        return None


def _limit(store, kind: str, ident: str, limit: int, code: str = "rate_limited",
           what: str = "requests", source: str | None = None) -> None:
    count = _count(store, kind, ident)
    if count is not None and count > limit:
        raise ApiError(429, code, f"more than {limit} {what} a minute from this "
                       f"{source or kind}; slow down", headers={"Retry-After": _retry_after()})


class AuthThrottle:
    """Failed authentications (a guessed token or join link) per client address and game:
    counted in Redis, so every worker and pod adds to one count a minute, and remembered here
    once over the limit. Only failures are throttled: past the limit a guess on that game from
    that address is answered 429 instead of 401, while a credential that validates is served
    as ever, so a stranger behind the same address (a NAT, an office, a proxy) can never lock
    a player out of their own game."""

    def __init__(self, store, limit: int) -> None:
        self.store = store
        self.limit = limit
        #: (address, game) -> the end of the minute until which its failures get 429
        self.until: dict[tuple[str, str], float] = {}

    @staticmethod
    def where() -> tuple[str, str]:
        """This request's address and game (the game's id, or "" off a game's URLs)."""
        return client_address(), str((request.view_args or {}).get("game_id", ""))

    def throttled(self, where: tuple[str, str]) -> bool:
        until = self.until.get(where)
        if until is None:
            return False
        if until <= time.time():
            del self.until[where]
            return False
        return True

    def failed(self, where: tuple[str, str]) -> None:
        count = _count(self.store, "authfail", "|".join(where))
        if count is None or count < self.limit:
            return
        if len(self.until) > 10_000:  # forget the minutes that have ended
            now = time.time()
            for key in [k for k, v in self.until.items() if v <= now]:
                del self.until[key]
        self.until[where] = (time.time() // 60 + 1) * 60


def request_id(sent: str | None) -> str:
    """The request's id: the client's ``X-Request-ID`` when sane, else a new one."""
    if sent and len(sent) <= 128 and sent.isprintable() and sent.isascii():
        return sent
    return os.urandom(16).hex()  # 32 hex digits, as a UUID's; random all through


class RequestLog:
    """The request lines, written in batches: one record of the logging module (one write)
    carries every line that waited, at most ``seconds`` after the first of them (a thread of
    the process sees to it) or as soon as :data:`MOST` wait, and at the process's exit. Each
    line keeps the time its request ended. ``seconds`` 0: a record per line, at once."""

    MOST = 64
    every: "weakref.WeakSet[RequestLog]" = weakref.WeakSet()

    def __init__(self, logger: logging.Logger, seconds: float) -> None:
        self.log = logger
        self.seconds = seconds
        self.lines: list[str] = []
        self.lock = threading.Lock()
        self.due = threading.Event()
        self.pid = 0  # the process whose thread flushes (a forked worker starts its own)
        RequestLog.every.add(self)

    def add(self, line: str) -> None:
        if not self.seconds:
            self.log.info("request", extra={"json_line": line})
            return
        with self.lock:
            self.lines.append(line)
            waiting = len(self.lines)
        if waiting >= self.MOST:
            self.flush()
        elif waiting == 1:
            if self.pid != os.getpid():
                self._start()
            self.due.set()

    def flush(self) -> None:
        with self.lock:
            lines, self.lines = self.lines, []
        if lines:
            self.log.info("requests", extra={"json_line": "\n".join(lines)})

    def _start(self) -> None:
        self.pid = os.getpid()
        ref = weakref.ref(self)
        threading.Thread(target=RequestLog._run, args=(ref, self.due, self.seconds),
                         name="request-log", daemon=True).start()

    @staticmethod
    def _run(ref: "weakref.ref[RequestLog]", due: threading.Event, seconds: float) -> None:
        while True:
            due.wait()
            time.sleep(seconds)
            due.clear()
            found = ref()
            if found is None:
                return
            found.flush()
            del found

    @classmethod
    def flush_all(cls) -> None:
        """Write every waiting line of the process (at its exit: gunicorn's worker_exit)."""
        for each in list(cls.every):
            each.flush()


atexit.register(RequestLog.flush_all)


class Edge:
    """What the edge does for any request, whoever serves it (Flask, or the move's own
    route, api/move_route.py): the rate limits, the failed authentications counted and
    throttled, the CORS headers of an allowed origin, and the request's metric and log line."""

    def __init__(self, cfg: Config, store) -> None:
        self.cfg = cfg
        self.store = store
        self.origins = {o.strip().rstrip("/") for o in cfg.cors_origins.split(",") if o.strip()}
        self.lines = RequestLog(log, cfg.log_batch_seconds)
        self.throttle = AuthThrottle(store, cfg.auth_failures_per_ip)

    def limit(self, method: str, path: str, address: str, authorization: str | None) -> None:
        """The rate limits of a request to ``/v1`` (429 past one of them): games and players
        created per address, requests per address, requests per token (each off unless configured)."""
        cfg, store = self.cfg, self.store
        if cfg.rate_limit_create_per_ip and method == "POST" and path == "/v1/games":
            _limit(store, "create", address, cfg.rate_limit_create_per_ip,
                   "create_rate_limited", "games created", "address")
        if cfg.rate_limit_create_per_ip and method == "POST" and path == "/v1/players":
            _limit(store, "player", address, cfg.rate_limit_create_per_ip,
                   "create_rate_limited", "players created", "address")
        if cfg.rate_limit_per_ip:
            _limit(store, "address", address, cfg.rate_limit_per_ip)
        if cfg.rate_limit_per_token and authorization:
            ident = hashlib.sha256(authorization.encode("utf-8", "surrogatepass")).hexdigest()[:24]
            _limit(store, "token", ident, cfg.rate_limit_per_token)

    def auth_failed(self, where: tuple[str, str]) -> Problem | None:
        """A failed authentication from the address on the game ``where``, counted; the
        problem that answers it instead once past the limit (429: never a hint about the
        credential), else None."""
        if not self.throttle.limit:
            return None
        throttled = self.throttle.throttled(where)
        self.throttle.failed(where)
        if not throttled:
            return None
        return Problem(429, "auth_rate_limited", "too many failed authentications on this game "
                       "from this address; wait before trying again",
                       {"Retry-After": _retry_after()}, metric="auth_rate_limited")

    def cors(self, origin: str | None) -> list[tuple[str, str]]:
        """The CORS headers of a response to ``origin`` (none unless it is allowed)."""
        if origin and (origin.rstrip("/") in self.origins or "*" in self.origins):
            return [("Access-Control-Allow-Origin", origin),
                    ("Access-Control-Expose-Headers", EXPOSED), ("Vary", "Origin")]
        return []

    def account(self, method: str, rule: str, path: str, status: int, code: str,
                seconds: float, rid: str | None) -> None:
        """The request's metric (``rule``: its route, "unmatched" when none; ``code``: its
        problem's) and, when on, its log line."""
        ops.observe(method, rule, status, code, seconds)
        if self.cfg.log_requests and log.isEnabledFor(logging.INFO):
            self.lines.add(orjson.dumps({
                "ts": round(time.time(), 3), "level": "info", "logger": log.name,
                "msg": "request", "method": method, "path": path,
                "status": status, "ms": round(seconds * 1000, 2), "request_id": rid,
            }).decode())


def install(app: Flask, cfg: Config, store) -> Edge:
    """The edge's hooks on ``app``; the :class:`Edge` they share with the move's route."""
    edge = Edge(cfg, store)
    origins = edge.origins

    @app.before_request
    def _before():
        rid = request_id(request.headers.get("X-Request-ID"))
        g.request_id = rid
        g.started = time.perf_counter()
        if cfg.metrics_port:
            # /metrics on its own port, and nothing else there: the API's port (the one an
            # ingress forwards) answers /metrics with 404 like any unknown path
            on_metrics_port = request.environ.get("SERVER_PORT") == str(cfg.metrics_port)
            if on_metrics_port != (request.path == "/metrics"):
                raise NotFound()
        origin = request.headers.get("Origin")
        if request.method == "OPTIONS" and request.url_rule is not None:
            if origin and (origin in origins or "*" in origins):
                resp = Response(status=204)
                resp.headers["Access-Control-Allow-Methods"] = "GET, POST, DELETE, OPTIONS"
                resp.headers["Access-Control-Allow-Headers"] = ALLOWED_HEADERS
                resp.headers["Access-Control-Max-Age"] = "600"
                return resp
            # no CORS for this origin (or none asked): what the resource allows, no body
            resp = app.make_default_options_response()
            resp.status_code = 204
            resp.set_data(b"")
            resp.headers.pop("Content-Type", None)
            return resp
        if not request.path.startswith("/v1/"):
            return None
        edge.limit(request.method, request.path, client_address(),
                   request.headers.get("Authorization"))
        return None

    @app.after_request
    def _after(resp: Response) -> Response:
        if g.get("problem_code") in AUTH_FAILURES:
            refused = edge.auth_failed(AuthThrottle.where())
            if refused is not None:  # a guess past the limit
                resp = respond(refused)
        rid = getattr(g, "request_id", None)
        if rid:
            resp.headers["X-Request-ID"] = rid
        if not getattr(resp, "edge_headers", False):  # json_response sets them all at birth
            resp.headers.setdefault("Cache-Control", "no-store")
            for key, value in SECURITY_HEADERS.items():
                resp.headers.setdefault(key, value)
            if not request.path.startswith("/docs"):
                resp.headers.setdefault("Content-Security-Policy", API_CSP)
        for key, value in edge.cors(request.headers.get("Origin")):
            if key == "Vary":
                resp.headers.add(key, value)
            else:
                resp.headers[key] = value
        seconds = time.perf_counter() - g.get("started", time.perf_counter())
        rule = request.url_rule.rule if request.url_rule is not None else "unmatched"
        edge.account(request.method, rule, request.path, resp.status_code,
                     g.get("problem_code", ""), seconds, rid)
        return resp

    return edge
