"""A hung reaper is noticed: its liveness probe fails, and /metrics shows how long ago it turned.

The real loop (``python -m impresario_engine reap --loop --heartbeat FILE``) on a Redis of its
own (beside the other tests: a stopped child process of its own disturbs nobody); the probe is the command the reaper's pods run (``python -m impresario_engine alive FILE
--within SECONDS``). SIGSTOP hangs the loop as a search that never ends or a Redis call that
never returns would: the heartbeat stops, the probe fails with a line saying how long ago the
loop turned; SIGCONT, and it passes again.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time

import pytest

from .live_helpers import until

WITHIN = 2.0


@pytest.fixture(scope="module")
def redis_server(tmp_path_factory):
    """A Redis of the module's own: the loop's heartbeat in the session's would be any
    reaper's, the test servers' ones included."""
    from impresario_engine.store.embedded import EmbeddedRedis

    with EmbeddedRedis(tmp_path_factory.mktemp("hung-loop-redis"), appendonly=False) as server:
        yield server


def _probe(path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "impresario_engine", "alive", str(path),
                           "--within", str(WITHIN)], capture_output=True, text=True, timeout=30)



@pytest.fixture
def reaper(redis_server, tmp_path):
    heartbeat = tmp_path / "heartbeat"
    log = open(tmp_path / "reaper.log", "wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "impresario_engine", "reap", "--loop", "0.2", "--quiet",
         "--heartbeat", str(heartbeat)], env=dict(os.environ, REDIS_URL=redis_server.url),
        stdout=log, stderr=subprocess.STDOUT)
    log.close()
    try:
        yield proc, heartbeat
    finally:
        os.kill(proc.pid, signal.SIGCONT)
        proc.terminate()
        proc.wait(timeout=30)


def test_a_hung_reaper_fails_its_probe_and_passes_again_once_it_turns(reaper, redis_server):
    proc, heartbeat = reaper
    first = _probe(heartbeat)
    if not heartbeat.exists():
        assert first.returncode == 1 and "no heartbeat yet" in first.stderr
    until(lambda: _probe(heartbeat).returncode == 0)
    os.kill(proc.pid, signal.SIGSTOP)  # hung
    time.sleep(WITHIN + 1)
    failed = _probe(heartbeat)
    assert failed.returncode == 1, failed.stdout
    assert re.search(r"last turned \d+ s ago \(more than 2 s\)", failed.stderr), failed.stderr
    os.kill(proc.pid, signal.SIGCONT)
    until(lambda: _probe(heartbeat).returncode == 0)
    assert proc.poll() is None


def test_metrics_show_when_the_reaper_last_turned(reaper, redis_server):
    """The alert's figure: every pod's /metrics reads the loops' last turns from Redis."""
    from impresario_engine.app import create_app

    proc, heartbeat = reaper
    until(heartbeat.exists)
    app = create_app({"redis_url": redis_server.url})
    seen = until(lambda: re.search(
        r'^impresario_loop_last_turn_timestamp_seconds\{loop="reaper"\} (\S+)$',
        app.test_client().get("/metrics").get_data(as_text=True), re.M))
    assert abs(float(seen[1]) - time.time()) < 30
    os.kill(proc.pid, signal.SIGSTOP)
    time.sleep(WITHIN + 4)
    text = app.test_client().get("/metrics").get_data(as_text=True)
    stalled = float(re.search(r'loop="reaper"\} (\S+)', text)[1])
    assert time.time() - stalled > WITHIN + 3, "a hung loop's last turn stays where it was"
