"""Property test: thousands of seeded random games (2–5 players), with the invariants of the rules
checked after every move.

``TURANDOT_PROPERTY_GAMES`` sets the number of games (default 2000, a quarter per player count).
"""

from __future__ import annotations

import json
import os
import random
from collections import Counter

import pytest

from impresario_rules.base import Refusal, redact_event
from impresario_rules.turandot import TURANDOT as T
from impresario_rules.turandot.cards import DIRECTORS
from impresario_rules.turandot.rules import helpers_for
from impresario_rules.turandot.scoring import LINES

GAMES = int(os.environ.get("TURANDOT_PROPERTY_GAMES", "2000"))
PUBLIC_BID_EVENT = {"type", "round", "seat", "face_down"}


def canonical(bid):
    """Another sealed bid with the same number of face-down cards (what others may know)."""
    count = (bid[0] is not None) + bid[1] + bid[2]
    alt = [1, 0, False] if count == 1 else [2, count - 2, True]
    if alt == bid:
        alt = [None, 1, False] if count == 1 else [3, count - 1, False]
    return alt


def masked(state, viewer):
    """``state`` with every sealed bid but ``viewer``'s replaced by another of the same count."""
    out = dict(state)
    out["bids"] = [b if b is None or s == viewer else canonical(b)
                   for s, b in enumerate(state["bids"])]
    return out


class Ledger:
    """What the events say happened, to check the state against."""

    def __init__(self, state):
        n = state["n"]
        self.n = n
        self.singers = Counter(state["deck"] + state["table"])
        assert len(self.singers) == 6 * (n + 1) and max(self.singers.values()) == 1
        self.discarded: list[str] = []
        self.spent = [0] * n
        self.helpers = [0] * n
        self.catalogue = set(T.catalogue(state).singers)

    def record(self, events):
        for e in events:
            t = e["type"]
            if t == "card_discarded":
                self.discarded.append(e["card"])
            elif t == "hired":
                self.spent[e["seat"]] += e["money_spent"]
            elif t == "helper_hired":
                self.helpers[e["seat"]] += 1

    def check(self, state):
        n = self.n
        # every singer dealt is in exactly one place
        places = list(state["deck"])
        places += [c for c in state["table"] if c in self.catalogue]
        for hand in state["singers"]:
            places += hand
        if state["dummy"] is not None:
            places += state["dummy"]["singers"]
        places += [c for c in self.discarded if c in self.catalogue]
        assert Counter(places) == self.singers
        # and every director too
        directors = list(state["pile"]) + [d for _, d in state["fired"]] + list(state["removed"])
        directors += [c for c in state["table"] if c in DIRECTORS]
        directors += [d for d in state["director"] if d is not None]
        if state["dummy"] is not None and state["dummy"]["director"]:
            directors.append(state["dummy"]["director"])
        directors += [c for c in self.discarded if c in DIRECTORS]
        assert Counter(directors) == Counter(DIRECTORS)
        # money: 3 − spent on wins − stage elements, never negative
        for s in range(n):
            assert state["stage"][s] == self.helpers[s]
            assert state["money"][s] == 3 - self.spent[s] - state["stage"][s]
            assert state["money"][s] >= 0


