"""Marshmallow schemas of the HTTP API: request bodies are loaded with them, responses are
documented by them (and checked against the generated spec by the contract tests).

The games' own parts (each ruleset's moves, options, view, score and action spaces) are built
from the rules' declarations (:mod:`.declared`); this module adds what the service itself says:
problems, the game's envelope and the players' names, creating and joining, events, replays,
the rulesets and the calculators. Moves are a discriminated union on ``type``, documented
here and checked by the rules (``Ruleset.prepare``).
"""

from __future__ import annotations

import unicodedata
from typing import Any

from marshmallow import Schema, ValidationError, fields, validate

from impresario_rules import RULESETS
from impresario_rules import declare as D
from impresario_rules.base import PACE_AGAINST_BOTS, PACES, Ruleset
from impresario_rules.declare import Field
from impresario_rules.texts import DEFAULT_LANGUAGE, LANGUAGES
from impresario_rules.wordjam.state import NOT_IN_DICTIONARY
from impresario_rules.wordjam.words import (CONSONANTS, EMPTY, FORBIDDEN_CONSONANT,
                                            INVALID_CHARACTERS, MAX_WORD_CHARS, REASON_TEXT,
                                            TOO_LONG, WORD_PATTERN)

from ..table.clock import PER_MOVE_SETTINGS, seconds_settings
from ..table.events import EVENTS as TABLE_EVENTS
from ..table.events import MOVE_TYPES
from ..table.names import NAME_MAX
from .declared import Base, Int, StrictBool, ref, schema_for

SEED_MAX = 2**63 - 1


# ---------------------------------------------------------------------------- problem
#: per-field messages of a body or query that failed validation: a list of messages per
#: field, or, for a field holding an object or a list, the same by its fields or indexes
FIELD_ERRORS = {"type": "object", "additionalProperties": {"anyOf": [
    {"type": "array", "items": {"type": "string"}},
    {"$ref": "#/components/schemas/FieldErrors"}]}}


def _strings(description: str) -> fields.List:
    return fields.List(fields.String(), metadata={"description": description})


class ProblemSchema(Base):
    """RFC 9457 problem JSON. Beside the five standard members and the request's id, a
    problem may carry the facts its ``code`` is about; every one of them is listed here."""

    type = fields.String(required=True, metadata={"example": "https://impresario.dev/problems/not_your_turn"})
    title = fields.String(required=True, metadata={"example": "Conflict"})
    status = Int(required=True, metadata={"example": 409})
    code = fields.String(required=True, metadata={
        "description": "stable machine-readable error code (each operation lists its own)",
        "example": "not_your_turn"})
    detail = fields.String(required=True, metadata={"example": "only the maestro assigns the office hires"})
    request_id = fields.String(metadata={"description": "the request's id (also in X-Request-ID)"})
    errors = fields.Raw(metadata={"allOf": [{"$ref": "#/components/schemas/FieldErrors"}]})
    # the facts of some codes
    version = Int(metadata={"description": "the game's version now (`stale_version`, "
                                           "`deadline_passed`, `game_finished`): its ETag"})
    default_played = StrictBool(metadata={"description": "`deadline_passed`: your own default "
                                                         "move was played"})
    cause = fields.String(validate=validate.OneOf(["deadline", "bot"]), metadata={
        "description": "`deadline_passed`: what moved the game on"})
    phase = fields.String(metadata={"description": "`deadline_passed`: the phase now"})
    pending = fields.List(fields.String(validate=validate.OneOf(MOVE_TYPES)), metadata={
        "description": "`deadline_passed`: what you must do now"})
    round = Int(metadata={"description": "`deadline_passed`, Turandot: the round now"})
    turn = Int(metadata={"description": "`deadline_passed`, Word Jam: the turn now"})
    extra_turn = Int(metadata={"description": "`deadline_passed`, Word Jam: the extra turn now"})
    attempt = Int(metadata={"description": "`deadline_passed`, Word Jam: the think window's "
                                           "attempt now"})
    hand = Int(metadata={"description": "`deadline_passed`, Muzicando: the hand now"})
    move_types = fields.List(fields.String(validate=validate.OneOf(MOVE_TYPES)), metadata={
        "description": "`unknown_move_type`: the ruleset's move types"})
    options = _strings("`unknown_option`: the options not known")
    singers = _strings("`not_a_permutation`: your singers")
    waiting = fields.List(Int(), metadata={"description": "`office_seats_mismatch`: the seats "
                                                          "waiting for an office hire"})
    participants = fields.List(Int(), metadata={"description": "`sitting_out`: the seats "
                                                               "playing this extra turn"})
    ali_baba = Int(metadata={"description": "`sesame_already_called`: who called it"})
    word_id = Int(allow_none=True, metadata={
        "description": "`stale_word_id`, `deadline_passed` (Word Jam): the word challenged now "
                       "(null: none)"})
    reason = fields.String(metadata={"description": "why a word is invalid (`word_*`)"})
    card = fields.String(metadata={"description": "Muzicando: the card that cannot go there"})
    x = Int(metadata={"description": "Muzicando: the cell's column"})
    y = Int(metadata={"description": "Muzicando: the cell's row"})
    last_bid = fields.String(metadata={"description": "`bid_too_low`: the contract to beat"})
    index = Int(metadata={"description": "`invalid_catalogue`: the entry at fault"})


