"""The Muzicando API schemas accept every view the core produces (for every viewer, with the
fields the service adds), every score and every legal move, and refuse unknown fields."""

from __future__ import annotations

import random

import pytest
from marshmallow import ValidationError

from impresario_engine.api.declared import move_schemas
from impresario_engine.api.schemas import VIEW_SCHEMAS
from impresario_rules.muzicando import MUZICANDO as M

from muzicando_helpers import new_game

GAME = VIEW_SCHEMAS["muzicando"][0]()
SCORE = VIEW_SCHEMAS["muzicando"][1]()
MOVES = {k: v() for k, v in move_schemas(M).items()}


def served(state, viewer):
    """The view as the service sends it (``table/views.py`` adds these fields)."""
    core = M.view(state, viewer)
    for p in core["players"]:
        p["name"] = f"P{p['seat']}"
        p["bot"] = None if p["seat"] else "greedy"
    for entry in core["pending"]:
        entry["deadline"] = None
    return {"id": "g1", "ruleset": "muzicando", "version": 3,
            "status": "finished" if M.is_finished(state) else "playing", "seats_taken": state["n"],
            "seats_total": state["n"], "last_seq": 9, "private": False, "move_seconds": None,
            "bot_seconds": 0, "seeded": True, "rematch": None,
            **core}


@pytest.mark.parametrize("n,options", [(2, {}), (4, {"hands": 1}), (5, {}),
                                       (8, {"mode": "individual", "auction": True})])
def test_views_of_many_random_states_validate_for_every_viewer(n, options):
    rng = random.Random(n)
    for seed in range(2 if n < 5 else 1):
        state, _ = new_game(n, options, seed)
        step = 0
        while True:
            if step % (2 * n) == 0 or M.is_finished(state):
                for viewer in [None, *range(n)]:
                    GAME.load(served(state, viewer))
            if M.is_finished(state):
                SCORE.load({"ruleset": "muzicando", **M.score(state)})  # as GET /score sends it
                break
            seat = next(iter(M.pending(state)))
            for action in M.legal_actions(state, seat)[:20]:
                assert MOVES[action["type"]].load(action) == action
            state, _ = M.apply(state, seat, M.sample_action(state, seat, rng))
            step += 1


def test_unknown_fields_are_refused():
    state, _ = new_game(4, {}, 1)
    view = served(state, 0)
    view["secret"] = 1
    with pytest.raises(ValidationError):
        GAME.load(view)
    view = served(state, 0)
    view["players"][0]["hand"] = []
    with pytest.raises(ValidationError):
        GAME.load(view)
    with pytest.raises(ValidationError):
        MOVES["place"].load({"type": "place", "card": "red-1", "x": 0, "y": 0, "z": 1})


@pytest.mark.parametrize("move", [
    {"type": "auction_bid"},
    {"type": "auction_bid", "contract": 2},
    {"type": "choose_layout", "layout": None},
    {"type": "place", "card": "red-1", "x": "0", "y": 0},
    {"type": "place", "card": "red-1", "x": 0},
    {"type": "pass", "draw": True},
])
def test_malformed_moves_are_refused(move):
    with pytest.raises(ValidationError):
        MOVES[move["type"]].load(move)


@pytest.mark.parametrize("move", [
    {"type": "auction_bid", "contract": "5S"},
    {"type": "choose_layout", "layout": "Sarabanda"},
    {"type": "place", "card": "pink-1", "x": 0, "y": 0},
    {"type": "place", "card": "red-1", "x": 1000, "y": 0},
])
def test_unknown_values_are_left_to_the_rules(move):
    """Contracts, layouts, cards and cells are the rules' to refuse, with their own codes
    (unknown_contract, unknown_layout, unknown_card, the layouts' codes: see
    tests/games/test_errors.py); the schema checks only the shape."""
    assert MOVES[move["type"]].load(move) == move


def test_every_move_schema_names_its_type():
    for kind, schema in MOVES.items():
        assert type(schema).__name__.endswith("MoveSchema")
        with pytest.raises(ValidationError):
            schema.load({"type": "other"})
    assert tuple(MOVES) == M.move_types
