"""Marshmallow schemas of the HTTP API: request bodies are loaded with them, responses are
documented by them (and checked against the generated spec by the contract tests).

Moves are a discriminated union on ``type``: one schema per move, chosen by :func:`load_move`.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from marshmallow import INCLUDE, RAISE, Schema, ValidationError, fields, validate
from marshmallow.utils import missing as marshmallow_missing

from ..games import RULESETS
from ..games.turandot.cards import DEFAULT as DEFAULT_CATALOGUE
from ..games.turandot.cards import CATEGORIES, DIRECTORS, FAVOURITE_ROLES, SEXES, SINGER_ID
from .errors import ApiError

NAME_MAX = 40
SEED_MAX = 2**63 - 1

# What the rules check themselves, with their own code and a message that names the game's own
# range or set, is documented in the spec (``metadata``: enum, minimum, maximum, pattern) but not
# enforced by the schema: the schema would answer first, with a generic ``invalid_body`` naming a
# bound that is not the game's (a 2-player Turandot's slots are 1–3, not 1–6). The schemas check
# the shape (types, required and unknown fields); the spec still tells a client every value the
# server can accept.


class StrictBool(fields.Boolean):
    """Only JSON true/false: no "yes", 1 or "true" strings."""

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, bool):
            raise ValidationError("Not a valid boolean (true or false).")
        return value


def Int(**kw: Any) -> fields.Integer:  # noqa: N802 - reads like a field class
    return fields.Integer(strict=True, **kw)


class Base(Schema):
    class Meta:
        unknown = RAISE
        ordered = True


# ---------------------------------------------------------------------------- problem
class ProblemSchema(Base):
    type = fields.String(required=True, metadata={"example": "https://impresario.dev/problems/not_your_turn"})
    title = fields.String(required=True, metadata={"example": "Conflict"})
    status = Int(required=True, metadata={"example": 409})
    code = fields.String(required=True, metadata={
        "description": "stable machine-readable error code", "example": "not_your_turn"})
    detail = fields.String(required=True, metadata={"example": "only the maestro assigns the office hires"})
    request_id = fields.String(metadata={"description": "the request's id (also in X-Request-ID)"})
    errors = fields.Dict(metadata={"description": "per-field messages of a body that failed validation"})

    class Meta:
        unknown = INCLUDE


# ---------------------------------------------------------------------------- cards
class SingerSchema(Base):
    id = fields.String(required=True, metadata={"example": "S04"})
    kind = fields.String(required=True, validate=validate.OneOf(["singer"]))
    category = fields.String(required=True, validate=validate.OneOf(
        ["professional", "amateur", "alternative", "classic", "comic", "dark"]))
    sex = fields.String(required=True, validate=validate.OneOf(["male", "female", "undefined"]))
    stars = Int(required=True, validate=validate.Range(1, 3))
    favourite_role = fields.String(required=True, allow_none=True,
                                   validate=validate.OneOf(["turandot", "calaf", "liu"]))


class DirectorSchema(Base):
    id = fields.String(required=True, metadata={"example": "neutral"})
    kind = fields.String(required=True, validate=validate.OneOf(["director"]))
    effect = fields.String(required=True)


class CardSchema(Base):
    """A singer or a director, told apart by ``kind``."""

    id = fields.String(required=True)
    kind = fields.String(required=True, validate=validate.OneOf(["singer", "director"]))
    category = fields.String()
    sex = fields.String()
    stars = Int()
    favourite_role = fields.String(allow_none=True)
    effect = fields.String()


class CatalogueEntrySchema(Base):
    id = fields.String(required=True, metadata={"pattern": SINGER_ID})
    category = fields.String(required=True, metadata={"enum": list(CATEGORIES)})
    sex = fields.String(required=True, metadata={"enum": list(SEXES)})
    stars = Int(required=True, metadata={"minimum": 1, "maximum": 3})
    favourite_role = fields.String(allow_none=True, metadata={
        "enum": [*FAVOURITE_ROLES, "", None], "description": "empty or null: none"})
    kind = fields.String(metadata={"enum": ["singer"]})


# ---------------------------------------------------------------------------- games
# Each ruleset's options, for the spec only (the rules check them, with their own codes): the
# `CreateGame` union of the spec has one member per ruleset, with its players and its options,
# the service's own among them (create_game_schemas adds those).
_SERVICE_OPTIONS = {
    "move_seconds": "the time each seat has for a move before the engine plays its default "
                    "(null: no deadline)",
    "bot_seconds": "the longest a bot seat thinks before a move (default: Word Jam 20, others "
                   "0, at once)",
}


def _with_service_options(schema: type[Schema]) -> type[Schema]:
    """``schema`` (a ruleset's options) with the options the service reads itself, from its
    table of them."""
    from ..service import SECONDS_SETTINGS  # late: the service imports this module's neighbours

    return type(schema.__name__, (schema,), {
        name: Int(allow_none=True, metadata={
            "minimum": low, "maximum": high,
            "description": f"{_SERVICE_OPTIONS.get(name, name)} (invalid_{name})"})
        for name, (low, high) in SECONDS_SETTINGS.items()})


def SeatOrRandom(description: str, seats: int) -> fields.Raw:  # noqa: N802
    return fields.Raw(metadata={"description": description, "oneOf": [
        {"type": "integer", "minimum": 0, "maximum": seats - 1},
        {"type": "string", "enum": ["random"]}]})


class TurandotOptionsSchema(Base):
    first_maestro = SeatOrRandom("seat of the first maestro (below the players), or 'random'",
                                 RULESETS["turandot"].max_players)
    catalogue = fields.List(fields.Nested(CatalogueEntrySchema), allow_none=True, metadata={
        "description": "another singer catalogue: 36 singers, 6 per category, unique ids",
        "minItems": 36, "maxItems": 36})


class CreateGameSchema(Base):
    """A new game, as the body is loaded; the spec shows one per ruleset, with its players and
    options (create_game_schemas). The ruleset's name, the players and the options are the
    service's and the rules' to check (ruleset_not_found, invalid_players, the options' codes)."""

    ruleset = fields.String(required=True, metadata={"example": "turandot"})
    players = Int(required=True, metadata={"example": 4})
    seed = Int(validate=validate.Range(-SEED_MAX, SEED_MAX), metadata={
        "description": "seed of the game's randomness (random if omitted)", "example": 7})
    options = fields.Dict(keys=fields.String(), load_default=dict, metadata={
        "description": "ruleset options (see GET /v1/rulesets/{ruleset}), and two of the "
                       "service's: move_seconds, the time each seat has for a move before the "
                       "engine plays its default; bot_seconds (0-3600), the longest a bot seat "
                       "thinks before a move (default: Word Jam 20, others 0, at once)",
        "example": {"first_maestro": 0, "move_seconds": 60}})
    private = StrictBool(load_default=False, metadata={
        "description": "spectators see nothing without the spectator link"})


def create_game_schemas(options: dict[str, type[Schema]]) -> dict[str, type[Schema]]:
    """Per ruleset, ``CreateGame`` as the spec shows it: the ruleset's name, its players and its
    options (``options``: each ruleset's options schema). Documentation only: the body is loaded
    with :class:`CreateGameSchema` and the rules check the values with their own codes."""
    out = {}
    for name, ruleset in RULESETS.items():
        title = ruleset.title.replace(" ", "")
        out[name] = type(f"Create{title}GameSchema", (CreateGameSchema,), {
            "__doc__": f"A new {ruleset.title} game.",
            "ruleset": fields.String(required=True, metadata={"enum": [name]}),
            "players": Int(required=True, metadata={
                "example": ruleset.min_players, "minimum": ruleset.min_players,
                "maximum": ruleset.max_players}),
            "options": fields.Nested(_with_service_options(options[name]), metadata={
                "description": f"{ruleset.title}'s options (GET /v1/rulesets/{name})"}),
        })
    return out


def _no_control_characters(value: str) -> None:
    if any(unicodedata.category(c) == "Cc" for c in value):
        raise ValidationError("names may not contain control characters")


class JoinSchema(Base):
    name = fields.String(required=True, validate=[
        validate.Length(1, NAME_MAX),
        validate.Regexp(r"^[^\x00-\x1f\x7f-\x9f]+$", error="names may not contain control characters"),
        _no_control_characters,  # Python's $ lets a final newline through the pattern
    ], metadata={"example": "Anna"})
    bot = fields.String(allow_none=True, load_default=None, validate=validate.Length(1, 40),
                        metadata={"description": "with the host token: a bot seat played by "
                                                 "the engine, one of the ruleset's "
                                                 "(GET /v1/rulesets/{ruleset}; unknown_bot)",
                                  "enum": [*sorted({b for r in RULESETS.values()
                                                    for b in r.bot_names}), None]})


class TablePlaceSchema(Base):
    slot = Int(required=True)
    card = fields.Nested(CardSchema, required=True, allow_none=True)


class FiredSchema(Base):
    seat = Int(required=True)
    director = fields.Nested(DirectorSchema, required=True)


class TurandotPlayerSchema(Base):
    seat = Int(required=True)
    name = fields.String(required=True, allow_none=True)
    singers = fields.List(fields.Nested(SingerSchema), required=True)
    director = fields.Nested(DirectorSchema, required=True, allow_none=True)
    stage_elements = Int(required=True)
    money = Int(required=True)
    face_down = Int(required=True, metadata={
        "description": "cards this seat has committed face down this round (R3)"})
    has_bid = StrictBool(required=True, allow_none=True)
    bot = fields.String(required=True, allow_none=True, metadata={
        "description": "the engine's bot that plays this seat, if any"})
    cast = fields.List(fields.String(), required=True, allow_none=True)


class PendingSchema(Base):
    seat = Int(required=True)
    kinds = fields.List(fields.String(), required=True)
    deadline = fields.Float(required=True, allow_none=True, metadata={
        "description": "when the engine plays this seat's default move (Unix time, seconds); "
                       "null without move_seconds"})


class RevealedBidSchema(Base):
    seat = Int(required=True)
    slot = Int(required=True, allow_none=True)
    money = Int(required=True)
    bluff = StrictBool(required=True)


class BidSchema(Base):
    slot = Int(required=True, allow_none=True)
    money = Int(required=True)
    bluff = StrictBool(required=True)


class HandSchema(Base):
    numbers = fields.List(Int(), required=True)
    money = Int(required=True)
    bluff = StrictBool(required=True)


class YouSchema(Base):
    seat = Int(required=True)
    hand = fields.Nested(HandSchema, required=True)
    bid = fields.Nested(BidSchema, required=True, allow_none=True)


class DummySchema(Base):
    singers = fields.List(fields.Nested(SingerSchema), required=True)
    director = fields.Nested(DirectorSchema, required=True, allow_none=True)


class ScoreLinesSchema(Base):
    stars = Int(required=True)
    stage_elements = Int(required=True)
    favourite_roles = Int(required=True)
    wrong_sex = Int(required=True)
    director = Int(required=True)
    puccini = Int(required=True)


class PlayerScoreSchema(Base):
    seat = Int(required=True)
    lines = fields.Nested(ScoreLinesSchema, required=True)
    total = Int(required=True)
    cast = fields.List(fields.String(), required=True)


class DummyScoreSchema(Base):
    lines = fields.Nested(ScoreLinesSchema, required=True)
    total = Int(required=True)
    cast = fields.List(fields.String(), required=True)


class TurandotScoreSchema(Base):
    players = fields.List(fields.Nested(PlayerScoreSchema), required=True)
    dummy = fields.Nested(DummyScoreSchema, required=True, allow_none=True)
    winners = fields.List(Int(), required=True)
    dummy_wins = StrictBool(required=True)


class GameBaseSchema(Base):
    """What the service adds to every ruleset's view of a game."""

    id = fields.String(required=True)
    version = Int(required=True, metadata={"description": "increments with every accepted change; also the ETag"})
    status = fields.String(required=True, validate=validate.OneOf(["open", "playing", "finished"]))
    seats_taken = Int(required=True)
    seats_total = Int(required=True)
    last_seq = Int(required=True, metadata={
        "description": "the sequence number of the game's last event: follow the feed from here"})
    private = StrictBool(required=True)
    move_seconds = Int(required=True, allow_none=True)
    bot_seconds = Int(required=True, metadata={
        "description": "the longest a bot seat thinks before a move (0: at once); when a bot "
                       "will move is secret: the pending entry shows its window's deadline"})
    seeded = StrictBool(required=True, metadata={
        "description": "the game was created with an explicit seed: whoever chose it can work "
                       "out the deck. For practice, tests and replays, not for play among "
                       "strangers"})
    rematch = fields.String(required=True, allow_none=True, metadata={
        "description": "the id of this finished game's rematch, once a player has asked for "
                       "one (`POST /v1/games/{id}/rematch`)"})


class TurandotGameSchema(GameBaseSchema):
    """A Turandot game as the caller may see it."""

    ruleset = fields.String(required=True, validate=validate.OneOf(["turandot"]),
                            metadata={"example": "turandot"})
    round = Int(required=True)
    phase = fields.String(required=True, validate=validate.OneOf(
        ["bidding", "office", "nominate", "fire", "casting", "finished"]))
    maestro = Int(required=True)
    table = fields.List(fields.Nested(TablePlaceSchema), required=True)
    directors = fields.List(fields.Nested(DirectorSchema), required=True,
                            metadata={"description": "the public director pile"})
    fired = fields.List(fields.Nested(FiredSchema), required=True)
    removed_directors = fields.List(fields.Nested(DirectorSchema), required=True)
    helpers = fields.List(fields.String(), required=True)
    players = fields.List(fields.Nested(TurandotPlayerSchema), required=True)
    dummy = fields.Nested(DummySchema, required=True, allow_none=True)
    pending = fields.List(fields.Nested(PendingSchema), required=True)
    reveal = fields.List(fields.Nested(RevealedBidSchema), required=True, allow_none=True,
                         metadata={"description": "the bids of the last reveal"})
    reveal_round = Int(required=True, allow_none=True, metadata={
        "description": "the round whose bids `reveal` shows (the previous one while bidding)"})
    waiting = fields.List(Int(), required=True)
    nominee = Int(required=True, allow_none=True)
    deck_left = Int(required=True)
    you = fields.Nested(YouSchema, metadata={"description": "present for a seated caller"})
    score = fields.Nested(TurandotScoreSchema, metadata={"description": "present once finished"})


def GameField(**kw: Any) -> fields.Raw:  # noqa: N802 - reads like a field class
    """A game view of any ruleset (the ``Game`` union, told apart by ``ruleset``)."""
    return fields.Raw(metadata={"allOf": [{"$ref": "#/components/schemas/Game"}]}, **kw)


def ScoreField(**kw: Any) -> fields.Raw:  # noqa: N802
    """A final score of any ruleset (the ``Score`` union)."""
    return fields.Raw(metadata={"allOf": [{"$ref": "#/components/schemas/Score"}]}, **kw)


class EventSchema(Base):
    seq = Int(required=True)
    type = fields.String(required=True)

    class Meta:
        unknown = INCLUDE


class CreatedGameSchema(Base):
    game = GameField(required=True)
    host_token = fields.String(required=True, metadata={"description": "shown once; keep it"})
    spectator_token = fields.String(required=True, allow_none=True, metadata={
        "description": "a private game's read-only token for spectators (shown once)"})
    spectator_link = fields.String(required=True, allow_none=True, metadata={
        "description": "a private game's link for spectators: "
                       "`/v1/games/{id}?spectator=<spectator_token>`; read-only"})
    join_token = fields.String(required=True, allow_none=True, metadata={
        "description": "a private game's token for taking a seat (shown once); share it "
                       "with the players only"})
    join_link = fields.String(required=True, allow_none=True, metadata={
        "description": "a private game's link for players: "
                       "`/v1/games/{id}/seats?join=<join_token>`; POST `{\"name\": ...}` to "
                       "it to take a seat"})


class JoinedSchema(Base):
    seat = Int(required=True)
    token = fields.String(required=True, allow_none=True, metadata={
        "description": "the seat's bearer token, shown once (null for a bot seat)"})
    bot = fields.String(required=True, allow_none=True)
    game = GameField(required=True)


class MoveResultSchema(Base):
    version = Int(required=True)
    events = fields.List(fields.Nested(EventSchema), required=True)
    game = GameField(required=True)


class EventsSchema(Base):
    events = fields.List(fields.Nested(EventSchema), required=True)
    last_seq = Int(required=True)


class EventsQuerySchema(Base):
    after = fields.Integer(load_default=0, validate=validate.Range(0, 2**53))
    spectator = fields.String(validate=validate.Length(0, 256), metadata={
        "description": "the token of a private game's spectator link"})


class ReplayMoveSchema(Base):
    seat = Int(required=True)
    move = fields.Dict(required=True)
    by = fields.String(required=True, validate=validate.OneOf(["seat", "bot", "deadline"]))


class ReplaySchema(Base):
    id = fields.String(required=True)
    ruleset = fields.String(required=True)
    players = Int(required=True)
    seed = Int(required=True)
    options = fields.Dict(required=True)
    move_seconds = Int(required=True, allow_none=True)
    bot_seconds = Int(required=True)
    names = fields.List(fields.String(), required=True)
    bots = fields.List(fields.String(allow_none=True), required=True)
    moves = fields.List(fields.Nested(ReplayMoveSchema), required=True)
    score = ScoreField(required=True)


class ReplayStepQuerySchema(Base):
    seat = fields.Integer(validate=validate.Range(0, 63), metadata={
        "description": "see the table as this seat saw it (its hand included); "
                       "default: the spectator's view"})
    spectator = fields.String(validate=validate.Length(1, 256), metadata={
        "description": "the token of a private game's spectator link"})


class ReplayStepSchema(Base):
    step = Int(required=True, metadata={"description": "moves applied: 0 is the deal"})
    steps = Int(required=True, metadata={"description": "the game's number of moves"})
    seat = Int(required=True, allow_none=True, metadata={"description": "whose view `game` is"})
    move = fields.Nested(ReplayMoveSchema, required=True, allow_none=True, metadata={
        "description": "the move that led here (null at step 0)"})
    game = GameField(required=True)


class ActionSpaceSchema(Base):
    type = fields.String(required=True)

    class Meta:
        unknown = INCLUDE


class ActionsSchema(Base):
    seat = Int(required=True, allow_none=True)
    pending = fields.List(fields.String(), required=True)
    moves = fields.List(fields.Nested(ActionSpaceSchema), required=True, metadata={
        "description": "the legal moves, described compactly per move type"})
    default = fields.Dict(allow_none=True, metadata={
        "description": "the move the engine makes for this seat if a deadline passes"})


# ---------------------------------------------------------------------------- moves
class MoveBase(Base):
    type = fields.String(required=True)


class BidMoveSchema(MoveBase):
    """A sealed bid: a number card (slot) with 0+ money, or one money card alone (slot null) for
    a helper; the bluff card may be added to either."""

    type = fields.String(required=True, validate=validate.Equal("bid"))
    slot = Int(required=True, allow_none=True, metadata={
        "example": 3, "minimum": 1, "maximum": 6,
        "description": "1 to players + 1 (slot_out_of_range), or null for a helper"})
    money = Int(load_default=0, validate=validate.Range(0, 3), metadata={"example": 1})
    bluff = StrictBool(load_default=False, metadata={"example": False})
    round = Int(allow_none=True, validate=validate.Range(1, 7), metadata={
        "description": "the round this bid is for: a late retry that would land in another "
                       "round is refused with 409 stale_round instead"})


class OfficeAssignmentSchema(Base):
    seat = Int(required=True, metadata={"minimum": 0, "maximum": 4})
    slot = Int(required=True, metadata={"minimum": 1, "maximum": 6})


class AssignOfficeMoveSchema(MoveBase):
    type = fields.String(required=True, validate=validate.Equal("assign_office"))
    assignments = fields.List(fields.Nested(OfficeAssignmentSchema), required=True,
                              validate=validate.Length(1, 5))


class NominateMoveSchema(MoveBase):
    type = fields.String(required=True, validate=validate.Equal("nominate"))
    seat = Int(required=True, metadata={"minimum": 0, "maximum": 4})


class FireDirectorMoveSchema(MoveBase):
    type = fields.String(required=True, validate=validate.Equal("fire_director"))
    director = fields.String(required=True, metadata={"example": "neutral",
                                                      "enum": list(DIRECTORS)})


class CastMoveSchema(MoveBase):
    """Your 6 singers in role order: Turandot, Calaf, Liù, Ping, Pong, Pang; null or omitted: the
    engine's optimal arrangement (R6)."""

    type = fields.String(required=True, validate=validate.Equal("cast"))
    roles = fields.List(fields.String(validate=validate.Length(1, 32),
                                      metadata={"pattern": SINGER_ID}),
                        allow_none=True, load_default=None, validate=validate.Length(6, 6))


#: each ruleset's view and score schemas (the ``Game`` and ``Score`` unions of the spec)
VIEW_SCHEMAS: dict[str, tuple[type[Schema], type[Schema]]] = {
    "turandot": (TurandotGameSchema, TurandotScoreSchema),
}

TURANDOT_MOVE_SCHEMAS: dict[str, type[Schema]] = {
    "bid": BidMoveSchema,
    "assign_office": AssignOfficeMoveSchema,
    "nominate": NominateMoveSchema,
    "fire_director": FireDirectorMoveSchema,
    "cast": CastMoveSchema,
}
#: every ruleset's move schemas by move type (the ``Move`` union of the spec)
MOVE_SCHEMAS: dict[str, type[Schema]] = dict(TURANDOT_MOVE_SCHEMAS)
#: each ruleset's move schemas: a move body is loaded with its game's own
RULESET_MOVE_SCHEMAS: dict[str, dict[str, type[Schema]]] = {"turandot": TURANDOT_MOVE_SCHEMAS}
#: each ruleset's options (for the spec's CreateGame union)
OPTIONS_SCHEMAS: dict[str, type[Schema]] = {"turandot": TurandotOptionsSchema}
_MOVE_LOADERS: dict[str, Schema] = {}
#: per ruleset, per move type: the schema and its compiled loader (None: marshmallow only)
_RULESET_LOADERS: dict[str, dict[str, tuple[Schema, Any]]] = {}


def register_rulesets() -> None:
    """Every ruleset's moves and views join the unions (once; their modules import this one,
    so they are read lazily, when the app is built or the first move is loaded)."""
    if _MOVE_LOADERS:
        return
    from .schemas_muzicando import (MUZICANDO_MOVE_SCHEMAS, MuzicandoGameSchema,
                                    MuzicandoOptionsSchema, MuzicandoScoreSchema)
    from .schemas_wordjam import (WORDJAM_MOVE_SCHEMAS, WordJamGameSchema, WordJamOptionsSchema,
                                  WordJamScoreSchema)

    VIEW_SCHEMAS["wordjam"] = (WordJamGameSchema, WordJamScoreSchema)
    VIEW_SCHEMAS["muzicando"] = (MuzicandoGameSchema, MuzicandoScoreSchema)
    RULESET_MOVE_SCHEMAS["wordjam"] = WORDJAM_MOVE_SCHEMAS
    RULESET_MOVE_SCHEMAS["muzicando"] = MUZICANDO_MOVE_SCHEMAS
    OPTIONS_SCHEMAS["wordjam"] = WordJamOptionsSchema
    OPTIONS_SCHEMAS["muzicando"] = MuzicandoOptionsSchema
    for extra in (WORDJAM_MOVE_SCHEMAS, MUZICANDO_MOVE_SCHEMAS):
        clash = set(extra) & set(MOVE_SCHEMAS)
        assert not clash, f"move types used by two rulesets: {clash}"
        MOVE_SCHEMAS.update(extra)
    _MOVE_LOADERS.update({k: v() for k, v in MOVE_SCHEMAS.items()})
    _FAST_LOADERS.update({k: _compile(v) for k, v in _MOVE_LOADERS.items()})
    assert set(RULESET_MOVE_SCHEMAS) == set(RULESETS), "a ruleset without move schemas"
    for name, moves in RULESET_MOVE_SCHEMAS.items():
        assert tuple(moves) == RULESETS[name].move_types, f"{name}: schemas and move_types differ"
        _RULESET_LOADERS[name] = {k: (_MOVE_LOADERS[k], _FAST_LOADERS[k]) for k in moves}


# The move path loads every move body, and marshmallow costs about a tenth of a move's CPU.
# A move schema made of plain fields is compiled into one flat function that accepts only
# bodies it fully understands (every key a field, every value of exactly the right type and
# range) and returns what marshmallow would; anything else, valid or not, goes to marshmallow,
# so every error message still comes from the schema. tests/unit/test_fast_moves.py checks the
# two agree on many generated bodies.
_MISSING = object()
_FAST_LOADERS: dict[str, Any] = {}


def _compile_field(field: fields.Field):
    """A check ``value -> bool`` for one field, or None when the field is not plain."""
    if isinstance(field, fields.Integer):
        if not field.strict or type(field) is not fields.Integer:
            return None
        kind = int
    elif isinstance(field, StrictBool):
        kind = bool
    elif type(field) is fields.String:
        kind = str
    elif type(field) is fields.List and type(field.inner) is fields.String \
            and not field.inner.allow_none:
        kind = list
        inner = _compile_field(field.inner)
        if inner is None:
            return None
    else:
        return None
    checks = []
    for v in field.validators:
        if isinstance(v, validate.Range) and kind is int and v.min_inclusive and v.max_inclusive:
            checks.append(lambda x, lo=v.min, hi=v.max: (lo is None or x >= lo)
                          and (hi is None or x <= hi))
        elif isinstance(v, validate.Length) and kind in (str, list) and v.equal is None:
            checks.append(lambda x, lo=v.min, hi=v.max: (lo is None or len(x) >= lo)
                          and (hi is None or len(x) <= hi))
        elif isinstance(v, validate.Equal):
            checks.append(lambda x, c=v.comparable: x == c)
        elif isinstance(v, validate.OneOf):
            checks.append(lambda x, c=frozenset(v.choices): x in c)
        else:
            return None
    if kind is list:  # a list of plain strings, each checked as the inner field checks it
        checks.insert(0, lambda x: all(type(i) is str and inner(i) for i in x))
    allow_none = field.allow_none

    def check(value) -> bool:
        if value is None:
            return allow_none
        return type(value) is kind and all(c(value) for c in checks)
    return check


def _compile(schema: Schema):
    """``body -> dict | None``: the loaded move for a plain body, None to ask marshmallow."""
    if schema.opts.unknown != RAISE or schema._hooks and any(schema._hooks.values()):
        return None  # hooks (pre/post-load, validates...) run only in marshmallow
    plan = []
    for name, field in schema.load_fields.items():
        if field.data_key not in (None, name) or field.attribute not in (None, name):
            return None
        check = _compile_field(field)
        if check is None:
            return None
        default = field.load_default
        if callable(default):
            return None
        plan.append((name, check, field.required, default))
    names = frozenset(name for name, *_ in plan)

    def load(body: dict[str, Any]) -> dict[str, Any] | None:
        if not names.issuperset(body):
            return None
        out = {}
        for name, check, required, default in plan:
            value = body.get(name, _MISSING)
            if value is _MISSING:
                if required:
                    return None
                if default is not marshmallow_missing:
                    out[name] = default
                continue
            if not check(value):
                return None
            out[name] = list(value) if type(value) is list else value
        return out
    return load


def load_move(ruleset: Any, body: Any) -> dict[str, Any]:
    """A move body checked against the schema of its type among ``ruleset``'s moves (the
    :class:`~impresario_engine.games.base.Ruleset` of the game it is for): 422
    ``unknown_move_type`` naming that ruleset's moves when the type is missing or not one of
    them, 422 ``invalid_body`` naming the offending field otherwise."""
    if not isinstance(body, dict):
        raise ApiError(422, "invalid_body", "a move must be a JSON object with a 'type'",
                       errors={"_schema": ["must be an object"]})
    loaders = _RULESET_LOADERS.get(ruleset.name)
    if loaders is None:
        register_rulesets()
        loaders = _RULESET_LOADERS[ruleset.name]
    kind = body.get("type")
    found = loaders.get(kind) if type(kind) is str else None
    if found is None:
        raise _unknown_move_type(ruleset, kind)
    loader, fast = found
    if fast is not None:
        loaded = fast(body)
        if loaded is not None:
            return loaded
    try:
        return loader.load(body)
    except ValidationError as err:
        raise ApiError(422, "invalid_body", _first_message(err.messages),
                       errors=err.messages) from err


def _unknown_move_type(ruleset: Any, kind: Any) -> ApiError:
    names = ", ".join(ruleset.move_types)
    if kind is None:
        what = "a move needs a 'type'"
    else:
        shown = repr(kind)
        what = f"unknown move type {shown if len(shown) <= 42 else shown[:40] + '…'}"
    return ApiError(422, "unknown_move_type", f"{what}; {ruleset.title} moves are {names}",
                    move_types=list(ruleset.move_types),
                    errors={"type": [f"must be one of {names}"]})


def load_body(schema: Schema, body: Any) -> dict[str, Any]:
    if not isinstance(body, dict):
        raise ApiError(422, "invalid_body", "the body must be a JSON object",
                       errors={"_schema": ["must be an object"]})
    try:
        return schema.load(body)
    except ValidationError as err:
        raise ApiError(422, "invalid_body", _first_message(err.messages),
                       errors=err.messages) from err


def _first_message(messages: Any, path: str = "") -> str:
    if isinstance(messages, dict):
        for key, value in messages.items():
            return _first_message(value, f"{path}.{key}" if path else str(key))
    if isinstance(messages, list) and messages:
        if all(isinstance(m, str) for m in messages):
            return f"{path}: {messages[0]}" if path else messages[0]
        return _first_message(messages[0], path)
    return f"{path}: invalid" if path else "invalid body"


# ---------------------------------------------------------------------------- rulesets
class RulesetSchema(Base):
    name = fields.String(required=True)
    title = fields.String(required=True)
    min_players = Int(required=True)
    max_players = Int(required=True)
    options = fields.Dict(required=True)
    move_types = fields.List(fields.String(), required=True)
    bots = fields.List(fields.String(), required=True, metadata={
        "description": "the engine's bots a host can seat (POST /seats with `bot`)",
        "example": ["random", "greedy"]})
    bot_seconds = Int(required=True, metadata={
        "description": "the default of the game option `bot_seconds`: the longest the "
                       "engine's bots think before a move (0: at once)", "example": 0})
    leave_bot = fields.String(required=True, metadata={
        "description": "who plays the seat of a player who leaves a game in play: one of "
                       "`bots`, or `defaults` (the seat plays what a passed deadline plays)",
        "example": "greedy"})
    catalogue = fields.Dict(metadata={
        "description": "Turandot: the default catalogue's card faces, `{singers: [Singer], "
                       "directors: [Director]}` (for calculators and card faces)"})


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


class CalculatorResultSchema(Base):
    lines = fields.Nested(ScoreLinesSchema, required=True)
    total = Int(required=True)
    roles = fields.List(fields.String(), required=True)
    best = fields.Dict(required=True, metadata={"description": "{roles, lines, total} of the best arrangement"})


class HealthSchema(Base):
    status = fields.String(required=True)

    class Meta:
        unknown = INCLUDE