# ---------------------------------------------------------------------------- games
#: what the service adds to every ruleset's view of a game
GAME_BASE: dict[str, Field] = {
    "id": D.Str(),
    "version": D.Int(description="increments with every accepted change; also the ETag"),
    "status": D.Str(enum=["open", "playing", "finished"]),
    "seats_taken": D.Int(),
    "seats_total": D.Int(),
    "last_seq": D.Int(description="the sequence number of the game's last event: follow the "
                                  "feed from here"),
    "private": D.Bool(),
    "move_seconds": D.Int(nullable=True),
    "bot_seconds": D.Int(description="the longest a bot seat thinks before a move (0: at "
                                     "once); when a bot will move is secret: the pending entry "
                                     "shows its window's deadline"),
    "seeded": D.Bool(description="the game was created with an explicit seed: whoever chose "
                                 "it can work out the deck. For practice, tests and replays, "
                                 "not for play among strangers"),
    "rematch": D.Str(nullable=True, description="the id of this finished game's rematch, once a "
                                                "player has asked for one (`POST "
                                                "/v1/games/{id}/rematch`)"),
    "pace": D.Str(required=False, enum=PACES, description=(
        "the pace the table chose at its creation (option `pace`; only in a game created "
        "with one): its timing options are the pace's, but for those given explicitly")),
    "bank_seconds": D.Int(required=False, description=(
        "a turn-based game's time bank: what each seat starts with (only in a game with the "
        "option)")),
    "bank_refill_seconds": D.Int(required=False, description=(
        "what each move a seat makes itself gives back to its bank, never above "
        "bank_seconds")),
    "banks": D.List(D.Num(), required=False, description=(
        "each seat's bank in seconds, as it was when the seat's turn began: a pending seat "
        "has move_seconds for its move, then draws on its bank (its deadline counts both: "
        "what is left of its bank now is the smaller of its bank and the time to its "
        "deadline)")),
    "guided": D.Bool(required=False, description=(
        "a guided first game (only when true): no deadline runs against a player's seat, the "
        "bots wait while a player's seat must act, and each seat reads its step at "
        "`GET /v1/games/{id}/guide`")),
}
#: what the service adds to each player of a view, after the seat
SEAT_FIELDS: dict[str, Field] = {
    "name": D.Str(nullable=True),
    "bot": D.Str(nullable=True, description="the engine's bot that plays this seat, if any"),
}
PENDING = D.Shape("Pending", {
    "seat": D.Int(),
    "kinds": D.List(D.Str(enum=MOVE_TYPES)),
    "deadline": D.Num(nullable=True, description="when the engine plays this seat's default "
                                                 "move (Unix time, seconds); null without "
                                                 "move_seconds"),
})


def title_of(ruleset: Ruleset) -> str:
    """The ruleset's title as a component prefix ("WordJam")."""
    return ruleset.title.replace(" ", "")


def game_shape(ruleset: Ruleset) -> D.Shape:
    """A game as the API shows it: the service's fields, then the ruleset's declared view with
    the players' names and bots and the pending seats' deadlines."""
    view = ruleset.declarations.view
    fields_ = dict(view.fields)
    player = fields_["players"].items.shape  # type: ignore[union-attr]
    fields_["players"] = D.List(D.Obj(player.extended(player.name, SEAT_FIELDS, after="seat")))
    fields_["pending"] = D.List(D.Obj(PENDING))
    base = {k: f for k, f in GAME_BASE.items()
            if k not in (*PER_MOVE_SETTINGS, "banks") or ruleset.move_seconds}
    return D.Shape(f"{title_of(ruleset)}Game", {
        **base, "ruleset": D.Str(enum=[ruleset.name], example=ruleset.name), **fields_},
        view.doc)


