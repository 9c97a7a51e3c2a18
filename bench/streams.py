"""How many event streams one pod holds: gunicorn as shipped (the engine's config), streams
opened at once until the workers refuse them (503 ``too_many_streams``), then all closed by
their clients and as many opened again a moment later.

    python bench/streams.py            # alone: its own embedded Redis and gunicorn
    (and as a step of bench/run.py, on the engine it starts)

The figure to read: streams admitted out of the nominal ``WEB_CONCURRENCY x
MAX_STREAMS_PER_WORKER``. Connections go to whichever worker accepts first, so a pod may refuse
some before every worker is full. Bounded: at most nominal + 64 sockets on 127.0.0.1.
"""

from __future__ import annotations

import http.client
import json
import os
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, Callable

HERE = Path(__file__).resolve().parent


def _open(port: int, path: str, timeout: float = 30.0) -> tuple[int, socket.socket | None]:
    """One stream request on its own connection: (status, the socket if it was admitted)."""
    s = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    s.sendall(f"GET {path} HTTP/1.1\r\nHost: bench\r\nAccept: text/event-stream\r\n\r\n"
              .encode())
    head = b""
    while b"\r\n" not in head:
        chunk = s.recv(4096)
        if not chunk:
            break
        head += chunk
    status = int(head.split(b" ", 2)[1]) if head.startswith(b"HTTP/") else 0
    if status != 200:
        if os.environ.get("BENCH_DEBUG"):
            print(head[:600])
        s.close()
        return status, None
    return status, s


def _burst(port: int, path: str, count: int) -> tuple[list[int], list[socket.socket]]:
    statuses: list[int] = []
    held: list[socket.socket] = []
    lock = threading.Lock()

    def one() -> None:
        try:
            status, s = _open(port, path)
        except OSError:
            status, s = 0, None
        with lock:
            statuses.append(status)
            if s is not None:
                held.append(s)

    threads = [threading.Thread(target=one) for _ in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return statuses, held


def run(port: int, workers: int, per_worker: int, log: Callable[[str], None] = print
        ) -> dict[str, Any]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("POST", "/v1/games", body=json.dumps({"ruleset": "turandot", "players": 2}),
                 headers={"Content-Type": "application/json"})
    game = json.loads(conn.getresponse().read())["game"]["id"]
    conn.close()
    path = f"/v1/games/{game}/events"
    nominal = workers * per_worker
    out: dict[str, Any] = {"workers": workers, "per_worker": per_worker, "nominal": nominal}
    statuses, held = _burst(port, path, nominal + 32)
    out["opened_at_once"] = nominal + 32
    out["admitted"] = len(held)
    out["refused_503"] = statuses.count(503)
    out["other"] = len(statuses) - len(held) - statuses.count(503)
    log(f"streams per pod: {len(held)} admitted of {nominal} nominal ({workers} workers x "
        f"{per_worker}) when {nominal + 32} open at once; {out['refused_503']} x 503")
    for s in held:
        s.close()
    time.sleep(2.5)  # a closed client is noticed within one wait on Redis (a second)
    statuses, held = _burst(port, path, nominal)
    out["reopened_after_close"] = len(held)
    out["reopened_refused_503"] = statuses.count(503)
    log(f"closed by their clients, {nominal} opened again 2.5 s later: {len(held)} admitted, "
        f"{statuses.count(503)} x 503")
    for s in held:
        s.close()
    return out


def main() -> int:
    import subprocess

    sys.path.insert(0, str(HERE.parent / "services" / "engine" / "src"))
    from impresario_engine.store.embedded import EmbeddedRedis, free_port

    folder = Path(tempfile.mkdtemp(prefix="bench-streams-"))
    redis = EmbeddedRedis(folder / "redis", appendonly=False).start()
    port = free_port()
    workers = int(os.environ.get("WEB_CONCURRENCY") or max(2, (os.cpu_count() or 1) * 2))
    per_worker = int(os.environ.get("MAX_STREAMS_PER_WORKER") or 48)
    env = dict(os.environ, REDIS_URL=redis.url, BIND=f"127.0.0.1:{port}",
               WEB_CONCURRENCY=str(workers), LOG_LEVEL="warning", LOG_REQUESTS="0")
    proc = subprocess.Popen([sys.executable, "-m", "gunicorn", "-c",
                             "python:impresario_engine.gunicorn_conf",
                             "impresario_engine.wsgi:app"], env=env)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise RuntimeError("gunicorn did not start") from None
                time.sleep(0.2)
        time.sleep(5.0)  # every worker has loaded the app and accepts
        print(json.dumps(run(port, workers, per_worker)))
    finally:
        proc.terminate()
        proc.wait(30)
        redis.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
