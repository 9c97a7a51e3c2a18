"""The HTTP schemas of the rulesets' catalogue (``GET /v1/rulesets``) and of Turandot's score
calculator."""

from __future__ import annotations

from typing import Any

from marshmallow import fields, validate

from impresario_rules.turandot.cards import DEFAULT as DEFAULT_CATALOGUE
from impresario_rules.turandot.cards import DIRECTORS
from impresario_rules.turandot.declarations import DIRECTOR, SCORE_LINES, SINGER

from ..table.events import MOVE_TYPES
from .declared import Base, Int, StrictBool, schema_for


class OptionDocSchema(Base):
    """One option of a ruleset, in words."""

    type = fields.String(required=True, metadata={"example": "integer from 0 to 4, or null"})
    default = fields.Raw(required=True, allow_none=True, metadata={
        "description": "the value a game takes when the option is left out (any JSON value)"})
    description = fields.String(required=True)


class CatalogueSchema(Base):
    """Turandot's default catalogue: the card faces."""

    singers = fields.List(fields.Nested(schema_for(SINGER)), required=True)
    directors = fields.List(fields.Nested(schema_for(DIRECTOR)), required=True)


class RulesetSchema(Base):
    name = fields.String(required=True)
    title = fields.String(required=True)
    min_players = Int(required=True)
    max_players = Int(required=True)
    options = fields.Dict(keys=fields.String(), values=fields.Nested(OptionDocSchema),
                          required=True, metadata={"description": "the options by name"})
    move_types = fields.List(fields.String(validate=validate.OneOf(MOVE_TYPES)), required=True)
    bots = fields.List(fields.String(), required=True, metadata={
        "description": "the levels of the engine's bots a host can seat (POST /seats with "
                       "`bot`), weakest first",
        "example": ["easy", "medium", "hard"]})
    bot_aliases = fields.Dict(keys=fields.String(), values=fields.String(), required=True,
                              metadata={"description": "older names a host may still use for "
                                                       "some levels: name to level",
                                        "example": {"random": "easy", "greedy": "medium"}})
    bot_seconds = Int(required=True, metadata={
        "description": "the default of the game option `bot_seconds`: the longest the "
                       "engine's bots think before a move (0: at once)", "example": 0})
    leave_bot = fields.String(required=True, metadata={
        "description": "who plays the seat of a player who leaves a game in play: one of "
                       "`bots`, or `defaults` (the seat plays what a passed deadline plays)",
        "example": "greedy"})
    catalogue = fields.Nested(CatalogueSchema, metadata={
        "description": "Turandot: the default catalogue's card faces (for calculators and "
                       "card faces)"})


class RulesetsSchema(Base):
    rulesets = fields.List(fields.Nested(RulesetSchema), required=True)


def _default_singer() -> dict[str, Any]:
    """A singer of the default catalogue (a fresh list each time: YAML would alias a shared one)."""
    return {"enum": sorted(DEFAULT_CATALOGUE.singers)}


class CalculatorSchema(Base):
    singers = fields.List(fields.String(metadata=_default_singer()), required=True,
                          validate=validate.Length(6, 6), metadata={
                              "example": ["S04", "S01", "S10", "S02", "S03", "S07"],
                              "uniqueItems": True})
    director = fields.String(required=True, allow_none=True, metadata={
        "example": "neutral", "enum": [*DIRECTORS, None]})
    stage_elements = Int(load_default=0, validate=validate.Range(0, 21))
    roles = fields.List(fields.String(metadata=_default_singer()), allow_none=True,
                        load_default=None, validate=validate.Length(6, 6), metadata={
                            "description": "an arrangement of the 6 singers to score "
                                           "(default: the best)", "uniqueItems": True})
    puccini = StrictBool(load_default=False, metadata={"description": "2 players: hold Puccini at the end"})


class ArrangementSchema(Base):
    """An arrangement of six singers in the roles, and its score."""

    lines = fields.Nested(schema_for(SCORE_LINES), required=True)
    total = Int(required=True)
    roles = fields.List(fields.String(), required=True)


class CalculatorResultSchema(ArrangementSchema):
    best = fields.Nested(ArrangementSchema, required=True, metadata={
        "description": "the best arrangement"})