def score_shape(ruleset: Ruleset) -> D.Shape:
    """A final score as the API shows it (``GET /score``, a replay's): the ruleset's name,
    then its declared score (the one a finished game's view holds)."""
    score = ruleset.declarations.score
    return D.Shape(f"{title_of(ruleset)}FinalScore", {"ruleset": D.Str(enum=[ruleset.name], example=ruleset.name),
                                **score.fields}, score.doc)


#: each ruleset's game and score schemas (the ``Game`` and ``Score`` unions of the spec)
VIEW_SCHEMAS: dict[str, tuple[type[Schema], type[Schema]]] = {
    name: (schema_for(game_shape(r)), schema_for(score_shape(r)))
    for name, r in RULESETS.items()}


def event_shapes() -> dict[str, D.Shape]:
    """Every event the API may send, by type, as a viewer gets it: its sequence number, then
    the fields its declaration names (the table's events and every ruleset's). A type several
    rulesets declare with different fields (``game_finished``) is one shape: the fields they
    all have are required as declared, the others are not."""
    declared: dict[str, list[D.Shape]] = {}
    for shape in (*TABLE_EVENTS, *(e for r in RULESETS.values() for e in r.declarations.events)):
        declared.setdefault(shape.fields["type"].enum[0], []).append(shape)  # type: ignore[index]
    out = {}
    for kind, shapes in declared.items():
        merged: dict[str, Field] = {"seq": D.Int(description="the event's sequence number in "
                                                             "its game (`after`, SSE `id`)")}
        for shape in shapes:
            for name, f in shape.fields.items():
                if name in merged and merged[name].type != f.type:
                    raise ValueError(f"{kind}.{name} is declared with two types")
                merged.setdefault(name, f)
        for name, f in merged.items():
            if name != "seq" and any(name not in shape.fields for shape in shapes):
                merged[name] = f.but(required=False)
        name = shapes[0].name if len(shapes) == 1 else D.event(kind, {}).name
        docs = [shape.doc for shape in shapes if shape.doc]
        out[kind] = D.Shape(name, merged, docs[0] if docs else "")
    return out


#: every event's schema, by type (the spec's ``Event`` union)
EVENT_SCHEMAS: dict[str, type[Schema]] = {
    kind: schema_for(shape) for kind, shape in event_shapes().items()}


# Each ruleset's options, for the spec only (the rules check them, with their own codes): the
# `CreateGame` union of the spec has one member per ruleset, with its players and its options,
# the service's own among them.
_SERVICE_OPTIONS = {
    "move_seconds": "the time each seat has for a move before the engine plays its default "
                    "(null: no deadline)",
    "bot_seconds": "the longest a bot seat thinks before a move (default: Word Jam 20, others "
                   "0, at once)",
    "bank_seconds": "a turn-based game's time bank: once a move's move_seconds are over, the "
                    "seat draws on its bank before the engine plays its default (needs "
                    "move_seconds)",
    "bank_refill_seconds": "what each move a seat makes itself gives back to its bank, never "
                           "above bank_seconds (default 0; needs bank_seconds)",
}


def options_shape(ruleset: Ruleset) -> D.Shape:
    """``ruleset``'s declared options with the options the service reads itself."""
    options = ruleset.declarations.options
    return options.extended(options.name, {
        **{name: D.Int(required=False, nullable=True, minimum=low, maximum=high, judged=True,
                       description=f"{_SERVICE_OPTIONS.get(name, name)} (invalid_{name})")
           for name, (low, high) in seconds_settings(ruleset).items()},
        **pace_option(ruleset), **GUIDED_OPTION})


def pace_option(ruleset: Ruleset) -> dict[str, Field]:
    """The option ``pace``, for the spec: the paces ``ruleset`` offers and what each sets."""
    if not ruleset.paces:
        return {}
    sets = "; ".join(f"{name}: " + ", ".join(f"{k} {v}" for k, v in values.items())
                     for name, values in ruleset.paces.items())
    return {"pace": D.Str(required=False, nullable=True, enum=tuple(ruleset.paces), judged=True,
                          description=(
        f"the table's pace: values of its timing options, under those given explicitly "
        f"(GET /v1/rulesets/{ruleset.name}/paces; {sets}); without it, every option's own "
        f"default (invalid_pace)"))}


