"""Fixtures of the live-table tests (deadlines, bot seats, event streams, private games, replays).

- ``clock``: a fake clock; the test's ``app`` (and so ``client``) is created on it
  (``create_app(config, clock=clock)``, see tests/conftest.py), so deadlines pass instantly:
  ``clock.advance(seconds)``.
- ``stream_server``: a gunicorn of its own (gthread, 4 workers x 64 threads, at most 48 event
  streams per worker) on a free 127.0.0.1 port against the session's Redis, for the stream tests;
  stopped at the end of the session.

The helpers of ``tests/service`` (``service_helpers``) are importable here too. The folder is a
package so that this conftest never shadows the root one (tests import ``conftest`` by name).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "service"))

from .live_helpers import FakeClock  # noqa: E402 - needs the path above

STREAM_WORKERS = 4
STREAM_THREADS = 64
STREAMS_PER_WORKER = 48


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture(scope="session")
def stream_server(redis_url, tmp_path_factory, gunicorn_server):
    """gunicorn configured for event streams (threads above the stream budget); its base URL."""
    # every client here is 127.0.0.1: it may hold as many spectators' streams as a worker
    # lets spectators have (test_streams.py tests the caps per address and per game)
    with gunicorn_server(redis_url, tmp_path_factory.mktemp("stream-gunicorn"),
                         workers=STREAM_WORKERS, threads=STREAM_THREADS,
                         MAX_STREAMS_PER_WORKER=str(STREAMS_PER_WORKER),
                         SPECTATOR_STREAMS_PER_ADDRESS=str(STREAMS_PER_WORKER),
                         SPECTATOR_STREAMS_PER_GAME=str(STREAMS_PER_WORKER)) as url:
        yield url
