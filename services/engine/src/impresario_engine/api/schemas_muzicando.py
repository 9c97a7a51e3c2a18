"""Marshmallow schemas of Muzicando: its moves (a discriminated union on ``type``), its game view
and its score. They follow ``schemas.py``: ``Base`` raises on unknown fields, integers are strict.

Card ids: ``"<colour>-<1..7>"`` (Do = 1 … Si = 7) or ``"<colour>-sign"``. Coordinates: Sarabanda
and Glissando open at (0, 0) on an unbounded grid (y grows upwards); Parada and Muzicando use the
fixed board x = colour index 0–6, y = note 1–7. A sign's (x, y) is the cell of the note it covers.
"""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from ..games.muzicando.cards import COLOURS, DECK
from ..games.muzicando.layouts import LAYOUTS
from ..games.muzicando.rules import CONTRACTS, MAX_HANDS, MUZICANDO
from .schemas import (Base, GameBaseSchema, Int, MoveBase, PendingSchema, SeatOrRandom,
                      StrictBool)

COORD = 64  # 56 cards never reach further from the opening card

_card = dict(validate=validate.OneOf(DECK), metadata={"example": "red-3"})
#: in a move, the sets and ranges are the rules' to check (unknown_contract, unknown_layout,
#: unknown_card, the layouts' cell codes): the spec documents them, the schema does not enforce
#: them (see schemas.py)
_MOVE_CARD = {"example": "red-3", "enum": list(DECK)}
_COORD = {"minimum": -COORD, "maximum": COORD}


# ---------------------------------------------------------------------------- moves
class AuctionBidMoveSchema(MoveBase):
    """A bid in the auction: a contract strictly higher than the last bid, for a layout whose
    opening card you hold (R7)."""

    type = fields.String(required=True, validate=validate.Equal("auction_bid"))
    contract = fields.String(required=True, metadata={"example": "2G",
                                                      "enum": list(CONTRACTS)})


class AuctionPassMoveSchema(MoveBase):
    type = fields.String(required=True, validate=validate.Equal("auction_pass"))


class ChooseLayoutMoveSchema(MoveBase):
    """The chooser (individual game) names the layout: S, G, P or M."""

    type = fields.String(required=True, validate=validate.Equal("choose_layout"))
    layout = fields.String(required=True, metadata={"example": "P", "enum": list(LAYOUTS)})


class PlaceMoveSchema(MoveBase):
    """Place a card from your hand at (x, y); a sign's (x, y) is the cell of the note it covers."""

    type = fields.String(required=True, validate=validate.Equal("place"))
    card = fields.String(required=True, metadata=_MOVE_CARD)
    x = Int(required=True, metadata={"example": 0, **_COORD})
    y = Int(required=True, metadata={"example": 1, **_COORD})


class PassMoveSchema(MoveBase):
    """Pass: draws a card while the pile lasts; without a pile only with no note to place (R5)."""

    type = fields.String(required=True, validate=validate.Equal("pass"))


MUZICANDO_MOVE_SCHEMAS: dict[str, type[Schema]] = {
    "auction_bid": AuctionBidMoveSchema,
    "auction_pass": AuctionPassMoveSchema,
    "choose_layout": ChooseLayoutMoveSchema,
    "place": PlaceMoveSchema,
    "pass": PassMoveSchema,
}


# ---------------------------------------------------------------------------- options
class MuzicandoOptionsSchema(Base):
    mode = fields.String(metadata={"enum": ["team", "individual"], "description": (
        "the team game (exactly 4 players) or the individual game; default: team with 4 "
        "players")})
    hands = Int(metadata={"minimum": 1, "maximum": MAX_HANDS, "description": (
        "team: at least 4; individual: a multiple of the players")})
    auction = StrictBool(metadata={"description": "R11: the individual game for 4 or 8 with the "
                                                  "team game's auction (always in the team game)"})
    first_dealer = SeatOrRandom("the seat that deals the first hand (below the players), or "
                                "'random'", MUZICANDO.max_players)


# ---------------------------------------------------------------------------- view
class MuzicandoPlayerSchema(Base):
    seat = Int(required=True)
    name = fields.String(required=True, allow_none=True)
    bot = fields.String(required=True, allow_none=True, metadata={
        "description": "the engine's bot that plays this seat, if any"})
    team = Int(required=True, allow_none=True, metadata={
        "description": "team game: 0 North–South (seats 0, 2), 1 East–West (seats 1, 3)"})
    hand_size = Int(required=True)
    blocked = StrictBool(required=True, metadata={"description": "skips his next turn"})
    out = StrictBool(required=True, metadata={"description": "emptied his hand this hand"})
    place = Int(required=True, allow_none=True, metadata={"description": "finishing place, once out"})
    total = Int(required=True, metadata={"description": "points so far in the match"})


class CallSchema(Base):
    seat = Int(required=True)
    call = fields.String(required=True, validate=validate.OneOf([*CONTRACTS, "pass"]))


class StandingBidSchema(Base):
    seat = Int(required=True)
    contract = fields.String(required=True, validate=validate.OneOf(CONTRACTS))


class AuctionSchema(Base):
    calls = fields.List(fields.Nested(CallSchema), required=True)
    bid = fields.Nested(StandingBidSchema, required=True, allow_none=True)
    dealer_must_bid = StrictBool(required=True)


