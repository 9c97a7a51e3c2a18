"""Fixtures of the fault tests (the helpers are in ``fault_helpers``): real processes, each test
module with its own Redis and its own gunicorn; the session's Redis and live server are never
touched."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(scope="module")
def fault_dir(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("faults")


@pytest.fixture(scope="module")
def redis_server(request, fault_dir):
    """The module's own Redis, started as its ``REDIS_OPTIONS`` say (EmbeddedRedis keywords)."""
    from impresario_engine.store.embedded import EmbeddedRedis

    server = EmbeddedRedis(fault_dir / f"redis-{request.module.__name__}",
                           **request.module.REDIS_OPTIONS).start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def server(redis_server, fault_dir):
    """The module's own gunicorn (the engine's config, 2 workers x 8 threads) on its Redis."""
    from fault_helpers import Gunicorn

    g = Gunicorn(redis_server.url, fault_dir, workers=2, threads=8).start()
    yield g
    g.stop()
