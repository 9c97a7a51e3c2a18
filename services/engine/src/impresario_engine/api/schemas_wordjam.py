"""Marshmallow schemas of Word Jam's part of the HTTP API: its moves (one schema per move type,
chosen by ``type``), its game view, its score, its options and the word calculator
(``POST /v1/rulesets/wordjam/value``).

Same conventions as :mod:`.schemas`: every schema rejects unknown fields, integers are strict and
booleans are JSON true/false only. Class names carry a ``WordJam`` prefix so that they never
collide with another ruleset's in the OpenAPI components.
"""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from ..games.wordjam.rules import MAX_SECONDS, OUTCOMES, PHASES, SIDE_NAMES
from ..games.wordjam.rules import NOT_IN_DICTIONARY
from ..games.wordjam.words import (CONSONANTS, FORBIDDEN_CONSONANT, MAX_WORD_CHARS,
                                   REASON_TEXT, SEPARATORS, word_character)
from .schemas import Base, GameBaseSchema, Int, MoveBase, PendingSchema, StrictBool

CONSONANT = validate.OneOf(list(CONSONANTS))
SIDE = validate.OneOf(list(SIDE_NAMES))
REASONS = validate.OneOf([*REASON_TEXT, NOT_IN_DICTIONARY])
SECONDS = validate.Range(1, MAX_SECONDS)


def _char_class(codes: list[int]) -> str:
    """A regular-expression character class of the code points ``codes`` (sorted)."""
    ranges: list[list[int]] = []
    for c in codes:
        if ranges and ranges[-1][1] == c - 1:
            ranges[-1][1] = c
        else:
            ranges.append([c, c])

    def esc(c: int) -> str:  # letters, digits, space and apostrophe as they are
        return chr(c) if chr(c).isascii() and (chr(c).isalnum() or chr(c) in " '") \
            else f"\\u{c:04x}"
    return "[" + "".join(esc(a) if a == b else f"{esc(a)}-{esc(b)}" for a, b in ranges) + "]"


def word_pattern() -> str:
    """The words the engine accepts, as a pattern (computed from ``words.word_character``):
    Latin letters, accented or not, spaces, apostrophes and hyphens, with at least one letter."""
    chars = [c for c in range(0x10000) if not 0xD800 <= c < 0xE000
             and word_character(chr(c))]
    letters = [c for c in chars if chr(c) not in SEPARATORS and not 0x300 <= c <= 0x36F]
    any_char = _char_class(chars)
    return f"^{any_char}*{_char_class(letters)}{any_char}*$"


#: a word in a move or the calculator: the spec says what the rules accept, the rules refuse the
#: rest with their own codes (word_empty, word_too_long, word_invalid_characters)
WORD = {"minLength": 1, "maxLength": MAX_WORD_CHARS, "pattern": word_pattern()}


# ---------------------------------------------------------------------------- moves
class WordJamChooseSideMoveSchema(MoveBase):
    """Turn 8: choose your side secretly, before anyone calls."""

    type = fields.String(required=True, validate=validate.Equal("choose_side"))
    side = fields.String(required=True, metadata={"example": "ali_baba",
                                                  "enum": list(SIDE_NAMES)})


class WordJamOpenSesameMoveSchema(MoveBase):
    """Call Open Sesame with your word. The first call the engine commits wins (409
    ``sesame_already_called`` for the others); a word that fails the engine's checks is refused
    (422 ``word_<reason>``) and does not make you Alì Babà."""

    type = fields.String(required=True, validate=validate.Equal("open_sesame"))
    word = fields.String(required=True, metadata={"example": "pinguino", **WORD})


class WordJamNoCallMoveSchema(MoveBase):
    """Give up calling for the rest of this think window (the default when it runs out)."""

    type = fields.String(required=True, validate=validate.Equal("no_call"))


class WordJamChallengeMoveSchema(MoveBase):
    """Challenge the word in its challenge window: everyone then votes."""

    type = fields.String(required=True, validate=validate.Equal("challenge"))
    word_id = Int(required=True, validate=validate.Range(1, 2**31), metadata={"example": 1})


class WordJamNoChallengeMoveSchema(MoveBase):
    """Let the word stand (the default when the challenge window runs out)."""

    type = fields.String(required=True, validate=validate.Equal("no_challenge"))
    word_id = Int(allow_none=True, validate=validate.Range(1, 2**31), metadata={
        "description": "the word you let stand: a late move about another word is refused "
                       "with 409 stale_word_id"})


