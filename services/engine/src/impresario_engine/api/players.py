"""Players under ``/v1``: an anonymous player made, who the caller is (``/v1/me``), and a
player moved to another device by a one-time code. The caller of ``/v1/me`` is its bearer: a
player credential, or a JWT of a trusted issuer (``TRUSTED_ISSUERS_FILE``, api/identity.py)."""

from __future__ import annotations

from flask import current_app, request
from flask_smorest import Blueprint

from ..table.players import Player
from ..usecases import players
from . import schemas_players as s
from .declared import load_body
from .documented import problems
from .errors import ApiError
from .http import engine, json_body, json_response, parse_bearer
from .identity import Verifier, looks_like_jwt

blp = Blueprint("players", __name__, url_prefix="/v1",
                description="Players: people apart from any table, on any device")

ME = [{"bearer": []}]
#: the longest bearer the players' routes read: a platform's JWT, claims and all
JWT_MAX = 8192
_NEW, _CLAIM = s.NewPlayerSchema(), s.ClaimSchema()


def verifier() -> Verifier:
    return current_app.extensions["impresario_identity"]


def caller() -> Player:
    """The player the request's bearer is: a trusted issuer's JWT, or a player credential."""
    token = parse_bearer(request.headers.get("Authorization"), longest=JWT_MAX)
    if token is None:
        raise ApiError(401, "missing_token", "send the player's credential or a platform's "
                       "JWT as Authorization: Bearer <token>")
    ctx = engine()
    if looks_like_jwt(token):
        user = verifier().verify(token)
        return players.of_platform(ctx.store, user.issuer, user.subject, user.name, ctx.clock)
    return players.of_credential(ctx.store, token)


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


@blp.route("/me/device-codes", methods=["POST"])
@blp.doc(operationId="createDeviceCode", security=ME)
@blp.response(201, s.DeviceCodeSchema, description="A one-time code for another device")
@problems(401, 503, blueprint=blp)
def create_device_code():
    """Move to another device

    A code (8 characters) that gives the caller's player to another device once, within ten
    minutes: `POST /v1/players/claim` there. The device it was made on keeps its credential.
    No body.
    """
    ctx = engine()
    code, expires_at = players.device_code(ctx.store, caller(), ctx.clock)
    return json_response({"code": code, "expires_at": expires_at}, 201)


@blp.route("/players/claim", methods=["POST"])
@blp.doc(operationId="claimDeviceCode", requestBody={"required": True, "content": {
    "application/json": {"schema": "Claim", "example": {"code": "7KQ2MZ4C"}}}})
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
