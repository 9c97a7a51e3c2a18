"""The lobby under ``/v1/games``: list the games one may join or watch, give a seat back, and
play again with the same players."""

from __future__ import annotations

from urllib.parse import urlencode

from flask import request
from flask_smorest import Blueprint

from impresario_rules import RULESETS

from ..table import listing
from ..usecases import lobby, rematch, seats
from . import schemas_lobby as s
from .errors import ApiError
from .credentials import checked_game_id
from .documented import problems
from .games import IDEMPOTENCY_PARAM
from .http import (bearer_token, engine, fingerprint, idempotency_key, json_response,
                   replay_headers)

blp = Blueprint("lobby", __name__, url_prefix="/v1/games",
                description="The lobby: list games, leave a seat, play again")

_NEW_GAME = {"game_id": "$response.body#/rematch"}
REMATCH_LINKS = {
    **{name: {"operationId": name, "parameters": _NEW_GAME}
       for name in ("getGame", "getActions", "makeMove", "getEvents")},
    "leaveSeat": {"operationId": "leaveSeat",
                  "parameters": {**_NEW_GAME, "seat": "$response.body#/seat"}},
}
LEAVE_LINKS = {name: {"operationId": name, "parameters": {"game_id": "$request.path.game_id"}}
               for name in ("getGame", "joinGame", "getEvents")}

LIST_PARAMS = [
    {"in": "query", "name": "ruleset", "required": False,
     "schema": {"type": "string", "enum": sorted(RULESETS)},
     "description": "only games of this ruleset"},
    {"in": "query", "name": "status", "required": False,
     "schema": {"type": "string", "enum": list(listing.STATUSES)},
     "description": "`open`: seats may be free (not started); `playing`; `finished`"},
    {"in": "query", "name": "has_bots", "required": False,
     "schema": {"type": "string", "enum": ["true", "false"]},
     "description": "only games with (`true`) or without (`false`) bot seats"},
    {"in": "query", "name": "limit", "required": False,
     "schema": {"type": "integer", "minimum": 1, "maximum": listing.MAX_LIMIT,
                "default": listing.DEFAULT_LIMIT},
     "description": "games per page"},
    {"in": "query", "name": "cursor", "required": False,
     "schema": {"type": "string", "minLength": 1, "maxLength": 200,
                "pattern": "^[A-Za-z0-9_-]+$"},
     "description": "where the page starts: the cursor in the previous page's `next` link"},
]


def _filter(name: str, allowed: list[str]) -> str | None:
    value = request.args.get(name)
    if value is None:
        return None
    if value not in allowed:
        raise ApiError(400, "invalid_filter", f"{name} must be one of {', '.join(allowed)}, "
                       f"not {value[:40]!r}", errors={name: [f"one of {', '.join(allowed)}"]})
    return value


@blp.route("", methods=["GET"])
@blp.doc(operationId="listGames", parameters=LIST_PARAMS)
@blp.response(200, s.GameListSchema, description="A page of public games, newest first",
              example={"games": [{
                  "id": "q3Jx0Lr2mTZ_", "ruleset": "turandot", "status": "open",
                  "seats_taken": 2, "seats_total": 4,
                  "seats": [{"seat": 0, "name": "Anna", "bot": None, "held": False},
                            {"seat": 1, "name": "Robo", "bot": "greedy", "held": False}],
                  "options": {"first_maestro": 0, "move_seconds": 60}, "has_bots": True,
                  "created": 1767225600.0, "updated": 1767225612.5}],
                  "next": "/v1/games?status=open&limit=20&cursor=MXw0ZjFhYjJjM3wxNzY3MjI1NjIwfDE3NjcyMjU2MDAwMDAwMDA6cTNKeDBMcjJtVFpf"})
@problems(400, 503, blueprint=blp, examples={
    400: ("invalid_filter", "status must be one of open, playing, finished, not 'waiting'")})