class WordJamVoteMoveSchema(MoveBase):
    """Vote on a challenged word (the author votes too); it stands with 3 votes in favour."""

    type = fields.String(required=True, validate=validate.Equal("vote"))
    in_favour = StrictBool(required=True, metadata={"example": True})
    word_id = Int(allow_none=True, validate=validate.Range(1, 2**31))


class WordJamBetMoveSchema(MoveBase):
    """A sealed bet on Alì Babà (trust) or on the Thieves."""

    type = fields.String(required=True, validate=validate.Equal("bet"))
    side = fields.String(required=True, metadata={"example": "thieves",
                                                  "enum": list(SIDE_NAMES)})


class WordJamThiefWordMoveSchema(MoveBase):
    """Submit your word secretly in the window (turns 1–7: thieves; turn 8: everyone but the
    caller). A later submission replaces an earlier one until the window closes; ``final``
    closes it for you."""

    type = fields.String(required=True, validate=validate.Equal("thief_word"))
    word = fields.String(required=True, metadata={"example": "schwarzenegger", **WORD})
    final = StrictBool(load_default=False)


class WordJamThiefPassMoveSchema(MoveBase):
    """Withdraw any submitted word and pass: you are done for this window."""

    type = fields.String(required=True, validate=validate.Equal("thief_pass"))


WORDJAM_MOVE_SCHEMAS: dict[str, type[Schema]] = {
    "choose_side": WordJamChooseSideMoveSchema,
    "open_sesame": WordJamOpenSesameMoveSchema,
    "no_call": WordJamNoCallMoveSchema,
    "challenge": WordJamChallengeMoveSchema,
    "no_challenge": WordJamNoChallengeMoveSchema,
    "vote": WordJamVoteMoveSchema,
    "bet": WordJamBetMoveSchema,
    "thief_word": WordJamThiefWordMoveSchema,
    "thief_pass": WordJamThiefPassMoveSchema,
}


# ---------------------------------------------------------------------------- options
class WordJamCaveSchema(Base):
    red = fields.List(Int(validate=validate.Range(0, 99)), required=True,
                      validate=validate.Length(8, 8))
    yellow = fields.List(Int(validate=validate.Range(0, 99)), required=True,
                         validate=validate.Length(8, 8))


class WordJamOptionsSchema(Base):
    think_seconds = Int(validate=SECONDS, metadata={"example": 120})
    bet_seconds = Int(validate=SECONDS, metadata={"example": 15})
    thief_seconds = Int(validate=SECONDS, metadata={"example": 20})
    challenge_seconds = Int(validate=SECONDS, metadata={"example": 10})
    vote_seconds = Int(validate=SECONDS, metadata={"example": 20})
    cave = fields.Nested(WordJamCaveSchema, allow_none=True)
    no_visible_objects = StrictBool()
    dictionary = StrictBool(metadata={
        "description": "refuse words the lexicon does not know (word_not_in_dictionary)"})


# ---------------------------------------------------------------------------- game view
class WordJamCoinSchema(Base):
    coins = Int(required=True, metadata={"example": 2})
    consonant = fields.String(required=True, validate=CONSONANT, metadata={"example": "P"})


class WordJamStyleSchema(Base):
    id = fields.String(required=True, metadata={"example": "animals"})
    name = fields.String(required=True)
    name_it = fields.String(required=True)
    description = fields.String(required=True)
    dictionary = StrictBool(required=True, metadata={
        "description": "an asterisk card: a dictionary may settle a dispute"})
    check = fields.String(required=True, allow_none=True, validate=validate.OneOf(
        ["eight_letters", "first_letter"]), metadata={
        "description": "what the engine checks itself beyond letters, forbidden and reuse"})
    proper_nouns = StrictBool(required=True)


class WordJamCaveColumnSchema(Base):
    column = Int(required=True)
    red = Int(required=True)
    yellow = Int(required=True)


class WordJamCaveViewSchema(Base):
    column = Int(required=True, metadata={"description": "the column that scores this turn"})
    columns = fields.List(fields.Nested(WordJamCaveColumnSchema), required=True, metadata={
        "description": "the columns uncovered so far"})
    total_columns = Int(required=True)


class WordJamWordSchema(Base):
    word_id = Int(required=True)
    word = fields.String(required=True)
    value = Int(required=True)


class WordJamSideChoiceSchema(Base):
    seat = Int(required=True)
    side = fields.String(required=True, validate=SIDE)


class WordJamDeclarationSchema(Base):
    seat = Int(required=True)
    side = fields.String(required=True, validate=SIDE)
    word = fields.String(required=True, allow_none=True)
    value = Int(required=True, allow_none=True)
    valid = StrictBool(required=True, allow_none=True)
    reason = fields.String(required=True, allow_none=True, validate=REASONS)
    outcome = fields.String(required=True, validate=validate.OneOf(list(OUTCOMES)))


