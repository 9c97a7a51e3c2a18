"""What every request passes through before and after its view: a request id, rate limits,
CORS, security headers, metrics and one structured log line.

- Request id: the client's ``X-Request-ID`` when sane, else a new one; echoed in the response
  header and in problem JSON, and on the log line.
- Rate limits (off unless configured): fixed one-minute windows counted in Redis, per token
  and per client address, so every worker and pod shares them; 429 problem JSON with
  ``Retry-After`` beyond the limit.
- CORS: only origins in the configured allow-list get CORS headers; preflights are answered.
- Logs: one JSON line per request (method, path without the query string, status, duration,
  request id). Tokens travel in headers and are never logged; the query string (where a
  spectator link carries its token) is never logged either.
"""

from __future__ import annotations

import hashlib
import json

import orjson
import logging
import sys
import time
import uuid

from flask import Flask, Response, g, request

from ..config import Config
from ..store import StoreUnavailable
from . import ops
from .errors import ApiError
from .http import API_CSP, SECURITY_HEADERS

log = logging.getLogger("impresario_engine.requests")

EXPOSED = "ETag, Location, X-Request-ID, Idempotent-Replayed, Retry-After"
ALLOWED_HEADERS = "Authorization, Content-Type, If-Match, If-None-Match, Idempotency-Key, " \
                  "Last-Event-ID, X-Request-ID"



class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message and any ``extra`` fields."""

    RESERVED = set(vars(logging.makeLogRecord({})))

    def format(self, record: logging.LogRecord) -> str:
        line = getattr(record, "json_line", None)
        if line is not None:  # the per-request line, encoded once by its author
            return line
        out = {
            "ts": round(record.created, 3),
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
        }
        for key, value in vars(record).items():
            if key not in self.RESERVED and key not in out:
                out[key] = value
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
        return json.dumps(out, default=str)


def configure_logging(level: str = "INFO") -> None:
    """JSON logs on stderr for the engine's loggers (once per process)."""
    root = logging.getLogger("impresario_engine")
    if any(getattr(h, "_impresario", False) for h in root.handlers):
        return
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter())
    handler._impresario = True  # type: ignore[attr-defined]
    root.addHandler(handler)
    root.setLevel(level.upper())
    root.propagate = False
    # From the logging HOWTO's "Optimization" switches, only the caller lookup (a stack walk per
    # record): no line of ours or gunicorn's shows the caller's file and line. The thread and
    # process switches stay on: gunicorn's own format prints "[%(process)d]".
    logging._srcfile = None  # type: ignore[attr-defined]


def _client_address() -> str:
    return request.remote_addr or "unknown"


def _limit(store, kind: str, ident: str, limit: int) -> None:
    window = int(time.time() // 60)
    key = f"rate:{{{kind}:{ident}}}:{window}"
    try:
        count = store.count_hit(key, 61)
    except StoreUnavailable:
        return  # never refuse play because the limiter's store hiccups; the request will tell
    if count > limit:
        retry = 60 - int(time.time() % 60) or 1
        raise ApiError(429, "rate_limited",
                       f"more than {limit} requests a minute from this {kind}; slow down",
                       headers={"Retry-After": str(retry)})


def install(app: Flask, cfg: Config, store) -> None:
    origins = {o.strip().rstrip("/") for o in cfg.cors_origins.split(",") if o.strip()}

    @app.before_request
    def _before():
        rid = request.headers.get("X-Request-ID", "")
        if not (0 < len(rid) <= 128 and rid.isprintable() and rid.isascii()):
            rid = uuid.uuid4().hex
        g.request_id = rid
        g.started = time.perf_counter()
        origin = request.headers.get("Origin")
        if request.method == "OPTIONS" and origin and "*" not in origins and origin not in origins:
            return None
        if request.method == "OPTIONS" and origin and (origin in origins or "*" in origins):
            resp = Response(status=204)
            resp.headers["Access-Control-Allow-Methods"] = "GET, POST, OPTIONS"
            resp.headers["Access-Control-Allow-Headers"] = ALLOWED_HEADERS
            resp.headers["Access-Control-Max-Age"] = "600"
            return resp
        if cfg.rate_limit_per_ip and request.path.startswith("/v1/"):
            _limit(store, "address", _client_address(), cfg.rate_limit_per_ip)
        if cfg.rate_limit_per_token and request.path.startswith("/v1/"):
            header = request.headers.get("Authorization", "")
            if header:
                ident = hashlib.sha256(header.encode("utf-8", "surrogatepass")).hexdigest()[:24]
                _limit(store, "token", ident, cfg.rate_limit_per_token)
        return None

    @app.after_request
    def _after(resp: Response) -> Response:
        rid = getattr(g, "request_id", None)
        if rid:
            resp.headers["X-Request-ID"] = rid
        if not getattr(resp, "edge_headers", False):  # json_response sets them all at birth
            resp.headers.setdefault("Cache-Control", "no-store")
            for key, value in SECURITY_HEADERS.items():
                resp.headers.setdefault(key, value)
            if not request.path.startswith("/docs"):
                resp.headers.setdefault("Content-Security-Policy", API_CSP)
        origin = request.headers.get("Origin")
        if origin and (origin.rstrip("/") in origins or "*" in origins):
            resp.headers["Access-Control-Allow-Origin"] = origin
            resp.headers["Access-Control-Expose-Headers"] = EXPOSED
            resp.headers.add("Vary", "Origin")
        seconds = time.perf_counter() - g.get("started", time.perf_counter())
        ops.observe(request, resp, seconds)
        if cfg.log_requests and log.isEnabledFor(logging.INFO):
            log.info("request", extra={"json_line": orjson.dumps({
                "ts": round(time.time(), 3), "level": "info", "logger": log.name,
                "msg": "request", "method": request.method, "path": request.path,
                "status": resp.status_code, "ms": round(seconds * 1000, 2), "request_id": rid,
            }).decode()})
        return resp