def list_games():
    """List games

    Public games (a private game never appears), newest first, a page at a time: follow
    `next` until it is `null`. Filters: `ruleset`, `status` (`open`: not started, seats may be
    free; `playing`; `finished`) and `has_bots`. Each game shows its seats with the players'
    names (`bot`: the bot that plays the seat; `held`: kept for a rematch's player), the
    options a joiner cares about, and when it was created and last changed (Unix seconds).
    Open games expire after `OPEN_GAME_TTL_SECONDS` (a day) without a change and leave the
    list; finished games stay listed until they expire (`FINISHED_TTL_SECONDS`). A cursor is
    good for an hour and only with the filters of its page (400 `invalid_cursor`,
    `cursor_expired`); a page may hold fewer games than `limit` and still have a `next`.
    """
    ctx = engine()
    ruleset = _filter("ruleset", sorted(RULESETS))
    status = _filter("status", list(listing.STATUSES))
    raw_bots = _filter("has_bots", ["true", "false"])
    bots = None if raw_bots is None else raw_bots == "true"
    raw_limit = request.args.get("limit", str(listing.DEFAULT_LIMIT))
    if not (raw_limit.isascii() and raw_limit.isdigit()
            and 1 <= int(raw_limit) <= listing.MAX_LIMIT):
        raise ApiError(400, "invalid_limit", f"limit must be an integer from 1 to "
                       f"{listing.MAX_LIMIT}", errors={"limit": [f"1 to {listing.MAX_LIMIT}"]})
    limit = int(raw_limit)
    now = ctx.clock()
    cursor = request.args.get("cursor")
    after = None if cursor is None else listing.decode_cursor(cursor, ruleset, status, bots, now)
    games, last = lobby.page(ctx, ruleset, status, bots, limit, after)
    next_url = None
    if last is not None:
        query = {k: v for k, v in (("ruleset", ruleset), ("status", status),
                                   ("has_bots", raw_bots)) if v is not None}
        query["limit"] = str(limit)
        query["cursor"] = listing.encode_cursor(last, ruleset, status, bots, now)
        next_url = f"/v1/games?{urlencode(query)}"
    return json_response({"games": games, "next": next_url})


@blp.route("/<game_id>/seats/<int:seat>", methods=["DELETE"])
@blp.doc(operationId="leaveSeat", security=[{"bearer": []}], parameters=[IDEMPOTENCY_PARAM],
         responses={200: {"links": LEAVE_LINKS}})
@blp.response(200, s.LeftSchema, description="The seat given back, and the game now")
@problems(400, 401, 403, 404, 409, 422, 503, blueprint=blp, examples={
    403: ("not_your_seat", "a seat's token can give back only that seat"),
    404: ("seat_not_found", "nobody sits at seat 3")})
def leave_seat(game_id: str, seat: int):
    """Leave a seat

    Before the start, with the seat's token or the host's: the seat is free again and its
    token stops working. The host may also free a rematch's seat still held for a player who
    has not claimed it (then seat a bot there, or let anyone take it). Seat numbers never
    change: the next player who joins takes the lowest free seat. Once the game has started, with the seat's own token: the player gives
    up the seat, which stays in the game (no ruleset lets a player resign): Turandot's and
    Muzicando's `greedy` bot plays it, in Word Jam it plays its deadline defaults (no call,
    trust Alì Babà, no challenge, a vote against). The token stops working; the answer shows
    the game as a spectator (or the host) sees it. A finished game: 409 `game_finished`.
    """
    key = idempotency_key()
    answer = seats.leave(engine(), checked_game_id(game_id), seat, bearer_token(), key,
                         fingerprint() if key else "")
    return json_response(answer.json(), 200, replay_headers(answer))


@blp.route("/<game_id>/rematch", methods=["POST"])
@blp.doc(operationId="requestRematch", security=[{"bearer": []}],
         responses={201: {"links": REMATCH_LINKS}, 200: {"links": REMATCH_LINKS}})
@blp.response(201, s.RematchSchema, description="The rematch, created by this request, and the "
              "caller's seat in it (token shown here)",
              headers={"Location": {"description": "the rematch's URL",
                                    "schema": {"type": "string"}}})
@blp.alt_response(200, schema=s.RematchSchema, description="The rematch existed already: the "
                  "caller's seat in it", headers={"Location": {
                      "description": "the rematch's URL", "schema": {"type": "string"}}})
@problems(401, 403, 404, 409, 503, blueprint=blp, examples={
    403: ("not_a_seat", "only a player of the game can ask for a rematch"),
    409: ("game_not_finished", "a rematch can be asked for once the game is over")})
def request_rematch(game_id: str):
    """Play again

    For a seat of a finished game (its token). The first request creates the rematch: a new
    game with the same ruleset, options and privacy, a new seed, and the seats turned as the
    first player's role turns (everyone one seat anticlockwise, so the first maestro or dealer
    is the player left of the last one; Word Jam keeps its seats: nobody plays first), linked
    from the finished game (`rematch` in its view). Bot seats come along; a seat whose player
    left is free. Every other seat is held for its player for `REMATCH_HOLD_SECONDS` (five
    minutes), then free for anyone until its player claims it. Each player who asks gets the
    seat and its token (asking again gives the same token: the request is idempotent without a
    key); the rematch starts when every seat is taken. 201 for the request that created it,
    200 for the others. 409 `rematch_seat_taken` when the held seat went to someone else.

    The rematch has a host, as the finished game had: the player whose seat the host took with
    the host token hosts it too; when the host did not sit at the table, or left it, the first
    player to claim a seat does. That player's answer carries `host_token` (the same each time
    they ask): with it they seat bots, free a seat still held for a player who does not come
    back, and so start the rematch early.
    """
    result, created = rematch.rematch(engine(), checked_game_id(game_id), bearer_token())
    return json_response(result, 201 if created else 200,
                         {"Location": f"/v1/games/{result['rematch']}"})