class WordJamBestWordSchema(Base):
    seat = Int(required=True)
    word = fields.String(required=True)
    value = Int(required=True)


class WordJamBestSchema(Base):
    ali_baba = fields.Nested(WordJamBestWordSchema, required=True, allow_none=True)
    thieves = fields.Nested(WordJamBestWordSchema, required=True, allow_none=True)


class WordJamChallengeSchema(Base):
    word_id = Int(required=True)
    seat = Int(required=True, metadata={"description": "the word's author"})
    word = fields.String(required=True)
    value = Int(required=True)
    about = fields.String(required=True, validate=validate.OneOf(["call", "declaration"]))
    side = fields.String(required=True, allow_none=True, validate=SIDE)
    stage = fields.String(required=True, validate=validate.OneOf(["window", "vote"]))
    challenger = Int(required=True, allow_none=True)
    answered = fields.List(Int(), required=True, metadata={
        "description": "seats that let the word stand"})
    votes_cast = Int(required=True)


class WordJamBallotSchema(Base):
    seat = Int(required=True)
    in_favour = StrictBool(required=True, allow_none=True)


class WordJamVoteResultSchema(Base):
    word_id = Int(required=True)
    seat = Int(required=True)
    word = fields.String(required=True)
    about = fields.String(required=True, validate=validate.OneOf(["call", "declaration"]))
    challenger = Int(required=True, allow_none=True)
    in_favour = Int(required=True)
    votes = fields.List(fields.Nested(WordJamBallotSchema), required=True)
    stands = StrictBool(required=True)


class WordJamAwardSchema(Base):
    seat = Int(required=True)
    colour = fields.String(required=True, validate=validate.OneOf(["red", "yellow"]))
    points = Int(required=True)
    role = fields.String(required=True, validate=validate.OneOf(
        ["ali_baba", "follower", "chief_thief", "thief", "best_ali_baba", "best_thieves"]))


class WordJamTurnRecordSchema(Base):
    turn = Int(required=True)
    extra_turn = Int(required=True)
    column = Int(required=True)
    red = Int(required=True)
    yellow = Int(required=True)
    called = StrictBool(required=True)
    style = fields.String(required=True)
    ali_baba = Int(required=True, allow_none=True)
    word = fields.String(required=True, allow_none=True)
    value = Int(required=True, allow_none=True)
    chief_thief = Int(required=True, allow_none=True)
    bets = fields.List(fields.Nested(WordJamSideChoiceSchema), required=True, allow_none=True)
    sides = fields.List(fields.Nested(WordJamSideChoiceSchema), required=True, allow_none=True)
    declarations = fields.List(fields.Nested(WordJamDeclarationSchema), required=True)
    awards = fields.List(fields.Nested(WordJamAwardSchema), required=True)


class WordJamPlayerSchema(Base):
    seat = Int(required=True)
    name = fields.String(required=True, allow_none=True)
    bot = fields.String(required=True, allow_none=True, metadata={
        "description": "the engine's bot that plays this seat, if any"})
    total = Int(required=True)
    sitting_out = StrictBool(required=True, metadata={
        "description": "an extra turn among the tied players: this seat only votes"})
    no_call = StrictBool(required=True)
    has_side = StrictBool(required=True, allow_none=True)
    has_bet = StrictBool(required=True, allow_none=True)
    word_final = StrictBool(required=True, allow_none=True)
    has_voted = StrictBool(required=True, allow_none=True)


class WordJamWordCheckSchema(Base):
    value = Int(required=True)
    valid = StrictBool(required=True)
    reason = fields.String(required=True, allow_none=True, validate=REASONS)


class WordJamYouSchema(Base):
    seat = Int(required=True)
    bet = fields.String(required=True, allow_none=True, validate=SIDE)
    side = fields.String(required=True, allow_none=True, validate=SIDE)
    word = fields.String(required=True, allow_none=True, metadata={
        "description": "your secret word in the window"})
    word_final = StrictBool(required=True, allow_none=True)
    word_check = fields.Nested(WordJamWordCheckSchema, required=True, allow_none=True)
    vote = StrictBool(required=True, allow_none=True)


class WordJamScoreLinesSchema(Base):
    turn_1 = Int(required=True)
    turn_2 = Int(required=True)
    turn_3 = Int(required=True)
    turn_4 = Int(required=True)
    turn_5 = Int(required=True)
    turn_6 = Int(required=True)
    turn_7 = Int(required=True)
    turn_8 = Int(required=True)
    extra_1 = Int(required=True)
    extra_2 = Int(required=True)
    extra_3 = Int(required=True)


