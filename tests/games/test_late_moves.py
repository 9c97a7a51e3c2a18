"""A move is about the situation its sender saw (all rulesets).

The deadlines (and bot moves) that fell due before a move are played first, as they would have
been had anyone been looking; when they changed the sender's situation (the turn, round or hand,
the phase, what the seat must do) or played the seat's own default, the move is refused with
``409 deadline_passed`` naming where the game is now, and only what fell due is saved. With
``If-Match`` a move is refused whenever anything fell due (``412 stale_version`` when the
seat's situation is the same). The fake clock (``clock``) makes time pass without sleeping.
"""

from __future__ import annotations

import random

import pytest

from impresario_rules import RULESETS
from service_helpers import assert_problem, auth

from .games_helpers import get_json, random_legal_move, setup_table, truth

FAST = {"think_seconds": 2, "bet_seconds": 2, "thief_seconds": 2, "challenge_seconds": 2,
        "vote_seconds": 2}


def _post(client, table, seat, move, if_match=None):
    headers = auth(table.tokens[seat])
    if if_match is not None:
        headers["If-Match"] = f'"{if_match}"'
    return client.post(f"{table.url}/moves", json=move, headers=headers)


# ------------------------------------------------------------------ the reproduction
@pytest.mark.parametrize("if_match", [True, False])
def test_a_call_after_the_think_window_never_lands_in_the_next_turn(client, clock, redis_client,
                                                                     if_match):
    table = setup_table(client, "wordjam", [None] * 5, 5000, think_seconds=2)
    view = get_json(client, table.url, table.tokens[0])
    assert (view["turn"], view["phase"], view["version"]) == (1, "think", 6)
    clock.advance(2.5)
    body = assert_problem(_post(client, table, 0, {"type": "open_sesame", "word": "baza"},
                                6 if if_match else None), 409, "deadline_passed")
    # the problem names the new situation, and the version the defaults were saved as
    assert (body["turn"], body["phase"], body["pending"]) == (2, "think",
                                                                ["open_sesame", "no_call"])
    assert body["version"] == 7 and body["default_played"] is True and body["cause"] == "deadline"
    version, doc = truth(redis_client, table.id)
    assert version == 7, "the defaults that fell due are saved, and nothing else"
    state = doc["state"]
    assert state["turn"] == 2 and state["ali"] is None and state["used"] == []
    assert state["history"][0]["called"] is False and state["history"][0]["awards"] == []
    assert [m[2] for m in doc["moves"]] == ["deadline"] * 5
    assert not any(m[2] == "seat" for m in doc["moves"])
    # the caller may now call in turn 2, which she can see
    after = get_json(client, table.url, table.tokens[0])
    assert after["turn"] == 2 and after["version"] == 7


def test_a_call_after_a_bots_call_fell_due_is_refused_as_a_lost_race(client, clock,
                                                                      redis_client):
    """Four bots that think at most 4 s: once that time has passed, one of them has called
    (each knows a third of a large vocabulary), so the human's call is about a think phase
    that is over."""
    table = setup_table(client, "wordjam", [None] + ["wordsmith"] * 4, 5000, bot_seconds=4)
    assert get_json(client, table.url, table.tokens[0])["phase"] == "think"
    clock.advance(4)
    body = assert_problem(_post(client, table, 0, {"type": "open_sesame", "word": "baza"}),
                          409, "deadline_passed")
    assert body["cause"] == "bot" and body["default_played"] is False
    assert "a bot moved first" in body["detail"]
    _, doc = truth(redis_client, table.id)
    assert doc["state"]["ali"] in (1, 2, 3, 4) and not any(m[2] == "seat" for m in doc["moves"])


def test_a_late_no_call_is_not_counted_in_the_next_turn(client, clock, redis_client):
    table = setup_table(client, "wordjam", [None] * 5, 5000, think_seconds=2)
    clock.advance(3)
    assert_problem(_post(client, table, 3, {"type": "no_call"}), 409, "deadline_passed")
    _, doc = truth(redis_client, table.id)
    assert doc["state"]["turn"] == 2 and doc["state"]["passed"] == []


