"""No shape a generated client must guess: the spec is walked schema by schema, and it fails on
an object whose fields are open (``additionalProperties: true`` or ``{}``, or no properties at
all), on a one-item ``allOf`` standing for a plain ``$ref`` (generators lose the union behind
it), on a union without a discriminator where its members have one, on a closed set of
strings written as a plain string, and on a public operation without ``security: []``."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

import pytest
import yaml

from impresario_rules import RULESETS

ROOT = Path(__file__).resolve().parents[2]
SPEC = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
SCHEMAS = SPEC["components"]["schemas"]

#: property names whose values are a closed set of strings wherever they appear
CLOSED = {"ruleset", "status", "phase", "type", "kinds", "pending", "category", "sex", "by",
          "cause", "mode", "move_types", "helper", "favourite_role", "director", "directors",
          "code"}
#: where one of those names is free text, and why
FREE = {
    ("Problem", "type"): "a URI naming the problem",
    ("Problem", "phase"): "the phase of whichever ruleset the game plays (see its view)",
    ("OptionDoc", "type"): "the option's type in words",
    ("Problem", "code"): "each operation narrows it to its own enum",
    ("DeviceCode", "code"): "a one-time code that moves a player to another device",
    ("Claim", "code"): "that code, as a person typed it",
}


def _resolve(node: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        node = SCHEMAS[node["$ref"].rsplit("/", 1)[1]]
    return node


def _walk(node: Any, where: str) -> Iterator[tuple[str, dict[str, Any]]]:
    if isinstance(node, dict):
        yield where, node
        for key, value in node.items():
            yield from _walk(value, f"{where}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _walk(value, f"{where}[{i}]")


def _everywhere() -> Iterator[tuple[str, dict[str, Any]]]:
    yield from _walk(SCHEMAS, "#/components/schemas")
    yield from _walk(SPEC["paths"], "#/paths")


def _has_enum(node: dict[str, Any]) -> bool:
    node = _resolve(node)
    if "enum" in node or "const" in node:
        return True
    if node.get("type") == "array" and "items" in node:
        return _has_enum(node["items"])
    choices = node.get("anyOf") or node.get("oneOf")
    if choices:
        return all(_has_enum(c) or _resolve(c).get("type") == "null" for c in choices)
    return False


def test_no_object_is_open():
    open_ = []
    for where, node in _everywhere():
        if node.get("type") != "object" and "properties" not in node:
            continue
        extra = node.get("additionalProperties")
        if extra is True or extra == {} or "properties" not in node and extra is None:
            open_.append(where)
    assert not open_, f"objects whose fields a client must guess: {open_}"


def test_no_ref_hides_in_a_one_item_all_of():
    hidden = [where for where, node in _everywhere()
              if len(node.get("allOf", ())) == 1 and set(node["allOf"][0]) == {"$ref"}
              and not node.get("properties")]
    assert not hidden, f"plain $refs wrapped in allOf: {hidden}"


def test_every_union_of_tagged_members_names_its_discriminator():
    missing = []
    for where, node in _everywhere():
        members = node.get("oneOf")
        if not members or not all("$ref" in m for m in members):
            continue
        if "discriminator" not in node:
            missing.append(where)
            continue
        name = node["discriminator"]["propertyName"]
        for member in members:
            target = _resolve(member)
            assert name in target.get("required", ()), f"{where}: {member} lacks {name}"
            assert _has_enum(target["properties"][name]), f"{where}: {member}.{name}"
    assert not missing, f"unions without a discriminator: {missing}"


def _strings(node: dict[str, Any]) -> bool:
    """Whether ``node`` holds strings (or a list of them), maybe null."""
    node = _resolve(node)
    if node.get("type") == "array" and "items" in node:
        return _strings(node["items"])
    choices = node.get("anyOf") or node.get("oneOf")
    if choices:
        return any(_strings(c) for c in choices)
    kinds = node.get("type")
    return kinds == "string" or isinstance(kinds, list) and "string" in kinds


def test_closed_sets_of_strings_are_enums():
    loose = []
    for name, schema in SCHEMAS.items():
        for prop, value in _resolve(schema).get("properties", {}).items():
            if prop in CLOSED and (name, prop) not in FREE and _strings(value) \
                    and not _has_enum(value):
                loose.append(f"{name}.{prop}")
    assert not loose, f"closed sets of strings written as plain strings: {loose}"


def test_the_game_and_score_and_event_unions_cover_every_ruleset():
    for union, field in (("Game", "ruleset"), ("Score", "ruleset")):
        assert set(SCHEMAS[union]["discriminator"]["mapping"]) == set(RULESETS), union
    declared = {shape.fields["type"].enum[0] for r in RULESETS.values()
                for shape in r.declarations.events}
    assert declared <= set(SCHEMAS["Event"]["discriminator"]["mapping"])


@pytest.mark.parametrize("path,method", [(p, m) for p, item in SPEC["paths"].items()
                                         for m in item if m != "parameters"])
def test_every_operation_states_its_security(path, method):
    op = SPEC["paths"][path][method]
    assert "security" in op, f"{method.upper()} {path} does not say whether it needs a token"
    if op["security"]:
        # a token an operation reads but does not need is optional: {} beside the scheme
        assert all(set(s) <= {"bearer"} for s in op["security"])


def test_an_operation_answering_304_declares_if_none_match():
    for path, item in SPEC["paths"].items():
        for method, op in item.items():
            if method != "parameters" and "304" in op["responses"]:
                names = {p.get("name") for p in op.get("parameters", [])}
                assert "If-None-Match" in names, f"{method.upper()} {path}"


def test_word_jam_has_no_move_seconds():
    assert "move_seconds" not in SCHEMAS["WordJamGame"]["properties"]
    assert "move_seconds" not in SCHEMAS["WordJamOptions"]["properties"]
    assert "move_seconds" in SCHEMAS["TurandotGame"]["properties"]
