"""Property tests: seeded random Word Jam games for 5–12 players (random schedules of the seats
that may act, random moves including challenges, votes, replaced words and passes), with the
invariants of the rules checked after every move.

``WORDJAM_PROPERTY_GAMES`` sets the number of games per player count (default 6).
"""

from __future__ import annotations

import copy
import json
import os
import random

import orjson
import pytest

from impresario_engine.api.declared import move_schemas
from impresario_engine.api.schemas import VIEW_SCHEMAS
from impresario_rules.base import redact_event
from impresario_rules.wordjam import WORDJAM as WJ
from impresario_rules.wordjam.rules import BETS, VOTE

from wordjam_helpers import service_view

GAMES = int(os.environ.get("WORDJAM_PROPERTY_GAMES", "5"))
MOVE_LOADERS = {k: v() for k, v in move_schemas(WJ).items()}
GAME_SCHEMA = VIEW_SCHEMAS["wordjam"][0]()
SCORE_SCHEMA = VIEW_SCHEMAS["wordjam"][1]()
SECRET_EVENTS = {"bet_placed": {"type", "seat"}, "side_chosen": {"type", "seat"},
                 "word_submitted": {"type", "seat", "final"},
                 "vote_cast": {"type", "seat", "word_id"}}
OTHER = {"ali_baba": "thieves", "thieves": "ali_baba"}


def masked(state, viewer):
    """``state`` with every secret of the other seats replaced by another value: their sealed
    bets, turn 8's sides before the reveal, their words in the window (and after it: a word that
    was never declared stays secret for good), their votes before the result."""
    out = dict(state)
    mine = lambda s: s == viewer  # noqa: E731
    if state["phase"] == BETS and not state["bets_revealed"]:
        out["bets"] = [b if b is None or mine(s) else OTHER[b] for s, b in enumerate(state["bets"])]
    if not state["sides_revealed"]:
        out["sides"] = [b if b is None or mine(s) else OTHER[b]
                        for s, b in enumerate(state["sides"])]
    out["words"] = [w if w is None or mine(s) else w + "X" for s, w in enumerate(state["words"])]
    if state["phase"] == VOTE:
        ch = state["challenge"]
        out["challenge"] = {**ch, "votes": [v if v is None or mine(s) else not v
                                            for s, v in enumerate(ch["votes"])]}
    return out


def random_cave(rng):
    return {"red": [rng.randint(5, 9) for _ in range(8)],
            "yellow": [rng.randint(1, 4) for _ in range(8)]}


def play(n, seed, check=True):
    rng = random.Random(seed * 100 + n)
    options = {"cave": random_cave(rng)} if seed % 2 else None
    state, events = WJ.new_game(n, options, seed)
    cave = state["opts"]["cave"]
    moves = []
    steps = 0
    while not WJ.is_finished(state):
        pending = WJ.pending(state)
        assert pending, "a game in play always waits for someone"
        seat = rng.choice(sorted(pending))
        if rng.random() < 0.15:
            action = WJ.default_action(state, seat)  # as if the window ran out
        else:
            action = WJ.sample_action(state, seat, rng)
        assert WJ.action_space(state, seat)[0]["type"] == pending[seat][0]
        MOVE_LOADERS[action["type"]].load(action)
        before = orjson.dumps(state, option=orjson.OPT_SORT_KEYS) if check else None
        new, evs = WJ.apply(state, seat, action)
        if check:
            assert orjson.dumps(state, option=orjson.OPT_SORT_KEYS) == before, \
                "apply mutated its input"
            assert json.loads(json.dumps(new)) == new
            if steps % 3 == 0:
                for viewer in (None, rng.randrange(n)):
                    view = WJ.view(new, viewer)
                    assert view == WJ.view(masked(new, viewer), viewer), "a secret leaked"
                    if steps % 15 == 0:
                        GAME_SCHEMA.load(service_view(view, "playing"))
            for e in evs:
                if e["type"] in SECRET_EVENTS:
                    assert set(redact_event(e, None)) == SECRET_EVENTS[e["type"]]
                    owner = str(e["seat"])
                    assert set(e["_private"]) == {owner}
                    other = (e["seat"] + 1) % n
                    assert set(redact_event(e, other)) == SECRET_EVENTS[e["type"]]
                else:
                    assert "_private" not in e
        state = new
        events.extend(evs)
        moves.append((seat, action))
        steps += 1
    return state, moves, events, cave


