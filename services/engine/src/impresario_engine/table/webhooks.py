"""Webhooks, as plain values: endpoints (a game's, registered by its host; the operator's, for
a platform's games or for every game), the messages they are sent (Standard Webhooks: what a
spectator may see of one event) and their ids.

A game's endpoint lives in its document (``doc["hooks"]``: id, url, secret, the event types
wanted, when it was made); the game's ``doc["notify"]`` is true while it has one, or when an
operator's endpoint took it in at its creation (the write's outbox entry depends on that flag
alone, write.lua). The operator's endpoints come from ``WEBHOOKS_FILE``::

    {"endpoints": [
      {"id": "ep_platform_a", "url": "https://hooks.platform-a.example/impresario",
       "secret": "whsec_<base64 of 24 to 64 random bytes>",
       "events": ["*"], "platform": "https://id.platform-a.example",
       "key_sha256": "<hex SHA-256 of the key the platform reads its deliveries with>"},
      {"id": "ep_archive", "url": "https://archive.example/in", "secret": "whsec_...",
       "events": ["game_over"], "all_games": true, "key_sha256": "<hex>"}]}

``platform``: every game created by that trusted issuer's users (``TRUSTED_ISSUERS_FILE``);
``all_games``: every game created while it is listed.
"""

from __future__ import annotations

import base64
import datetime as dt
import json
import re
import secrets
from dataclasses import dataclass, field
from typing import Any

from .views import numbered

#: what an event type a webhook may ask for looks like ("*": every type)
EVENT_TYPE = re.compile(r"^[a-z][a-z0-9_]{0,39}$")
ENDPOINT_ID = re.compile(r"^ep_[A-Za-z0-9_-]{1,60}$")
MESSAGE_ID = re.compile(r"^msg_([A-Za-z0-9_-]{1,40})_([1-9][0-9]{0,11})$")
EVERY = "*"


def new_endpoint_id() -> str:
    return "ep_" + secrets.token_urlsafe(12)


def new_secret() -> str:
    """A Standard Webhooks secret: ``whsec_`` and 32 random bytes in base64."""
    return "whsec_" + base64.b64encode(secrets.token_bytes(32)).decode()


def message_id(game_id: str, seq: int) -> str:
    """A message's ``webhook-id``: one per event of a game, the same at every retry and
    redelivery (a receiver drops what it has seen by it)."""
    return f"msg_{game_id}_{seq}"


def parse_message_id(text: str) -> tuple[str, int] | None:
    found = MESSAGE_ID.match(text)
    return (found.group(1), int(found.group(2))) if found else None


def wants(events: list[str], event_type: str) -> bool:
    return EVERY in events or event_type in events


def event_types(value: Any) -> list[str] | None:
    """The event types of an endpoint as given (None: not a list of types, or ``*``)."""
    if not isinstance(value, list) or not value or len(value) > 50:
        return None
    if not all(isinstance(v, str) and (v == EVERY or EVENT_TYPE.match(v)) for v in value):
        return None
    return sorted(set(value))


def payload(game_id: str, seq: int, event: dict[str, Any], at_ms: int) -> bytes:
    """A message's body: the event as a spectator sees it (never a hand, a sealed bid or the
    deck: ``views.numbered`` for no seat), its type and the time of the write that made it."""
    seen = numbered(seq, event, None)
    when = dt.datetime.fromtimestamp(at_ms / 1000, dt.timezone.utc)
    return json.dumps({"type": event.get("type", "event"),
                       "timestamp": when.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
                       "data": {"game_id": game_id, "seq": seq, "event": seen}},
                      separators=(",", ":"), sort_keys=True).encode()


def public(endpoint: dict[str, Any]) -> dict[str, Any]:
    """What GET shows of a game's endpoint: everything but its secret."""
    return {k: endpoint[k] for k in ("id", "url", "events", "created") if k in endpoint}


@dataclass(frozen=True)
class OperatorEndpoint:
    """An endpoint of ``WEBHOOKS_FILE``."""

    id: str
    url: str
    secret: str
    events: list[str]
    key_sha256: str
    platform: str | None = None
    all_games: bool = False

    def as_endpoint(self) -> dict[str, Any]:
        return {"id": self.id, "url": self.url, "secret": self.secret, "events": self.events}

    def covers(self, doc: dict[str, Any]) -> bool:
        """Whether a game created now is this endpoint's."""
        return self.all_games or (self.platform is not None and
                                  doc.get("platform") == self.platform)


@dataclass(frozen=True)
class OperatorEndpoints:
    endpoints: tuple[OperatorEndpoint, ...] = ()
    by_id: dict[str, OperatorEndpoint] = field(default_factory=dict)

    @classmethod
    def parse(cls, text: str) -> "OperatorEndpoints":
        data = json.loads(text)
        if not isinstance(data, dict) or not isinstance(data.get("endpoints"), list):
            raise ValueError('WEBHOOKS_FILE must be {"endpoints": [...]}')
        found: list[OperatorEndpoint] = []
        for entry in data["endpoints"]:
            if not isinstance(entry, dict):
                raise ValueError("each endpoint of WEBHOOKS_FILE is an object")
            eid = entry.get("id")
            if not isinstance(eid, str) or not ENDPOINT_ID.match(eid):
                raise ValueError(f"endpoint id {eid!r}: ep_ and 1 to 60 of A-Z a-z 0-9 _ -")
            secret = entry.get("secret")
            if not isinstance(secret, str) or not secret.startswith("whsec_"):
                raise ValueError(f"endpoint {eid}: its secret is whsec_ and base64")
            try:
                if len(base64.b64decode(secret[6:], validate=True)) < 24:
                    raise ValueError
            except ValueError:
                raise ValueError(f"endpoint {eid}: its secret needs 24 to 64 random bytes "
                                 "in base64") from None
            events = event_types(entry.get("events", [EVERY]))
            if events is None:
                raise ValueError(f"endpoint {eid}: events is a list of event types, or [\"*\"]")
            key = entry.get("key_sha256")
            if not isinstance(key, str) or not re.fullmatch(r"[0-9a-f]{64}", key):
                raise ValueError(f"endpoint {eid}: key_sha256 is the hex SHA-256 of its key")
            platform = entry.get("platform")
            all_games = entry.get("all_games") is True
            if (platform is None) == (not all_games) or (platform is not None and
                                                         not isinstance(platform, str)):
                raise ValueError(f"endpoint {eid}: either \"platform\" (a trusted issuer) or "
                                 "\"all_games\": true")
            if not isinstance(entry.get("url"), str):
                raise ValueError(f"endpoint {eid}: url")
            found.append(OperatorEndpoint(eid, entry["url"], secret, events, key, platform,
                                          all_games))
        ids = [e.id for e in found]
        if len(set(ids)) != len(ids):
            raise ValueError("WEBHOOKS_FILE names an endpoint id twice")
        return cls(tuple(found), {e.id: e for e in found})

    def covering(self, doc: dict[str, Any]) -> list[OperatorEndpoint]:
        return [e for e in self.endpoints if e.covers(doc)]
