"""The credentials of a request to ``/v1/games``, checked before anything else in it (its
headers, query and body), by every route of games, the move's own included: a malformed
``Authorization`` header, an oversized spectator token, or no token where one is needed is 401
whatever else is wrong (a join link's malformed token: 403). Whether a token belongs to the
game is known once the game is read (404 first when there is no such game)."""

from __future__ import annotations

import re
from typing import Mapping

from .errors import ApiError
from .http import GAME_ID_PATTERN, JWT_MAX, parse_bearer
from .identity import looks_like_jwt

GAME_ID = re.compile(GAME_ID_PATTERN)

#: the operations whose bearer may be a player's (a platform's JWT is longer than a token)
PLAYER_BEARER = {"games.create_game", "games.join_game"}
#: the operations that need a bearer token
NEEDS_TOKEN = {"games.make_move": "a move needs the seat's bearer token",
               "games.resolve_game": "resolving a game needs the host's or a seat's token",
               "games.create_stream_ticket": "a stream ticket needs the bearer token of a "
                                             "seat, the host or the spectator link"}


def checked_game_id(value: str) -> str:
    """``value``, when a game could have it as its id; else 404 ``game_not_found``."""
    if not GAME_ID.match(value):
        raise ApiError(404, "game_not_found", f"there is no game {value!r}")
    return value


def credentials_first(endpoint: str, authorization: str | None, args: Mapping[str, str],
                      opens_stream: bool) -> str | None:
    """The bearer token of a request to the operation ``endpoint`` (None without one), its
    ``Authorization`` header and query ``args`` checked (see the module's doc);
    ``opens_stream``: the request asks for the event stream."""
    token = parse_bearer(authorization, JWT_MAX if endpoint in PLAYER_BEARER else 256)
    if token is not None and len(token) > 256 and not looks_like_jwt(token):
        parse_bearer(authorization)  # longer than any token but a platform's JWT: 401
    link = args.get("spectator")
    if link is not None and len(link) > 256:  # refused even beside a bearer token
        raise ApiError(401, "invalid_token", "the spectator token is not valid")
    join = args.get("join") if endpoint == "games.join_game" else None
    if join is not None and not 0 < len(join) <= 256:
        raise ApiError(403, "invalid_join_token", "the join link's token is not valid for this "
                       "game")
    ticket = args.get("ticket")
    if ticket is not None:
        ticket_usable(ticket, token, link, endpoint == "games.get_events" and opens_stream)
    missing = NEEDS_TOKEN.get(endpoint)
    if missing and token is None:
        raise ApiError(401, "missing_token", missing, headers={"WWW-Authenticate": "Bearer"})
    return token


def ticket_usable(ticket: str, token: str | None, link: str | None, opens_stream: bool) -> None:
    """A stream ticket (``?ticket=``) opens an event stream and nothing else: on any other
    request, beside another credential, or of a size no ticket has, it is refused (401
    ``invalid_ticket``, counted as a failed authentication) and left unused."""
    why = None
    if not 0 < len(ticket) <= 256:
        why = "the stream ticket is not valid"
    elif not opens_stream:
        why = ("a stream ticket opens only the game's event stream (GET /events with Accept: "
               "text/event-stream)")
    elif token is not None or link is not None:
        why = "send a stream ticket or another credential, not both"
    if why:
        raise ApiError(401, "invalid_ticket", why)
