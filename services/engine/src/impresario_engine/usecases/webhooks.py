"""Webhook endpoints: a game's host registers, lists and deletes the game's own (the host
token); the operator's (``WEBHOOKS_FILE``) are read with their key. Each endpoint's delivery
log, and a message sent again on request. The sending is the sender's (:mod:`.notify`)."""

from __future__ import annotations

import hashlib
import hmac
import socket
from typing import Any

from ..table import webhooks as wh
from ..table.access import authenticate
from ..table.clock import FINISHED
from ..table.errors import CONFLICT, FORBIDDEN, INVALID, NOT_FOUND, UNAUTHENTICATED, Refused
from ..table.notices import owned_seats
from . import outgoing, push
from .notify import find_endpoint
from .unit import Done, Engine, Loaded, Save, load, transact

#: how long a resolver may be asked at registration (the sender checks again at every send)
Resolver = outgoing.Resolver


def _host(loaded: Loaded, token: str | None) -> None:
    if token is None:
        raise Refused("missing_token", UNAUTHENTICATED, "webhooks need the host's token")
    if not authenticate(loaded.doc, token).host:
        raise Refused("host_only", FORBIDDEN, "only the game's host manages its webhooks")


def _open(loaded: Loaded) -> None:
    """A finished game is archived and takes no write: no endpoint comes or goes (its log and
    redeliveries still work)."""
    if loaded.doc["status"] == FINISHED:
        raise Refused("game_finished", CONFLICT, "the game is over: its webhooks no longer "
                      "change (their logs and redeliveries still work)")


def _not_found(endpoint_id: str) -> Refused:
    return Refused("webhook_not_found", NOT_FOUND, f"there is no webhook {endpoint_id!r} here")


def register(engine: Engine, game_id: str, token: str | None, url: str, events: Any,
             resolver: Resolver = socket.getaddrinfo) -> dict[str, Any]:
    """A new endpoint of the game: its id, url, events and secret (the secret shown only
    here). The URL is checked (outgoing.py) before anything is written."""
    first = load(engine, game_id)
    _host(first, token)
    _open(first)
    types = wh.event_types(events if events is not None else [wh.EVERY])
    if types is None:
        raise Refused("invalid_webhook_events", INVALID, 'events: a list of event types, or '
                      '["*"] for every one')
    outgoing.checked(url, engine.config, resolver)
    endpoint = {"id": wh.new_endpoint_id(), "url": url, "secret": wh.new_secret(),
                "events": types, "created": round(engine.clock(), 3)}

    def step(loaded: Loaded) -> Save:
        _host(loaded, token)
        _open(loaded)
        hooks = dict(loaded.doc.get("hooks") or {})
        if len(hooks) >= engine.config.webhooks_per_game:
            raise Refused("too_many_webhooks", CONFLICT, f"a game has at most "
                          f"{engine.config.webhooks_per_game} webhooks")
        hooks[endpoint["id"]] = endpoint
        return Save({**loaded.doc, "hooks": hooks, "notify": True}, [])

    transact(engine, game_id, step)
    return {**shown(engine, endpoint), "secret": endpoint["secret"]}


def shown(engine: Engine, endpoint: dict[str, Any]) -> dict[str, Any]:
    """An endpoint as GET shows it: no secret; ``disabled`` (and why) when it is."""
    out = wh.public(endpoint)
    out.setdefault("created", None)
    off = engine.store.webhooks.disabled(endpoint["id"])
    out["disabled"] = off is not None
    out["disabled_reason"] = off["reason"] if off else None
    return out


def listing(engine: Engine, game_id: str, token: str | None) -> list[dict[str, Any]]:
    loaded = load(engine, game_id)
    _host(loaded, token)
    return [shown(engine, e) for e in (loaded.doc.get("hooks") or {}).values()]


