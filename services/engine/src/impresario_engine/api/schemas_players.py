"""The schemas of players (api/players.py)."""

from __future__ import annotations

from marshmallow import fields, validate

from impresario_rules import RULESETS

from ..table.names import NAME_MAX
from .schemas import Base, GameField, _no_control_characters


class NewPlayerSchema(Base):
    name = fields.String(required=True, validate=[
        validate.Length(1, NAME_MAX),
        validate.Regexp(r"^[^\x00-\x1f\x7f-\x9f]+$", error="names may not contain control characters"),
        _no_control_characters,
    ], metadata={"example": "Anna"})


class PlayerSchema(Base):
    id = fields.String(required=True, metadata={"example": "pmfrggzdfmztwq2lkmnxw63dpnz2a"})
    name = fields.String(required=True)
    kind = fields.String(required=True, validate=validate.OneOf(["anonymous", "platform", "bot"]),
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
    code = fields.String(required=True, metadata={"example": "7KQ2MZ4CHP"})
    expires_at = fields.Float(required=True, metadata={
        "description": "Unix time (seconds) from which the code gives nothing"})


class ClaimSchema(Base):
    code = fields.String(required=True, validate=validate.Length(1, 32),
                         metadata={"example": "7KQ2MZ4CHP"})


class MyGameSchema(Base):
    id = fields.String(required=True)
    ruleset = fields.String(required=True, validate=validate.OneOf(sorted(RULESETS)))
    status = fields.String(required=True, validate=validate.OneOf(["open", "playing",
                                                                    "finished"]))
    seat = fields.Integer(required=True, allow_none=True, metadata={
        "description": "the player's seat (null: the player hosts the game without a seat)"})
    host = fields.Boolean(required=True, metadata={"description": "the player created it"})
    name = fields.String(required=True, allow_none=True, metadata={
        "description": "the name the player sits under at this table"})
    seats_taken = fields.Integer(required=True)
    seats_total = fields.Integer(required=True)
    your_move = fields.Boolean(required=True, metadata={
        "description": "the game waits for the player's seat"})
    deadline = fields.Float(required=True, allow_none=True, metadata={
        "description": "when the seat's time for its move runs out (Unix seconds), if it has "
                       "a deadline"})
    won = fields.Boolean(required=True, allow_none=True, metadata={
        "description": "in a finished game, whether the player's seat is among the winners"})
    rated = fields.Boolean(required=True, metadata={
        "description": "whether the game rates its players when it ends, as it stands"})
    rematch = fields.String(required=True, allow_none=True)
    created = fields.Float(required=True)
    updated = fields.Float(required=True)
    joined = fields.Float(required=True, metadata={
        "description": "when the player came to the game (the order of the list)"})


class MyGamesSchema(Base):
    games = fields.List(fields.Nested(MyGameSchema), required=True)
    next = fields.String(required=True, allow_none=True, metadata={
        "description": "the next page's URL (null: this is the last page)"})


class ResumedSchema(Base):
    seat = fields.Integer(required=True, allow_none=True)
    token = fields.String(required=True, allow_none=True, metadata={
        "description": "the seat's new bearer token, shown once; the one given before stops "
                       "working (null: the player hosts the game without a seat)"})
    host_token = fields.String(required=True, allow_none=True, metadata={
        "description": "a new host token when the player created the game, shown once; the "
                       "one given before stops working"})
    game = GameField(required=True)


class PublicPlayerSchema(Base):
    id = fields.String(required=True)
    name = fields.String(required=True)
    kind = fields.String(required=True, validate=validate.OneOf(["anonymous", "platform",
                                                                  "bot"]))


class RatingSchema(Base):
    ruleset = fields.String(required=True, validate=validate.OneOf(sorted(RULESETS)))
    rating = fields.Float(required=True, metadata={
        "description": "the displayed rating: μ − 3σ (OpenSkill, Plackett–Luce)"})
    mu = fields.Float(required=True)
    sigma = fields.Float(required=True)
    games = fields.Integer(required=True, metadata={"description": "rated games played"})


class ResultSchema(Base):
    game = fields.String(required=True, allow_none=True, metadata={
        "description": "the game (null for a private game: its id is its players' only)"})
    ruleset = fields.String(required=True, validate=validate.OneOf(sorted(RULESETS)))
    finished = fields.Float(required=True)
    seat = fields.Integer(required=True)
    rank = fields.Integer(required=True, metadata={"description": "1: first (a tie shares a "
                                                                  "rank)"})
    players = fields.Integer(required=True)
    rating = fields.Float(required=True, metadata={"description": "the displayed rating "
                                                                  "after the game"})
    change = fields.Float(required=True, metadata={"description": "what the game changed it by"})


class ProfileSchema(Base):
    player = fields.Nested(PublicPlayerSchema, required=True)
    ratings = fields.List(fields.Nested(RatingSchema), required=True)
    games = fields.Integer(required=True, metadata={"description": "rated games played"})
    recent = fields.List(fields.Nested(ResultSchema), required=True, metadata={
        "description": "the latest rated results, newest first"})


class LeaderRowSchema(Base):
    place = fields.Integer(required=True)
    player = fields.Nested(PublicPlayerSchema, required=True)
    rating = fields.Float(required=True)
    games = fields.Integer(required=True)


class LeaderboardSchema(Base):
    ruleset = fields.String(required=True, validate=validate.OneOf(sorted(RULESETS)))
    players = fields.List(fields.Nested(LeaderRowSchema), required=True)
    total = fields.Integer(required=True, metadata={"description": "players on the board"})
    min_games = fields.Integer(required=True, metadata={
        "description": "the rated games a player needs to be on the board"})
    next = fields.String(required=True, allow_none=True)


class MatchRequestSchema(Base):
    ruleset = fields.String(required=True, validate=validate.OneOf(sorted(RULESETS)),
                            metadata={"example": "turandot"})
    players = fields.Integer(required=True, strict=True, validate=validate.Range(2, 12),
                             metadata={"description": "the table's size", "example": 4})
    wait_seconds = fields.Integer(strict=True, validate=validate.Range(0, 3600), metadata={
        "description": "how long to wait for people before bots fill the empty seats "
                       "(default `MATCH_WAIT_SECONDS`, 60; at most `MATCH_WAIT_MAX_SECONDS`)",
        "example": 60})


class MatchSchema(Base):
    status = fields.String(required=True, validate=validate.OneOf(["waiting", "seated"]))
    ruleset = fields.String(required=True, validate=validate.OneOf(sorted(RULESETS)))
    players = fields.Integer(required=True)
    since = fields.Float(required=True, metadata={"description": "when the player joined the "
                                                                 "queue (Unix seconds)"})
    wait_seconds = fields.Integer(required=True)
    window = fields.Float(required=True, allow_none=True, metadata={
        "description": "while waiting: how far (displayed rating points, either side) the "
                       "players seated with this one may be now; it widens with the wait"})
    game = fields.String(required=True, allow_none=True, metadata={
        "description": "once seated: the game (resume it for the seat's token)"})
    seat = fields.Integer(required=True, allow_none=True)