class CellSchema(Base):
    x = Int(required=True)
    y = Int(required=True)
    card = fields.String(required=True, **_card)
    covered_by = fields.String(required=True, allow_none=True,
                               validate=validate.OneOf([f"{c}-sign" for c in COLOURS]))


class RowSchema(Base):
    y = Int(required=True)
    from_x = Int(required=True)
    to_x = Int(required=True)
    direction = fields.String(required=True, allow_none=True,
                              validate=validate.OneOf(["rising", "falling"]))


class PileSchema(Base):
    colour = fields.String(required=True, validate=validate.OneOf(COLOURS))
    x = Int(required=True)
    top = fields.String(required=True, **_card)
    complete = StrictBool(required=True)
    sign = fields.String(required=True, allow_none=True)


class MuzicandoTableSchema(Base):
    cells = fields.List(fields.Nested(CellSchema), required=True)
    rows = fields.List(fields.Nested(RowSchema), required=True, metadata={
        "description": "Glissando: the rows, one per line"})
    piles = fields.List(fields.Nested(PileSchema), required=True, metadata={
        "description": "Muzicando: the open piles"})


class PlaceEntrySchema(Base):
    seat = Int(required=True)
    place = Int(required=True)


class HandPlaceSchema(Base):
    seat = Int(required=True)
    place = Int(required=True)
    finished = StrictBool(required=True, metadata={
        "description": "went out (false: placed by R6 with cards left)"})
    cards_left = Int(required=True)


class HandResultSchema(Base):
    hand = Int(required=True)
    dealer = Int(required=True)
    layout = fields.String(required=True, validate=validate.OneOf(LAYOUTS))
    contract = fields.String(required=True, allow_none=True)
    declarer = Int(required=True, allow_none=True)
    chooser = Int(required=True, allow_none=True)
    made = StrictBool(required=True, allow_none=True, metadata={
        "description": "the declarer's target met (null without an auction)"})
    places = fields.List(fields.Nested(HandPlaceSchema), required=True)
    place_points = fields.List(Int(), required=True)
    contract_points = fields.List(Int(), required=True)
    chooser_points = fields.List(Int(), required=True)
    points = fields.List(Int(), required=True)


class MuzicandoYouSchema(Base):
    seat = Int(required=True)
    hand = fields.List(fields.String(**_card), required=True)


class MuzicandoLinesSchema(Base):
    places = Int(required=True)
    contracts = Int(required=True)
    chooser = Int(required=True)


class MuzicandoPlayerScoreSchema(Base):
    seat = Int(required=True)
    lines = fields.Nested(MuzicandoLinesSchema, required=True)
    total = Int(required=True)


class MuzicandoTeamScoreSchema(Base):
    team = Int(required=True)
    seats = fields.List(Int(), required=True)
    total = Int(required=True)


class MuzicandoScoreSchema(Base):
    mode = fields.String(required=True, validate=validate.OneOf(["team", "individual"]))
    players = fields.List(fields.Nested(MuzicandoPlayerScoreSchema), required=True)
    teams = fields.List(fields.Nested(MuzicandoTeamScoreSchema), required=True, metadata={
        "description": "team game: both teams (empty in the individual game)"})
    winners = fields.List(Int(), required=True)
    hands = fields.List(fields.Nested(HandResultSchema), required=True)


class MuzicandoGameSchema(GameBaseSchema):
    """A game as the caller may see it (Muzicando)."""

    ruleset = fields.String(required=True, validate=validate.OneOf(["muzicando"]),
                            metadata={"example": "muzicando"})
    mode = fields.String(required=True, validate=validate.OneOf(["team", "individual"]))
    auction_variant = StrictBool(required=True, metadata={
        "description": "hands open with the auction (team game, or R11)"})
    hand = Int(required=True)
    hands = Int(required=True)
    phase = fields.String(required=True, validate=validate.OneOf(
        ["auction", "choose", "play", "finished"]))
    dealer = Int(required=True)
    turn = Int(required=True, allow_none=True)
    players = fields.List(fields.Nested(MuzicandoPlayerSchema), required=True)
    pending = fields.List(fields.Nested(PendingSchema), required=True)
    pile_size = Int(required=True)
    auction = fields.Nested(AuctionSchema, required=True, allow_none=True)
    contract = fields.String(required=True, allow_none=True)
    declarer = Int(required=True, allow_none=True)
    chooser = Int(required=True, allow_none=True)
    layout = fields.String(required=True, allow_none=True, validate=validate.OneOf(LAYOUTS))
    table = fields.Nested(MuzicandoTableSchema, required=True)
    blocked = fields.List(Int(), required=True)
    queued_blocks = fields.List(Int(), required=True, metadata={
        "description": "blocks laid during a rest's run, taking effect when it ends"})
    run = Int(required=True, allow_none=True, metadata={"description": "the seat on a rest's run"})
    places = fields.List(fields.Nested(PlaceEntrySchema), required=True)
    results = fields.List(fields.Nested(HandResultSchema), required=True)
    totals = fields.List(Int(), required=True)
    team_totals = fields.List(Int(), required=True, allow_none=True)
    you = fields.Nested(MuzicandoYouSchema, metadata={"description": "present for a seated caller"})
    score = fields.Nested(MuzicandoScoreSchema, metadata={"description": "present once finished"})
