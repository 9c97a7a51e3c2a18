"""Idempotency: a retried request (the same ``Idempotency-Key`` and the same request from the same
caller) gets the first answer again instead of being made twice.

A game's records live beside it (read and written by the unit of work with the game itself, in
the same atomic write as what the request changed: a worker that dies after that write leaves
its answer to the retry). Creating a game has no game yet: its key holds the creation's plan
(the game's id and credentials), written with SET NX before the game, so that a retry, or a
request racing the first, makes the same creation, and a worker that dies at any point blocks
nothing (:func:`planned_create`). Credentials in a record are sealed with the key
(``table/sealing.py``); a token-less request's key is bound to its client.

A move's record does not keep its answer (a few KB, compressed on every move before): it keeps
what the answer was made of besides the game itself (:func:`move_record`: the version and the
number of moves the move left, its events' sequence numbers, the table's facts of the view and
the viewer) and a digest of the answer. A retry makes the answer again (:func:`_answer_again`):
the state is the game's own while it is still at that version, else the state after that many
moves, played again from the seed (a state changes only by its moves); the events come from the
game's stream (or its archive). The digest checks that the answer is the first one, byte for
byte; a difference is logged, and the answer made again is sent (it is the game just after the
move all the same), never a second move.
"""

from __future__ import annotations

import hashlib
import logging
from typing import Any, Callable

import orjson

from ..store import codec
from ..table.access import client_tag
from ..table.sealing import SealError
from ..table.errors import CONFLICT, INVALID, Refused, contention
from ..table.record import state_after
from ..table.views import TableFacts, numbered, view_of
from .unit import Answer, Engine, Loaded

log = logging.getLogger("impresario_engine.usecases")


def record_key(token_id: str, key: str | None) -> str | None:
    """The name of the record of ``key`` for the caller ``token_id`` (None: no key sent)."""
    return None if key is None else _field(token_id, key)


def _field(token_id: str, key: str) -> str:
    return f"{token_id}:{hashlib.sha256(key.encode()).hexdigest()[:32]}"


def record(engine: Engine, loaded: Loaded, token_id: str, key: str | None, fingerprint: str,
           status: int, body: dict[str, Any], who: str | None = None
           ) -> tuple[str, bytes] | None:
    """The record of this request's answer, to save with the game (None: no key sent)."""
    if key is None:
        return None
    fields = {"fp": fingerprint, "status": status,
              "body": engine.sealer.seal(body, loaded.doc["id"], key)}
    if who:
        fields["who"] = who
    packed = codec.pack(fields)
    return record_key(token_id, key), packed  # type: ignore[return-value]


def move_record(engine: Engine, loaded: Loaded, token_id: str, key: str | None,
                fingerprint: str, answer: dict[str, Any], moves: int, viewer: int | None,
                facts: TableFacts, encoded: bytes) -> tuple[str, bytes] | None:
    """The record of a move's answer (``{"version", "events", "game"}``, the game after
    ``moves`` moves as ``viewer`` sees it, made of ``facts``; ``encoded``: its JSON, as sent),
    to save with the game (None: no key sent)."""
    if key is None:
        return None
    events = answer["events"]
    fields, names, due = facts
    made = {"v": answer["version"], "moves": moves, "viewer": viewer,
            "seq": events[0]["seq"] if events else 0, "events": len(events),
            "table": fields, "names": names, "due": list(due.items()),
            "digest": _digest(encoded)}
    return _field(token_id, key), orjson.dumps({"fp": fingerprint, "status": 200, "move": made})


def _digest(encoded: bytes) -> str:
    return hashlib.blake2b(encoded, digest_size=16).hexdigest()


