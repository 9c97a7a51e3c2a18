"""A move's one check (``Ruleset.prepare``, the function its declaration writes) and the
marshmallow schema the spec is generated from (built from the same declaration) agree: the check
accepts a body exactly when the schema would, and the move it makes is the one the schema would
load, key order and defaults included; a refused body is answered naming its field."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from marshmallow import ValidationError

from impresario_engine.api import declared as s
from impresario_engine.table.errors import Refused
from impresario_engine.usecases.play import prepared
from impresario_rules import RULESETS, IllegalMove
from impresario_rules.declare import by_type

SHAPES = {kind: shape for r in RULESETS.values()
          for kind, shape in by_type(r.declarations.moves).items()}
SCHEMAS = {kind: schema() for kind, schema in s.MOVE_SCHEMAS.items()}
RULESET_OF = {kind: r for r in RULESETS.values() for kind in r.move_types}

# values around every boundary the move schemas draw (ranges, lengths, None, wrong types)
VALUES = st.one_of(
    st.integers(-1, 8), st.integers(-1, 8), st.none(), st.booleans(),
    st.sampled_from([0.0, 1.0, 2**70, "1", "neutral", "left", "S04", "", "x" * 32, "x" * 33,
                     "x" * 40, "x" * 41]),
    st.text(max_size=3),
    st.lists(st.sampled_from(["S04", "", "x" * 33, "ab"]), min_size=5, max_size=7),
    st.lists(st.integers(0, 6), max_size=3),
)


@st.composite
def bodies(draw):
    kind = draw(st.sampled_from(sorted(s.MOVE_SCHEMAS)))
    names = list(SHAPES[kind].fields) + ["extra"]
    body = {"type": kind}
    for name in names:
        if name != "type" and draw(st.integers(0, 5)):  # most fields present, some missing
            body[name] = draw(VALUES)
    if draw(st.integers(0, 3)):
        body.pop("extra", None)
    return kind, body


@settings(max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(bodies())
def test_the_check_and_the_spec_agree(case):
    kind, body = case
    try:
        got = RULESET_OF[kind].prepare(dict(body))
    except IllegalMove as err:
        assert err.code == "invalid_move", (body, err.code)
        got = None
    try:
        expected = SCHEMAS[kind].load(dict(body))
    except ValidationError:
        assert got is None, body
        return
    assert got is not None, body
    assert got == expected and list(got) == list(expected), (body, got, expected)


def test_a_refused_body_names_its_field():
    for body, field in [({"type": "bid", "slot": "7"}, "slot"),
                        ({"type": "bid", "slot": True}, "slot"),
                        ({"type": "nominate"}, "seat"), ({"type": "bid", "slot": 1, "x": 1}, "x")]:
        with pytest.raises(Refused) as caught:
            prepared(RULESETS["turandot"], body)
        err = caught.value
        assert err.code == "invalid_body" and field in err.details["errors"], err.details
        assert field in err.message
    for body in ([{"type": "bid"}], "bid", 3, None):
        with pytest.raises(Refused) as caught:
            prepared(RULESETS["turandot"], body)
        assert caught.value.code == "invalid_body", body
        assert caught.value.details["errors"] == {"_schema": ["must be an object"]}


def test_a_type_is_looked_up_among_the_games_own_moves():
    """Another ruleset's move, an unknown or a missing type: unknown_move_type naming the
    game's own moves, before any field is looked at."""
    for name, ruleset in RULESETS.items():
        others = [k for k in s.MOVE_SCHEMAS if k not in ruleset.move_types]
        for body in [{"type": k} for k in others] + [{"type": "dance"}, {"slot": 1}, {"type": 3}]:
            with pytest.raises(Refused) as caught:
                prepared(ruleset, body)
            err = caught.value
            assert err.code == "unknown_move_type", (name, body, err.message)
            assert err.details["move_types"] == list(ruleset.move_types)
