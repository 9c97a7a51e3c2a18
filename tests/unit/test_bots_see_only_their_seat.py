"""A bot cannot cheat: every level of every ruleset decides from its seat's view alone.

At decision points of seeded games, the hidden parts of the true state are changed to another
world the seat cannot tell apart (the deck's order, the generator behind future shuffles, the
others' sealed bids and bets, Word Jam's secret sides, words and votes, the cards in the
others' hands): first the test checks the seat's view is indeed the same in both worlds, then
that the bot, given the same random stream, makes the same move in both. A bot that read the state instead of its view would tell them apart.
"""

from __future__ import annotations

import random
from typing import Any, Callable

import pytest

from impresario_rules import RULESETS
from impresario_rules.base import BotRandom

State = dict[str, Any]


def _turandot(state: State, seat: int, rng: random.Random) -> State:
    out = dict(state)
    out["deck"] = rng.sample(state["deck"], len(state["deck"]))
    out["rng"] = rng.getrandbits(64)
    if state["phase"] == "bidding":
        n = state["n"]
        bids = list(state["bids"])
        for s, bid in enumerate(bids):
            if s != seat and bid is not None and bid[0] is not None:
                # another number card: the same count of face-down cards (all a seat sees)
                bids[s] = [rng.choice([k for k in range(1, n + 2) if k != bid[0]] or [bid[0]]),
                           bid[1], bid[2]]
        out["bids"] = bids
    return out


def _wordjam(state: State, seat: int, rng: random.Random) -> State:
    out = dict(state)
    out["styles"] = rng.sample(state["styles"], len(state["styles"]))
    out["rng"] = rng.getrandbits(64)
    flip = {"ali_baba": "thieves", "thieves": "ali_baba"}
    others = [s for s in range(state["n"]) if s != seat]
    if not state["bets_revealed"]:  # the others' sealed bets: the other side each
        out["bets"] = [flip[b] if s in others and b is not None else b
                       for s, b in enumerate(state["bets"])]
    if not state["sides_revealed"]:  # turn 8's secret sides
        out["sides"] = [flip[b] if s in others and b is not None else b
                        for s, b in enumerate(state["sides"])]
    # the words the others submitted in the window: another word each
    out["words"] = [w + "A" if s in others and w is not None else w
                    for s, w in enumerate(state["words"])]
    ch = state["challenge"]
    if ch is not None:  # the others' votes on a challenged word
        out["challenge"] = {**ch, "votes": [not v if s in others and v is not None else v
                                            for s, v in enumerate(ch["votes"])]}
    return out


def _muzicando(state: State, seat: int, rng: random.Random) -> State:
    out = dict(state)
    out["pile"] = rng.sample(state["pile"], len(state["pile"]))
    out["rng"] = rng.getrandbits(64)
    held = [list(h) for h in state["held"]]
    others = [s for s in range(state["n"]) if s != seat and held[s]]
    if len(others) >= 2:
        # the others' cards dealt again among them, each keeping how many it holds
        pool = [c for s in others for c in held[s]]
        rng.shuffle(pool)
        for s in others:
            k = len(held[s])
            held[s], pool = sorted(pool[:k]), pool[k:]
        out["held"] = held
    return out


HIDE: dict[str, Callable[[State, int, random.Random], State]] = {
    "turandot": _turandot, "wordjam": _wordjam, "muzicando": _muzicando}
TABLES = {"turandot": (4, 3, 2), "wordjam": (5,), "muzicando": (4, 3)}
#: decisions checked per ruleset and level (the hard bot searches: fewer)
DECISIONS = {"hard": 24}


def _cases():
    for name, ruleset in RULESETS.items():
        for level in ruleset.bot_names:
            yield pytest.param(name, level, id=f"{name}-{level}")


@pytest.mark.parametrize("ruleset_name,level", list(_cases()))
def test_a_bot_decides_the_same_in_worlds_its_seat_cannot_tell_apart(ruleset_name, level):
    ruleset = RULESETS[ruleset_name]
    wanted = DECISIONS.get(level, 80)
    checked = changed_worlds = 0
    for game in range(40):
        players = TABLES[ruleset_name][game % len(TABLES[ruleset_name])]
        state, _ = ruleset.new_game(players, None, 700 + game)
        mover = random.Random(game)
        worlds = random.Random(10_000 + game)
        step = 0
        while not ruleset.is_finished(state) and checked < wanted:
            pending = ruleset.pending(state)
            seat = min(pending)
            if step % 3 == 0:
                other = HIDE[ruleset_name](state, seat, worlds)
                assert ruleset.view(other, seat) == ruleset.view(state, seat), \
                    "the changed world must look the same from the seat"
                changed_worlds += other != state
                here = ruleset.bot_action(state, seat, level, BotRandom("s", step, seat))
                there = ruleset.bot_action(other, seat, level, BotRandom("s", step, seat))
                assert here == there, (f"{level} bot of seat {seat} chose {here} in one world "
                                       f"and {there} in another its seat cannot tell apart")
                checked += 1
            state, _ = ruleset.apply(state, seat, ruleset.sample_action(state, seat, mover))
            step += 1
        if checked >= wanted:
            break
    assert checked >= wanted
    assert changed_worlds >= wanted // 2, "the hidden parts must really have changed"
