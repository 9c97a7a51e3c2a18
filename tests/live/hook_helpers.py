"""A webhook receiver and sender processes for the tests that follow deliveries end to end
(tests/live/test_webhooks.py, tests/e2e/test_doc_commands.py's run of docs/api.md)."""

from __future__ import annotations

import http.server
import json
import os
import subprocess
import sys
import threading
import time
from typing import Any

from impresario_engine.serve import stop_process


class Receiver:
    """An HTTP receiver on 127.0.0.1: records each POST (path, headers, body); answers what
    ``answers`` says for a path (a list of statuses, taken in turn; then 200), after
    ``delay`` seconds."""

    def __init__(self) -> None:
        self.got: list[tuple[str, dict[str, str], bytes]] = []
        self.answers: dict[str, list[int]] = {}
        self.delay = 0.0
        self.lock = threading.Lock()
        receiver = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                time.sleep(receiver.delay)
                with receiver.lock:
                    receiver.got.append((self.path, dict(self.headers), body))
                    queue = receiver.answers.get(self.path) or []
                    status = queue.pop(0) if queue else 200
                self.send_response(status)
                if 300 <= status < 400:
                    self.send_header("Location", "http://169.254.169.254/latest/meta-data")
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def at(self, path: str) -> list[tuple[dict[str, str], dict[str, Any]]]:
        with self.lock:
            return [(h, json.loads(b)) for p, h, b in self.got if p == path]

    def raw(self, path: str) -> list[tuple[dict[str, str], bytes]]:
        with self.lock:
            return [(h, b) for p, h, b in self.got if p == path]


class Senders:
    """Sender processes started here (``notify --loop``), stopped at the end."""

    def __init__(self, redis_url: str, env: dict[str, str], folder) -> None:
        self.env = {**os.environ, "REDIS_URL": redis_url, "LOG_LEVEL": "warning", **env}
        self.folder = folder
        self.procs: list[subprocess.Popen] = []

    def start(self) -> subprocess.Popen:
        log = open(self.folder / f"sender-{len(self.procs)}.log", "wb")
        proc = subprocess.Popen([sys.executable, "-m", "impresario_engine", "notify", "--loop",
                                 "0.2", "--quiet"], env=self.env, stdout=log,
                                stderr=subprocess.STDOUT)
        log.close()
        self.procs.append(proc)
        return proc

    def stop(self) -> None:
        for proc in self.procs:
            stop_process(proc, timeout=10)
