"""A local Web Push service for the tests (tests/service/test_push.py, bench/): an HTTP server
on 127.0.0.1 that takes what the engine POSTs to a subscription's endpoint, checks its VAPID
Authorization header (the JWT verified with the key the header names, which must be the
engine's), and decrypts the aes128gcm payload with the subscription's private key, as a
browser would. ``/gone/...`` endpoints answer 410 (a subscription the browser dropped)."""

from __future__ import annotations

import base64
import json
import os
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec


def b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Browser:
    """A browser's side of a subscription: its keys, and the subscription JSON it sends."""

    endpoint: str
    key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1()))
    auth: bytes = field(default_factory=lambda: os.urandom(16))

    def subscription(self, lang: str = "en") -> dict[str, Any]:
        point = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
        return {"endpoint": self.endpoint, "expirationTime": None,
                "keys": {"p256dh": b64(point), "auth": b64(self.auth)}, "lang": lang}


class PushService:
    def __init__(self, vapid_public_key: str | None = None) -> None:
        self.vapid_public_key = vapid_public_key
        self.browsers: dict[str, Browser] = {}
        self.received: list[dict[str, Any]] = []  # path, headers, claims, message
        self.errors: list[str] = []
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                if self.path.startswith("/gone/"):
                    self.send_response(410)
                    self.end_headers()
                    return
                try:
                    service.received.append(service.check(
                        self.path, {k.lower(): v for k, v in self.headers.items()}, body))
                    status = 201
                except Exception as exc:  # noqa: BLE001 (the test reads the errors)
                    service.errors.append(f"{type(exc).__name__}: {exc}")
                    status = 400
                self.send_response(status)
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> "PushService":
        self.thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.server.shutdown()
        self.server.server_close()

    def browser(self, name: str, gone: bool = False) -> Browser:
        made = Browser(f"{self.base}/{'gone' if gone else 'send'}/{name}")
        self.browsers[f"/send/{name}"] = made
        return made

    def check(self, path: str, headers: dict[str, str], body: bytes) -> dict[str, Any]:
        """What a push service and then the browser check of a notification."""
        scheme, _, params = headers["authorization"].partition(" ")
        assert scheme == "vapid", headers["authorization"]
        parts = dict(p.strip().split("=", 1) for p in params.split(","))
        if self.vapid_public_key is not None:
            assert parts["k"] == self.vapid_public_key, "signed with another key"
        key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(parts["k"]))
        claims = jwt.decode(parts["t"], key, algorithms=["ES256"], audience=self.base)
        assert claims["sub"].startswith("mailto:") and claims["exp"] > 0
        assert headers["content-encoding"] == "aes128gcm" and int(headers["ttl"]) > 0
        browser = self.browsers[path]
        plain = http_ece.decrypt(body, private_key=browser.key, auth_secret=browser.auth,
                                 version="aes128gcm")
        return {"path": path, "headers": headers, "claims": claims,
                "message": json.loads(plain)}
