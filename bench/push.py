"""What the Web Push channel costs (``make bench``, beside the players' figures): in process,
on the bench's Redis, sending to a local push service on 127.0.0.1 (an HTTP server that
answers 201 to every POST, as a push service does; nothing leaves the machine).

- **a notice**: ``push.deliver`` for a write that makes it a subscribed player's move: the
  decision (who must act, deadlines), the player's subscriptions read, the notice's SET NX,
  the payload encrypted (aes128gcm, a fresh ECDH key) and VAPID-signed by pywebpush, and the
  POST answered;
- **nothing to tell**: ``push.deliver`` for a write of a flagged game in which no subscribed
  player's turn began (the decision alone).

``python bench/push.py REDIS_URL`` prints them.
"""

from __future__ import annotations

import base64
import os
import statistics
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid

from impresario_engine.config import Config
from impresario_engine.store import GameStore, connect
from impresario_engine.usecases import create, players, push, seats
from impresario_engine.usecases.unit import Engine, load

NOTICES = 200


class _Receiver(BaseHTTPRequestHandler):
    def do_POST(self) -> None:  # noqa: N802
        self.rfile.read(int(self.headers.get("Content-Length", "0")))
        self.send_response(201)
        self.end_headers()

    def log_message(self, *args: Any) -> None:
        pass


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def run(url: str, log=print) -> dict[str, Any]:
    folder = tempfile.mkdtemp(prefix="impresario-push-")
    key = Vapid()
    key.generate_keys()
    with open(os.path.join(folder, "vapid.pem"), "wb") as fh:
        fh.write(key.private_pem())
    svc = Engine(GameStore(connect(url)), Config(
        redis_url=url, vapid_private_key_file=os.path.join(folder, "vapid.pem"),
        vapid_subject="mailto:bench@example.test", push_allow_private=True))
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Receiver)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        anna, _t = players.create(svc.store, "Anna", svc.clock)
        browser = ec.generate_private_key(ec.SECP256R1()).public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
        push.subscribe(svc, anna, f"http://127.0.0.1:{server.server_address[1]}/send/anna",
                       _b64(browser), _b64(os.urandom(16)), "en")
        made = create.create_game(svc, "turandot", 3, 7, None, host_player=anna.id).body
        gid = made["game"]["id"]
        seats.join(svc, gid, "Anna", token=made["host_token"])
        for name in ("Bo", "Cy"):
            seats.join(svc, gid, name)
        doc = load(svc, gid).doc
        assert doc.get("notify") and 0 in {int(s) for s in doc["since"]}
        events = svc.store.events(gid, 0)
        sent_key = f"push-sent:{{{gid}}}:your_move:0:{doc['since']['0']!r}"
        notice_ms = []
        for _ in range(NOTICES):
            svc.store.client.delete(sent_key)  # told again: each round trip sends one notice
            started = time.perf_counter()
            assert push.deliver(svc, gid, doc, events) == 1
            notice_ms.append((time.perf_counter() - started) * 1000)
        quiet_ms = []
        for _ in range(NOTICES):  # told already: the decision and the SET NX alone
            started = time.perf_counter()
            assert push.deliver(svc, gid, doc, events) == 0
            quiet_ms.append((time.perf_counter() - started) * 1000)
    finally:
        server.shutdown()
        server.server_close()
    out = {"notice_ms": round(statistics.median(notice_ms), 3),
           "notice_p95_ms": round(sorted(notice_ms)[int(0.95 * len(notice_ms))], 3),
           "nothing_to_tell_ms": round(statistics.median(quiet_ms), 3)}
    log(f"push: {out}")
    return out


def table(r: dict[str, Any]) -> list[str]:
    return ["", "what the Web Push channel costs, in process (ms, median)",
            f"  a notice (decide, encrypt, sign, POST)   {r['notice_ms']:8.3f}"
            f"   p95 {r['notice_p95_ms']:.3f}",
            f"  a flagged write, nothing to tell         {r['nothing_to_tell_ms']:8.3f}"]


if __name__ == "__main__":
    print("\n".join(table(run(sys.argv[1], log=lambda _m: None))))
