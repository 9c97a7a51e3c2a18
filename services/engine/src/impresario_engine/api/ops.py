"""Probes and metrics: ``/healthz`` (the process is up), ``/readyz`` (Redis answers),
``/metrics`` (Prometheus text format; multi-process aware under gunicorn)."""

from __future__ import annotations

import os

from flask import Response, current_app, g
from flask_smorest import Blueprint
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest
from prometheus_client import multiprocess
from prometheus_client.core import GaugeMetricFamily

from ..metrics import LATENCY, REQUESTS

from ..store import StoreUnavailable
from . import schemas as s
from .errors import problem
from .http import json_response

blp = Blueprint("ops", __name__, description="Health, readiness and metrics")

_children: dict[tuple, tuple] = {}


def observe(request, response, seconds: float) -> None:
    rule = request.url_rule.rule if request.url_rule is not None else "unmatched"
    key = (request.method, rule, response.status_code, g.get("problem_code", ""))
    found = _children.get(key)
    if found is None:  # label lookups take a lock each: do them once per combination
        found = _children[key] = (REQUESTS.labels(key[0], rule, str(key[2]), key[3]),
                                  LATENCY.labels(key[0], rule))
    found[0].inc()
    found[1].observe(seconds)


class LiveGames:
    """Games in play or open, counted in Redis at scrape time (the same for every pod)."""

    def __init__(self, store, idle_seconds: float) -> None:
        self.store = store
        self.idle_seconds = idle_seconds

    def collect(self):
        try:
            live = self.store.live_games(self.idle_seconds)
        except StoreUnavailable:
            return
        yield GaugeMetricFamily("impresario_games_live", "Games open or in play", value=live)


@blp.route("/healthz", methods=["GET"])
@blp.doc(operationId="healthz")
@blp.response(200, s.HealthSchema, description="The process is up")
def healthz():
    """Liveness probe"""
    return json_response({"status": "ok"})


@blp.route("/readyz", methods=["GET"])
@blp.doc(operationId="readyz")
@blp.response(200, s.HealthSchema, description="Redis answers")
@blp.alt_response(503, schema=s.ProblemSchema, content_type="application/problem+json",
                  description="Redis does not answer", example={
                      "type": "https://impresario.dev/problems/storage_unavailable",
                      "title": "Service Unavailable", "status": 503,
                      "code": "storage_unavailable",
                      "detail": "redis does not answer: Connection refused"})
def readyz():
    """Readiness probe"""
    store = current_app.extensions["impresario_store"]
    try:
        store.ping()
    except StoreUnavailable as exc:
        return problem(503, "storage_unavailable", f"redis does not answer: {exc}",
                       headers={"Retry-After": "2"})
    return json_response({"status": "ready"})


@blp.route("/metrics", methods=["GET"])
@blp.doc(operationId="metrics", responses={"200": {
    "description": "Prometheus metrics", "content": {"text/plain": {"schema": {"type": "string"}}}}})
def metrics():
    """Prometheus metrics"""
    live = LiveGames(current_app.extensions["impresario_store"],
                     current_app.config["IMPRESARIO"].idle_ttl)
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        data = generate_latest(registry)
    else:
        data = generate_latest()
    extra = CollectorRegistry()
    extra.register(live)
    return Response(data + generate_latest(extra), mimetype=CONTENT_TYPE_LATEST)
