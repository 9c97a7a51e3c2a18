"""Fixtures of the foreign-client tests: clients generated from openapi.yaml alone, in other
languages' tools, playing against the engine.

- ``contract_server``: the engine as the suite's other tests see it (the root conftest's
  ``app_factory``: the session's real Redis, and every response it sends validated against
  openapi.yaml, a violation failing the test at teardown), served over HTTP on a free
  127.0.0.1 port by werkzeug's threaded server, so a client in another process can play it;
  yields its base URL. Its Config overrides are ``engine_settings`` (here: a player is on the
  leaderboards after one rated game, so the bots, which play as a player, find themselves
  there). The bots' own checks come on top: the TypeScript bot validates every
  response it receives with Ajv, the Python client parses each into its generated models.
- ``node_tools``: ``make node-deps`` (npm ci, only when node_modules is missing or the lockfile
  changed), then the folder of the Node tooling's binaries.

The folder is a package so that this conftest never shadows the root one.
"""

from __future__ import annotations

import subprocess
import threading
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def engine_settings() -> dict[str, object]:
    return {"leaderboard_min_games": 1}


@pytest.fixture
def contract_server(app_factory, engine_settings):
    from werkzeug.serving import make_server

    server = make_server("127.0.0.1", 0, app_factory(**engine_settings), threaded=True)
    thread = threading.Thread(target=server.serve_forever, name="contract-server", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(timeout=10)
        server.server_close()


@pytest.fixture(scope="session")
def node_tools() -> Path:
    run = subprocess.run(["make", "--no-print-directory", "node-deps"], cwd=ROOT,
                         capture_output=True, text=True, check=False)
    assert run.returncode == 0, f"make node-deps failed:\n{run.stdout}\n{run.stderr}"
    return ROOT / "node_modules" / ".bin"
