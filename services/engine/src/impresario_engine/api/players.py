"""Players under ``/v1``: an anonymous player made, who the caller is (``/v1/me``), and a
player moved to another device by a one-time code. The caller of ``/v1/me`` is its bearer: a
player credential, or a JWT of a trusted issuer (``TRUSTED_ISSUERS_FILE``, api/identity.py)."""

from __future__ import annotations

import base64
import binascii
from typing import Any
from urllib.parse import urlencode

from flask import current_app, request
from flask_smorest import Blueprint
from werkzeug.routing import BaseConverter

from impresario_rules import RULESETS

from ..table.players import Player, is_credential
from ..usecases import matching, players
from . import schemas_players as s
from .declared import load_body
from .documented import problems
from .errors import ApiError
from .credentials import checked_game_id
from .http import GAME_ID_PATTERN, JWT_MAX, engine, json_body, json_response, parse_bearer
from .identity import Verifier, looks_like_jwt

blp = Blueprint("players", __name__, url_prefix="/v1",
                description="Players: people apart from any table, on any device")

ME = [{"bearer": []}]
_NEW, _CLAIM, _MATCH = s.NewPlayerSchema(), s.ClaimSchema(), s.MatchRequestSchema()


def verifier() -> Verifier:
    return current_app.extensions["impresario_identity"]


def caller() -> Player:
    """The player the request's bearer is: a trusted issuer's JWT, or a player credential."""
    token = parse_bearer(request.headers.get("Authorization"), longest=JWT_MAX)
    if token is None:
        raise ApiError(401, "missing_token", "send the player's credential or a platform's "
                       "JWT as Authorization: Bearer <token>")
    return player_of(token)


def player_of(token: str) -> Player:
    """The player a player's bearer stands for (401 when none)."""
    ctx = engine()
    if looks_like_jwt(token):
        user = verifier().verify(token)
        return players.of_platform(ctx.store, user.issuer, user.subject, user.name, ctx.clock)
    return players.of_credential(ctx.store, token)


def platform_of(token: str) -> str | None:
    """The trusted issuer of a platform user's bearer (None for a player credential)."""
    return verifier().verify(token).issuer if looks_like_jwt(token) else None


def is_player_bearer(token: str | None) -> bool:
    """Whether a bearer on a game's route is a player's (a JWT, or a player credential) rather
    than one of the game's tokens: told apart by form alone."""
    return token is not None and (looks_like_jwt(token) or is_credential(token))


@blp.route("/players", methods=["POST"])
@blp.doc(operationId="createPlayer", requestBody={"required": True, "content": {
    "application/json": {"schema": "NewPlayer", "example": {"name": "Anna"}}}})
@blp.response(201, s.PlayerCredentialSchema, description="The new player and its credential "
              "on this device (shown once)")
@problems(400, 413, 415, 422, 503, blueprint=blp)
def create_player():
    """Become a player

    For a page or a terminal with no platform behind it: an anonymous player, named, and its
    credential on this device (only its hash is stored). With it as the bearer, `/v1/me` is
    the player; `POST /v1/me/device-codes` moves it to another device.
    """
    body = load_body(_NEW, json_body())
    ctx = engine()
    player, token = players.create(ctx.store, body["name"], ctx.clock)
    return json_response({"player": player.view(), "token": token}, 201)


@blp.route("/me", methods=["GET"])
@blp.doc(operationId="getMe", security=ME)
@blp.response(200, s.MeSchema, description="The caller's player")
@problems(401, 503, blueprint=blp)
def get_me():
    """Who am I

    The player the bearer is: a player credential (`POST /v1/players`), or a JWT of a trusted
    issuer (`TRUSTED_ISSUERS_FILE`), whose user becomes a player the first time it is seen.
    """
    return json_response({"player": caller().view()})


@blp.route("/me", methods=["PATCH"])
@blp.doc(operationId="renameMe", security=ME, requestBody={"required": True, "content": {
    "application/json": {"schema": "NewPlayer", "example": {"name": "Anna"}}}})
