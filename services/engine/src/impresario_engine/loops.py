"""What every loop process of the engine shares (the reaper today; a webhook sender next): the
loop itself (:func:`run_loop`), which waits out a storage outage, a heartbeat, and the command
its probes run.

A loop *turns* each time it gets its work done: a pass, and each game a pass settles. Each
turn touches its heartbeat file, which ``python -m impresario_engine alive FILE --within
SECONDS`` reads (the reaper's probes on Kubernetes: a loop that hangs, in a search or on a
Redis that never answers, stops turning and its pod is restarted), and, at most every
``STORE_EVERY`` seconds, notes the time in Redis, where ``/metrics`` reads it for every pod
(``impresario_loop_last_turn_timestamp_seconds{loop}``: the alert on a loop that has not turned
for a minute, docs/operations.md).

When its storage is away (Redis restarting, unreachable, refusing), a turn fails with
``StoreError``: the loop does not end. It tries again after a back-off (``BACKOFF_FIRST``
seconds, doubling up to its period, at most ``BACKOFF_MOST``), says once that the outage
started and once that it ended (:class:`Outage`), and meanwhile does not claim a turn: its
heartbeat file and its note in Redis stay where the last good turn left them (so the loop
shows as not turning, and not ready, while the storage is away). What it touches instead is
its *outage file* (``FILE.outage``), which says since when and why it waits: ``alive FILE
--outage-ok`` (the liveness probe) passes while that file is fresh too, so a loop that waits
out a long outage is not restarted for it, while one hung for good still is.
"""

from __future__ import annotations

import json
import logging
import os
import time
from typing import Any, Callable

from .store import GameStore, StoreError

#: the loops' lines, in the engine's JSON log format (:mod:`.logs`) once the process calls
#: ``logs.configure_logging``
log = logging.getLogger("impresario_engine.loops")

#: seconds between two notes of a loop's heartbeat in Redis
STORE_EVERY = 5.0
#: the first wait after a turn failed on the storage, doubled at each further failure
BACKOFF_FIRST = 0.1
#: the longest wait between two tries during an outage (shorter for a loop of a shorter period)
BACKOFF_MOST = 2.0
#: what the loop file next to the heartbeat file is called: ``FILE`` + this
OUTAGE_SUFFIX = ".outage"


class Backoff:
    """Waits that double from ``first`` up to ``most`` (``next()``), until ``reset()``."""

    def __init__(self, first: float, most: float) -> None:
        self.first = first
        self.most = max(first, most)
        self.current = 0.0

    def next(self) -> float:
        self.current = self.first if not self.current else min(self.current * 2, self.most)
        return self.current

    def reset(self) -> None:
        self.current = 0.0


class Outage:
    """A loop's storage outage, if it is in one: ``failed(exc)`` at each turn that failed on
    the storage (the first one says the outage started) answers how long to wait before the
    next try; ``recovered()`` after a turn that went through (says the outage ended, if
    there was one). One line each (warnings both), however many turns fail in between."""

    def __init__(self, loop: str, backoff: Backoff,
                 clock: Callable[[], float] = time.time) -> None:
        self.loop = loop
        self.backoff = backoff
        self.clock = clock
        self.since: float | None = None  # wall-clock time of the first failed turn
        self.tries = 0
        self.error = ""

    def failed(self, exc: BaseException) -> float:
        self.tries += 1
        self.error = str(exc) or type(exc).__name__
        if self.since is None:
            self.since = self.clock()
            log.warning("%s: storage unavailable, waiting for it (trying again after %g s, "
                        "doubling up to %g s)", self.loop, self.backoff.first, self.backoff.most,
                        extra={"loop": self.loop, "outage": "started", "error": self.error})
        return self.backoff.next()

    def recovered(self) -> None:
        if self.since is None:
            return
        lasted = self.clock() - self.since
        # a warning as its start was: who sees that the loop waits sees that it goes on
        log.warning("%s: storage back after %.1f s, resuming", self.loop, lasted,
                 extra={"loop": self.loop, "outage": "ended", "seconds": round(lasted, 3),
                        "failed_turns": self.tries})
        self.since = None
        self.tries = 0
        self.error = ""
        self.backoff.reset()


