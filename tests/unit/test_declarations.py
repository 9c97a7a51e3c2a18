"""What the rules declare is what they do: over random games of every ruleset, every view (each
seat's and the spectator's), every event as each viewer gets it, every action space, every
default move and random move, and every score is exactly what the ruleset's declarations say
(no field missing, none undeclared, every type, range and set respected); every declared event
and action space occurs; and a malformed move is refused with ``invalid_move`` naming the field.
"""

from __future__ import annotations

import random

import pytest

from impresario_rules import RULESETS
from impresario_rules.base import redact_event
from impresario_rules.declare import (MISSING, Field, Int, List, Shape, Str, by_type, problem,
                                      shape_problem)
from impresario_rules.play import play_random_game
from impresario_rules.wordjam.words import WORD_PATTERN, word_pattern

#: tables played per ruleset: enough of them, with the default moves mixed in, that every
#: declared event and action space occurs
TABLES = {"turandot": [(2, {}), (3, {"first_maestro": "random"}), (5, {}), (3, {}), (2, {}),
                       (3, {})],
          "wordjam": [(5, {}), (6, {"dictionary": True}), (7, {}), (5, {}), (6, {})],
          "muzicando": [(4, {"hands": 4}), (3, {}), (8, {"auction": True, "hands": 8}),
                        (2, {"hands": 6}), (5, {}), (4, {"hands": 6})]}


def conforms(shape: Shape, value: dict, what: str) -> None:
    found = shape_problem(shape, value, enforce_judged=True)
    assert found is None, f"{what}: {found}\n{value}"


def walk(name: str, players: int, options: dict, seed: int):
    """Every state of a game of ``name`` with the events that led to it: random moves, and
    (half the time) the defaults a passing deadline plays, which lead where random play
    seldom goes (nobody calls, the auction's first calls all pass, ties)."""
    rules = RULESETS[name]
    rng = random.Random(seed)
    state, events = rules.new_game(players, options, seed)
    yield state, events
    while not rules.is_finished(state):
        seat = rng.choice(sorted(rules.pending(state)))
        move = (rules.default_action(state, seat) if rng.random() < 0.5
                else _biased(rules, state, seat, rng))
        state, events = rules.apply(state, seat, move)
        yield state, events


def _biased(rules, state, seat, rng):
    """A random move, with Turandot's money-only helper bids made often (so that more seats
    ask for a helper than there are helpers)."""
    for space in rules.action_space(state, seat):
        if space["type"] == "bid" and space["helper"] and rng.random() < 0.5:
            return {"type": "bid", "slot": None, "money": 1, "bluff": False}
    return rules.sample_action(state, seat, rng)


#: events random play hardly ever reaches: each has a scenario of its own below
RARE = {"turandot": {"helper_missed"},
        "wordjam": {"extra_turn", "nobody_called", "declaration_voided"},
        "muzicando": {"redeal", "dealer_must_bid"}}


def events_conform(name: str, events: list[dict], players: int) -> set[str]:
    """Hold each event, as every viewer gets it, to its declaration; the types seen."""
    shapes = by_type(RULESETS[name].declarations.events)
    for event in events:
        shape = shapes.get(event["type"])
        assert shape is not None, f"{name}: undeclared event {event['type']}"
        for viewer in [None, *range(players)]:
            conforms(shape, redact_event(event, viewer), f"{name} event for {viewer}")
    return {e["type"] for e in events}


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_views_events_spaces_moves_and_scores_are_as_declared(name):
    rules = RULESETS[name]
    declared = rules.declarations
    events_by_type = by_type(declared.events)
    spaces_by_type = by_type(declared.spaces)
    seen_events: set[str] = set()
    seen_spaces: set[str] = set()
    for seed, (players, options) in enumerate(TABLES[name]):
        state = None
        for i, (state, events) in enumerate(walk(name, players, options, seed)):
            if i % 3 == 0:  # every viewer's view of every third state
                for viewer in [None, *range(players)]:
                    conforms(declared.view, rules.view(state, viewer),
                             f"{name} view of {viewer}")
            seen_events |= events_conform(name, events, players)
            for seat, kinds in rules.pending(state).items():
                for entry in rules.action_space(state, seat):
                    shape = spaces_by_type.get(entry["type"])
                    assert shape is not None, f"{name}: undeclared action space {entry['type']}"
                    seen_spaces.add(entry["type"])
                    conforms(shape, entry, f"{name} action space")
                for move in (rules.default_action(state, seat),
                             rules.sample_action(state, seat, random.Random(seat))):
                    assert rules.prepare(move) == move, move  # well formed, defaults in
        conforms(declared.score, rules.score(state), f"{name} score")
    assert seen_events | RARE[name] == set(events_by_type), set(events_by_type) ^ seen_events
    assert seen_spaces == set(spaces_by_type), set(spaces_by_type) ^ seen_spaces


