"""What a declared value must be, in words: the messages of a refusal and a ruleset's
description of its options."""

from __future__ import annotations

from .shapes import (ANY, ARRAY, BOOLEAN, EITHER, INTEGER, MAP, NUMBER, OBJECT, ONE_OF, STRING,
                     Field)


def describe(f: Field) -> str:
    """What a value of ``f`` must be, in words ("an integer from 1 to 6 or null")."""
    kind = f.type
    if kind == INTEGER:
        text = "an integer" + _range(f)
    elif kind == NUMBER:
        text = "a number" + _range(f)
    elif kind == STRING:
        if f.enum is not None and not f.judges("enum"):
            text = "one of " + ", ".join(repr(v) for v in f.enum)
        elif f.judges("length"):
            text = "a string"
        else:
            text = "a string" + _length(f.min_length, f.max_length, "character")
    elif kind == BOOLEAN:
        text = "true or false"
    elif kind == ARRAY:
        text = "a list" + ("" if f.judges("items") else _length(f.min_items, f.max_items,
                                                                   "item"))
        if f.items is not None:
            text += " of " + _plural(describe(f.items))
    elif kind in (OBJECT, MAP):
        text = "an object"
    elif kind == ONE_OF and f.one_of is not None:
        text = f"an object whose {f.one_of.by} is " + " or ".join(map(repr, f.one_of.mapping()))
    elif kind == EITHER:
        text = " or ".join(describe(c) for c in f.choices)
    else:
        text = "a value"
    return text + (" or null" if f.nullable else "")


def type_text(f: Field) -> str:
    """The type in a few words, as a ruleset's description lists its options
    (``integer | 'random'``, ``array | null``)."""
    if f.type == EITHER:
        text = " | ".join(type_text(c) for c in f.choices)
    elif f.type == STRING and f.enum is not None:
        text = " | ".join(f"'{v}'" for v in f.enum)
    else:
        text = {MAP: OBJECT, ONE_OF: OBJECT, NUMBER: "number", ANY: "any"}.get(f.type, f.type)
    return text + (" | null" if f.nullable else "")


def _range(f: Field) -> str:
    if f.judges("range"):
        return ""
    lo, hi = f.minimum, f.maximum
    if lo is not None and hi is not None:
        return f" from {_num(lo)} to {_num(hi)}"
    if lo is not None:
        return f" of at least {_num(lo)}"
    if hi is not None:
        return f" of at most {_num(hi)}"
    return ""


def _length(lo: int | None, hi: int | None, unit: str) -> str:
    if lo is not None and lo == hi:
        return f" of {lo} {unit}{'s' if lo != 1 else ''}"
    if lo is not None and hi is not None:
        return f" of {lo} to {hi} {unit}s"
    if hi is not None:
        return f" of at most {hi} {unit}s"
    return ""


def _plural(text: str) -> str:
    for article in ("an ", "a "):
        if text.startswith(article):
            rest = text[len(article):]
            head, _, tail = rest.partition(" ")
            return head + "s" + (" " + tail if tail else "")
    return text


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)