@blp.response(200, s.MeSchema, description="The caller's player, renamed")
@problems(400, 401, 413, 415, 422, 503, blueprint=blp)
def rename_me():
    """Rename me

    The player's display name, as profiles and leaderboards show it; the tables the player
    sat at keep the names they sat under. A platform's player keeps the new name too (the
    token's name claim names a player only when it is first seen).
    """
    player = caller()
    body = load_body(_NEW, json_body())
    return json_response({"player": players.rename(engine().store, player, body["name"]).view()})


@blp.route("/me/device-codes", methods=["POST"])
@blp.doc(operationId="createDeviceCode", security=ME)
@blp.response(201, s.DeviceCodeSchema, description="A one-time code for another device")
@problems(401, 503, blueprint=blp)
def create_device_code():
    """Move to another device

    A code (10 characters) that gives the caller's player to another device once, within ten
    minutes: `POST /v1/players/claim` there. The device it was made on keeps its credential.
    No body.
    """
    ctx = engine()
    code, expires_at = players.device_code(ctx.store, caller(), ctx.clock)
    return json_response({"code": code, "expires_at": expires_at}, 201)


@blp.route("/players/claim", methods=["POST"])
@blp.doc(operationId="claimDeviceCode", requestBody={"required": True, "content": {
    "application/json": {"schema": "Claim", "example": {"code": "7KQ2MZ4CHP"}}}})
@blp.response(200, s.PlayerCredentialSchema, description="The player, and its credential on "
              "this device (shown once)")
@problems(400, 401, 413, 415, 422, 503, blueprint=blp)
def claim_device_code():
    """Continue on this device

    The player a device code gives (`POST /v1/me/device-codes` on the other device), with a
    credential of this device's own. The code is used up; an unknown, used or expired one is
    401 `invalid_device_code`.
    """
    body = load_body(_CLAIM, json_body())
    player, token = players.claim(engine().store, body["code"])
    return json_response({"player": player.view(), "token": token})


# ---------------------------------------------------------------------------- their games
LIMIT_MAX, LIMIT_DEFAULT = 100, 20
_LIMIT = {"in": "query", "name": "limit", "required": False,
          "schema": {"type": "integer", "minimum": 1, "maximum": LIMIT_MAX,
                     "default": LIMIT_DEFAULT}, "description": "entries per page"}
_CURSOR = {"in": "query", "name": "cursor", "required": False,
           "schema": {"type": "string", "minLength": 1, "maxLength": 200,
                      "pattern": "^[A-Za-z0-9_-]+$"},
           "description": "where the page starts: the cursor in the previous page's `next` link"}
MY_GAMES_PARAMS = [
    {"in": "query", "name": "status", "required": False,
     "schema": {"type": "string", "enum": ["open", "playing", "finished"]},
     "description": "only the games of this status"}, _LIMIT, _CURSOR]
BOARD_PARAMS = [_LIMIT, _CURSOR]
PLAYER_ID_PATTERN = "^p[a-z2-7]{24}$"


class PlayerIdConverter(BaseConverter):
    """A player's id in a path: another segment (``/v1/players/claim``) is no player's."""

    regex = PLAYER_ID_PATTERN[1:-1]


def player_id_schema(_converter: Any) -> dict[str, Any]:
    return {"type": "string", "pattern": PLAYER_ID_PATTERN}


def _limit() -> int:
    raw = request.args.get("limit", str(LIMIT_DEFAULT))
    if not (raw.isascii() and raw.isdigit() and 1 <= int(raw) <= LIMIT_MAX):
        raise ApiError(400, "invalid_limit", f"limit must be an integer from 1 to {LIMIT_MAX}",
                       errors={"limit": [f"1 to {LIMIT_MAX}"]})
    return int(raw)


def _encode(kind: str, value: str) -> str:
    return base64.urlsafe_b64encode(f"{kind}|{value}".encode()).decode().rstrip("=")


