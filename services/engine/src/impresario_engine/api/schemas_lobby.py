"""Schemas of the lobby: the list of games, leaving a seat, a rematch."""

from __future__ import annotations

from marshmallow import fields, validate

from impresario_rules import RULESETS

from .declared import Base, Int, StrictBool
from .schemas import GameField


class LobbySeatSchema(Base):
    seat = Int(required=True)
    name = fields.String(required=True)
    bot = fields.String(required=True, allow_none=True, metadata={
        "description": "the engine's bot that plays the seat (`defaults`: the seat plays its "
                       "deadline defaults); null for a player"})
    held = StrictBool(required=True, metadata={
        "description": "the seat is kept for this player of the finished game (a rematch) "
                       "until they claim it or the hold runs out"})


class LobbyGameSchema(Base):
    """A game as the list of games shows it: nothing secret, nothing of the play."""

    id = fields.String(required=True)
    ruleset = fields.String(required=True, validate=validate.OneOf(sorted(RULESETS)),
                            metadata={"example": "turandot"})
    status = fields.String(required=True, validate=validate.OneOf(["open", "playing", "finished"]))
    seats_taken = Int(required=True, metadata={"description": "seats taken or held"})
    seats_total = Int(required=True)
    seats = fields.List(fields.Nested(LobbySeatSchema), required=True, metadata={
        "description": "the seats taken or held, by seat number (a free seat is not listed)"})
    options = fields.Dict(keys=fields.String(), values=fields.Raw(metadata={"anyOf": [
        {"type": "string"}, {"type": "integer"}, {"type": "boolean"}, {"type": "null"}]}),
        required=True, metadata={
        "description": "what a joiner wants to know of the options (`move_seconds`, "
                       "`bot_seconds` and a turn-based game's `bank_seconds` and "
                       "`bank_refill_seconds` when set, the `pace` the table chose "
                       "when it chose one, the "
                       "ruleset's: first maestro, Word Jam's windows, Muzicando's mode and "
                       "hands...); a long option (a custom catalogue or cave) as `custom`"})
    has_bots = StrictBool(required=True)
    created = fields.Float(required=True, metadata={"description": "Unix time, seconds"})
    updated = fields.Float(required=True, metadata={
        "description": "the game's last change (a seat, a move), Unix time, seconds"})


class GameListSchema(Base):
    games = fields.List(fields.Nested(LobbyGameSchema), required=True)
    next = fields.String(required=True, allow_none=True, metadata={
        "description": "the URL of the next page (same filters); null on the last page"})


class LeftSchema(Base):
    seat = Int(required=True)
    game = GameField(required=True)


class RematchSchema(Base):
    rematch = fields.String(required=True, metadata={"description": "the rematch's game id"})
    seat = Int(required=True, metadata={"description": "the caller's seat in the rematch"})
    token = fields.String(required=True, metadata={
        "description": "the bearer token of that seat (the same each time this player asks)"})
    host_token = fields.String(metadata={
        "description": "the rematch's host token, for the player who hosts it (the one whose "
                       "seat the finished game's host took with the host token; when the host "
                       "did not sit there, the first player to claim a seat): it seats bots and "
                       "frees seats before the start. The same each time this player asks; "
                       "absent for the others"})
    game = GameField(required=True)  # the rematch as that seat sees it
