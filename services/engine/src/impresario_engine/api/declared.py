"""The HTTP schemas of the games, built from the rules' declarations (``impresario_rules.declare``):
each ruleset's moves, options, game view, score and action spaces. Nothing here restates a
range or a set: a declaration's enforced constraints become marshmallow validators (a body
outside them is 422 ``invalid_body``), its judged ones the spec's documentation of what the rules
accept (they answer with their own codes), so the spec and the rules cannot disagree.

A move's body is not loaded here: the rules check it, once, by its declaration
(``Ruleset.prepare``, in the move's use case); its schema here is the spec's documentation of it.
"""

from __future__ import annotations

from typing import Any

from marshmallow import RAISE, Schema, ValidationError, fields, validate

from impresario_rules import RULESETS
from impresario_rules.base import Ruleset
from impresario_rules.declare import (ANY, ARRAY, BOOLEAN, EITHER, INTEGER, MAP, MISSING, NUMBER,
                                      OBJECT, ONE_OF, STRING, Field, OneOf, Shape, by_type)

from .errors import ApiError


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


def ref(component: str, nullable: bool = False) -> dict[str, Any]:
    """A field's metadata saying it holds the spec's ``component`` (or null). apispec keeps a
    ``$ref`` of a field's metadata only inside ``allOf``, ``anyOf``...: the spec's last pass
    (:mod:`.contract`) makes a one-item ``allOf`` the ``$ref`` itself."""
    target = {"$ref": f"#/components/schemas/{component}"}
    return {"anyOf": [target, {"type": "null"}]} if nullable else {"allOf": [target]}


class OneOfField(fields.Field):
    """An object of one of a :class:`OneOf`'s shapes, the one its discriminating field names
    (loaded by that shape's schema); the spec's component of the union (:data:`UNIONS`)."""

    def __init__(self, union: OneOf, **kw: Any) -> None:
        super().__init__(**kw)
        self.union = union

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        shape = self.union.shape_of(value)
        if shape is None:
            raise ValidationError(f"Must be an object whose {self.union.by} is one of: "
                                  + ", ".join(map(str, self.union.mapping())) + ".")
        return schema_for(shape)().load(value)


# ---------------------------------------------------------------------------- building
_SCHEMAS: dict[str, tuple[Shape, type[Schema]]] = {}
#: the unions the declared schemas hold, by name: the spec's discriminated ``oneOf`` components
UNIONS: dict[str, OneOf] = {}


def schema_for(shape: Shape) -> type[Schema]:
    """The marshmallow schema of ``shape`` (one class per shape name: the spec's component)."""
    found = _SCHEMAS.get(shape.name)
    if found is not None:
        if found[0] != shape:
            raise ValueError(f"two different shapes are called {shape.name}")
        return found[1]
    attrs: dict[str, Any] = {name: field_for(f) for name, f in shape.fields.items()}
    attrs["__doc__"] = shape.doc or None
    if shape.open:
        from marshmallow import INCLUDE

        attrs["Meta"] = type("Meta", (), {"unknown": INCLUDE, "ordered": True})
    schema = type(f"{shape.name}Schema", (Base,), attrs)
    _SCHEMAS[shape.name] = (shape, schema)
    return schema


