"""How a ruleset declares its options, moves, views, action spaces and events: as data.

A declaration says, once, what a value may be: its type, whether it may be null or left out,
its range, its set, its length, its pattern, its default, what it means. Everything else is
built from it: the rules check a move's shape with it (:func:`problem`), the engine builds its
HTTP schemas and the OpenAPI components from it, and tests hold every view, event and action
space the rules produce to it (:func:`problem` again). So a range or a set lives in one place,
and the spec cannot disagree with the rules.

It is written in four modules, by role: :mod:`.shapes` (the vocabulary below), :mod:`.words`
(what a value must be, in words), :mod:`.check` (why a value is not what it declares) and
:mod:`.prepare` (a move's one check, written as a function from its declaration). Import them
from here.

The vocabulary:

- :class:`Field`: one value (made by :func:`Int`, :func:`Num`, :func:`Str`, :func:`Bool`,
  :func:`List`, :func:`Obj`, :func:`Map`, :func:`Either`, :func:`Anything`);
- :class:`Shape`: a named object of fields (a component of the spec);
- :class:`OneOf`: a named choice of shapes told apart by one of their fields (a discriminated
  union in the spec; a field holds one with :func:`Obj`);
- :func:`move`, :func:`space`, :func:`event`: the shapes of a move, an action space and an
  event of one ``type``.

A field's bounds and sets are *enforced* (a value outside them is malformed: the HTTP schema
refuses it, 422 ``invalid_body``, and so do the rules, ``invalid_move``) unless it is declared
``judged``: then they are documented for clients, and the rules judge the value with their own
refusal code and a message that names the game's own range (a 2-player Turandot's slots are
1 to 3, not the 1 to 6 the declaration allows: ``slot_out_of_range``).
"""

from .check import field_problem, problem, shape_problem, with_defaults
from .prepare import preparer
from .shapes import (ANY, ARRAY, BOOLEAN, EITHER, INTEGER, JUDGED, MAP, MISSING, NUMBER, OBJECT,
                     ONE_OF, STRING, Anything, Bool, Declarations, Either, Field, Int, List, Map,
                     Num, Obj, OneOf, Refusals, Shape, Str, by_type, event, move, space)
from .words import describe, type_text

__all__ = ["ANY", "ARRAY", "BOOLEAN", "EITHER", "INTEGER", "JUDGED", "MAP", "MISSING", "NUMBER",
           "OBJECT", "ONE_OF", "STRING", "Anything", "Bool", "Declarations", "Either", "Field",
           "Int", "List", "Map", "Num", "Obj", "OneOf", "Refusals", "Shape", "Str", "by_type", "describe",
           "event", "field_problem", "move", "preparer", "problem", "shape_problem", "space", "type_text",
           "with_defaults"]
