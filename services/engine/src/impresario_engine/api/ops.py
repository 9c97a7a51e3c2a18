"""Probes and metrics: ``/healthz`` (the process is up), ``/readyz`` (Redis answers and takes
writes), ``/metrics`` (Prometheus text format; multi-process aware under gunicorn).

What went wrong with Redis (its address, its error) goes to the logs, never into a probe's
answer: the probes are public wherever the service is.
"""

from __future__ import annotations

import logging
import os

from flask import Response, current_app
from flask_smorest import Blueprint
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest
from prometheus_client import multiprocess
from prometheus_client.core import GaugeMetricFamily

from ..metrics import LATENCY, REQUESTS

from ..store import StoreUnavailable
from ..usecases import lobby
from . import schemas as s
from .errors import problem
from .http import json_response

blp = Blueprint("ops", __name__, description="Health, readiness and metrics")
log = logging.getLogger("impresario_engine.ops")

_children: dict[tuple, tuple] = {}


def observe(method: str, rule: str, status: int, code: str, seconds: float) -> None:
    """One request in the metrics: its method, route (``rule``), status and problem code."""
    key = (method, rule, status, code)
    found = _children.get(key)
    if found is None:  # label lookups take a lock each: do them once per combination
        found = _children[key] = (REQUESTS.labels(method, rule, str(status), code),
                                  LATENCY.labels(method, rule))
    found[0].inc()
    found[1].observe(seconds)


class LiveGames:
    """Games in play or open, counted in Redis at scrape time (the same for every pod): the
    entries of the lists of games (usecases/lobby.py), private games included; and whether Redis
    takes
    writes."""

    def __init__(self, ctx) -> None:
        self.ctx = ctx
        self.store = ctx.store

    def collect(self):
        try:
            live = lobby.live_count(self.ctx)
        except StoreUnavailable:
            return
        yield GaugeMetricFamily("impresario_games_live", "Games open or in play", value=live)
        try:
            refusal = self.store.write_refusal()
        except StoreUnavailable:
            return
        yield GaugeMetricFamily(
            "impresario_storage_writable", "1 while Redis takes writes; 0 while it refuses "
            "them (full under maxmemory, read-only)", value=0 if refusal else 1)
        try:
            beats = self.store.heartbeats()
        except StoreUnavailable:
            return
        turned = GaugeMetricFamily(
            "impresario_loop_last_turn_timestamp_seconds", "When a process of each loop (the "
            "reaper) last turned, Unix seconds: alert when it is a minute old", labels=["loop"])
        for loop, when in sorted(beats.items()):
            turned.add_metric([loop], when)
        yield turned


@blp.route("/healthz", methods=["GET"])
@blp.doc(operationId="healthz")
@blp.response(200, s.HealthSchema, description="The process is up")
def healthz():
    """Liveness probe"""
    return json_response({"status": "ok"})


@blp.route("/readyz", methods=["GET"])
@blp.doc(operationId="readyz")
@blp.response(200, s.HealthSchema, description="Redis answers and takes writes")
@blp.alt_response(503, schema=s.ProblemSchema, content_type="application/problem+json",
                  description="Redis does not answer (`storage_unavailable`), or refuses writes: "
                              "full under `maxmemory` or read-only (`storage_refuses_writes`); "
                              "the details are in the logs", example={
                      "type": "https://impresario.dev/problems/storage_refuses_writes",
                      "title": "Service Unavailable", "status": 503,
                      "code": "storage_refuses_writes",
                      "detail": "the game store refuses writes (full or read-only)"})
def readyz():
    """Readiness probe

    Redis answers and takes a small write (a key of its own, `impresario:probe`, kept a
    minute): a Redis that refuses writes cannot take a move, so the pod is not ready.
    """
    store = current_app.extensions["impresario_store"]
    try:
        refusal = store.write_refusal()
    except StoreUnavailable as exc:
        log.warning("readiness: redis does not answer: %s", exc)
        return problem(503, "storage_unavailable", "the game store does not answer",
                       headers={"Retry-After": "2"})
    if refusal:
        log.warning("readiness: redis refuses writes: %s", refusal)
        return problem(503, "storage_refuses_writes",
                       "the game store refuses writes (full or read-only)",
                       headers={"Retry-After": "2"})
    return json_response({"status": "ready"})


@blp.route("/metrics", methods=["GET"])
@blp.doc(operationId="metrics", responses={"200": {
    "description": "Prometheus metrics", "content": {"text/plain": {"schema": {"type": "string"}}}}})
@blp.alt_response(404, schema=s.ProblemSchema, content_type="application/problem+json",
                  description="`not_found`: the engine serves `/metrics` on its own port "
                              "(`METRICS_PORT`), never on the API's", example={
                      "type": "https://impresario.dev/problems/not_found",
                      "title": "Not Found", "status": 404, "code": "not_found",
                      "detail": "The requested URL was not found on the server. If you "
                                "entered the URL manually please check your spelling and try "
                                "again."})
def metrics():
    """Prometheus metrics

    With `METRICS_PORT` set (as on Kubernetes), only on that port, which serves nothing else;
    the API's port answers 404 here. A refusal of the rules is counted by its kind
    (`rules_illegal`, ...), never by its code: which rule refused a sealed bid is its player's
    to know.
    """
    live = LiveGames(current_app.extensions["impresario"])
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        data = generate_latest(registry)
    else:
        data = generate_latest()
    extra = CollectorRegistry()
    extra.register(live)
    return Response(data + generate_latest(extra), mimetype=CONTENT_TYPE_LATEST)
