"""Web Push under ``/v1``: the service's application server key, and the caller's player's
subscriptions (a browser's ``PushSubscription``). With no VAPID key configured every route
answers 404 ``push_unavailable`` (usecases/push.py; docs/players.md, "Notifications")."""

from __future__ import annotations

from flask_smorest import Blueprint

from ..usecases import push
from . import schemas_push as s
from .declared import load_body
from .documented import problems
from .http import engine, json_body, json_response
from .players import ME, caller

blp = Blueprint("push", __name__, url_prefix="/v1",
                description="Web Push: a player's browsers told when it is their move")

_SUB = s.PushSubscriptionSchema()
SUBSCRIPTION_ID_PATTERN = "^[0-9a-f]{32}$"


@blp.route("/push/vapid-public-key", methods=["GET"])
@blp.doc(operationId="getVapidPublicKey")
@blp.response(200, s.VapidKeySchema, description="The key a browser subscribes with")
@problems(404, blueprint=blp)
def get_vapid_public_key():
    """Web Push key

    The application server key (VAPID) a browser passes to `PushManager.subscribe` as
    `applicationServerKey`. 404 `push_unavailable` when this server sends no notifications.
    """
    return json_response({"public_key": push.public_key(engine().config)})


@blp.route("/me/push-subscriptions", methods=["POST"])
@blp.doc(operationId="createPushSubscription", security=ME, requestBody={
    "required": True, "content": {"application/json": {"schema": "PushSubscription", "example": {
        "endpoint": "https://push.example.net/send/dGhpcyBpcyBhbiBleGFtcGxl",
        "expirationTime": None,
        "keys": {"p256dh": "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1X"
                           "bjhazAkj7I99e8QcYP7DkM", "auth": "tBHItJI5svbpez7KI4CCXg"},
        "lang": "en"}}}})
@blp.response(201, s.SubscriptionSchema, description="The subscription, new")
@blp.alt_response(200, schema=s.SubscriptionSchema, description="The subscription, which "
                  "the player had already (its language updated)")
@problems(400, 401, 404, 409, 413, 415, 422, 503, blueprint=blp)
def create_push_subscription():
    """Notify me

    Keeps a browser's `PushSubscription` (its `toJSON()`, with `lang`: en, it, de or fr) for
    the caller's player: from now on the player is told when it is their move at a game they
    sit at (once per turn), when their time is running out in a long turn, and when a game is
    over, in that language; never anything secret (no hand, bid or word). The endpoint must
    be an https URL of a public host, `p256dh` a P-256 key and `auth` 16 bytes (422
    `invalid_subscription` otherwise, nothing kept); at most 10 subscriptions a player (409
    `too_many_subscriptions`). 404 `push_unavailable` when this server sends none.
    """
    player = caller()
    body = load_body(_SUB, json_body())
    view, new = push.subscribe(engine(), player, body["endpoint"], body["keys"]["p256dh"],
                               body["keys"]["auth"], body["lang"])
    return json_response(view, 201 if new else 200)


@blp.route("/me/push-subscriptions", methods=["GET"])
@blp.doc(operationId="listPushSubscriptions", security=ME)
@blp.response(200, s.SubscriptionsSchema, description="The player's subscriptions, oldest "
              "first")
@problems(401, 404, 503, blueprint=blp)
def list_push_subscriptions():
    """My notification subscriptions

    The browsers the caller's player is notified on.
    """
    player = caller()
    return json_response({"subscriptions": push.listed(engine(), player)})


@blp.route("/me/push-subscriptions/<sub_id>", methods=["DELETE"], parameters=[
    {"in": "path", "name": "sub_id", "required": True,
     "schema": {"type": "string", "pattern": SUBSCRIPTION_ID_PATTERN},
     "description": "the subscription's id"}])
@blp.doc(operationId="deletePushSubscription", security=ME)
@blp.response(204, description="The subscription is deleted")
@problems(401, 404, 503, blueprint=blp)
def delete_push_subscription(sub_id: str):
    """Stop notifying me

    No more notifications on that browser. 404 `subscription_not_found` when the player has
    no such subscription. No body.
    """
    player = caller()
    push.unsubscribe(engine(), player, sub_id)
    return json_response(b"", 204)
