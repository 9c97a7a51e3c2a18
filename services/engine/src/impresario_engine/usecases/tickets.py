"""Stream tickets: a token holder asks for one (its token as the bearer), and an event stream
opened with it, in its URL, follows the game as that token would. A browser's ``EventSource``
cannot send an Authorization header; a ticket lets it open a seat's own stream without a
long-lived token ever travelling in a URL (``table.access`` says what a ticket is)."""

from __future__ import annotations

import math
from typing import Any

import orjson

from ..table.access import (Caller, authenticate, invalid_ticket, new_token, ticket_caller,
                            ticket_record, token_hash)
from ..table.record import is_due
from .play import settle
from .unit import Engine, Loaded, load


def issue(engine: Engine, game_id: str, token: str) -> dict[str, Any]:
    """A new ticket for the holder of ``token`` (a seat's, the host's or a private game's
    spectator token) in this game: ``{"ticket", "expires_at"}``, good for one stream until
    ``expires_at`` (Unix seconds)."""
    loaded = load(engine, game_id)
    authenticate(loaded.doc, token)  # 401 invalid_token for a token of nobody here
    seconds = engine.config.stream_ticket_seconds
    expires_at = math.floor(engine.clock()) + seconds
    ticket = new_token()
    record = ticket_record(token, game_id, expires_at)
    # Redis forgets it a little after it expires (the engine's clock decides, not Redis's)
    engine.store.put_ticket(game_id, token_hash(ticket), orjson.dumps(record), seconds + 5)
    return {"ticket": ticket, "expires_at": expires_at}


def redeem(engine: Engine, game_id: str, ticket: str, opens: bool = True
           ) -> tuple[Loaded, Caller]:
    """The game and the caller a ticket stands for, the ticket used up (whatever the answer:
    one ticket, one try). Deadlines that have passed are applied first, as for any read.
    A request that ``opens`` no stream (a HEAD: no body is read) is refused, and the ticket
    is left for the stream it was asked for."""
    if not opens:
        raise invalid_ticket("a request that reads no stream (HEAD) opens nothing with it")
    loaded = load(engine, game_id)
    raw = engine.store.take_ticket(game_id, token_hash(ticket))
    record = orjson.loads(raw) if raw else None
    caller = ticket_caller(loaded.doc, record, engine.clock())
    if is_due(loaded.doc, loaded.ruleset, engine.clock()):
        loaded = settle(engine, game_id)[0]
    return loaded, caller
