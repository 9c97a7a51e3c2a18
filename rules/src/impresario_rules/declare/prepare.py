"""A move's one check: a function written from its declaration (:func:`preparer`) that takes
a body, says whether it is well formed and fills in its defaults, in one pass. The rules prepare
every move with it; :func:`.check.shape_problem` says why, when it refuses."""

from __future__ import annotations

from typing import Any

from .check import problem
from .shapes import ARRAY, BOOLEAN, INTEGER, MISSING, OBJECT, STRING, Field, Shape


def preparer(shape: Shape, known: tuple[str, ...] = ()) -> Any:
    """``prepare(value) -> dict | None``: ``value`` with its defaults filled in when it is a
    well-formed ``shape`` (what :func:`.check.shape_problem` finds nothing wrong with, and the
    result of :func:`.check.with_defaults`), else ``None``; one function written for the shape, its fields
    checked inline (lists and objects within them too, item by item), since the rules prepare
    every move with it. ``known``: fields the caller has already checked (a move's ``type``)."""
    ns: dict[str, Any] = {"int": int, "str": str, "bool": bool, "dict": dict, "list": list,
                          "len": len, "type": type, "map": map, "min": min, "max": max}
    lines = ["def prepare(v):", "    if type(v) is not dict:", "        return None"]
    lines += _object_lines(shape, "v", "    ", ns, known, fill=True)
    exec("\n".join(lines), ns)  # noqa: S102 - source built above from the declaration alone
    return ns["prepare"]


def _object_lines(shape: Shape, var: str, ind: str, ns: dict[str, Any],
                  known: tuple[str, ...] = (), fill: bool = False) -> list[str]:
    """Statements returning ``None`` when the dict ``var`` is not a well-formed ``shape``;
    with ``fill``, the last of them return a new dict of its fields in their declared order,
    with the defaults of the ones it leaves out (an open shape's: ``var`` itself, or a copy
    with the defaults)."""
    names = f"names{len(ns)}"
    ns[names] = frozenset(shape.fields)
    lines = [] if shape.open else [f"{ind}if not {names}.issuperset({var}):",
                                   f"{ind}    return None"]
    out: list[tuple[str, str, bool]] = []  # (key, expression, present whenever well formed)
    for key, f in shape.fields.items():
        if key in known:
            out.append((key, f"{var}[{key!r}]", True))
            continue
        item = f"x{len(ns)}"
        ns[item] = None  # reserves the name
        lines += [f"{ind}if {key!r} in {var}:", f"{ind}    {item} = {var}[{key!r}]"]
        lines += _field_lines(f, item, ind + "    ", ns)
        if f.default is not MISSING and fill:
            const = f"c{len(ns)}"
            ns[const] = f.default
            lines += [f"{ind}else:", f"{ind}    {item} = {const}"]
            out.append((key, item, True))
        elif f.required and f.default is MISSING:
            lines += [f"{ind}else:", f"{ind}    return None"]
            out.append((key, item, True))
        else:
            out.append((key, item, False))
    if not fill:
        return lines
    if shape.open:
        lines.append(f"{ind}out = dict({var})")
        lines += [f"{ind}out[{k!r}] = {e}" for k, e, always in out if always]
        return [*lines, f"{ind}return out"]
    if all(always for _, _, always in out):
        return [*lines, f"{ind}return {{{', '.join(f'{k!r}: {e}' for k, e, _ in out)}}}"]
    lines.append(f"{ind}out = {{}}")
    for k, e, always in out:
        lines += ([f"{ind}out[{k!r}] = {e}"] if always
                  else [f"{ind}if {k!r} in {var}:", f"{ind}    out[{k!r}] = {e}"])
    return [*lines, f"{ind}return out"]