class WordJamPlayerScoreSchema(Base):
    seat = Int(required=True)
    lines = fields.Nested(WordJamScoreLinesSchema, required=True)
    total = Int(required=True, metadata={"description": "the sum of the lines"})
    red = Int(required=True, metadata={"description": "red scores won"})
    yellow = Int(required=True, metadata={"description": "yellow scores won"})


class WordJamScoreSchema(Base):
    players = fields.List(fields.Nested(WordJamPlayerScoreSchema), required=True)
    winners = fields.List(Int(), required=True)
    shared = StrictBool(required=True, metadata={
        "description": "still tied after 3 extra turns: the victory is shared (R7)"})
    extra_turns = Int(required=True)


class WordJamGameSchema(GameBaseSchema):
    """A game as the caller may see it (Word Jam)."""

    ruleset = fields.String(required=True, validate=validate.OneOf(["wordjam"]),
                            metadata={"example": "wordjam"})
    turn = Int(required=True, metadata={"description": "1–8, then 9–11 for extra turns"})
    extra_turn = Int(required=True, metadata={"description": "0, or 1–3 in an extra turn (R7)"})
    final_turn = StrictBool(required=True, metadata={"description": "turn 8, played differently"})
    phase = fields.String(required=True, validate=validate.OneOf(list(PHASES)))
    participants = fields.List(Int(), required=True)
    coins = fields.List(fields.Nested(WordJamCoinSchema), required=True, metadata={
        "description": "the coin cards 1, 2, 3, 3 and their consonants"})
    forbidden = fields.String(required=True, validate=CONSONANT, metadata={
        "description": "the scimitar's consonant"})
    style = fields.Nested(WordJamStyleSchema, required=True)
    styles_left = Int(required=True)
    styles_used = fields.List(fields.String(), required=True)
    cave = fields.Nested(WordJamCaveViewSchema, required=True)
    ali_baba = Int(required=True, allow_none=True)
    ali_word = fields.Nested(WordJamWordSchema, required=True, allow_none=True)
    barred = fields.List(Int(), required=True, metadata={
        "description": "seats whose call was voided this turn (R6)"})
    bets = fields.List(fields.Nested(WordJamSideChoiceSchema), required=True, allow_none=True,
                       metadata={"description": "this turn's bets, once revealed"})
    sides = fields.List(fields.Nested(WordJamSideChoiceSchema), required=True, allow_none=True,
                        metadata={"description": "turn 8's sides, once revealed"})
    window = fields.List(Int(), required=True, allow_none=True, metadata={
        "description": "the seats of this turn's word window (the thieves; turn 8: all but "
                       "the caller)"})
    must_beat = Int(required=True, allow_none=True)
    declarations = fields.List(fields.Nested(WordJamDeclarationSchema), required=True)
    chief_thief = Int(required=True, allow_none=True)
    best = fields.Nested(WordJamBestSchema, required=True, allow_none=True)
    challenge = fields.Nested(WordJamChallengeSchema, required=True, allow_none=True)
    last_vote = fields.Nested(WordJamVoteResultSchema, required=True, allow_none=True)
    used_words = fields.List(fields.String(), required=True, metadata={
        "description": "folded words already used in this game (R9)"})
    history = fields.List(fields.Nested(WordJamTurnRecordSchema), required=True)
    players = fields.List(fields.Nested(WordJamPlayerSchema), required=True)
    pending = fields.List(fields.Nested(PendingSchema), required=True)
    you = fields.Nested(WordJamYouSchema, metadata={"description": "present for a seated caller"})
    score = fields.Nested(WordJamScoreSchema, metadata={"description": "present once finished"})


# ---------------------------------------------------------------------------- calculator
class WordJamValueRequestSchema(Base):
    word = fields.String(required=True, metadata={"example": "pinguino", **WORD})
    # the consonants and the coins are the calculator's to check (invalid_consonant,
    # invalid_coins), as in schemas.py
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


class WordJamValueSchema(Base):
    value = Int(required=True, metadata={"example": 8})
    valid = StrictBool(required=True)
    reason = fields.String(required=True, allow_none=True,
                           validate=validate.OneOf([FORBIDDEN_CONSONANT]), metadata={
        "description": "why the word is invalid (null when valid)"})


__all__ = [name for name in dir() if name.startswith("WordJam")] + ["WORDJAM_MOVE_SCHEMAS"]
