"""Prometheus metrics of the engine (multi-process aware under gunicorn: set
PROMETHEUS_MULTIPROC_DIR to a writable folder shared by the workers)."""

from __future__ import annotations

from prometheus_client import Counter, Histogram

REQUESTS = Counter("impresario_http_requests_total",
                   "HTTP requests by route, status and problem code ('' for successes)",
                   ["method", "route", "status", "code"])
LATENCY = Histogram("impresario_http_request_seconds", "HTTP request latency by route",
                    ["method", "route"],
                    buckets=(.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5))
MOVES = Counter("impresario_moves_total", "Moves applied, by ruleset, move type and who made "
                "them (seat, bot, deadline)", ["ruleset", "type", "by"])
CAS_RETRIES = Counter("impresario_cas_retries_total",
                      "Compare-and-set writes that lost a race and were retried on a fresh copy")
GAMES = Counter("impresario_games_total", "Games created and finished", ["event"])
STORAGE_REFUSALS = Counter("impresario_storage_refusals_total",
                           "Redis commands refused because Redis cannot take them now: oom "
                           "(full under maxmemory), readonly (a replica), busy (loading, "
                           "cluster down, failing over)", ["reason"])
