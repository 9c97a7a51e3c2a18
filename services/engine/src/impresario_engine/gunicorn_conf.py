"""gunicorn settings for the engine (``gunicorn -c python:impresario_engine.gunicorn_conf``).

Everything comes from the environment so the same image serves every deployment:
- ``BIND`` (default ``127.0.0.1:$PORT``, ``PORT`` default 8000); with ``METRICS_PORT`` set,
  gunicorn listens on that port of the same address too, where ``/metrics`` is served and
  nothing else (and only there)
- ``WEB_CONCURRENCY`` worker processes (default: 2 per core, at least 2)
- ``GUNICORN_THREADS`` threads per worker (default 64): the gthread worker serves a request per
  thread, so slow clients and open event streams hold a thread, never a whole worker. Each
  worker admits at most ``MAX_STREAMS_PER_WORKER`` event streams (default 48), so at least
  ``GUNICORN_THREADS - MAX_STREAMS_PER_WORKER`` threads per worker always serve ordinary
  requests: keep the first above the second
- ``REQUEST_READ_SECONDS`` (default 10): the time a client has to send a whole request (line,
  headers and body) from its first byte; until it has, the request holds no thread (the
  worker, :mod:`impresario_engine.worker`, gathers it without blocking), and past it the client
  gets 408 and its connection is closed. ``GUNICORN_KEEPALIVE`` (default 5 s) bounds both the
  wait for a request's first byte and the silence between its bytes, and closes idle
  keep-alive connections
- ``GUNICORN_TIMEOUT`` (default 30 s) and ``GUNICORN_GRACEFUL_TIMEOUT`` (default 20 s): on
  SIGTERM workers finish in-flight requests within the graceful timeout, which must stay below
  the pod's terminationGracePeriodSeconds
"""

import multiprocessing
import os

port = os.environ.get("PORT", "8000")
bind = [os.environ.get("BIND", f"127.0.0.1:{port}")]
if os.environ.get("METRICS_PORT", "0") not in ("", "0"):
    # /metrics alone, on the API's address and its own port (config.py, metrics_port)
    bind.append(f"{bind[0].rsplit(':', 1)[0]}:{os.environ['METRICS_PORT']}")
workers = int(os.environ.get("WEB_CONCURRENCY", max(2, multiprocessing.cpu_count() * 2)))
# gthread, with requests gathered before they take a thread, a deadline to send one, and
# gunicorn's own refusals (414, 431, ...) in problem JSON
worker_class = "impresario_engine.worker.Worker"
threads = int(os.environ.get("GUNICORN_THREADS", "64"))
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
graceful_timeout = int(os.environ.get("GUNICORN_GRACEFUL_TIMEOUT", "20"))
keepalive = int(os.environ.get("GUNICORN_KEEPALIVE", "5"))
max_requests = int(os.environ.get("GUNICORN_MAX_REQUESTS", "0"))
max_requests_jitter = max_requests // 10
accesslog = os.environ.get("GUNICORN_ACCESSLOG") or None
errorlog = "-"
loglevel = os.environ.get("LOG_LEVEL", "info")
# access logs carry the method and path only, never the query string: a private game's
# spectator link carries a token there, and tokens are never logged
access_log_format = '%(h)s "%(m)s %(U)s" %(s)s %(b)s %(M)sms rid=%({x-request-id}o)s'
proc_name = "impresario-engine"


def on_starting(server):  # noqa: D103 - gunicorn hook
    # per-worker metric files of a previous run (a restarted container) would be summed in
    folder = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if folder and os.path.isdir(folder):
        for name in os.listdir(folder):
            if name.endswith(".db"):
                os.remove(os.path.join(folder, name))


def post_worker_init(worker):  # noqa: D103 - gunicorn hook
    # event streams end as soon as their worker is asked to stop, so a rollout does not wait
    # for the graceful timeout; clients resume with Last-Event-ID on another pod
    from impresario_engine.api import streams

    streams.WORKER = worker


def child_exit(server, worker):  # noqa: D103 - gunicorn hook
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)


def worker_exit(server, worker):  # noqa: D103 - gunicorn hook
    # the request lines still waiting for their batch (api/edge.py), written before the
    # worker goes
    from impresario_engine.api.edge import RequestLog

    RequestLog.flush_all()