def _field_lines(f: Field, var: str, ind: str, ns: dict[str, Any]) -> list[str]:
    """Statements returning ``None`` when ``var`` (present) is not what ``f`` declares: the
    verdict of :func:`problem`, written out for plain values, lists and objects; other kinds
    call their predicate."""
    exact = {INTEGER: "int", STRING: "str", BOOLEAN: "bool"}.get(f.type)
    inner: list[str]
    if exact is not None and (f.pattern is None or f.judges("pattern")):
        bad = [f"type({var}) is not {exact}"]
        if f.enum is not None and not f.judges("enum"):
            ns[f"enum{len(ns)}"] = frozenset(f.enum)
            bad.append(f"{var} not in enum{len(ns) - 1}")
        bad += _bounds_checks(f, var, var, f"len({var})", f"len({var})")
        inner = [f"{ind}if {' or '.join(bad)}:", f"{ind}    return None"]
    elif f.type == ARRAY and f.enum is None and f.minimum is None and f.maximum is None \
            and not f.unique:
        inner = [f"{ind}if type({var}) is not list:", f"{ind}    return None"]
        if not f.judges("items") and (f.min_items is not None or f.max_items is not None):
            bad = _count_checks(f"len({var})", f.min_items, f.max_items)
            inner += [f"{ind}if {' or '.join(bad)}:", f"{ind}    return None"]
        plain = _plain_items_lines(f.items, var, ind, ns)  # type: ignore[arg-type]
        if plain is not None:
            inner += plain
        else:
            item = f"x{len(ns)}"
            ns[item] = None
            inner += [f"{ind}for {item} in {var}:",
                      *_field_lines(f.items, item, ind + "    ", ns)]  # type: ignore[arg-type]
    elif f.type == OBJECT and f.shape is not None and f.enum is None \
            and f.minimum is None and f.maximum is None:
        inner = [f"{ind}if type({var}) is not dict:", f"{ind}    return None",
                 *_object_lines(f.shape, var, ind, ns)]
    else:
        ok = f"ok{len(ns)}"
        ns[ok] = _whole(f)
        return [f"{ind}if not {ok}({var}):", f"{ind}    return None"]
    if f.nullable:
        return [f"{ind}if {var} is not None:", *[f"    {line}" for line in inner]]
    return inner


def _count_checks(count: str, fewest: int | None, most: int | None,
                  longest: str | None = None) -> list[str]:
    """The conditions under which ``count`` (a length) is out of ``fewest..most``
    (``longest``: the expression to hold to ``most``, when it is not ``count``)."""
    if fewest is not None and fewest == most and longest in (None, count):
        return [f"{count} != {fewest!r}"]
    bad = []
    if fewest is not None:
        bad.append(f"{count} < {fewest!r}")
    if most is not None:
        bad.append(f"{longest or count} > {most!r}")
    return bad


def _bounds_checks(f: Field, lowest: str, highest: str, shortest: str, longest: str
                   ) -> list[str]:
    """The conditions under which values of ``f`` are out of the bounds and (for strings) the
    lengths it enforces: ``lowest`` and ``highest`` are the expressions of the smallest and the
    largest value checked, ``shortest`` and ``longest`` of their lengths (one value: the same
    expression twice)."""
    bad = []
    if not f.judges("range"):
        if f.minimum is not None:
            bad.append(f"{lowest} < {f.minimum!r}")
        if f.maximum is not None:
            bad.append(f"{highest} > {f.maximum!r}")
    if f.type == STRING and not f.judges("length"):
        bad += _count_checks(shortest, f.min_length, f.max_length, longest)
    return bad


def _plain_items_lines(f: Field, var: str, ind: str, ns: dict[str, Any]) -> list[str] | None:
    """Statements returning ``None`` when an item of the list ``var`` is not what ``f``
    declares, for items of one plain type (an integer, a string or a boolean: not null, no
    pattern it enforces) checked all at once rather than one by one: their types, then their
    set, their bounds or their lengths (the same verdict as the loop of :func:`_field_lines`:
    a whole move's list of card ids is checked in a few calls). ``None``: items of another
    kind."""
    exact = {INTEGER: int, STRING: str, BOOLEAN: bool}.get(f.type)
    if exact is None or f.nullable or f.pattern is not None and not f.judges("pattern"):
        return None
    types = f"types{len(ns)}"
    ns[types] = frozenset((exact,))
    lines = [f"{ind}if not {types}.issuperset(map(type, {var})):", f"{ind}    return None"]
    bad = []
    if f.enum is not None and not f.judges("enum"):
        enum = f"enum{len(ns)}"
        ns[enum] = frozenset(f.enum)
        bad.append(f"not {enum}.issuperset({var})")
    bad += _bounds_checks(f, f"min({var})", f"max({var})", f"min(map(len, {var}))",
                          f"max(map(len, {var}))")
    if bad:
        # min() and max() need an item: an empty list has none to refuse
        lines += [f"{ind}if {var} and ({' or '.join(bad)}):", f"{ind}    return None"]
    return lines


def _whole(f: Field) -> Any:
    """``ok(value) -> bool`` for a field of a kind :func:`_field_lines` does not write out (an
    ``Either``, one of several shapes, any value, a map, a pattern, a list of unique items): the declaration's own
    :func:`.check.problem`, which finds nothing wrong."""
    def ok(v: Any) -> bool:
        return problem(f, v, "") is None
    return ok