def test_a_bid_after_the_round_resolved_is_refused_not_moved_to_the_next_round(
        client, clock, redis_client):
    """Turandot, 3 players: seats 1 and 2 bid, seat 0 lets its deadline pass and then bids
    without naming the round."""
    table = setup_table(client, "turandot", [None] * 3, 21, first_maestro=2, move_seconds=30)
    for seat, slot in ((1, 1), (2, 2)):
        assert _post(client, table, seat, {"type": "bid", "slot": slot, "money": 0,
                                           "bluff": False}).status_code == 200
    clock.advance(31)
    late = _post(client, table, 0, {"type": "bid", "slot": 3, "money": 1, "bluff": True})
    body = assert_problem(late, 409, "deadline_passed")
    assert body["default_played"] is True
    _, doc = truth(redis_client, table.id)
    assert doc["moves"][-1][2] != "seat" and doc["moves"][2] == [
        0, {"type": "bid", "slot": 1, "money": 0, "bluff": False}, "deadline"]


# ------------------------------------------------------------------ If-Match
def test_if_match_holds_against_the_version_the_sender_saw(client, clock, redis_client):
    """Turandot with a bot seat that thinks up to 10 s: once its bid has fallen due, a human's
    bid based on the version before it is refused with If-Match (412, the new version) and
    accepted without it (its situation, round 1's bidding, did not change)."""
    table = setup_table(client, "turandot", [None, "greedy", None], 3, first_maestro=0,
                        bot_seconds=10)
    view = get_json(client, table.url, table.tokens[0])
    assert view["bot_seconds"] == 10
    assert {p["seat"] for p in view["pending"]} == {0, 1, 2}, "the bot has not bid yet"
    seen = view["version"]
    clock.advance(10)  # the bot's think time is over, though nobody has looked
    bid = {"type": "bid", "slot": 2, "money": 0, "bluff": False}
    body = assert_problem(_post(client, table, 0, bid, seen), 412, "stale_version")
    assert body["version"] == seen + 1
    version, doc = truth(redis_client, table.id)
    assert version == seen + 1 and [m[:1] + m[2:] for m in doc["moves"]] == [[1, "bot"]]
    resp = _post(client, table, 0, bid)
    assert resp.status_code == 200, resp.get_data(as_text=True)
    assert resp.get_json()["version"] == seen + 2
    # an If-Match older than the stored version is refused as before
    body = assert_problem(_post(client, table, 2, bid, seen), 412, "stale_version")
    assert body["version"] == seen + 2


# ------------------------------------------------------------------ property
SETUPS = {
    "turandot": (3, {"move_seconds": 2}),
    "wordjam": (5, FAST),
    "muzicando": (3, {"move_seconds": 2}),
}


#: the engine's allowance after a lapse (``late_move_seconds``, the default)
ALLOWANCE = 2.0


class Lapses:
    """The test's own account of the lapses (the defaults the engine played because a deadline
    passed) and of each seat's situation before the last one that changed it: a move without
    If-Match arriving within ``ALLOWANCE`` of such a lapse must be refused as late."""

    def __init__(self, rules) -> None:
        self.rules = rules
        self.last: dict[int, tuple[float, dict, bool]] = {}  # seat -> (when, seen, own)

    def played(self, before: dict, after: dict, now: float) -> None:
        """Note the lapse a request played: the deadline moves between ``before`` and
        ``after`` (documents read from the store around the request)."""
        lapse = [m for m in after["moves"][len(before["moves"]):] if m[2] == "deadline"]
        if not lapse:
            return
        state = before["state"]
        for seat, move, _ in lapse:
            state, _ = self.rules.apply(state, seat, move)
        for seat in range(before["state"]["n"]):
            was = self.rules.situation(before["state"], seat)
            own = any(m[0] == seat for m in lapse)
            if not own and was == self.rules.situation(state, seat):
                continue
            prior = self.fresh(seat, now)
            self.last[seat] = (now, prior[1] if prior else was, own or bool(prior and prior[2]))

    def fresh(self, seat: int, now: float) -> tuple[float, dict, bool] | None:
        found = self.last.get(seat)
        return found if found is not None and now - found[0] <= ALLOWANCE else None

    def moved(self, seat: int) -> None:
        self.last.pop(seat, None)


