"""Why a value is not what its declaration says: the words of a refusal (a move the check of
:mod:`.prepare` refused), and what a test holds every view, event and action space to."""

from __future__ import annotations

from typing import Any

from .shapes import (ARRAY, BOOLEAN, EITHER, INTEGER, MAP, MISSING, NUMBER, OBJECT, ONE_OF, STRING,
                     Field, Shape)
from .words import describe


def problem(f: Field, value: Any, name: str, enforce_judged: bool = False) -> str | None:
    """Why ``value`` is not what ``f`` declares (``None``: it is), naming it ``name``. The
    bounds, sets and patterns of a ``judged`` field are left to the rules unless
    ``enforce_judged`` (a test holding output to its declaration)."""
    if value is None:
        return None if f.nullable else f"{name} must be {describe(f)}"
    kind = f.type
    if kind == INTEGER:
        if type(value) is not int:
            return f"{name} must be {describe(f)}"
    elif kind == NUMBER:
        if type(value) not in (int, float):
            return f"{name} must be {describe(f)}"
    elif kind == STRING:
        if type(value) is not str:
            return f"{name} must be {describe(f)}"
    elif kind == BOOLEAN:
        if type(value) is not bool:
            return f"{name} must be {describe(f)}"
    elif kind == ARRAY:
        if type(value) is not list:
            return f"{name} must be {describe(f)}"
        for i, item in enumerate(value):
            found = problem(f.items, item, f"{name}[{i}]", enforce_judged)  # type: ignore[arg-type]
            if found:
                return found
    elif kind == OBJECT:
        if type(value) is not dict:
            return f"{name} must be {describe(f)}"
        found = shape_problem(f.shape, value, name, enforce_judged)  # type: ignore[arg-type]
        if found:
            return found
    elif kind == ONE_OF and f.one_of is not None:
        shape = f.one_of.shape_of(value)
        if shape is None:
            return f"{name} must be {describe(f)}"
        return shape_problem(shape, value, name, enforce_judged)
    elif kind == MAP:
        if type(value) is not dict:
            return f"{name} must be {describe(f)}"
        for key, item in value.items():
            if f.enum is not None and key not in f.enum:
                return f"{name} may not have the key {key!r}"
            found = problem(f.values, item, f"{name}.{key}", enforce_judged)  # type: ignore[arg-type]
            if found:
                return found
    elif kind == EITHER:
        if all(problem(c, value, name, enforce_judged) for c in f.choices):
            return f"{name} must be {describe(f)}"
        return None
    return _bounds(f.enforced() if enforce_judged else f, value, name)


def _bounds(f: Field, value: Any, name: str) -> str | None:
    if f.enum is not None and f.type != MAP and not f.judges("enum") and value not in f.enum:
        return f"{name} must be {describe(f)}"
    if not f.judges("range") and (f.minimum is not None and value < f.minimum
                                  or f.maximum is not None and value > f.maximum):
        return f"{name} must be {describe(f)}"
    if f.type == STRING:
        if not f.judges("length") and (f.min_length is not None and len(value) < f.min_length
                                       or f.max_length is not None
                                       and len(value) > f.max_length):
            return f"{name} must be {describe(f)}"
        if f.pattern is not None and not f.judges("pattern") \
                and not _compiled(f.pattern).search(value):
            return f"{name} must be {describe(f)}"
    if f.type in (ARRAY, MAP):
        if not f.judges("items") and (f.min_items is not None and len(value) < f.min_items
                                      or f.max_items is not None and len(value) > f.max_items):
            return f"{name} must be {describe(f)}"
        if f.unique and f.type == ARRAY and len(set(map(_hashable, value))) != len(value):
            return f"{name} must be {describe(f)}"
    return None


def shape_problem(shape: Shape, value: dict[str, Any], name: str = "",
                  enforce_judged: bool = False) -> str | None:
    """Why the object ``value`` is not a ``shape`` (unknown fields, missing required ones, a
    field that is not what it declares), or ``None``."""
    found = field_problem(shape, value, name, enforce_judged)
    return None if found is None else found[1]


def field_problem(shape: Shape, value: dict[str, Any], name: str = "",
                  enforce_judged: bool = False) -> tuple[str, str] | None:
    """The first of the object ``value``'s fields that makes it no ``shape`` and why
    (:func:`shape_problem`), or ``None``: what a client is told of a malformed move."""
    fields = shape.fields
    if not shape.open:
        extra = [k for k in value if k not in fields]
        if extra:
            where = f" of {name}" if name else ""
            return str(extra[0]), f"unknown fields{where}: {sorted(map(str, extra))}"
    for key, f in fields.items():
        if key in value:
            found = problem(f, value[key], f"{name}.{key}" if name else key, enforce_judged)
            if found:
                return key, found
        elif f.required and f.default is MISSING:
            return key, f"{name + '.' if name else ''}{key} is required"
    return None


def with_defaults(shape: Shape, value: dict[str, Any]) -> dict[str, Any]:
    """``value`` (a well-formed move) with the defaults of the fields it leaves out."""
    out = None
    for key, f in shape.fields.items():
        if f.default is not MISSING and key not in value:
            if out is None:
                out = dict(value)
            out[key] = f.default
    return value if out is None else out


def _hashable(value: Any) -> Any:
    return repr(value) if isinstance(value, (list, dict)) else value


_PATTERNS: dict[str, Any] = {}


def _compiled(pattern: str) -> Any:
    """``pattern`` compiled as JSON Schema reads it: ``$`` is the end of the string (Python's
    would also match before a final newline)."""
    import re

    found = _PATTERNS.get(pattern)
    if found is None:
        source = pattern[:-1] + r"\Z" if pattern.endswith("$") and "|" not in pattern \
            else pattern
        found = _PATTERNS[pattern] = re.compile(source)
    return found

