"""The schemas of players (api/players.py)."""

from __future__ import annotations

from marshmallow import fields, validate

from ..table.names import NAME_MAX
from .schemas import Base, _no_control_characters


class NewPlayerSchema(Base):
    name = fields.String(required=True, validate=[
        validate.Length(1, NAME_MAX),
        validate.Regexp(r"^[^\x00-\x1f\x7f-\x9f]+$", error="names may not contain control characters"),
        _no_control_characters,
    ], metadata={"example": "Anna"})


class PlayerSchema(Base):
    id = fields.String(required=True, metadata={"example": "pmfrggzdfmztwq2lkmnxw63dpnz2a"})
    name = fields.String(required=True)
    kind = fields.String(required=True, validate=validate.OneOf(["anonymous", "platform"]),
                         metadata={"description": "`anonymous`: made by a client on a first "
                                                  "visit, held by its credential; `platform`: "
                                                  "a host platform's user (a JWT of a trusted "
                                                  "issuer)"})
    created = fields.Float(required=True, metadata={"description": "Unix time (seconds)"})


class MeSchema(Base):
    player = fields.Nested(PlayerSchema, required=True)


class PlayerCredentialSchema(Base):
    player = fields.Nested(PlayerSchema, required=True)
    token = fields.String(required=True, metadata={
        "description": "the player's credential on this device, shown once: "
                       "`Authorization: Bearer <token>` on `/v1/me`"})


class DeviceCodeSchema(Base):
    code = fields.String(required=True, metadata={"example": "7KQ2MZ4C"})
    expires_at = fields.Float(required=True, metadata={
        "description": "Unix time (seconds) from which the code gives nothing"})


class ClaimSchema(Base):
    code = fields.String(required=True, validate=validate.Length(1, 32),
                         metadata={"example": "7KQ2MZ4C"})