def field_for(f: Field) -> fields.Field:
    """The marshmallow field of ``f``: its type, presence, default, enforced validators and
    documentation."""
    kw: dict[str, Any] = {}
    metadata: dict[str, Any] = {}
    if f.default is not MISSING:
        kw["load_default"] = f.default
    elif f.required:
        kw["required"] = True
    if f.nullable:
        kw["allow_none"] = True
    if f.description:
        metadata["description"] = f.description
    if f.example is not MISSING:
        metadata["example"] = f.example
    validators: list[Any] = []
    if f.enum is not None and f.type not in (MAP,):
        if f.judges("enum"):
            choices = list(f.enum)
            if f.nullable and None not in choices:
                choices.append(None)
            metadata["enum"] = choices
        else:
            validators.append(validate.OneOf(list(f.enum)))
    if f.minimum is not None or f.maximum is not None:
        if f.judges("range"):
            metadata.update({k: v for k, v in (("minimum", f.minimum), ("maximum", f.maximum))
                             if v is not None})
        else:
            validators.append(validate.Range(f.minimum, f.maximum))
    lengths = (f.min_length, f.max_length) if f.type == STRING else (f.min_items, f.max_items)
    if lengths != (None, None):
        what = "length" if f.type == STRING else "items"
        if f.judges(what):
            names = ("minLength", "maxLength") if f.type == STRING else ("minItems", "maxItems")
            metadata.update({k: v for k, v in zip(names, lengths) if v is not None})
        else:
            validators.append(validate.Length(*lengths))
    if f.pattern is not None:
        if f.judges("pattern"):
            metadata["pattern"] = f.pattern
        else:
            validators.append(validate.Regexp(f.pattern))
    if f.unique:
        metadata["uniqueItems"] = True
    if validators:
        kw["validate"] = validators
    if metadata:
        kw["metadata"] = metadata
    kind = f.type
    if kind == INTEGER:
        return Int(**kw)
    if kind == NUMBER:
        return fields.Float(**kw)
    if kind == STRING:
        return fields.String(**kw)
    if kind == BOOLEAN:
        return StrictBool(**kw)
    if kind == ARRAY:
        return fields.List(field_for(f.items), **kw)  # type: ignore[arg-type]
    if kind == OBJECT:
        return fields.Nested(schema_for(f.shape), **kw)  # type: ignore[arg-type]
    if kind == MAP:
        return fields.Dict(keys=fields.String(), values=field_for(f.values), **kw)  # type: ignore[arg-type]
    if kind == ONE_OF:
        union: OneOf = f.one_of  # type: ignore[assignment]
        if UNIONS.setdefault(union.name, union) != union:
            raise ValueError(f"two different unions are called {union.name}")
        for shape in union.shapes:
            schema_for(shape)
        kw["metadata"] = {**kw.get("metadata", {}), **ref(union.name, f.nullable)}
        return OneOfField(union, **kw)
    if kind == EITHER:
        kw.setdefault("metadata", {})["oneOf"] = [json_schema(c) for c in f.choices]
        return fields.Raw(**kw)
    if kind == ANY:
        return fields.Raw(**kw)
    raise ValueError(f"no HTTP field for a {kind}")


def json_schema(f: Field) -> dict[str, Any]:
    """A plain value's JSON schema (for the choices of an ``Either``)."""
    out: dict[str, Any] = {"type": f.type}
    if f.enum is not None:
        out["enum"] = list(f.enum)
    if f.minimum is not None:
        out["minimum"] = f.minimum
    if f.maximum is not None:
        out["maximum"] = f.maximum
    return out


# ---------------------------------------------------------------------------- the games
def move_schemas(ruleset: Ruleset) -> dict[str, type[Schema]]:
    """``{move type: schema}`` of ``ruleset``'s moves."""
    return {kind: schema_for(shape) for kind, shape in by_type(ruleset.declarations.moves).items()}


def space_schemas(ruleset: Ruleset) -> dict[str, type[Schema]]:
    """``{move type: schema}`` of ``ruleset``'s action spaces."""
    return {kind: schema_for(shape)
            for kind, shape in by_type(ruleset.declarations.spaces).items()}


#: every ruleset's move and action-space schemas by move type (the spec's ``Move`` and
#: ``ActionSpace`` unions; move types are unique across rulesets)
MOVE_SCHEMAS: dict[str, type[Schema]] = {}
SPACE_SCHEMAS: dict[str, type[Schema]] = {}
for _ruleset in RULESETS.values():
    for _table, _more in ((MOVE_SCHEMAS, move_schemas(_ruleset)),
                          (SPACE_SCHEMAS, space_schemas(_ruleset))):
        _clash = set(_table) & set(_more)
        assert not _clash, f"move types used by two rulesets: {_clash}"
        _table.update(_more)

def load_body(schema: Schema, body: Any) -> dict[str, Any]:
    if not isinstance(body, dict):
        raise ApiError(422, "invalid_body", "the body must be a JSON object",
                       errors={"_schema": ["must be an object"]})
    try:
        return schema.load(body)
    except ValidationError as err:
        raise ApiError(422, "invalid_body", first_message(err.messages),
                       errors=err.messages) from err


def first_message(messages: Any, path: str = "") -> str:
    if isinstance(messages, dict):
        for key, value in messages.items():
            return first_message(value, f"{path}.{key}" if path else str(key))
    if isinstance(messages, list) and messages:
        if all(isinstance(m, str) for m in messages):
            return f"{path}: {messages[0]}" if path else messages[0]
        return first_message(messages[0], path)
    return f"{path}: invalid" if path else "invalid body"
