"""A move's declaration and the marshmallow schema built from it agree: the declaration's own
check (the move path's fast lane, and the rules' check of every move) accepts a body exactly
when marshmallow does, and the move loaded either way is the same, key order and defaults
included; the fast lane is really taken for ordinary moves, and errors still name the field."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from marshmallow import ValidationError

from impresario_engine.api import declared as s
from impresario_engine.api.errors import ApiError
from impresario_rules import RULESETS
from impresario_rules.declare import accepts, by_type

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
def test_the_declaration_and_its_schema_agree(case):
    kind, body = case
    accepted = accepts(SHAPES[kind])(dict(body))
    try:
        expected = SCHEMAS[kind].load(dict(body))
    except ValidationError:
        assert not accepted, body
        return
    assert accepted, body
    got = s.load_move(RULESET_OF[kind], dict(body))
    assert got == expected and list(got) == list(expected), (body, got, expected)


ORDINARY = {
    "turandot": [
        {"type": "bid", "slot": 3, "money": 1, "bluff": False},
        {"type": "bid", "slot": None, "money": 1, "bluff": True, "round": 2},
        {"type": "bid", "slot": 1},
        {"type": "nominate", "seat": 1},
        {"type": "fire_director", "director": "neutral"},
        {"type": "cast", "roles": None},
        {"type": "cast", "roles": ["S04", "S01", "S10", "S02", "S03", "S07"]},
    ],
    "wordjam": [
        {"type": "open_sesame", "word": "pinguino"},
        {"type": "bet", "side": "thieves"},
        {"type": "vote", "in_favour": True, "word_id": 3},
    ],
    "muzicando": [
        {"type": "auction_bid", "contract": "2G"},
        {"type": "place", "card": "red-3", "x": 0, "y": 2},
        {"type": "pass"},
    ],
}


def test_ordinary_moves_take_the_fast_lane(monkeypatch):
    for name, bodies in ORDINARY.items():
        for body in bodies:
            assert accepts(SHAPES[body["type"]])(dict(body)), body
            expected = SCHEMAS[body["type"]].load(dict(body))
            with monkeypatch.context() as m:  # marshmallow is not asked
                m.setattr(type(SCHEMAS[body["type"]]), "load", None)
                got = s.load_move(RULESETS[name], dict(body))
            assert got == expected and list(got) == list(expected)


def test_errors_still_come_from_the_schema():
    for body, field in [({"type": "bid", "slot": "7"}, "slot"),
                        ({"type": "bid", "slot": True}, "slot"),
                        ({"type": "nominate"}, "seat"), ({"type": "bid", "slot": 1, "x": 1}, "x")]:
        with pytest.raises(ApiError) as caught:
            s.load_move(RULESETS["turandot"], body)
        err = caught.value
        assert err.code == "invalid_body" and field in err.extra["errors"], err.extra


def test_a_type_is_looked_up_among_the_games_own_moves():
    """Another ruleset's move, an unknown or a missing type: unknown_move_type naming the
    game's own moves, before any field is looked at."""
    for name, ruleset in RULESETS.items():
        others = [k for k in s.MOVE_SCHEMAS if k not in ruleset.move_types]
        for body in [{"type": k} for k in others] + [{"type": "dance"}, {"slot": 1}, {"type": 3}]:
            with pytest.raises(ApiError) as caught:
                s.load_move(ruleset, body)
            err = caught.value
            assert err.code == "unknown_move_type", (name, body, err.detail)
            assert err.extra["move_types"] == list(ruleset.move_types)