def test_the_rare_events_are_as_declared_too():
    import copy

    import muzicando_helpers as mh
    import turandot_helpers as th
    import wordjam_helpers as wh

    seen: dict[str, set[str]] = {name: set() for name in RARE}
    # Turandot: two money-only bidders for the one helper of a 3-player table
    _, events = th.bids(th.new(3), {0: (1,), 1: (None, 1), 2: (None, 1)})
    seen["turandot"] |= events_conform("turandot", events, 3)
    # Word Jam: a turn nobody calls; a thief's declared word voted down; a tie after turn 8
    state = wh.table(5)
    _, events = wh.play(state, *[(s, wh.NO_CALL) for s in range(5)])
    seen["wordjam"] |= events_conform("wordjam", events, 5)
    state, _ = wh.play(wh.table(5), (0, wh.call("pinguino")))
    state, _ = wh.stand(state)
    state, _ = wh.play(state, *[(s, wh.bet("thieves" if s == 1 else "ali_baba"))
                                for s in range(1, 5)])
    state, events = wh.play(state, (1, wh.word("nonna")))
    state, more = wh.play(state, (2, {"type": "challenge", "word_id": state["challenge"]
                                      ["word_id"]}))
    state, voted = wh.votes(state, [False] * 5)
    seen["wordjam"] |= events_conform("wordjam", events + more + voted, 5)
    tied = copy.deepcopy(wh.table(5, turn=8))
    tied["history"] = [{"turn": 1, "extra_turn": 0, "column": 1, "red": 2, "yellow": 1,
                        "called": True, "style": "animals", "ali_baba": 0, "word": "x",
                        "value": 0, "chief_thief": None, "bets": None, "sides": None,
                        "declarations": [], "awards": [
                            {"seat": s, "colour": "red", "points": 7, "role": "ali_baba"}
                            for s in (0, 1)]}]
    tied, _ = wh.play(tied, *[(s, wh.side("ali_baba")) for s in range(5)])
    _, events = wh.play(tied, *[(s, wh.NO_CALL) for s in range(5)])
    seen["wordjam"] |= events_conform("wordjam", events, 5)
    # Muzicando: four passes, then a dealer who can open and then one who cannot
    opener = mh.scenario(mh.new(4, hands=1), held=[["red-1", "orange-2", "yellow-2"]] * 4)
    _, events = mh.play(opener, [(s, mh.NO) for s in range(4)])
    seen["muzicando"] |= events_conform("muzicando", events, 4)
    stuck = mh.scenario(mh.new(4, hands=1), held=[["red-2", "red-3", "orange-3", "blue-7"]]
                        + [["red-1", "orange-2", "yellow-2"]] * 3)
    _, events = mh.play(stuck, [(s, mh.NO) for s in range(4)])
    seen["muzicando"] |= events_conform("muzicando", events, 4)
    for name, rare in RARE.items():
        assert rare <= seen[name], (name, rare - seen[name])


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_every_declared_move_type_is_a_move_the_rules_play(name):
    rules = RULESETS[name]
    assert rules.move_types == tuple(by_type(rules.declarations.moves))
    assert set(rules.move_types) == set(rules.handlers)
    assert {s.fields["type"].enum[0] for s in rules.declarations.spaces} == set(rules.move_types)


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_a_malformed_move_is_refused_naming_its_field(name):
    rules = RULESETS[name]
    state, _ = rules.new_game(rules.min_players if name != "wordjam" else 5, None, 1)
    for shape in rules.declarations.moves:
        kind = shape.fields["type"].enum[0]
        refusal = _refusal(rules, state, {"type": kind, "unknown_field": 1})
        assert refusal.code == "invalid_move" and "unknown_field" in refusal.message
        well_formed = {k: _example(f) for k, f in shape.fields.items()
                       if f.required and f.default is MISSING}
        assert rules.prepare(well_formed), well_formed
        for field_name, f in shape.fields.items():
            if field_name == "type":
                continue
            wrong = [] if f.type != "array" else "not a list"
            refusal = _refusal(rules, state, {**well_formed, field_name: wrong})
            assert refusal.code == "invalid_move", (kind, field_name, refusal.code)
            assert field_name in refusal.message
            assert refusal.field == field_name, (refusal.field, refusal.problem)


