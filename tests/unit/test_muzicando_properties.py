"""Property tests: many seeded random hands for 2–8 players, both variants, with the invariants of
the rules checked after every move: cards conserved, every hand ends, scores are the sum of their
lines, hands and the draw pile never reach another viewer, apply never mutates its input, the
state round-trips through JSON, and a game is determined by its seed and moves.

``MUZICANDO_PROPERTY_GAMES`` sets the number of games per configuration (default 4).
"""

from __future__ import annotations

import copy
import json
import os
import random
from collections import Counter

import pytest

from impresario_rules.base import redact_event
from impresario_rules.muzicando import MUZICANDO as M
from impresario_rules.muzicando.cards import DECK

from muzicando_helpers import new_game

GAMES = int(os.environ.get("MUZICANDO_PROPERTY_GAMES", "4"))
CONFIGS = [(2, {}), (3, {}), (4, {"hands": 2}), (4, {"mode": "individual"}),
           (4, {"mode": "individual", "auction": True}), (5, {}), (6, {}), (7, {}),
           (8, {"hands": 8}), (8, {"mode": "individual", "auction": True})]
MAX_MOVES_PER_HAND = 2000


def masked(state, viewer):
    """``state`` with every other seat's hand and the draw pile replaced by other cards."""
    out = dict(state)
    out["held"] = [h if s == viewer else ["violet-sign"] * len(h)
                   for s, h in enumerate(state["held"])]
    out["pile"] = ["red-1"] * len(state["pile"])
    return out


def check_state(state):
    if state["phase"] in ("play",):
        cards = [c for h in state["held"] for c in h] + list(state["pile"])
        cards += [c for _, _, c in state["table"]["cells"]]
        cards += [c for _, _, c in state["table"]["covers"]]
    elif state["phase"] in ("auction", "choose"):
        cards = [c for h in state["held"] for c in h] + list(state["pile"])
    else:
        return
    assert Counter(cards) == Counter(DECK)
    assert json.loads(json.dumps(state)) == state


def check_views(state):
    n = state["n"]
    for viewer in [None, *range(n)]:
        view = M.view(state, viewer)
        assert view == M.view(masked(state, viewer), viewer)
        if viewer is not None:
            assert view["you"]["hand"] == state["held"][viewer]
        else:
            assert "you" not in view
        assert [p["hand_size"] for p in view["players"]] == [len(h) for h in state["held"]]
        text = json.dumps(view)
        assert "pile\": [" not in text


def check_events(events, n):
    for e in events:
        private = e.get("_private")
        if private is None:
            continue
        assert set(private) <= {str(s) for s in range(n)}
        public = redact_event(e, None)
        assert "cards" not in public and "card" not in public
        for viewer in range(n):
            seen = redact_event(e, viewer)
            for key in ("cards", "card"):
                if key in seen:
                    assert str(viewer) in private


def check_score(state):
    score = M.score(state)
    assert len(score["hands"]) == state["hands"]
    for p in score["players"]:
        assert p["total"] == sum(p["lines"].values())
        assert p["total"] == sum(r["points"][p["seat"]] for r in score["hands"])
    for r in score["hands"]:
        assert sorted(p["seat"] for p in r["places"]) == list(range(state["n"]))
        for s in range(state["n"]):
            assert r["points"][s] == (r["place_points"][s] + r["contract_points"][s]
                                      + r["chooser_points"][s])
    for t in score["teams"]:
        assert t["total"] == sum(score["players"][s]["total"] for s in t["seats"])
    assert score["winners"]
    return score


def play_game(n, options, seed, strict=False):
    rng = random.Random(seed)
    state, events = new_game(n, options, seed)
    check_events(events, n)
    moves = []
    hand_moves = 0
    hand = 1
    while not M.is_finished(state):
        check_state(state)
        if strict:
            check_views(state)
        pending = M.pending(state)
        assert len(pending) == 1
        seat = next(iter(pending))
        action = M.sample_action(state, seat, rng)
        assert action["type"] in pending[seat]
        before = copy.deepcopy(state) if strict else None
        new, evs = M.apply(state, seat, action)
        if strict:
            assert state == before
        check_events(evs, n)
        moves.append((seat, action))
        state = new
        hand_moves = hand_moves + 1 if state["hand"] == hand else 0
        hand = state["hand"]
        assert hand_moves < MAX_MOVES_PER_HAND
    check_views(state)
    return state, moves


@pytest.mark.parametrize("n,options", CONFIGS)
def test_random_games_keep_every_invariant(n, options):
    for seed in range(GAMES):
        state, moves = play_game(n, options, 1000 * n + seed, strict=seed == 0)
        check_score(state)


def test_a_game_is_determined_by_its_seed_and_moves():
    state, moves = play_game(5, {}, 77)
    again, _ = new_game(5, {}, 77)
    for seat, action in moves:
        again, _ = M.apply(json.loads(json.dumps(again)), seat, action)
    assert again == state
    other, _ = play_game(5, {}, 78)
    assert other != state


def test_default_actions_are_always_legal_and_finish_games():
    for n, options in CONFIGS[:5]:
        state, _ = new_game(n, options, 9)
        while not M.is_finished(state):
            seat = next(iter(M.pending(state)))
            action = M.default_action(state, seat)
            assert action in M.legal_actions(state, seat)
            state, _ = M.apply(state, seat, action)
        check_score(state)


def test_action_space_matches_the_legal_actions():
    rng = random.Random(5)
    state, _ = new_game(4, {}, 5)
    for _ in range(300):
        if M.is_finished(state):
            break
        seat = next(iter(M.pending(state)))
        legal = M.legal_actions(state, seat)
        described = []
        for space in M.action_space(state, seat):
            t = space["type"]
            if t == "auction_bid":
                described += [{"type": t, "contract": c} for c in space["contracts"]]
            elif t == "choose_layout":
                described += [{"type": t, "layout": x} for x in space["layouts"]]
            elif t == "place":
                described += [{"type": t, "card": e["card"], "x": c["x"], "y": c["y"]}
                              for e in space["cards"] for c in e["cells"]]
            else:
                described.append({"type": t})
        assert sorted(map(json.dumps, described)) == sorted(map(json.dumps, legal))
        for other in range(4):
            if other != seat:
                assert M.action_space(state, other) == [] and M.legal_actions(state, other) == []
        state, _ = M.apply(state, seat, rng.choice(legal))
