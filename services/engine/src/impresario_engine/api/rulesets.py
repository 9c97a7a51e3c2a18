"""``/v1/rulesets``: what can be played, and Turandot's score calculator for physical tables."""

from __future__ import annotations

from flask_smorest import Blueprint

from impresario_rules import PACE_AGAINST_BOTS, RULESETS, Ruleset
from impresario_rules.turandot.cards import DEFAULT, DIRECTORS
from impresario_rules.turandot.scoring import best_arrangement, score_cast
from impresario_rules.wordjam import word_value
from impresario_rules.wordjam.words import EMPTY, INVALID_CHARACTERS, REASON_TEXT, TOO_LONG
from . import schemas as s
from . import schemas_rulesets as sr
from .declared import load_body
from .errors import ApiError
from .documented import problems
from .http import json_body, json_response

blp = Blueprint("rulesets", __name__, url_prefix="/v1/rulesets",
                description="Rulesets: games, player counts, options; calculators")
#: the path's ``{ruleset}``: one of the engine's rulesets
RULESET_PATH = [{"in": "path", "name": "ruleset", "required": True,
                 "schema": {"type": "string", "enum": sorted(RULESETS)}}]


def _ruleset(name: str) -> Ruleset:
    """The ruleset of that name, or 404 ``ruleset_not_found``."""
    found = RULESETS.get(name)
    if found is None:
        raise ApiError(404, "ruleset_not_found", f"there is no ruleset {name!r}")
    return found


@blp.route("", methods=["GET"])
@blp.doc(operationId="listRulesets")
@blp.response(200, sr.RulesetsSchema, description="Every ruleset the engine plays")
@problems(blueprint=blp)
def list_rulesets():
    """List the rulesets"""
    return json_response({"rulesets": [r.describe() for r in RULESETS.values()]})


@blp.route("/<ruleset>", methods=["GET"], parameters=RULESET_PATH)
@blp.doc(operationId="getRuleset")
@blp.response(200, sr.RulesetSchema, description="A ruleset: player counts, options, move types")
@problems(404, blueprint=blp)
def get_ruleset(ruleset: str):
    """Describe a ruleset"""
    found = _ruleset(ruleset)
    return json_response(found.describe())


@blp.route("/<ruleset>/paces", methods=["GET"], parameters=RULESET_PATH)
@blp.doc(operationId="getPaces")
@blp.response(200, s.PacesSchema, description="The paces a table may choose, and what each sets")
@problems(404, blueprint=blp)
def get_paces(ruleset: str):
    """List a ruleset's paces

    The values of the option `pace` a game may be created with, each with the timing options
    it sets (explicit options win over them), and the pace the engine's lobby and terminal
    client choose for a game against bots.
    """
    found = _ruleset(ruleset)
    return json_response({"ruleset": found.name,
                          "paces": {name: dict(values) for name, values in found.paces.items()},
                          "against_bots": PACE_AGAINST_BOTS})


@blp.route("/turandot/score", methods=["POST"])
@blp.doc(operationId="scoreTurandotCast", requestBody={
    "required": True, "content": {"application/json": {"schema": "Calculator", "example": {
        "singers": ["S04", "S01", "S10", "S02", "S03", "S07"], "director": "favourite_roles",
        "stage_elements": 1}}}})
@blp.response(200, sr.CalculatorResultSchema, description="The breakdown, the total and the best arrangement")
@problems(400, 413, 415, 422, blueprint=blp)
def score_calculator():
    """Score a Turandot cast

    For tables playing the physical game with the default catalogue: 6 singers, a director and
    stage elements give the breakdown of the given arrangement (or of the best one) and the best
    arrangement.
    """
    body = load_body(_CALC, json_body())
    singers = body["singers"]
    director = body["director"]
    unknown = [i for i in singers if i not in DEFAULT.singers]
    if unknown:
        raise ApiError(422, "unknown_singer", f"unknown singer ids: {', '.join(unknown)}",
                       singers=unknown)
    if len(set(singers)) != 6:
        raise ApiError(422, "not_six_singers", "a cast needs 6 different singers")
    if director is not None and director not in DIRECTORS:
        raise ApiError(422, "unknown_director",
                       f"unknown director {director!r}; directors: {', '.join(DIRECTORS)}")
    best = list(best_arrangement(singers, director, DEFAULT))
    roles = body["roles"]
    if roles is None:
        roles = best
    elif sorted(roles) != sorted(singers):
        raise ApiError(422, "not_a_permutation", "roles must arrange exactly the 6 singers given")
    lines = score_cast(roles, director, body["stage_elements"], body["puccini"], DEFAULT)
    total = lines.pop("total")
    best_lines = score_cast(best, director, body["stage_elements"], body["puccini"], DEFAULT)
    best_total = best_lines.pop("total")
    return json_response({
        "lines": lines, "total": total, "roles": roles,
        "best": {"roles": best, "lines": best_lines, "total": best_total},
    })


_CALC = sr.CalculatorSchema()


@blp.route("/wordjam/value", methods=["POST"])
@blp.doc(operationId="wordJamValue", requestBody={
    "required": True, "content": {"application/json": {"schema": "WordJamValueRequest", "example": {
        "word": "pinguino", "coins": {"T": 1, "P": 2, "N": 3, "F": 3}, "forbidden": "R"}}}})
@blp.response(200, s.WordJamValueSchema, description="The word's coins, or why it is invalid")
@problems(400, 413, 415, 422, blueprint=blp)
def wordjam_value():
    """Value a Word Jam word

    For tables playing the physical game: a word and the coin consonants (and the forbidden
    one) give the coins it earns, or why it is invalid (`forbidden_consonant`). Accents and
    case are folded; spaces, apostrophes and hyphens are ignored; every occurrence counts. A
    word is written in Latin letters, accented or not: anything else is refused, as in a game,
    with 422 `word_invalid_characters` (`word_empty`: no letters, `word_too_long`: over 64
    characters). Reuse and the theme depend on a game and are not judged here.
    """
    body = load_body(_WORD, json_body())
    result = word_value(body["word"], body["coins"], body["forbidden"])
    if result["reason"] in _MALFORMED:
        raise ApiError(422, f"word_{result['reason']}", REASON_TEXT[result["reason"]],
                       reason=result["reason"])
    return json_response(result)


_WORD = s.WordJamValueRequestSchema()
#: a word that is not one: refused as a move would be, not valued
_MALFORMED = (EMPTY, TOO_LONG, INVALID_CHARACTERS)
