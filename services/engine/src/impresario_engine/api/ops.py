"""Probes and metrics: ``/healthz`` (the process is up), ``/readyz`` (Redis answers),
``/metrics`` (Prometheus text format; multi-process aware under gunicorn)."""

from __future__ import annotations

import os

from flask import Response, current_app
from flask_smorest import Blueprint
from prometheus_client import (CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Histogram,
                               generate_latest)
from prometheus_client import multiprocess

from ..store import StoreUnavailable
from . import schemas as s
from .errors import problem
from .http import json_response

blp = Blueprint("ops", __name__, description="Health, readiness and metrics")

REQUESTS = Counter("impresario_http_requests_total", "HTTP requests by route and status",
                   ["method", "route", "status"])
LATENCY = Histogram("impresario_http_request_seconds", "HTTP request latency by route",
                    ["method", "route"],
                    buckets=(.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5))


def observe(request, response, seconds: float) -> None:
    rule = request.url_rule.rule if request.url_rule is not None else "unmatched"
    REQUESTS.labels(request.method, rule, str(response.status_code)).inc()
    LATENCY.labels(request.method, rule).observe(seconds)


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
                  description="Redis does not answer")
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
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        data = generate_latest(registry)
    else:
        data = generate_latest()
    return Response(data, mimetype=CONTENT_TYPE_LATEST)
