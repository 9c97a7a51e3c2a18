"""A declaration's vocabulary: :class:`Field`, :class:`Shape`, their constructors, and what a
ruleset declares as a whole (:class:`Declarations`, :class:`Refusals`)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Iterable

#: what a field's ``judged`` may name: its set, its bounds, a string's length, a list's or a
#: map's number of items, its pattern
JUDGED = ("enum", "range", "length", "items", "pattern")

#: no default: the field is required, or absent when left out
MISSING: Any = type("Missing", (), {"__repr__": lambda self: "MISSING"})()

INTEGER, NUMBER, STRING, BOOLEAN, ARRAY, OBJECT, MAP, EITHER, ANY, ONE_OF = (
    "integer", "number", "string", "boolean", "array", "object", "map", "either", "any",
    "one_of")


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
    #: the shapes a ``one_of`` object may be, told apart by a field
    one_of: "OneOf | None" = None

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


@dataclass(frozen=True)
class OneOf:
    """A named choice of shapes (a component of the spec), told apart by the field ``by``: each
    shape declares it with one value of its own (``Str(enum=["singer"])``)."""

    name: str
    shapes: tuple[Shape, ...]
    by: str
    doc: str = ""

    def __post_init__(self) -> None:
        tags = [s.fields[self.by].enum if self.by in s.fields else None for s in self.shapes]
        if any(t is None or len(t) != 1 for t in tags) or len(set(tags)) != len(tags):
            raise ValueError(f"each shape of {self.name} needs a {self.by} of its own value")

    def mapping(self) -> dict[Any, Shape]:
        """``{value of by: shape}``."""
        return {s.fields[self.by].enum[0]: s for s in self.shapes}  # type: ignore[index]

    def shape_of(self, value: Any) -> Shape | None:
        """The shape the object ``value`` says it is by its ``by`` (``None``: not an object,
        or none of them)."""
        if type(value) is not dict:
            return None
        tag = (value.get(self.by),)
        return next((s for s in self.shapes if s.fields[self.by].enum == tag), None)


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


def Obj(shape: Shape | OneOf, **kw: Any) -> Field:  # noqa: N802
    """An object of ``shape``, or of one of the shapes of a :class:`OneOf`."""
    if isinstance(shape, OneOf):
        return Field(ONE_OF, one_of=shape, **kw)
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

