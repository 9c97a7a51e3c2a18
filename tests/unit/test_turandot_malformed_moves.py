"""Malformed moves (what a buggy or hostile client may send) are refused with a Refusal and a
stable code — never another exception — and change nothing."""

from __future__ import annotations

import json
import random

import pytest

from impresario_rules.base import KINDS, Refusal
from impresario_rules.turandot import TURANDOT as T

from turandot_helpers import refused

POOL = [None, True, False, 0, -1, 1, 3, 7, 2.5, "", "x", "neutral", "S01", [], [1], {},
        {"seat": 1, "slot": 1}, ["S01"] * 6, [{"seat": 0, "slot": 1}], [{"seat": [0], "slot": 1}]]
KEYS = ["type", "slot", "money", "bluff", "assignments", "seat", "director", "roles"]
TYPES = ["bid", "assign_office", "nominate", "fire_director", "cast"]


@pytest.mark.parametrize("kind", [["bid"], {"bid": 1}, None, 3, True])
def test_a_move_type_that_is_not_a_string_is_unknown(kind):
    state, _ = T.new_game(3, None, 1)
    refused(state, 1, {"type": kind, "slot": 1}, "unknown_move_type", "illegal")


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_random_malformed_moves_raise_only_rules_errors_and_change_nothing(n):
    rng = random.Random(n)
    state, _ = T.new_game(n, None, n)
    while not T.is_finished(state):
        for _ in range(40):
            action = {k: rng.choice(POOL) for k in rng.sample(KEYS, rng.randint(0, 4))}
            if rng.random() < 0.7:
                action["type"] = rng.choice(TYPES)
            seat = rng.choice([*range(n), rng.choice(POOL)])
            snapshot = json.dumps(state, sort_keys=True)
            try:
                T.apply(state, seat, action)
            except Refusal as e:
                assert e.code and e.kind in KINDS
            assert json.dumps(state, sort_keys=True) == snapshot
        seat = min(T.pending(state))
        state, _ = T.apply(state, seat, T.sample_action(state, seat, rng))
