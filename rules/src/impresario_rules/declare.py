"""How a ruleset declares its options, moves, views, action spaces and events: as data.

A declaration says, once, what a value may be: its type, whether it may be null or left out,
its range, its set, its length, its pattern, its default, what it means. Everything else is
built from it: the rules check a move's shape with it (:func:`problem`), the engine builds its
HTTP schemas and the OpenAPI components from it, and tests hold every view, event and action
space the rules produce to it (:func:`problem` again). So a range or a set lives in one place,
and the spec cannot disagree with the rules.

The vocabulary:

- :class:`Field`: one value (made by :func:`Int`, :func:`Num`, :func:`Str`, :func:`Bool`,
  :func:`List`, :func:`Obj`, :func:`Map`, :func:`Either`, :func:`Anything`);
- :class:`Shape`: a named object of fields (a component of the spec);
- :func:`move`, :func:`space`, :func:`event`: the shapes of a move, an action space and an
  event of one ``type``.

A field's bounds and sets are *enforced* (a value outside them is malformed: the HTTP schema
refuses it, 422 ``invalid_body``, and so do the rules, ``invalid_move``) unless it is declared
``judged``: then they are documented for clients, and the rules judge the value with their own
refusal code and a message that names the game's own range (a 2-player Turandot's slots are
1 to 3, not the 1 to 6 the declaration allows: ``slot_out_of_range``).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Iterable

#: what a field's ``judged`` may name: its set, its bounds, a string's length, a list's or a
#: map's number of items, its pattern
JUDGED = ("enum", "range", "length", "items", "pattern")

#: no default: the field is required, or absent when left out
MISSING: Any = type("Missing", (), {"__repr__": lambda self: "MISSING"})()

INTEGER, NUMBER, STRING, BOOLEAN, ARRAY, OBJECT, MAP, EITHER, ANY = (
    "integer", "number", "string", "boolean", "array", "object", "map", "either", "any")


@dataclass(frozen=True)
class Field:
    """One value: see the module's doc. Build it with the constructors below."""

    type: str
    #: in a move or an option: must be sent; in a view or an event: always present
    required: bool = True
    nullable: bool = False
    #: a move's value when the field is left out (the rules and the HTTP layer fill it in); an
    #: option's value when the game is created without it
    default: Any = MISSING
    #: the default in words, where it is no single value (an option's default that depends on
    #: the table)
    default_text: str | None = None
    description: str | None = None
    example: Any = MISSING
    minimum: float | None = None
    maximum: float | None = None
    enum: tuple[Any, ...] | None = None
    pattern: str | None = None
    min_length: int | None = None
    max_length: int | None = None
    min_items: int | None = None
    max_items: int | None = None
    unique: bool = False
    #: the constraints the rules judge themselves (documented, not enforced): True for all of
    #: them, or some of ``JUDGED``
    judged: bool | tuple[str, ...] = False
    items: "Field | None" = None
    shape: "Shape | None" = None
    #: a map's values (its keys are strings; ``enum``: the keys it may have)
    values: "Field | None" = None
    choices: tuple["Field", ...] = ()

    def but(self, **changes: Any) -> "Field":
        """This field with ``changes``."""
        return replace(self, **changes)

    def judges(self, what: str) -> bool:
        """Whether the rules judge the constraint ``what`` (one of :data:`JUDGED`)."""
        return self.judged is True or isinstance(self.judged, tuple) and what in self.judged

    def enforced(self) -> "Field":
        """This field with every constraint enforced (what a test holds output to)."""
        return replace(self, judged=False)