def _example(f: Field):
    """A value ``f`` accepts."""
    if f.enum is not None:
        return f.enum[0]
    if f.type == "integer":
        return int(f.minimum or 0)
    if f.type == "string":
        return "S01"
    if f.type == "boolean":
        return True
    if f.type == "array":
        return [_example(f.items)] * (f.min_items or 0)
    if f.type == "object":
        return {k: _example(g) for k, g in f.shape.fields.items() if g.required}
    raise AssertionError(f.type)


def _values(f: Field, odd: list, depth: int = 0) -> list:
    """Values to try for ``f``: odd ones, its enum, its bounds and one past them, and, in a
    list or an object, each of these in an item or a field (two levels deep)."""
    values = odd + list(f.enum or ()) + [f.minimum, f.maximum, _example(f)]
    values += [v + d for v in (f.minimum, f.maximum) if isinstance(v, int) for d in (-1, 1)]
    if depth < 2 and f.type == "array":
        good = _example(f.items)
        size = max(f.min_items or 1, 1)
        values += [[good] * (size - 1) + [v] for v in _values(f.items, odd, depth + 1)]
        values += [[good] * n for n in {0, size - 1, size, size + 1, (f.max_items or 0) + 1}]
    if depth < 2 and f.type == "object" and f.shape is not None:
        good = _example(f)
        values += [{**good, "extra": 1}]
        for k, g in f.shape.fields.items():
            values.append({n: v for n, v in good.items() if n != k})
            values += [{**good, k: v} for v in _values(g, odd, depth + 1)]
    return values


def _refusal(rules, state, move):
    from impresario_rules import Refusal

    with pytest.raises(Refusal) as info:
        rules.apply(state, 0, move)
    return info.value


def test_the_options_each_ruleset_describes_are_its_declared_ones():
    for rules in RULESETS.values():
        described = rules.describe()["options"]
        assert list(described) == list(rules.declarations.options.fields)
        for option in described.values():
            assert option["type"] and option["description"]


def test_the_word_pattern_is_the_one_the_word_characters_give():
    assert WORD_PATTERN == word_pattern()


def test_checks_say_what_is_wrong_in_words():
    slot = Int(minimum=1, maximum=6, nullable=True)
    assert problem(slot, 7, "slot") == "slot must be an integer from 1 to 6 or null"
    assert problem(slot.but(judged=True), 7, "slot") is None
    assert problem(slot.but(judged=True), 7, "slot", enforce_judged=True) is not None
    roles = List(Str(min_length=1, max_length=32), min_items=6, max_items=6)
    assert problem(roles, ["a"] * 5, "roles") == ("roles must be a list of 6 items of strings "
                                                  "of 1 to 32 characters")
    assert problem(Field("boolean"), 1, "bluff") == "bluff must be true or false"
    side = Str(enum=["ali_baba", "thieves"])
    assert problem(side, "alibaba", "side") == "side must be one of 'ali_baba', 'thieves'"


