"""What every loop process of the engine shares (the reaper today): a heartbeat, and the
command its liveness probe runs.

A loop beats each time it turns (a pass, and each game a pass settles): it touches its
heartbeat file, which ``python -m impresario_engine alive FILE --within SECONDS`` reads (the
reaper's liveness probe on Kubernetes: a loop that hangs, in a search or on a Redis that never
answers, stops beating and its pod is restarted), and, at most every ``STORE_EVERY`` seconds,
notes the time in Redis, where ``/metrics`` reads it for every pod
(``impresario_loop_last_turn_timestamp_seconds{loop}``: the alert on a loop that has not turned
for a minute, docs/operations.md).
"""

from __future__ import annotations

import logging
import os
import time
from typing import Callable

from .store import GameStore, StoreUnavailable

log = logging.getLogger("impresario_engine.loops")

#: seconds between two notes of a loop's heartbeat in Redis
STORE_EVERY = 5.0


class Heartbeat:
    """A loop's heartbeat: its file (``path``, or none) and its note in ``store``."""

    def __init__(self, loop: str, path: str | None, store: GameStore | None,
                 clock: Callable[[], float] = time.time) -> None:
        self.loop = loop
        self.path = path
        self.store = store
        self.clock = clock
        self.stored = float("-inf")

    def beat(self) -> None:
        if self.path:
            with open(self.path, "a"):
                pass
            os.utime(self.path)
        now = self.clock()
        if self.store is not None and now - self.stored >= STORE_EVERY:
            try:
                self.store.beat(self.loop, now)
                self.stored = now
            except StoreUnavailable:
                pass  # the loop itself says so; the file still beats: the process is alive


def alive(path: str, within: float, now: float | None = None) -> tuple[bool, str]:
    """Whether the loop whose heartbeat file is ``path`` turned within ``within`` seconds, and
    a line saying so."""
    try:
        age = (time.time() if now is None else now) - os.stat(path).st_mtime
    except FileNotFoundError:
        return False, f"{path}: no heartbeat yet (the loop has not turned once)"
    if age > within:
        return False, f"{path}: the loop last turned {age:.0f} s ago (more than {within:g} s)"
    return True, f"{path}: the loop turned {age:.1f} s ago"