@dataclass(frozen=True)
class Shape:
    """A named object: its fields in order, what it is. ``open``: it may carry fields beyond
    the declared ones (a problem's extras)."""

    name: str
    fields: dict[str, Field]
    doc: str = ""
    open: bool = False

    def extended(self, name: str, fields: dict[str, Field], doc: str | None = None,
                 after: str | None = None) -> "Shape":
        """A shape named ``name`` with this one's fields and ``fields`` (placed after the field
        ``after``, else at the end)."""
        items = list(self.fields.items())
        at = len(items) if after is None else [k for k, _ in items].index(after) + 1
        merged = dict(items[:at] + list(fields.items()) + items[at:])
        return Shape(name, merged, self.doc if doc is None else doc, self.open)


# ---------------------------------------------------------------------------- constructors
def Int(*, minimum: float | None = None, maximum: float | None = None, **kw: Any) -> Field:  # noqa: N802
    return Field(INTEGER, minimum=minimum, maximum=maximum, **kw)


def Num(**kw: Any) -> Field:  # noqa: N802
    return Field(NUMBER, **kw)


def Str(*, enum: Iterable[Any] | None = None, **kw: Any) -> Field:  # noqa: N802
    return Field(STRING, enum=None if enum is None else tuple(enum), **kw)


def Bool(**kw: Any) -> Field:  # noqa: N802
    return Field(BOOLEAN, **kw)


def List(items: Field, **kw: Any) -> Field:  # noqa: N802
    return Field(ARRAY, items=items, **kw)


def Obj(shape: Shape, **kw: Any) -> Field:  # noqa: N802
    return Field(OBJECT, shape=shape, **kw)


def Map(values: Field, *, keys: Iterable[str] | None = None, **kw: Any) -> Field:  # noqa: N802
    return Field(MAP, values=values, enum=None if keys is None else tuple(keys), **kw)


def Either(*choices: Field, **kw: Any) -> Field:  # noqa: N802
    return Field(EITHER, choices=tuple(choices), **kw)


def Anything(**kw: Any) -> Field:  # noqa: N802
    return Field(ANY, **kw)


def move(type_: str, fields: dict[str, Field], doc: str = "", name: str | None = None
         ) -> Shape:
    """The shape of a move of ``type_`` (its ``type`` field first)."""
    return Shape(name or _camel(type_) + "Move",
                 {"type": Str(enum=(type_,)), **fields}, doc)


def space(type_: str, fields: dict[str, Field], doc: str = "", name: str | None = None
          ) -> Shape:
    """The shape of the action space of a move of ``type_``."""
    return Shape(name or _camel(type_) + "Space", {"type": Str(enum=(type_,)), **fields}, doc)


def event(type_: str, fields: dict[str, Field], doc: str = "", name: str | None = None
          ) -> Shape:
    """The shape of an event of ``type_`` as a viewer gets it (a field only some viewers get is
    not required)."""
    return Shape(name or _camel(type_) + "Event", {"type": Str(enum=(type_,)), **fields}, doc)


def _camel(snake: str) -> str:
    return "".join(part.title() for part in snake.split("_"))


@dataclass(frozen=True)
class Refusals:
    """The stable codes a ruleset refuses with, by what they refuse, so that clients can list
    them (the API's spec does, per operation). A code is raised where its rule is; a test
    reads the ruleset's sources and fails on a code raised there but not listed here."""

    #: moves the rules forbid (kind ``illegal``)
    illegal: tuple[str, ...] = ()
    #: moves at the wrong moment: not your turn, not this phase, already done (``not_now``)
    not_now: tuple[str, ...] = ()
    #: moves meant for an earlier situation (``stale``)
    stale: tuple[str, ...] = ()
    #: the options of a new game
    options: tuple[str, ...] = ()
    #: the ruleset's calculators (scoring an arrangement, valuing a word)
    calculator: tuple[str, ...] = ()
    #: asking for the final score before the end
    score: tuple[str, ...] = ()

    def __add__(self, other: "Refusals") -> "Refusals":
        return Refusals(**{name: tuple(sorted({*getattr(self, name), *getattr(other, name)}))
                           for name in self.__dataclass_fields__})


