"""The committed openapi.yaml is exactly what the code generates, and it is a valid OpenAPI 3.1."""

from pathlib import Path

import yaml
from openapi_spec_validator import validate

from impresario_engine.openapi import build_spec, render

ROOT = Path(__file__).resolve().parents[2]


def test_committed_spec_matches_the_code():
    committed = (ROOT / "openapi.yaml").read_text(encoding="utf-8")
    assert committed == render(build_spec()), (
        "openapi.yaml differs from what the code generates: run `make openapi` and commit it")


def test_spec_is_valid_openapi():
    spec = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
    assert spec["openapi"].startswith("3.1")
    validate(spec)


def test_every_operation_is_documented():
    spec = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
    seen = set()
    for path, item in spec["paths"].items():
        for method, op in item.items():
            if method == "parameters":
                continue
            assert op.get("operationId"), f"{method} {path} has no operationId"
            assert op["operationId"] not in seen
            seen.add(op["operationId"])
            assert op.get("summary"), f"{method} {path} has no summary"
            ok = [code for code in op["responses"] if code.startswith("2")]
            assert ok, f"{method} {path} documents no success response"
            for code, resp in op["responses"].items():
                if code.startswith(("4", "5")):
                    content = resp["content"]
                    assert "application/problem+json" in content, f"{method} {path} {code}"
                    example = content["application/problem+json"].get("example")
                    assert example and example["status"] == int(code), f"{method} {path} {code}"
            body = op.get("requestBody")
            if body:
                media = body["content"]["application/json"]
                assert media.get("example") or media.get("examples"), f"{method} {path} body"


def test_moves_are_a_discriminated_union():
    spec = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
    move = spec["components"]["schemas"]["Move"]
    assert move["discriminator"]["propertyName"] == "type"
    assert set(move["discriminator"]["mapping"]) == {
        "bid", "assign_office", "nominate", "fire_director", "cast",  # Turandot
        "choose_side", "open_sesame", "no_call", "challenge", "no_challenge", "vote", "bet",
        "thief_word", "thief_pass",  # Word Jam
        "auction_bid", "auction_pass", "choose_layout", "place", "pass"}  # Muzicando
    game = spec["components"]["schemas"]["Game"]
    assert game["discriminator"]["propertyName"] == "ruleset"
    assert set(game["discriminator"]["mapping"]) == {"turandot", "wordjam", "muzicando"}



def test_a_turandot_card_is_a_singer_or_a_director_in_the_spec_and_the_schemas():
    from marshmallow import ValidationError

    from impresario_engine.api.declared import schema_for
    from impresario_rules.turandot.declarations import TABLE_PLACE

    spec = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
    card = spec["components"]["schemas"]["Card"]
    assert card["oneOf"] == [{"$ref": "#/components/schemas/Singer"},
                             {"$ref": "#/components/schemas/Director"}]
    assert card["discriminator"] == {"propertyName": "kind", "mapping": {
        "singer": "#/components/schemas/Singer", "director": "#/components/schemas/Director"}}
    place = schema_for(TABLE_PLACE)()
    director = {"id": "neutral", "kind": "director", "effect": "none"}
    assert place.load({"slot": 1, "card": director}) == {"slot": 1, "card": director}
    assert place.load({"slot": 1, "card": None}) == {"slot": 1, "card": None}
    for odd in ({**director, "stars": 2}, {**director, "kind": "helper"}, "neutral"):
        try:
            place.load({"slot": 1, "card": odd})
        except ValidationError as err:
            assert "card" in err.messages
        else:
            raise AssertionError(odd)

def _defaults(schema: dict) -> dict:
    return {name: prop["default"] for name, prop in schema.get("properties", {}).items()
            if "default" in prop}


def test_the_declared_default_of_every_option_is_what_the_engine_does(client):
    """A client generated from the spec sends the declared defaults: that must change nothing.
    (Muzicando's ``auction`` was declared ``false`` while the engine's default follows the
    mode, and refuses ``false`` in the team game: ``422 team_game_has_auction`` for a client
    that only filled in the defaults.) Each ruleset, at its fewest and most players: created
    with every declared default and with none, the same seed gives the same game."""
    from impresario_rules import RULESETS

    spec = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
    schemas = spec["components"]["schemas"]
    for name, ruleset in RULESETS.items():
        declared = _defaults(schemas[ruleset.title.replace(" ", "") + "Options"])
        for players in sorted({ruleset.min_players, 4, ruleset.max_players}
                              & set(range(ruleset.min_players, ruleset.max_players + 1))):
            games = []
            for sent in (declared, {}):
                resp = client.post("/v1/games", json={"ruleset": name, "players": players,
                                                      "seed": 5, "options": sent})
                assert resp.status_code == 201, (name, players, sent, resp.get_json())
                game = resp.get_json()["game"]
                games.append({k: v for k, v in game.items() if k != "id"})
            assert games[0] == games[1], (name, players)
