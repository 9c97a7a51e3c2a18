"""Idempotency: a retried request (the same ``Idempotency-Key`` and the same request from the same
caller) gets the first answer again instead of being made twice.

A game's records live beside it (read and written by the unit of work with the game itself);
creating a game has no game yet, so its record has a key of its own, claimed first with
SET NX so that two racing retries cannot both create a game. Credentials in a record are sealed
with the key (``table/access.py``); a token-less request's key is bound to its client.
"""

from __future__ import annotations

import hashlib
from typing import Any

from ..store import codec
from ..table.access import client_tag, seal_secrets, unseal_secrets
from ..table.errors import CONFLICT, INVALID, Refused, contention
from .unit import Engine, Loaded


def record_key(token_id: str, key: str | None) -> str | None:
    """The name of the record of ``key`` for the caller ``token_id`` (None: no key sent)."""
    return None if key is None else f"{token_id}:{hashlib.sha256(key.encode()).hexdigest()[:32]}"


def record(engine: Engine, loaded: Loaded, token_id: str, key: str | None, fingerprint: str,
           status: int, body: dict[str, Any], who: str | None = None
           ) -> tuple[str, bytes] | None:
    """The record of this request's answer, to save with the game (None: no key sent)."""
    if key is None:
        return None
    fields = {"fp": fingerprint, "status": status,
              "body": seal_secrets(body, loaded.doc["id"], key)}
    if who:
        fields["who"] = who
    packed = codec.pack(fields, legacy=engine.legacy_storage)
    return record_key(token_id, key), packed  # type: ignore[return-value]


def replayed(loaded: Loaded, fingerprint: str, key: str | None, who: str | None = None
             ) -> dict[str, Any] | None:
    """The first answer to this request, when it is a retry (marked ``_replayed``)."""
    if loaded.idem is None or key is None:
        return None
    found = codec.unpack(loaded.idem)
    _check_client(found, who)
    if found["fp"] != fingerprint:
        raise _reused()
    body = unseal_secrets(found["body"], loaded.doc["id"], key)
    body["_replayed"] = True
    return body


def _check_client(found: dict[str, Any], tag: str | None) -> None:
    if found.get("who") and found["who"] != tag:
        raise Refused("idempotency_key_taken", CONFLICT, "this Idempotency-Key was used by "
                      "another client; send a new random key")


def _reused() -> Refused:
    return Refused("idempotency_key_reused", INVALID,
                   "this Idempotency-Key was used with a different request")


# -- creating a game
def create_key(key: str) -> str:
    return "idem:create:{" + hashlib.sha256(key.encode()).hexdigest()[:32] + "}"


def begin_create(engine: Engine, key: str, fingerprint: str, client: str = ""
                 ) -> dict[str, Any] | None:
    """The recorded answer to an earlier create with this key by this client, or None (then
    this request may create the game, and records its answer with :func:`finish_create`)."""
    name = create_key(key)
    for _ in range(3):
        if engine.store.set_if_absent(name, b"pending", 60):
            return None
        raw = engine.store.get(name)
        if raw is None:
            continue
        if raw == b"pending":
            raise Refused("idempotency_in_progress", CONFLICT,
                          "a request with this Idempotency-Key is still being processed",
                          retry_after=1)
        found = codec.unpack(raw)
        _check_client(found, client_tag(key, client))
        if found["fp"] != fingerprint:
            raise _reused()
        return unseal_secrets(found["body"], "create", key)
    raise contention()


def finish_create(engine: Engine, key: str, fingerprint: str, body: dict[str, Any],
                  client: str = "") -> None:
    found = {"fp": fingerprint, "body": seal_secrets(body, "create", key),
             "who": client_tag(key, client)}
    engine.store.set(create_key(key), codec.pack(found, legacy=engine.legacy_storage),
                     engine.config.idempotency_ttl)


def abort_create(engine: Engine, key: str) -> None:
    try:
        engine.store.delete(create_key(key))
    except Exception:  # noqa: BLE001 - the record expires by itself anyway
        pass
