"""Child processes the tests start (servers, loops, senders): how they are stopped."""

from __future__ import annotations

import subprocess


def stop(proc: subprocess.Popen | None, timeout: float = 30.0) -> None:
    """Stop ``proc`` if it still runs: SIGTERM, then SIGKILL after ``timeout`` seconds; reaped
    either way."""
    if proc is None or proc.poll() is not None:
        return
    proc.terminate()
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