def check_reveal(state_before, state, events):
    """The hiring phase, recomputed from the revealed bids."""
    n, maestro, rnd = state_before["n"], state_before["maestro"], state_before["round"]
    (reveal,) = [e for e in events if e["type"] == "bids_revealed"]
    bids = {b["seat"]: b for b in reveal["bids"]}
    order = [(maestro + i) % n for i in range(1, n + 1)]
    winners = {}
    for slot in range(1, n + 2):
        on = [s for s in order if bids[s]["slot"] == slot]
        if on:
            top = max(bids[s]["money"] for s in on)
            leaders = [s for s in on if bids[s]["money"] == top]
            if len(leaders) == 1:
                winners[leaders[0]] = (slot, top)
    got = {e["seat"]: (e["slot"], e["money_spent"]) for e in events
           if e["type"] == "hired" and e["by"] == "bid"}
    assert got == winners
    helper_bidders = [s for s in order if bids[s]["slot"] is None]
    assert maestro not in helper_bidders
    if rnd == 4:
        assert not helper_bidders
    hired_helpers = [e["seat"] for e in events if e["type"] == "helper_hired"]
    assert hired_helpers == helper_bidders[: helpers_for(n)]
    waiting = [s for s in order if s not in winners]
    office = [e for e in events if e["type"] == "office_pending"]
    if waiting:
        assert office[0]["seats"] == waiting and state["waiting"] == waiting
    else:
        assert not office


def check_secrecy(state, events, seat):
    n = state["n"]
    for e in events:
        if e["type"] == "bid_committed":
            for viewer in [None, *range(n)]:
                seen = redact_event(e, viewer)
                if viewer == seat:
                    assert set(seen) == PUBLIC_BID_EVENT | {"bid"}
                else:
                    assert set(seen) == PUBLIC_BID_EVENT
        elif e["type"] != "bids_revealed":
            assert "_private" not in e
    if state["phase"] == "bidding":
        for viewer in [None, *range(n)]:
            assert T.view(state, viewer) == T.view(masked(state, viewer), viewer)


def illegal_moves(state, seat, rng):
    """A few moves the rules refuse now: (seat, move, the code it must be refused with)."""
    n, phase = state["n"], state["phase"]
    out = [(seat, {"type": "bid", "slot": rng.choice([0, n + 2, -3]), "money": 0, "bluff": False},
            "slot_out_of_range" if phase == "bidding" and state["bids"][seat] is None
            else None)]
    if phase == "bidding":
        for other, b in enumerate(state["bids"]):
            if b is not None:
                alt = canonical(b)
                out.append((other, {"type": "bid", "slot": alt[0], "money": alt[1],
                                    "bluff": alt[2]},
                            "bid_already_committed" if alt[1] <= 3 else "invalid_move"))
                out.append((other, {"type": "bid", "slot": b[0], "money": b[1],
                                    "bluff": not b[2]}, "bid_already_committed"))
        if state["bids"][seat] is None:
            more = state["money"][seat] + 1  # 4 is more than anyone holds: malformed
            out.append((seat, {"type": "bid", "slot": 1, "money": more, "bluff": False},
                        "not_enough_money" if more <= 3 else "invalid_move"))
            out.append((seat, {"type": "bid", "slot": None, "money": 0, "bluff": True},
                        "empty_bid"))
    else:
        out.append((seat, {"type": "bid", "slot": 1, "money": 0, "bluff": False},
                    "not_bidding_phase"))
    if phase == "office":
        waiting = state["waiting"]
        if len(waiting) > 1:
            out.append((seat, {"type": "assign_office",
                               "assignments": [{"seat": s, "slot": 1} for s in waiting]},
                        "duplicate_slot"))
        out.append((seat, {"type": "assign_office", "assignments": []}, "invalid_move"))
    if phase == "nominate":
        out.append((seat, {"type": "nominate", "seat": state["maestro"]},
                    "cannot_nominate_self"))
    if phase == "fire":
        gone = [d for d in DIRECTORS if d not in state["pile"]]
        if gone:
            out.append((seat, {"type": "fire_director", "director": gone[0]},
                        "director_not_in_pile"))
    if phase == "casting":
        other = (seat + 1) % n
        out.append((seat, {"type": "cast", "roles": state["singers"][other]},
                    "not_a_permutation"))
    return out