def delete(engine: Engine, game_id: str, token: str | None, endpoint_id: str) -> None:
    def step(loaded: Loaded) -> Save | Done:
        _host(loaded, token)
        _open(loaded)
        hooks = dict(loaded.doc.get("hooks") or {})
        if endpoint_id not in hooks:
            raise _not_found(endpoint_id)
        del hooks[endpoint_id]
        doc = {**loaded.doc, "hooks": hooks}
        # a game nobody is told of any more stops notifying: no endpoint left, none of the
        # operator's, and none of its players asked for Web Push
        if not hooks and not engine.hooks.covering(loaded.doc) and not any(
                push.wanted(engine, p) for p in owned_seats(loaded.doc).values()):
            doc["notify"] = False
        return Save(doc, [])

    transact(engine, game_id, step)
    engine.store.webhooks.forget(endpoint_id)


def _game_endpoint(engine: Engine, game_id: str, token: str | None, endpoint_id: str
                   ) -> tuple[Loaded, dict[str, Any]]:
    loaded = load(engine, game_id)
    _host(loaded, token)
    endpoint = (loaded.doc.get("hooks") or {}).get(endpoint_id)
    if endpoint is None:
        raise _not_found(endpoint_id)
    return loaded, endpoint


def operator_endpoint(engine: Engine, endpoint_id: str, key: str | None) -> wh.OperatorEndpoint:
    """An operator's endpoint, for the bearer of its key (its SHA-256 in WEBHOOKS_FILE)."""
    found = engine.hooks.by_id.get(endpoint_id)
    if key is None:
        raise Refused("missing_token", UNAUTHENTICATED, "send the endpoint's key as the bearer")
    digest = hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()
    if found is None or not hmac.compare_digest(digest, found.key_sha256):
        raise Refused("invalid_token", UNAUTHENTICATED, "the key is not this endpoint's")
    return found


def deliveries(engine: Engine, endpoint_id: str, game_id: str | None = None,
               token: str | None = None, key: str | None = None) -> dict[str, Any]:
    """An endpoint's latest attempts (newest first, at most ``WEBHOOK_LOG_SIZE``)."""
    if game_id is not None:
        _loaded, endpoint = _game_endpoint(engine, game_id, token, endpoint_id)
        head = shown(engine, endpoint)
    else:
        head = shown(engine, operator_endpoint(engine, endpoint_id, key).as_endpoint())
    attempts = [{"message_id": a.get("message_id"), "event_type": a.get("type"),
                 **{k: a.get(k) for k in ("game_id", "seq", "attempt", "at", "status", "error",
                                          "ms")}}
                for a in engine.store.webhooks.log(endpoint_id, engine.config.webhook_log_size)]
    return {"endpoint": head, "attempts": attempts}


def redeliver(engine: Engine, endpoint_id: str, message_id: str, game_id: str | None = None,
              token: str | None = None, key: str | None = None) -> dict[str, Any]:
    """Send a message again, with its own id: scheduled now for the sender."""
    parsed = wh.parse_message_id(message_id)
    missing = Refused("message_not_found", NOT_FOUND, f"there is no message {message_id!r} "
                      "for this webhook")
    if game_id is not None:
        _loaded, endpoint = _game_endpoint(engine, game_id, token, endpoint_id)
        if parsed is None or parsed[0] != game_id:
            raise missing
    else:
        operator_endpoint(engine, endpoint_id, key)
        if parsed is None:
            raise missing
    gid, seq = parsed
    _v, doc, _i, _r = engine.store.read_game(gid)
    endpoint = find_endpoint(engine, doc, endpoint_id) if doc is not None else None
    found = engine.store.events(gid, seq - 1, 1) if endpoint is not None else []
    if not found or not wh.wants(endpoint["events"], str(found[0][1].get("type"))):
        raise missing
    if engine.store.webhooks.disabled(endpoint_id) is not None:
        raise Refused("webhook_disabled", CONFLICT, "this webhook is disabled (see its "
                      "disabled_reason): delete it and register it again")
    at_ms = int(engine.clock() * 1000)
    for attempt in engine.store.webhooks.log(endpoint_id, engine.config.webhook_log_size):
        if attempt.get("message_id") == message_id and attempt.get("t"):
            at_ms = int(attempt["t"])
            break
    engine.store.webhooks.schedule({"e": endpoint_id, "g": gid, "s": seq, "t": at_ms, "a": 0,
                                    "r": round(engine.clock(), 3)}, engine.clock())
    return {"message_id": message_id, "scheduled": True}
