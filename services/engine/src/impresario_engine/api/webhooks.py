"""Webhooks: a game's host registers endpoints that receive the game's events as a spectator
sees them (Standard Webhooks: signed, retried for about two days); each endpoint's delivery
log, and a message sent again. The operator's endpoints (``WEBHOOKS_FILE``: a platform's
games, or every game) read their log with their key."""

from __future__ import annotations

from flask_smorest import Blueprint
from marshmallow import fields, validate

from ..usecases import webhooks
from .credentials import checked_game_id
from .declared import Base, Int, load_body
from .documented import problems
from .errors import ApiError
from .http import GAME_ID_PATTERN, bearer_token, engine, json_body, json_response

blp = Blueprint("webhooks", __name__, url_prefix="/v1",
                description="Webhooks: a game's events, signed, to the host's endpoints")

GAME_ID_PARAM = {"in": "path", "name": "game_id", "required": True,
                 "schema": {"type": "string", "pattern": GAME_ID_PATTERN},
                 "description": "the game's id, as created"}
ENDPOINT_PARAM = {"in": "path", "name": "endpoint_id", "required": True,
                  "schema": {"type": "string", "maxLength": 64},
                  "description": "the webhook's id (`ep_...`)"}
MESSAGE_PARAM = {"in": "path", "name": "message_id", "required": True,
                 "schema": {"type": "string", "maxLength": 64},
                 "description": "a message's `webhook-id` (`msg_<game id>_<seq>`)"}
HOST = [{"bearer": []}]


class NewWebhookSchema(Base):
    url = fields.String(required=True, validate=validate.Length(1, 2000), metadata={
        "description": "where the events are POSTed: https, to a public address"})
    events = fields.List(fields.String(), validate=validate.Length(1, 50), metadata={
        "description": "the event types wanted (`type` of the game's events: lower case "
                       "letters, digits and `_`), or `[\"*\"]` (the default): every one; "
                       "another value is 422 `invalid_webhook_events`"})


class WebhookSchema(Base):
    id = fields.String(required=True)
    url = fields.String(required=True)
    events = fields.List(fields.String(), required=True)
    created = fields.Float(required=True, allow_none=True, metadata={
        "description": "Unix time (null: an endpoint of the operator's WEBHOOKS_FILE)"})
    disabled = fields.Boolean(required=True, metadata={
        "description": "no more deliveries: it failed for longer than the retry schedule"})
    disabled_reason = fields.String(allow_none=True, required=True)


class CreatedWebhookSchema(WebhookSchema):
    secret = fields.String(required=True, metadata={
        "description": "the signing secret (`whsec_...`, Standard Webhooks), shown only here"})


class WebhooksSchema(Base):
    webhooks = fields.List(fields.Nested(WebhookSchema), required=True)


class AttemptSchema(Base):
    message_id = fields.String(required=True)
    event_type = fields.String(allow_none=True, required=True, metadata={
        "description": "the event's `type` (the message's body says it too)"})
    game_id = fields.String(required=True)
    seq = Int(required=True)
    attempt = Int(required=True, metadata={"description": "1: the first attempt"})
    at = fields.Float(required=True, metadata={"description": "Unix time of the attempt"})
    status = Int(allow_none=True, required=True, metadata={
        "description": "the receiver's HTTP status (null: no answer)"})
    error = fields.String(allow_none=True, required=True)
    ms = Int(required=True, metadata={"description": "how long it took"})


class DeliveriesSchema(Base):
    endpoint = fields.Nested(WebhookSchema, required=True)
    attempts = fields.List(fields.Nested(AttemptSchema), required=True, metadata={
        "description": "the latest attempts, newest first (at most `WEBHOOK_LOG_SIZE`)"})


class RedeliveredSchema(Base):
    message_id = fields.String(required=True)
    scheduled = fields.Boolean(required=True)


_NEW = NewWebhookSchema()


def _token() -> str:
    token = bearer_token()
    if token is None:
        raise ApiError(401, "missing_token", "webhooks need the host's token as the bearer",
                       headers={"WWW-Authenticate": "Bearer"})
    return token


@blp.route("/games/<game_id>/webhooks", methods=["POST"], parameters=[GAME_ID_PARAM])
@blp.doc(operationId="createWebhook", security=HOST, requestBody={
    "required": True, "content": {"application/json": {
        "schema": "NewWebhook",
        "example": {"url": "https://hooks.example.com/impresario", "events": ["*"]}}}})