def _decode(kind: str, cursor: str | None) -> str | None:
    """A cursor's value; 400 ``invalid_cursor`` for anything this listing did not hand out."""
    if cursor is None:
        return None
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode("ascii")
    except (binascii.Error, ValueError, UnicodeDecodeError):
        raw = ""
    found, _, value = raw.partition("|")
    if len(cursor) > 200 or found != kind or not value:
        raise ApiError(400, "invalid_cursor", "the cursor is not one this listing handed out: "
                       "follow the `next` link of a page, or start again without a cursor")
    return value


@blp.route("/me/games", methods=["GET"])
@blp.doc(operationId="listMyGames", security=ME, parameters=MY_GAMES_PARAMS)
@blp.response(200, s.MyGamesSchema, description="A page of the player's games, newest first")
@problems(400, 401, 503, blueprint=blp)
def list_my_games():
    """My games

    The games the caller's player created or sits at, open, in play and finished, newest
    first, a page at a time (follow `next` until it is `null`), each with whether it waits
    for the player's move and the seat's deadline. On another device, `POST
    /v1/me/games/{game_id}/resume` gives the seat's credential there. A finished game stays
    listed until it expires (`FINISHED_TTL_SECONDS`).
    """
    player = caller()
    status = request.args.get("status")
    if status is not None and status not in ("open", "playing", "finished"):
        raise ApiError(400, "invalid_filter", "status must be one of open, playing, finished",
                       errors={"status": ["one of open, playing, finished"]})
    limit = _limit()
    raw = _decode("g", request.args.get("cursor"))
    try:
        before = None if raw is None else float(raw)
    except ValueError:
        raise ApiError(400, "invalid_cursor", "the cursor is not one this listing handed "
                       "out") from None
    games, last = players.my_games(engine(), player, status, before, limit)
    next_url = None
    if last is not None and len(games) == limit:
        query = {"limit": str(limit), "cursor": _encode("g", repr(last))}
        if status is not None:
            query["status"] = status
        next_url = f"/v1/me/games?{urlencode(query)}"
    return json_response({"games": games, "next": next_url})


@blp.route("/me/games/<game_id>/resume", methods=["POST"], parameters=[
    {"in": "path", "name": "game_id", "required": True,
     "schema": {"type": "string", "pattern": GAME_ID_PATTERN}, "description": "the game's id"}])
@blp.doc(operationId="resumeGame", security=ME)
@blp.response(200, s.ResumedSchema, description="The player's seat at the game, with a "
              "credential of this device's own")
@problems(401, 404, 409, 503, blueprint=blp)
def resume_game(game_id: str):
    """Resume a game on this device

    The caller's player's seat at the game: a fresh seat token (and a fresh host token when the
    player created the game), shown once; the tokens given before, on any device, stop
    working. 404 `not_seated` when the player has no seat there; 409 `seat_left` once the
    player left it, `game_finished` once the game is over. No body.
    """
    player = caller()
    return json_response(players.resume(engine(), player, checked_game_id(game_id)))


@blp.route("/me", methods=["DELETE"])
@blp.doc(operationId="deleteMe", security=ME)
@blp.response(204, description="The player is removed")
@problems(401, 503, blueprint=blp)
def delete_me():
    """Remove my player

    The player's name, credentials (on every device), list of games and ratings are removed,
    and the leaderboards drop them. Games in play go on: a device that holds a seat's token
    still plays it, but the seat belongs to nobody who could resume it. A platform's user who
    comes back with a new JWT is a new player. No body.
    """
    players.forget(engine(), caller())
    return json_response(b"", 204)