class PacesSchema(Base):
    """The paces a table of a ruleset may choose when it is created (option ``pace``)."""

    ruleset = fields.String(required=True, validate=validate.OneOf(sorted(RULESETS)),
                            metadata={"example": "wordjam"})
    paces = fields.Dict(keys=fields.String(validate=validate.OneOf(PACES)), values=fields.Dict(
        keys=fields.String(), values=Int()), required=True, metadata={
        "description": "each pace, slowest first, and the options it sets (a game's explicit "
                       "options win over them)",
        "example": {"relaxed": {"move_seconds": 300, "bot_seconds": 0}}})
    against_bots = fields.String(required=True, validate=validate.OneOf(PACES), metadata={
        "description": "the pace the engine's own clients choose for a game against bots when "
                       "the player chooses none", "example": PACE_AGAINST_BOTS})


#: the service's option of a guided first game (table/guided.py)
GUIDED_OPTION = {"guided": D.Bool(required=False, description=(
    "a guided first game: no deadline runs against a player's seat, the bots wait while a "
    "player's seat must act, and each seat reads its step at GET /v1/games/{id}/guide "
    "(invalid_guided); the browser and `impresario learn` start one with the ruleset's "
    "guided table"))}


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
    rated = StrictBool(metadata={
        "description": "whether the game rates its players when it ends (default: a public "
                       "game is rated, a private one is not). A game is rated only if every "
                       "seat is a player's (taken with a player's credential or a platform's "
                       "JWT) or a bot's; joining a rated game as a player agrees to it"})


def create_game_schemas() -> dict[str, type[Schema]]:
    """Per ruleset, ``CreateGame`` as the spec shows it: the ruleset's name, its players and its
    options. Documentation only: the body is loaded with :class:`CreateGameSchema` and the rules
    check the values with their own codes."""
    out = {}
    for name, ruleset in RULESETS.items():
        title = ruleset.title.replace(" ", "")
        out[name] = type(f"Create{title}GameSchema", (CreateGameSchema,), {
            "__doc__": f"A new {ruleset.title} game.",
            "ruleset": fields.String(required=True, metadata={"enum": [name]}),
            "players": Int(required=True, metadata={
                "example": ruleset.min_players, "minimum": ruleset.min_players,
                "maximum": ruleset.max_players}),
            "options": fields.Nested(schema_for(options_shape(ruleset)), metadata={
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
                                                    for b in r.bot_names_accepted}), None]})


def _Ref(component: str, **kw: Any) -> fields.Raw:  # noqa: N802 - reads like a field class
    """A field holding one of the spec's components (a union: ``Move``, ``ActionSpace``)."""
    metadata = kw.pop("metadata", {})
    return fields.Raw(metadata={**metadata, **ref(component, kw.get("allow_none", False))},
                      **kw)


def GameField(**kw: Any) -> fields.Raw:  # noqa: N802 - reads like a field class
    """A game view of any ruleset (the ``Game`` union, told apart by ``ruleset``)."""
    return fields.Raw(metadata={"allOf": [{"$ref": "#/components/schemas/Game"}]}, **kw)


def ScoreField(**kw: Any) -> fields.Raw:  # noqa: N802
    """A final score of any ruleset (the ``Score`` union)."""
    return fields.Raw(metadata={"allOf": [{"$ref": "#/components/schemas/Score"}]}, **kw)


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
    events = fields.List(_Ref("Event"), required=True)
    game = GameField(required=True)


class EventsSchema(Base):
    events = fields.List(_Ref("Event"), required=True)
    last_seq = Int(required=True)


class EventsQuerySchema(Base):
    after = fields.Integer(load_default=0, validate=validate.Range(0, 2**53))
    spectator = fields.String(validate=validate.Length(0, 256), metadata={
        "description": "the token of a private game's spectator link"})


class ReplayMoveSchema(Base):
    seat = Int(required=True)
    move = _Ref("Move", required=True)
    by = fields.String(required=True, validate=validate.OneOf(["seat", "bot", "deadline"]))


class ReplaySchema(Base):
    id = fields.String(required=True)
    ruleset = fields.String(required=True, validate=validate.OneOf(sorted(RULESETS)))
    players = Int(required=True)
    seed = Int(required=True)
    options = fields.Raw(required=True, metadata={
        "description": "the ruleset's options the game was created with",
        "anyOf": [{"$ref": f"#/components/schemas/{title_of(r)}Options"}
                  for r in RULESETS.values()]})
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