@pytest.mark.parametrize("ruleset", sorted(SETUPS))
def test_no_late_move_ever_lands_elsewhere_than_its_sender_saw(client, clock, redis_client,
                                                                ruleset):
    """Random games with 2-second deadlines whose moves are often sent late (up to three
    windows after the view they were chosen from), half of them with If-Match. Each accepted
    move applied to exactly the situation of the sender's last view; each refused one changed
    nothing but the defaults that fell due. A move without If-Match (nor the round or word it
    is for) that arrives within the allowance after a lapse changed its sender's situation is
    refused, whichever request played the lapse: a read, another seat's move, or its own."""
    rules = RULESETS[ruleset]
    players, options = SETUPS[ruleset]
    rng = random.Random(ruleset)
    outcomes = {"applied": 0, "deadline_passed": 0, "stale_version": 0, "other": 0,
                "late_after_a_lapse_someone_else_played": 0}
    for game in range(2):
        table = setup_table(client, ruleset, [None] * players, 100 + game, **options)
        replayed, done = rules.new_game(players, dict(options) if ruleset == "wordjam" else {
            k: v for k, v in options.items() if k != "move_seconds"}, 100 + game)[0], 0
        lapses = Lapses(rules)
        for _ in range(70):
            _, before = truth(redis_client, table.id)
            view = get_json(client, table.url)
            _, after = truth(redis_client, table.id)
            lapses.played(before, after, clock.now)
            if view["status"] == "finished":
                break
            seat = rng.choice([p["seat"] for p in view["pending"]])
            mine = get_json(client, table.url, table.tokens[seat])
            actions = get_json(client, f"{table.url}/actions", table.tokens[seat])
            version, doc = truth(redis_client, table.id)
            assert version == mine["version"]
            seen = rules.situation(doc["state"], seat)
            before = len(doc["moves"])
            move = random_legal_move(ruleset, actions, mine, rng)
            clock.advance(rng.choice([0, 0, 0.5, 1.9, 2.1, 4, 6.5]))
            if_match = version if rng.random() < 0.5 else None
            noted = lapses.fresh(seat, clock.now)
            judged_by_lapse = if_match is None and not rules.names_situation(move) and \
                noted is not None and (noted[2] or seen != noted[1])
            resp = _post(client, table, seat, move, if_match)
            _, posted = truth(redis_client, table.id)
            lapses.played(doc, posted, clock.now)
            mine_now = [i for i, m in enumerate(posted["moves"][before:], before)
                        if m[2] == "seat"]
            if resp.status_code == 200:
                assert not judged_by_lapse, (move, seen, noted)
                (index,) = mine_now
                assert posted["moves"][index][:2] == [seat, move]
                if if_match is not None:
                    assert index == before, "with If-Match nothing may fall due first"
                while done < index:  # the state just before the move
                    s, m, _ = posted["moves"][done]
                    replayed, _ = rules.apply(replayed, s, m)
                    done += 1
                assert rules.situation(replayed, seat) == seen, (move, seen)
                lapses.moved(seat)
                outcomes["applied"] += 1
                continue
            assert mine_now == [], "a refused move is never recorded"
            code = resp.get_json()["code"]
            if code == "deadline_passed":
                body = resp.get_json()
                now = {k: body[k] for k in seen}
                if judged_by_lapse and len(posted["moves"]) == before:
                    outcomes["late_after_a_lapse_someone_else_played"] += 1
                else:
                    assert now != seen or body["default_played"], body
            elif code == "stale_version":
                assert if_match is not None and resp.status_code == 412
            else:
                assert not judged_by_lapse or code == "game_finished", (code, noted)
                code = "other"
            outcomes[code] += 1
    assert outcomes["applied"] > 10 and outcomes["deadline_passed"] > 3, outcomes
    assert outcomes["late_after_a_lapse_someone_else_played"] > 0, outcomes