@dataclass(frozen=True)
class Declarations:
    """Everything a ruleset declares: what a client needs to know of its game."""

    #: the options of a new game
    options: Shape
    #: one shape per move type, in the order a client meets them
    moves: tuple[Shape, ...]
    #: the game as a viewer sees it (``Ruleset.view``), and its final score
    view: Shape
    score: Shape
    #: one shape per action space (``Ruleset.action_space`` entries)
    spaces: tuple[Shape, ...]
    #: one shape per event type, as a viewer gets it
    events: tuple[Shape, ...] = field(default=())
    #: the codes it refuses with (the ones every ruleset shares come on top: ``Ruleset``)
    refusals: Refusals = field(default=Refusals())

    def move(self, type_: str) -> Shape | None:
        return _by_type(self.moves).get(type_)


_BY_TYPE: dict[int, dict[str, Shape]] = {}


def _by_type(shapes: tuple[Shape, ...]) -> dict[str, Shape]:
    key = id(shapes)
    found = _BY_TYPE.get(key)
    if found is None:
        found = _BY_TYPE[key] = {s.fields["type"].enum[0]: s for s in shapes}  # type: ignore[index]
    return found


def by_type(shapes: tuple[Shape, ...]) -> dict[str, Shape]:
    """``{type: shape}`` of move, space or event shapes."""
    return dict(_by_type(shapes))


# ---------------------------------------------------------------------------- checking
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
    fields = shape.fields
    if not shape.open:
        extra = [k for k in value if k not in fields]
        if extra:
            where = f" of {name}" if name else ""
            return f"unknown fields{where}: {sorted(map(str, extra))}"
    for key, f in fields.items():
        if key in value:
            found = problem(f, value[key], f"{name}.{key}" if name else key, enforce_judged)
            if found:
                return found
        elif f.required and f.default is MISSING:
            return f"{name + '.' if name else ''}{key} is required"
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
        text = {MAP: OBJECT, NUMBER: "number", ANY: "any"}.get(f.type, f.type)
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


# ---------------------------------------------------------------------------- fast checks
def accepts(shape: Shape, known: tuple[str, ...] = ()) -> Any:
    """``check(value) -> bool``: whether the object ``value`` is a well-formed ``shape``, in
    one flat function (the rules check every move with it; :func:`shape_problem` says why
    not, when it is not). ``known``: fields the caller has already checked (a move's ``type``,
    by which it found the shape), left out of the check."""
    key = (id(shape), known)
    found = _ACCEPTS.get(key)
    if found is None:
        found = _ACCEPTS[key] = (shape, _shape_predicate(shape, known))
    return found[1]


_ACCEPTS: dict[tuple[int, tuple[str, ...]], tuple[Shape, Any]] = {}


def _shape_predicate(shape: Shape, known: tuple[str, ...] = ()) -> Any:
    names = frozenset(shape.fields)
    required = tuple(k for k, f in shape.fields.items()
                     if f.required and f.default is MISSING and k not in known)
    checks = tuple((k, _predicate(f)) for k, f in shape.fields.items() if k not in known)
    is_open = shape.open

    def check(value: Any) -> bool:
        if type(value) is not dict or not is_open and not names.issuperset(value):
            return False
        for key in required:
            if key not in value:
                return False
        for key, ok in checks:
            if key in value and not ok(value[key]):
                return False
        return True

    return check


