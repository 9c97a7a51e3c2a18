"""Fixtures of the live-table tests (deadlines, bot seats, event streams, private games, replays).

- ``clock``: a fake clock installed on the app's GameService (``app.extensions["impresario"]``),
  so deadlines pass instantly: ``clock.advance(seconds)``.
- ``stream_server``: a gunicorn of its own (gthread, 4 workers x 64 threads, at most 48 event
  streams per worker) on a free 127.0.0.1 port against the session's Redis, for the stream tests;
  stopped at the end of the session.

The helpers of ``tests/service`` (``service_helpers``) are importable here too. The folder is a
package so that this conftest never shadows the root one (tests import ``conftest`` by name).
"""

from __future__ import annotations

import http.client
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "service"))

from .live_helpers import FakeClock  # noqa: E402 - needs the path above

STREAM_WORKERS = 4
STREAM_THREADS = 64
STREAMS_PER_WORKER = 48


@pytest.fixture
def clock(app) -> FakeClock:
    fake = FakeClock()
    app.extensions["impresario"].clock = fake
    return fake


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _healthy(port: int) -> bool:
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=1)
        conn.request("GET", "/healthz")
        ok = conn.getresponse().status == 200
        conn.close()
        return ok
    except OSError:
        return False


@pytest.fixture(scope="session")
def stream_server(redis_url, tmp_path_factory):
    """gunicorn configured for event streams (threads above the stream budget); its base URL."""
    port = _free_port()
    log_path = tmp_path_factory.mktemp("stream-gunicorn") / "gunicorn.log"
    env = dict(os.environ)
    env.update({
        "REDIS_URL": redis_url,
        "BIND": f"127.0.0.1:{port}",
        "WEB_CONCURRENCY": str(STREAM_WORKERS),
        "GUNICORN_THREADS": str(STREAM_THREADS),
        "MAX_STREAMS_PER_WORKER": str(STREAMS_PER_WORKER),
        "LOG_LEVEL": "warning",
    })
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)
    log = open(log_path, "wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", "python:impresario_engine.gunicorn_conf",
         "impresario_engine.wsgi:app"], env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while not _healthy(port):
            if proc.poll() is not None:
                raise RuntimeError(f"gunicorn exited: {log_path.read_text(errors='replace')}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"gunicorn did not answer /healthz: "
                                   f"{log_path.read_text(errors='replace')}")
            time.sleep(0.1)
        yield f"http://127.0.0.1:{port}"
    finally:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        log.close()