def play_checked(n, seed):
    rng = random.Random(seed * 7919 + n)
    options = {"first_maestro": rng.choice(["random", 0, n - 1])}
    state, events = T.new_game(n, options, seed)
    ledger = Ledger(state)
    ledger.record(events)
    ledger.check(state)
    moves = []
    illegal_tried = 0
    while not T.is_finished(state):
        pending = T.pending(state)
        seat = rng.choice(sorted(pending))
        # sometimes try a move the rules refuse: it must change nothing
        if rng.random() < 0.2:
            candidates = illegal_moves(state, seat, rng)
            actor, action, code = rng.choice(candidates)
            snapshot = json.dumps(state, sort_keys=True)
            with pytest.raises(Refusal) as info:
                T.apply(state, actor, action)
            if code is not None:
                assert info.value.code == code, (action, info.value.code)
            assert json.dumps(state, sort_keys=True) == snapshot
            illegal_tried += 1
        action = T.sample_action(state, seat, rng)
        if action["type"] == "cast" and rng.random() < 0.5:
            action = {"type": "cast", "roles": None}
        before = state
        state, evs = T.apply(state, seat, action)
        moves.append((seat, action))
        ledger.record(evs)
        ledger.check(state)
        revealed = any(e["type"] == "bids_revealed" for e in evs)
        if action["type"] == "bid":
            # the reveal comes with the last bid, never before
            others = before["bids"][:seat] + before["bids"][seat + 1:]
            assert revealed == all(b is not None for b in others)
        else:
            assert not revealed
        if revealed:
            check_reveal(before, state, evs)
        check_secrecy(state, evs, seat)
        assert json.loads(json.dumps(state)) == state
        # the round's maestro is the first one, moved left once per round
        if state["phase"] != "finished":
            assert state["maestro"] == (state["first_maestro"] + min(state["round"], 7) - 1) % n
        events.extend(evs)
    return state, moves, events, illegal_tried


def check_end(state):
    n = state["n"]
    assert all(len(s) == 6 and len(set(s)) == 6 for s in state["singers"])
    assert all(d in DIRECTORS for d in state["director"])
    assert len(state["fired"]) == 3
    if state["dummy"] is not None:
        assert len(state["dummy"]["singers"]) == 6 and state["dummy"]["director"] in DIRECTORS
    result = T.score(state)
    lines_of = [p["lines"] for p in result["players"]]
    for p in result["players"]:
        assert set(p["lines"]) == set(LINES)
        assert p["total"] == sum(p["lines"].values())
        assert sorted(p["cast"]) == sorted(state["singers"][p["seat"]])
        assert p["lines"]["puccini"] == (-1 if n == 2 and p["seat"] == state["first_maestro"]
                                         else 0)
    totals = [p["total"] for p in result["players"]]
    best = max(totals)
    if result["dummy"] is not None:
        d = result["dummy"]
        assert d["total"] == sum(d["lines"].values())
        assert d["cast"] == state["dummy"]["singers"] and d["lines"]["stage_elements"] == 0
        assert result["dummy_wins"] == (d["total"] > best)
    else:
        assert result["dummy_wins"] is False
    if result["dummy_wins"]:
        assert result["winners"] == []
    else:
        top = [s for s in range(n) if totals[s] == best]
        stars = max(lines_of[s]["stars"] for s in top)
        assert result["winners"] == [s for s in top if lines_of[s]["stars"] == stars]


@pytest.mark.slow
@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_random_games_keep_every_invariant(n):
    games = max(1, GAMES // 4)
    illegal = 0
    for i in range(games):
        seed = 1000 * n + i
        state, moves, events, tried = play_checked(n, seed)
        illegal += tried
        check_end(state)
        # replaying the same seed and moves gives the identical final state and events
        rng = random.Random(seed * 7919 + n)
        options = {"first_maestro": rng.choice(["random", 0, n - 1])}
        replay, replay_events = T.new_game(n, options, seed)
        for seat, action in moves:
            replay, evs = T.apply(replay, seat, action)
            replay_events.extend(evs)
        assert replay == state
        assert replay_events == events
    assert illegal > games  # the illegal-move check really ran