class ActionsSchema(Base):
    seat = Int(required=True, allow_none=True)
    pending = fields.List(fields.String(validate=validate.OneOf(MOVE_TYPES)), required=True)
    moves = fields.List(_Ref("ActionSpace"), required=True, metadata={
        "description": "the legal moves, described compactly per move type"})
    default = _Ref("Move", allow_none=True, metadata={
        "description": "the move the engine makes for this seat if a deadline passes"})


class GuideQuerySchema(Base):
    lang = fields.String(load_default=DEFAULT_LANGUAGE, validate=validate.OneOf(LANGUAGES),
                         metadata={"description": "the language of the step's text"})


class GuideSchema(Base):
    """A guided game's step for the caller's seat."""

    key = fields.String(required=True, metadata={
        "description": "the step, by name (the ruleset's guide catalogue)", "example": "bid_first"})
    params = fields.Dict(keys=fields.String(), values=fields.Raw(metadata={
        "type": ["integer", "string"]}), required=True, metadata={
        "description": "the numbers and letters the text names, from the seat's own view",
        "example": {"round": 1, "money": 3}})
    anchor = fields.String(required=True, metadata={
        "description": "the section of the rules behind the step (`GET /web/rules/{ruleset}`)",
        "example": "bids"})
    lang = fields.String(required=True, validate=validate.OneOf(LANGUAGES))
    text = fields.String(required=True, metadata={"description": "what to do now, and why"})
    rule_title = fields.String(required=True, allow_none=True, metadata={
        "description": "the title of the rules section, in lang"})
    version = Int(required=True, metadata={"description": "the game's version the step is for"})


class HealthSchema(Base):
    status = fields.String(required=True, validate=validate.OneOf(["ok", "ready"]))


# ---------------------------------------------------------------------------- Word Jam's calculator
class WordJamValueRequestSchema(Base):
    word = fields.String(required=True, metadata={
        "example": "pinguino", "minLength": 1, "maxLength": MAX_WORD_CHARS,
        "pattern": WORD_PATTERN})
    # the consonants and the coins are the calculator's to check (invalid_consonant,
    # invalid_coins)
    coins = fields.Dict(keys=fields.String(), values=Int(metadata={"minimum": 0, "maximum": 99}),
                        required=True, metadata={
                            "description": "the coin consonants and their coins",
                            "example": {"T": 1, "P": 2, "N": 3, "F": 3},
                            "minProperties": 1, "maxProperties": len(CONSONANTS),
                            # (apispec passes propertyNames through only inside allOf)
                            "allOf": [{"propertyNames": {"enum": list(CONSONANTS)}}]})
    forbidden = fields.String(allow_none=True, load_default=None, metadata={
        "example": "R", "enum": [*CONSONANTS, None],
        "description": "the scimitar's consonant, which may not also earn coins"})


#: why a game would refuse a word now (a word that is not one is refused with 422 instead)
WORD_CHECK_REASONS = [r for r in (*REASON_TEXT, NOT_IN_DICTIONARY)
                      if r not in (EMPTY, TOO_LONG, INVALID_CHARACTERS)]


class WordCheckRequestSchema(Base):
    word = fields.String(required=True, metadata={
        "example": "scissors", "minLength": 1, "maxLength": MAX_WORD_CHARS,
        "pattern": WORD_PATTERN})


class WordCheckSchema(Base):
    word = fields.String(required=True, metadata={"example": "scissors",
                                                  "description": "the word, as sent"})
    value = Int(required=True, metadata={"example": 13, "description": "its coins this turn "
                                         "(counted whatever its validity)"})
    valid = StrictBool(required=True, metadata={"description": "whether the engine would take "
                                                "it now"})
    reason = fields.String(required=True, allow_none=True, validate=validate.OneOf(
        WORD_CHECK_REASONS), metadata={"description": "why the engine would refuse it now (null "
                                       "when valid)", "example": "wrong_first_letter"})


class PlacesSchema(Base):
    ruleset = fields.String(required=True, validate=validate.OneOf(sorted(RULESETS)),
                            metadata={"example": "turandot"})
    places = fields.List(Int(), required=True, allow_none=True, metadata={
        "example": [1, 3, 2, 4], "description": "each player's place in seat order (1 best, a "
        "tie sharing it), by the rules' tie-break; null when the ruleset names winners only"})


class WordJamValueSchema(Base):
    value = Int(required=True, metadata={"example": 8})
    valid = StrictBool(required=True)
    reason = fields.String(required=True, allow_none=True,
                           validate=validate.OneOf([FORBIDDEN_CONSONANT]), metadata={
        "description": "why the word is invalid (null when valid)"})