class Heartbeat:
    """A loop's heartbeat: its file (``path``, or none) and its note in ``store``; and, while
    the loop waits out an outage, its outage file (``path`` + ``.outage``)."""

    def __init__(self, loop: str, path: str | None, store: GameStore | None,
                 clock: Callable[[], float] = time.time) -> None:
        self.loop = loop
        self.path = path
        self.store = store
        self.clock = clock
        self.stored = float("-inf")
        #: an outage file may be there (this loop's outage, or an earlier process's, left
        #: behind when it was stopped mid-outage): the next good turn removes it
        self.outage_noted = True

    @property
    def outage_path(self) -> str | None:
        return self.path + OUTAGE_SUFFIX if self.path else None

    def beat(self) -> None:
        """A turn went through: touch the heartbeat file, note it in Redis now and then."""
        if self.path:
            with open(self.path, "a"):
                pass
            os.utime(self.path)
        if self.outage_noted:
            self.outage_noted = False
            if self.outage_path:
                try:
                    os.unlink(self.outage_path)
                except FileNotFoundError:
                    pass
        now = self.clock()
        if self.store is not None and now - self.stored >= STORE_EVERY:
            try:
                self.store.beat(self.loop, now)
                self.stored = now
            except StoreError:
                pass  # the loop itself says so; the file still beats: the process is alive

    def wait_out(self, since: float, error: str) -> None:
        """A turn failed on the storage: the loop is alive, waiting for it. Touches the outage
        file only (what it says: since when, why); the heartbeat claims no turn."""
        self.outage_noted = True
        if self.outage_path:
            part = f"{self.outage_path}.{os.getpid()}"
            with open(part, "w") as fh:  # whole or not at all for the probe that reads it
                json.dump({"loop": self.loop, "since": since, "error": error}, fh)
            os.replace(part, self.outage_path)


def run_loop(turn: Callable[[], float], heart: Heartbeat, period: float | None) -> int:
    """Run ``turn()`` (one pass of the loop's work, answering how many seconds to sleep before
    the next one) until interrupted (Ctrl-C: 0). ``period=None``: one pass only, whose storage
    failure ends the process with a line and 1 (never a traceback). Otherwise a turn that
    fails on the storage (``StoreError``, ``StoreUnavailable`` included) is tried again after a
    back-off from ``BACKOFF_FIRST`` up to ``min(period, BACKOFF_MOST)`` seconds, and the loop
    goes on as soon as the storage answers again (:class:`Outage`, :class:`Heartbeat`)."""
    most = BACKOFF_MOST if period is None else min(max(period, BACKOFF_FIRST), BACKOFF_MOST)
    outage = Outage(heart.loop, Backoff(BACKOFF_FIRST, most))
    while True:
        try:
            wait = turn()
        except KeyboardInterrupt:
            return 0
        except StoreError as exc:
            if period is None:
                error = str(exc) or type(exc).__name__
                log.error("%s: storage unavailable, the pass did not complete: %s", heart.loop,
                          error, extra={"loop": heart.loop, "error": error})
                return 1
            wait = outage.failed(exc)
            heart.wait_out(outage.since or time.time(), outage.error)
        else:
            outage.recovered()
            heart.beat()
            if period is None:
                return 0
        try:
            time.sleep(wait)
        except KeyboardInterrupt:
            return 0


def _outage_note(path: str, now: float) -> tuple[float, dict[str, Any]] | None:
    """The age of the loop's outage file and what it says, or None when there is none."""
    try:
        age = now - os.stat(path + OUTAGE_SUFFIX).st_mtime
        with open(path + OUTAGE_SUFFIX) as fh:
            note = json.load(fh)
    except (OSError, ValueError):
        return None
    return age, note if isinstance(note, dict) else {}


def alive(path: str, within: float, now: float | None = None,
          outage_ok: bool = False) -> tuple[bool, str]:
    """Whether the loop whose heartbeat file is ``path`` turned within ``within`` seconds, and
    a line saying so. ``outage_ok``: also true while the loop waits out a storage outage (its
    outage file touched within ``within`` seconds): the process is alive, only its storage is
    away."""
    now = time.time() if now is None else now
    outage = _outage_note(path, now)
    waiting = ""
    if outage is not None and outage[0] <= within:
        since = outage[1].get("since")
        lasted = f" for {now - since:.0f} s" if isinstance(since, (int, float)) else ""
        waiting = f"waiting for its storage{lasted} ({outage[1].get('error', 'unavailable')})"
    try:
        age = now - os.stat(path).st_mtime
    except FileNotFoundError:
        if waiting and outage_ok:
            return True, f"{path}: the loop has not turned yet, {waiting}"
        return False, f"{path}: no heartbeat yet (the loop has not turned once)" + \
            (f", {waiting}" if waiting else "")
    if age > within:
        if waiting and outage_ok:
            return True, f"{path}: the loop last turned {age:.0f} s ago, {waiting}"
        return False, f"{path}: the loop last turned {age:.0f} s ago (more than {within:g} s)" + \
            (f", {waiting}" if waiting else "")
    return True, f"{path}: the loop turned {age:.1f} s ago" + (f", {waiting}" if waiting else "")