@pytest.mark.slow
@pytest.mark.parametrize("n", range(5, 13))
def test_random_games_keep_the_rules(n):
    for seed in range(GAMES):
        state, moves, events, cave = play(n, seed)
        score = WJ.score(state)
        SCORE_SCHEMA.load({"ruleset": "wordjam", **copy.deepcopy(score)})  # as GET /score sends it
        GAME_SCHEMA.load(service_view(WJ.view(state, 0), "finished"))
        # scores only ever come from the cave: the highest value visible (R1)
        for record in state["history"]:
            col = record["column"] - 1
            assert record["column"] == min(record["turn"], 8)
            reds = [a for a in record["awards"] if a["colour"] == "red"]
            for a in record["awards"]:
                assert a["points"] == max(cave[a["colour"]][:col + 1])
            if record["turn"] == 8:
                assert len(record["awards"]) <= 2 and len(reds) <= 1
            else:
                assert len(reds) == (1 if record["called"] else 0)
            for a in record["awards"]:
                assert a["seat"] in range(n)
        for p in score["players"]:
            assert p["total"] == sum(p["lines"].values())
        totals = [p["total"] for p in score["players"]]
        assert score["winners"] == [s for s, t in enumerate(totals) if t == max(totals)]
        assert len(state["history"]) == 8 + score["extra_turns"]
        assert score["shared"] == (len(score["winners"]) > 1)
        if score["shared"]:
            assert score["extra_turns"] == 3
        # one Alì Babà per called turn, and no word used twice
        assert len(state["used"]) == len(set(state["used"]))
        themes = state["styles_used"] + [state["style"]]
        assert len(themes) == len(set(themes))


def test_same_seed_and_moves_same_game():
    for n, seed in ((5, 1), (9, 2), (12, 3)):
        state, moves, events, _ = play(n, seed, check=False)
        again, evs = WJ.new_game(n, {"cave": random_cave(random.Random(seed * 100 + n))}
                                 if seed % 2 else None, seed)
        for seat, action in moves:
            again, e = WJ.apply(again, seat, copy.deepcopy(action))
            evs.extend(e)
        assert again == state and evs == events


def test_different_seeds_deal_differently():
    deals = {tuple(WJ.new_game(6, None, seed)[0]["coins"]) for seed in range(20)}
    assert len(deals) > 15


def test_bots_finish_games_and_only_make_legal_moves():
    for n in (5, 8, 12):
        for bot in WJ.bot_names:
            state, _ = WJ.new_game(n, None, n)
            rng = random.Random(n)
            while not WJ.is_finished(state):
                seat = rng.choice(sorted(WJ.pending(state)))
                state, _ = WJ.apply(state, seat, WJ.bot_action(state, seat, bot, rng))
            assert WJ.score(state)["winners"]


def test_wordsmith_bets_thieves_with_a_better_word_or_a_better_estimate():
    """Thieves when its own word beats Alì Babà's, or its estimate of the best word another
    seat will find does (by a margin); else it trusts Alì Babà."""
    from impresario_rules.wordjam.bots import MARGIN, others_best, settled_word
    bets = set()
    for seed in range(10):
        state, _ = WJ.new_game(6, None, seed)
        while state["phase"] != BETS and not WJ.is_finished(state):
            seat = min(WJ.pending(state))
            state, _ = WJ.apply(state, seat, WJ.bot_action(state, seat, "wordsmith",
                                                           random.Random(1)))
        if WJ.is_finished(state):
            continue
        for seat in WJ.pending(state):
            move = WJ.bot_action(state, seat, "wordsmith", random.Random(1))
            best = settled_word(WJ.view(state, seat), random.Random(1))
            view = WJ.view(state, seat)
            value = state["ali_word"]["value"]
            others = [s for s in view["participants"] if s not in (seat, state["ali"])]
            beats = (best is not None and best[1] > value
                     or others_best(view, others) > value * MARGIN)
            assert move["side"] == ("thieves" if beats else "ali_baba")
            bets.add(move["side"])
    assert bets == {"thieves", "ali_baba"}


def test_default_moves_are_always_legal_and_windows_are_timed():
    state, _ = WJ.new_game(7, None, 11)
    rng = random.Random(4)
    seen = set()
    while not WJ.is_finished(state):
        pending = WJ.pending(state)
        for seat in pending:
            assert WJ.turn_seconds(state, seat, None) is not None
            key = WJ.turn_key(state, seat)
            assert key is not None
            seen.add(key.split(":")[0])
        assert len({WJ.turn_key(state, s) for s in pending}) == 1  # one window at a time
        seat = rng.choice(sorted(pending))
        state, _ = WJ.apply(state, seat, WJ.default_action(state, seat)
                            if rng.random() < 0.5 else WJ.sample_action(state, seat, rng))
    assert {"think", "sides", "challenge"} <= seen