def test_a_turandot_card_is_a_singer_or_a_director_told_apart_by_kind():
    from impresario_rules.turandot.declarations import TABLE_PLACE

    card = TABLE_PLACE.fields["card"]
    singer = {"id": "S04", "kind": "singer", "category": "comic", "sex": "male", "stars": 2,
              "favourite_role": None}
    director = {"id": "neutral", "kind": "director", "effect": "none"}
    assert [problem(card, c, "card") for c in (singer, director, None)] == [None] * 3
    assert problem(card, {**director, "stars": 2}, "card") == "unknown fields of card: ['stars']"
    assert problem(card, {k: v for k, v in singer.items() if k != "stars"},
                   "card") == "card.stars is required"
    for odd in ({**singer, "kind": "helper"}, {**singer, "kind": ["singer"]}, "S04"):
        assert problem(card, odd, "card") == ("card must be an object whose kind is 'singer' or "
                                              "'director' or null")


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_the_written_move_check_agrees_with_the_declaration_field_by_field(name):
    """The function the rules write for each move (its check and defaults in one) accepts
    exactly what the declaration accepts, and fills in exactly its defaults: every field of
    every move type, left out or set to values of every kind, in and out of its bounds."""
    from impresario_rules.declare import preparer, shape_problem, with_defaults

    odd = [None, -1, 0, 1, 2, 7, 10**6, 1.5, "", "x", "S01", True, False, [], [1], {}, {"a": 1}]
    for shape in RULESETS[name].declarations.moves:
        prepare = preparer(shape, known=("type",))
        base = {k: _example(f) for k, f in shape.fields.items()
                if f.required and f.default is MISSING}
        tried = [base, {**base, "extra": 1}, "not an object", None]
        for key, f in shape.fields.items():
            if key == "type":
                continue
            tried.append({k: v for k, v in base.items() if k != key})
            tried += [{**base, key: v} for v in _values(f, odd)]
        for value in tried:
            expected = None if not isinstance(value, dict) or shape_problem(shape, value) \
                else with_defaults(shape, value)
            got = prepare(value)
            assert got == expected, (shape.name, value)
            if got is not None:  # a new dict, its fields in their declared order
                assert got is not value and list(got) == [k for k in shape.fields if k in got]


def _raised_codes(folder) -> dict[str, str]:
    """Every code the modules of ``folder`` raise as a literal: ``{code: refusal class}``."""
    import ast

    found = {}
    for path in sorted(folder.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and node.args \
                    and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
                name = getattr(node.func, "id", getattr(node.func, "attr", None))
                if name in ("IllegalMove", "OutOfTurn", "InvalidOptions"):
                    found[node.args[0].value] = name
            # a move not as declared: its own class, always invalid_move
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "MalformedMove":
                found["invalid_move"] = "IllegalMove"
            # a table of codes returned with their messages (Muzicando's cells)
            if isinstance(node, ast.Return) and isinstance(node.value, ast.Tuple) \
                    and len(node.value.elts) == 2 and isinstance(node.value.elts[0], ast.Constant) \
                    and isinstance(node.value.elts[0].value, str) and path.name == "layouts.py":
                found[node.value.elts[0].value] = "IllegalMove"
    return found


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_every_code_a_ruleset_raises_is_declared(name):
    """A client can list every refusal: each code raised in the ruleset's sources, literal or
    made from a table (a word's reasons, a phase's name, an option's name), is among its
    declared refusals, of the right kind."""
    from pathlib import Path

    import impresario_rules
    from impresario_rules.wordjam import state as wj_state
    from impresario_rules.wordjam import words as W

    rules = RULESETS[name]
    folder = Path(impresario_rules.__file__).parent
    raised = {**_raised_codes(folder), **_raised_codes(folder / name)}
    if name == "wordjam":
        raised.update({f"word_{r}": "IllegalMove" for r in (*W.REASON_TEXT, *wj_state._REASON_TEXT)})
        raised.update({f"invalid_{k}": "InvalidOptions" for k in wj_state.SECONDS_OPTIONS})
    if name == "muzicando":
        raised.update({f"not_{p}_phase": "OutOfTurn" for p in ("auction", "choose", "play")})
    first = {"turandot": "first_maestro", "muzicando": "first_dealer"}.get(name)
    if first:
        raised[f"invalid_{first}"] = "InvalidOptions"
    refusals = rules.refusals
    declared = {*refusals.illegal, *refusals.not_now, *refusals.stale, *refusals.options,
                *refusals.calculator, *refusals.score}
    assert sorted(set(raised) - declared) == []
    for code, kind in raised.items():
        if kind == "IllegalMove":
            assert code in (*refusals.illegal, *refusals.calculator), code
        elif kind == "InvalidOptions":
            assert code in refusals.options, code
        else:
            assert code in (*refusals.not_now, *refusals.stale, *refusals.score), code
    # and nothing declared that is never raised
    assert sorted(declared - set(raised)) == []