@blp.route("/players/<player_id:player_id>", methods=["GET"])
@blp.doc(operationId="getPlayer")
@blp.response(200, s.ProfileSchema, description="What anyone may see of the player")
@problems(404, 503, blueprint=blp)
def get_player(player_id: str):
    """A player's profile

    Name, ratings per ruleset (displayed: μ − 3σ), rated games played, and the latest rated
    results (game, rank, rating after, change). Bots' levels are players too. Nothing else of
    the player's games: no seat's hand, no credential, no private game beyond its result.
    """
    return json_response(players.profile(engine(), player_id))


@blp.route("/leaderboards/<ruleset>", methods=["GET"], parameters=[
    {"in": "path", "name": "ruleset", "required": True,
     "schema": {"type": "string", "enum": sorted(RULESETS)}, "description": "the ruleset"}])
@blp.doc(operationId="getLeaderboard", parameters=BOARD_PARAMS)
@blp.response(200, s.LeaderboardSchema, description="A page of the leaderboard, best first")
@problems(400, 404, 503, blueprint=blp)
def get_leaderboard(ruleset: str):
    """Leaderboard

    The ruleset's rated players by displayed rating (μ − 3σ), best first, a page at a time;
    only players with `LEADERBOARD_MIN_GAMES` rated games or more (`min_games`).
    """
    limit = _limit()
    raw = _decode("b", request.args.get("cursor"))
    if raw is not None and not (raw.isascii() and raw.isdigit()):
        raise ApiError(400, "invalid_cursor", "the cursor is not one this listing handed out")
    start = int(raw or 0)
    ctx = engine()
    rows, total = players.leaderboard(ctx, ruleset, start, limit)
    next_url = None
    if start + limit < total:
        next_url = (f"/v1/leaderboards/{ruleset}?"
                    f"{urlencode({'limit': str(limit), 'cursor': _encode('b', str(start + limit))})}")
    return json_response({"ruleset": ruleset, "players": rows, "total": total,
                          "min_games": ctx.config.leaderboard_min_games, "next": next_url})


# ---------------------------------------------------------------------------- quick match
@blp.route("/match", methods=["POST"])
@blp.doc(operationId="joinMatch", security=ME, requestBody={"required": True, "content": {
    "application/json": {"schema": "MatchRequest",
                         "example": {"ruleset": "turandot", "players": 4, "wait_seconds": 60}}}})
@blp.response(200, s.MatchSchema, description="The player's match as it stands")
@problems(400, 401, 404, 413, 415, 422, 503, blueprint=blp)
def join_match():
    """Play now with people

    Puts the caller's player in the queue of this ruleset and table size (a player in another
    queue moves to this one). Tables are made of players with near ratings (displayed rating,
    0 before any rated game), the window widening with the wait; once the player who has
    waited longest has waited `wait_seconds`, bots of a level near the table's ratings fill
    the empty seats. Then `status` is `seated` with the game and seat: `POST
    /v1/me/games/{game_id}/resume` gives the seat's token. Ask `GET /v1/match` until then.
    A quick-match game is public and rated, with 60 seconds a move where the ruleset has one
    time per move.
    """
    player = caller()
    body = load_body(_MATCH, json_body())
    return json_response(matching.join(engine(), player, body["ruleset"], body["players"],
                                       body.get("wait_seconds")))


@blp.route("/match", methods=["GET"])
@blp.doc(operationId="getMatch", security=ME)
@blp.response(200, s.MatchSchema, description="The player's match as it stands")
@problems(401, 404, 503, blueprint=blp)
def get_match():
    """My quick match

    Waiting (since when, the rating window now) or seated (the game and seat; for an hour
    after). 404 `not_waiting` when the player is in no queue.
    """
    return json_response(matching.status(engine(), caller()))


@blp.route("/match", methods=["DELETE"])
@blp.doc(operationId="leaveMatch", security=ME)
@blp.response(204, description="The player left the queue")
@problems(401, 409, 503, blueprint=blp)
def leave_match():
    """Stop waiting

    Out of the quick-match queue; 409 `not_waiting` when the player is in none (seated
    already, or never queued).
    """
    matching.leave(engine(), caller())
    return json_response(b"", 204)