@blp.response(201, CreatedWebhookSchema, description="The webhook, and its secret (shown once)")
@problems(400, 401, 403, 404, 409, 413, 415, 422, 503, blueprint=blp)
def create_webhook(game_id: str):
    """Register a webhook of a game

    With the host's token. From now on each event of the game that the endpoint wants is
    POSTed to `url` as a spectator sees it (never a hand, a sealed bid or the deck), signed
    the Standard Webhooks way (`webhook-id`, `webhook-timestamp`, `webhook-signature` with the
    secret returned here, once); a receiver answers 2xx, else the message is tried again for
    about two days. The URL must be https to a public address (422 `webhook_url_refused`).
    A finished game takes none (409 `game_finished`).
    """
    token = _token()
    body = load_body(_NEW, json_body())
    made = webhooks.register(engine(), checked_game_id(game_id), token, body["url"],
                             body.get("events"))
    return json_response(made, 201)


@blp.route("/games/<game_id>/webhooks", methods=["GET"], parameters=[GAME_ID_PARAM])
@blp.doc(operationId="listWebhooks", security=HOST)
@blp.response(200, WebhooksSchema, description="The game's webhooks (no secrets)")
@problems(401, 403, 404, 503, blueprint=blp)
def list_webhooks(game_id: str):
    """List a game's webhooks

    With the host's token. A disabled webhook says why.
    """
    found = webhooks.listing(engine(), checked_game_id(game_id), _token())
    return json_response({"webhooks": found})


@blp.route("/games/<game_id>/webhooks/<endpoint_id>", methods=["DELETE"],
           parameters=[GAME_ID_PARAM, ENDPOINT_PARAM])
@blp.doc(operationId="deleteWebhook", security=HOST)
@blp.response(204, description="The webhook is gone, with its delivery log")
@problems(401, 403, 404, 409, 503, blueprint=blp)
def delete_webhook(game_id: str, endpoint_id: str):
    """Delete a game's webhook

    With the host's token. No body. A finished game's webhooks no longer change (409
    `game_finished`).
    """
    webhooks.delete(engine(), checked_game_id(game_id), _token(), endpoint_id)
    return json_response(b"", 204)


@blp.route("/games/<game_id>/webhooks/<endpoint_id>/deliveries", methods=["GET"],
           parameters=[GAME_ID_PARAM, ENDPOINT_PARAM])
@blp.doc(operationId="listWebhookDeliveries", security=HOST)
@blp.response(200, DeliveriesSchema, description="The webhook and its latest attempts")
@problems(401, 403, 404, 503, blueprint=blp)
def list_deliveries(game_id: str, endpoint_id: str):
    """A game's webhook's delivery log

    With the host's token: each attempt's time, status (or error) and duration, newest first.
    """
    found = webhooks.deliveries(engine(), endpoint_id, checked_game_id(game_id), token=_token())
    return json_response(found)


@blp.route("/games/<game_id>/webhooks/<endpoint_id>/deliveries/<message_id>/redeliver",
           methods=["POST"], parameters=[GAME_ID_PARAM, ENDPOINT_PARAM, MESSAGE_PARAM])
@blp.doc(operationId="redeliverWebhookMessage", security=HOST)
@blp.response(202, RedeliveredSchema, description="The message is scheduled to be sent again")
@problems(401, 403, 404, 409, 503, blueprint=blp)
def redeliver(game_id: str, endpoint_id: str, message_id: str):
    """Send a message of a game's webhook again

    With the host's token: the message (same `webhook-id`) is sent again now, with retries
    if it fails. No body.
    """
    found = webhooks.redeliver(engine(), endpoint_id, message_id, checked_game_id(game_id),
                               token=_token())
    return json_response(found, 202)


@blp.route("/webhooks/<endpoint_id>/deliveries", methods=["GET"], parameters=[ENDPOINT_PARAM])
@blp.doc(operationId="listOperatorWebhookDeliveries", security=HOST)
@blp.response(200, DeliveriesSchema, description="The webhook and its latest attempts")
@problems(401, 503, blueprint=blp)
def operator_deliveries(endpoint_id: str):
    """An operator webhook's delivery log

    For a webhook of the operator's `WEBHOOKS_FILE` (a platform's games, or every game), with
    its key as the bearer.
    """
    return json_response(webhooks.deliveries(engine(), endpoint_id, key=_token()))


@blp.route("/webhooks/<endpoint_id>/deliveries/<message_id>/redeliver", methods=["POST"],
           parameters=[ENDPOINT_PARAM, MESSAGE_PARAM])
@blp.doc(operationId="redeliverOperatorWebhookMessage", security=HOST)
@blp.response(202, RedeliveredSchema, description="The message is scheduled to be sent again")
@problems(401, 404, 409, 503, blueprint=blp)
def operator_redeliver(endpoint_id: str, message_id: str):
    """Send a message of an operator webhook again

    With the webhook's key as the bearer. No body.
    """
    return json_response(webhooks.redeliver(engine(), endpoint_id, message_id, key=_token()),
                         202)