def _predicate(f: Field) -> Any:
    """``ok(value) -> bool`` for one field (bounds of a ``judged`` field left to the rules)."""
    nullable = f.nullable
    kind = f.type
    if kind == EITHER:
        options = tuple(_predicate(c) for c in f.choices)

        def either(v: Any) -> bool:
            return v is None and nullable or any(ok(v) for ok in options)
        return either
    if kind in (ARRAY, MAP, OBJECT) and f.enum is None and f.minimum is None \
            and f.maximum is None:
        return _container_predicate(f)
    if kind in (OBJECT, ARRAY, MAP, ANY) or f.pattern is not None and not f.judges("pattern"):
        def slow(v: Any) -> bool:
            return problem(f, v, "") is None
        return slow
    exact = {INTEGER: int, STRING: str, BOOLEAN: bool}.get(kind)
    enum = frozenset(f.enum) if f.enum is not None and not f.judges("enum") else None
    lo = None if f.judges("range") else f.minimum
    hi = None if f.judges("range") else f.maximum
    short = None if f.judges("length") else f.min_length
    long = None if f.judges("length") else f.max_length

    def ok(v: Any) -> bool:
        if v is None:
            return nullable
        if exact is not None:
            if type(v) is not exact:
                return False
        elif kind == NUMBER and type(v) not in (int, float):
            return False
        if enum is not None and v not in enum:
            return False
        if lo is not None and v < lo or hi is not None and v > hi:
            return False
        if short is not None and len(v) < short or long is not None and len(v) > long:
            return False
        return True
    return ok


def _container_predicate(f: Field) -> Any:
    """``ok(value) -> bool`` for a list, a map or an object field, the same verdict as
    :func:`problem` without building a message per item: the hot path of every move with a
    list in it."""
    nullable = f.nullable
    kind = f.type
    if kind == OBJECT:
        whole = _shape_predicate(f.shape)  # type: ignore[arg-type]

        def obj(v: Any) -> bool:
            return nullable if v is None else whole(v)
        return obj
    inner = _predicate(f.items if kind == ARRAY else f.values)  # type: ignore[arg-type]
    counted = not f.judges("items")
    fewest = f.min_items if counted else None
    most = f.max_items if counted else None
    unique = f.unique and kind == ARRAY
    keys = frozenset(f.enum) if kind == MAP and f.enum is not None else None

    def many(v: Any) -> bool:
        if v is None:
            return nullable
        if kind == ARRAY:
            if type(v) is not list:
                return False
            for item in v:
                if not inner(item):
                    return False
        else:
            if type(v) is not dict:
                return False
            for key, item in v.items():
                if keys is not None and key not in keys or not inner(item):
                    return False
        if fewest is not None and len(v) < fewest or most is not None and len(v) > most:
            return False
        if unique and len(set(map(_hashable, v))) != len(v):
            return False
        return True
    return many


def preparer(shape: Shape, known: tuple[str, ...] = ()) -> Any:
    """``prepare(value) -> dict | None``: ``value`` with its defaults filled in when it is a
    well-formed ``shape`` (the verdict of :func:`accepts` and the result of
    :func:`with_defaults`), else ``None``; one function written for the shape, its fields
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
    with ``fill``, the last of them return ``var`` with the defaults of the fields it leaves
    out (a copy when there are any)."""
    names = f"names{len(ns)}"
    ns[names] = frozenset(shape.fields)
    lines = [] if shape.open else [f"{ind}if not {names}.issuperset({var}):",
                                   f"{ind}    return None"]
    missing = []
    for key, f in shape.fields.items():
        if key in known:
            continue
        item = f"x{len(ns)}"
        ns[item] = None  # reserves the name
        lines += [f"{ind}if {key!r} in {var}:", f"{ind}    {item} = {var}[{key!r}]"]
        lines += _field_lines(f, item, ind + "    ", ns)
        if f.default is not MISSING and fill:
            # left out: the copy that is returned takes the default (the checks go on
            # reading the value itself)
            const = f"c{len(ns)}"
            ns[const] = f.default
            lines += [f"{ind}else:", f"{ind}    if out is {var}:",
                      f"{ind}        out = dict({var})", f"{ind}    out[{key!r}] = {const}"]
            missing.append(key)
        elif f.required and f.default is MISSING:
            lines += [f"{ind}else:", f"{ind}    return None"]
    if fill:
        if missing:
            lines = [f"{ind}out = {var}", *lines, f"{ind}return out"]
        else:
            lines.append(f"{ind}return {var}")
    return lines


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
        ns[ok] = _predicate(f)
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
