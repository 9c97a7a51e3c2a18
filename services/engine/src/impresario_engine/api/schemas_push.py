"""The schemas of Web Push (api/push.py)."""

from __future__ import annotations

from marshmallow import fields, validate

from ..table.notices import LANGUAGES
from ..usecases.push import ENDPOINT_MAX
from .declared import Base


class PushKeysSchema(Base):
    p256dh = fields.String(required=True, validate=validate.Length(1, 100), metadata={
        "description": "the browser's P-256 public key (65 bytes, base64url)",
        "example": "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I"
                   "99e8QcYP7DkM"})
    auth = fields.String(required=True, validate=validate.Length(1, 30), metadata={
        "description": "the browser's authentication secret (16 bytes, base64url)",
        "example": "tBHItJI5svbpez7KI4CCXg"})


class PushSubscriptionSchema(Base):
    """A browser's ``PushSubscription.toJSON()``, with the language of its notifications."""

    endpoint = fields.String(required=True, validate=validate.Length(1, ENDPOINT_MAX), metadata={
        "description": "the push service's URL for this browser (https)",
        "example": "https://push.example.net/send/dGhpcyBpcyBhbiBleGFtcGxl"})
    keys = fields.Nested(PushKeysSchema, required=True)
    expirationTime = fields.Float(load_default=None, allow_none=True, metadata={
        "description": "as the browser gives it; not used"})
    lang = fields.String(required=True, validate=validate.OneOf(LANGUAGES), metadata={
        "description": "the language of the notifications", "example": "en"})


class SubscriptionSchema(Base):
    id = fields.String(required=True, metadata={"example": "5f2b0c7d9e8a41b3c6d2e0f1a9b8c7d6"})
    endpoint = fields.String(required=True)
    lang = fields.String(required=True, validate=validate.OneOf(LANGUAGES))
    created = fields.Float(required=True, metadata={"description": "Unix time (seconds)"})


class SubscriptionsSchema(Base):
    subscriptions = fields.List(fields.Nested(SubscriptionSchema), required=True)


class VapidKeySchema(Base):
    public_key = fields.String(required=True, metadata={
        "description": "the application server key: `applicationServerKey` of "
                       "`PushManager.subscribe` (an uncompressed P-256 point, base64url)",
        "example": "BEl62iUYgUivxIkv69yViEuiBIa-Ib9-SkvMeAtA3LFgDzkrxZJjSgSnfckjBJuBkr3qBUYIHBQFLXYp5Nksh8U"})