def _answer_again(engine: Engine, loaded: Loaded, made: dict[str, Any]) -> dict[str, Any]:
    """A move's answer made again from its record (see the module's doc)."""
    doc, ruleset, viewer = loaded.doc, loaded.ruleset, made["viewer"]
    state = doc["state"] if loaded.version == made["v"] else state_after(
        ruleset, doc, [(m[0], m[1]) for m in doc["moves"][:made["moves"]]])
    facts = (made["table"], made["names"], {seat: when for seat, when in made["due"]})
    events = engine.store.events(doc["id"], made["seq"] - 1, made["events"]) \
        if made["events"] else []
    answer = {"version": made["v"], "events": [numbered(seq, e, viewer) for seq, e in events],
              "game": view_of(ruleset.view(state, viewer), facts)}
    if _digest(orjson.dumps(answer)) != made["digest"]:
        log.warning("the answer made again to a move replayed on game %s (version %s) differs "
                    "from the first", doc["id"], made["v"])
    return answer


def replayed(engine: Engine, loaded: Loaded, fingerprint: str, key: str | None,
             who: str | None = None) -> Answer | None:
    """The first answer to this request, when it is a retry: a move's made again (from its
    events), any other's with its credentials opened."""
    if loaded.idem is None or key is None:
        return None
    found = codec.unpack(loaded.idem)
    _check_client(found, who)
    if found["fp"] != fingerprint:
        raise _reused()
    if "move" in found:
        body = _answer_again(engine, loaded, found["move"])
    else:
        body = _unseal(engine, found["body"], loaded.doc["id"], key)
    return Answer(body, replayed=True)


def _unseal(engine: Engine, body: dict[str, Any], scope: str, key: str) -> dict[str, Any]:
    """A recorded answer with its credentials opened (``table/sealing.py``)."""
    try:
        return engine.sealer.unseal(body, scope, key)
    except SealError as exc:
        log.error("an idempotency record's credentials do not open (%s): its answer cannot be "
                  "given again", exc)
        raise Refused("idempotency_record_unreadable", CONFLICT, "the first answer to this "
                      "Idempotency-Key cannot be given again (it was sealed with a key the "
                      "service no longer holds); the request was made: read the game, or send "
                      "a new request with a new key") from exc


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


def planned_create(engine: Engine, key: str, fingerprint: str, client: str,
                   plan: Callable[[], dict[str, Any]]) -> tuple[dict[str, Any], bool] | Answer:
    """The creation this Idempotency-Key stands for: ``(its plan, planned before)``.

    The first request writes its plan before the game (``plan()``: the game's id and its
    credentials, sealed), with SET NX; a retry, or a request racing it, reads that plan and
    makes the same creation, whether the first request's worker lived to answer or died after
    any of its writes: the same game, the same credentials, and nothing ever pending. A plan
    lasts as long as an open game may (``OPEN_GAME_TTL_SECONDS``, at most
    ``IDEMPOTENCY_TTL_SECONDS``). A record an engine before plans wrote is read too: its
    answer (an :class:`Answer`), or its mark of a creation still in progress (409)."""
    name = create_key(key)
    tag = client_tag(key, client)
    keep = min(engine.config.idempotency_ttl, engine.config.open_game_ttl)
    for _ in range(3):
        fresh = plan()
        record = {"fp": fingerprint, "who": tag, "game": fresh["game"],
                  "body": engine.sealer.seal({k: v for k, v in fresh.items() if k != "game"},
                                             "create", key)}
        if engine.store.set_if_absent(name, codec.pack(record), keep):
            return fresh, False
        raw = engine.store.get(name)
        if raw is None:
            continue
        if raw == b"pending":  # an engine before plans, still creating
            raise Refused("idempotency_in_progress", CONFLICT,
                          "a request with this Idempotency-Key is still being processed",
                          retry_after=1)
        found = codec.unpack(raw)
        _check_client(found, tag)
        if found["fp"] != fingerprint:
            raise _reused()
        opened = _unseal(engine, found["body"], "create", key)
        if "game" not in found:  # the whole answer, as an engine before plans kept it
            return Answer(opened, replayed=True)
        return {"game": found["game"], **opened}, True
    raise contention()
