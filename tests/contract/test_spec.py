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
