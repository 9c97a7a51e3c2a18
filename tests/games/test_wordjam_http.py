"""Word Jam over HTTP: a game for 6 played end to end through the Flask test client.

Human seats make random legal moves built from ``GET /actions`` (words that pass the engine's
checks, taken from the bots' word list or made up; bets, sides, challenges, votes, passes), bot
seats (``wordsmith``, ``random``) are played by the engine, and the fake clock makes the windows'
deadlines (the ruleset's options ``think_seconds``…) pass. After every move every human seat's
and the spectator's view and feed are checked against the stored state: no other seat's bet or
turn-8 side before the reveal, no thief's word before its declaration, no vote before the result,
no token, no deck order. At the end ``GET /score`` is the rules core's score of ``GET /replay``
replayed from the seed.
"""

from __future__ import annotations

import random

import pytest

from impresario_rules.wordjam import WORDJAM
from impresario_rules.wordjam import words as W
from impresario_rules.wordjam.rules import BETS, SIDES, THINK, WINDOW
from impresario_engine.store import GameStore
from service_helpers import assert_problem, auth

from .games_helpers import (SECRET_EVENT_FIELDS, check_wordjam_feed, check_wordjam_view,
                            get_json, replay_core, setup_table, truth, valid_word,
                            wordjam_move, wordjam_secret_words)

SHORT = {"think_seconds": 30, "bet_seconds": 8, "thief_seconds": 12, "challenge_seconds": 5,
         "vote_seconds": 7}
WINDOW_SECONDS = {THINK: "think_seconds", SIDES: "bet_seconds", BETS: "bet_seconds",
                  WINDOW: "thief_seconds", "challenge": "challenge_seconds",
                  "vote": "vote_seconds"}


def _raw_events(redis_client, game_id):
    return GameStore(redis_client).events(game_id)  # from the stream, or its archive


class Observer:
    """Reads every human seat's and the spectator's view and feed (the feed incrementally) and
    checks them against the stored truth."""

    def __init__(self, client, redis_client, table):
        self.client, self.redis, self.table = client, redis_client, table
        self.viewers = [None, *table.humans]
        self.after = {v: 0 for v in self.viewers}
        self.feeds = {v: [] for v in self.viewers}
        self.checks = 0

    def token(self, viewer):
        return None if viewer is None else self.table.tokens[viewer]

    def check(self):
        version, doc = truth(self.redis, self.table.id)
        state = doc["state"]
        secrets = wordjam_secret_words(_raw_events(self.redis, self.table.id))
        for v in self.viewers:
            view = get_json(self.client, self.table.url, self.token(v))
            assert view["version"] == version, "reading a game changed nothing"
            check_wordjam_view(self.table, view, v, state, secrets)
            feed = get_json(self.client, f"{self.table.url}/events?after={self.after[v]}",
                            self.token(v))
            assert [e["seq"] for e in feed["events"]] == list(
                range(self.after[v] + 1, feed["last_seq"] + 1))
            check_wordjam_feed(self.table, feed["events"], v, secrets)
            self.feeds[v] += feed["events"]
            self.after[v] = feed["last_seq"]
            self.checks += 1
        return state


def _check_deadlines(view, clock, opts):
    """Every pending human seat's deadline is when its window opened (a time the clock showed)
    plus the window's option; everyone in one window shares it."""
    phase = view["phase"]
    if phase == "finished":
        return
    seconds = opts[WINDOW_SECONDS[phase]]
    deadlines = {p["deadline"] for p in view["pending"]}
    assert len(deadlines) == 1, view["pending"]
    (deadline,) = deadlines
    assert deadline - seconds in clock.seen and deadline > clock.now, (deadline, seconds)


def _play(client, redis_client, clock, table, rng, expire_rate=0.12, max_steps=600):
    observer = Observer(client, redis_client, table)
    observer.check()
    fired = 0
    moves = 0
    for _ in range(max_steps):
        view = get_json(client, table.url)
        if view["status"] == "finished":
            break
        _check_deadlines(view, clock, table.options)
        humans = [p["seat"] for p in view["pending"] if table.tokens[p["seat"]] is not None]
        assert humans, f"bots never keep a game waiting: {view['pending']}"
        if rng.random() < expire_rate:
            # the window's time runs out: one second early changes nothing, then the defaults
            deadline = view["pending"][0]["deadline"]
            clock.advance(deadline - clock.now - 1)
            again = get_json(client, table.url)
            assert again["version"] == view["version"], "a deadline fired early"
            clock.advance(1)
            after = get_json(client, table.url)
            assert after["version"] == view["version"] + 1, "the due defaults are one write"
            fired += 1
        else:
            seat = rng.choice(humans)
            token = table.tokens[seat]
            actions = get_json(client, f"{table.url}/actions", token)
            assert actions["seat"] == seat and actions["pending"], actions
            assert actions["default"] is not None
            mine = get_json(client, table.url, token)
            move = wordjam_move(actions, mine, rng)
            resp = client.post(f"{table.url}/moves", json=move,
                               headers={**auth(token), "If-Match": f'"{mine["version"]}"'})
            assert resp.status_code == 200, (move, resp.get_data(as_text=True))
            body = resp.get_json()
            assert body["version"] == view["version"] + 1
            moves += 1
        observer.check()
    else:
        raise AssertionError("the game does not end")
    return observer, moves, fired


@pytest.mark.slow
@pytest.mark.parametrize("seed,kinds", [
    (11, [None, "wordsmith", None, "random", None, "wordsmith"]),
    pytest.param(12, [None, None, "random", None, "wordsmith", None], marks=pytest.mark.deep),
])
def test_a_game_for_six_end_to_end(client, redis_client, clock, seed, kinds):
    rng = random.Random(seed)
    # bots at once (bot_seconds 0): this game is about the humans' windows
    table = setup_table(client, "wordjam", kinds, seed, **SHORT, bot_seconds=0)
    table.options = SHORT
    observer, moves, fired = _play(client, redis_client, clock, table, rng)
    assert moves > 10 and fired > 0

    replay = get_json(client, f"{table.url}/replay")
    assert replay["ruleset"] == "wordjam" and replay["options"] == SHORT
    assert replay["bot_seconds"] == 0
    assert replay["bots"] == kinds
    by = {m["by"] for m in replay["moves"]}
    assert {"seat", "bot", "deadline"} <= by, by
    state = replay_core(table, replay)
    score = get_json(client, f"{table.url}/score")
    assert score == {"ruleset": "wordjam", **WORDJAM.score(state)} == replay["score"]
    assert len(state["history"]) >= 8
    for p in score["players"]:
        assert p["total"] == sum(p["lines"].values())
    # the stored game is the replay's
    _, doc = truth(redis_client, table.id)
    assert doc["state"] == state
    # every viewer's feed saw the whole game, turn 8 included, and the same public events
    for v, feed in observer.feeds.items():
        types = [e["type"] for e in feed]
        assert types.count("turn_scored") == len(state["history"])
        assert "sides_chosen" in types and types[-1] == "game_finished"
        assert "deadline_passed" in types
    # an event once sent never changes: each whole feed read again is what was read bit by bit
    for v, feed in observer.feeds.items():
        token = None if v is None else table.tokens[v]
        assert get_json(client, f"{table.url}/events?after=0", token)["events"] == feed
    spectator = observer.feeds[None]
    for v in table.humans:
        mine = observer.feeds[v]
        assert [e["seq"] for e in mine] == [e["seq"] for e in spectator]
        for a, b in zip(mine, spectator):
            secret = SECRET_EVENT_FIELDS.get(a["type"]) if a.get("seat") == v else None
            assert {k: x for k, x in a.items() if k != secret} == b


def test_deadline_of_the_think_window_is_the_option_and_plays_no_call(client, clock,
                                                                       redis_client):
    """Five humans: nobody calls, ``think_seconds`` pass: everyone's default is no_call, the
    turn scores nothing and turn 2 starts; the window's length is the option (Word Jam has no
    ``move_seconds``: it is refused)."""
    start = clock.now
    refused = client.post("/v1/games", json={"ruleset": "wordjam", "players": 5,
                                             "options": {"move_seconds": 5}})
    assert refused.status_code == 422 and refused.get_json()["code"] == "unknown_option"
    assert refused.get_json()["options"] == ["move_seconds"]
    table = setup_table(client, "wordjam", [None] * 5, 3, think_seconds=40)
    view = get_json(client, table.url)
    assert view["phase"] == THINK and view["turn"] == 1
    assert [(p["seat"], p["deadline"]) for p in view["pending"]] == [
        (s, start + 40) for s in range(5)]
    actions = get_json(client, f"{table.url}/actions", table.tokens[2])
    assert actions["default"] == {"type": "no_call"}
    clock.advance(39)
    assert get_json(client, table.url)["turn"] == 1
    clock.advance(1)
    view = get_json(client, table.url)
    assert view["turn"] == 2 and view["phase"] == THINK
    assert view["history"][0]["called"] is False and view["history"][0]["awards"] == []
    feed = get_json(client, f"{table.url}/events")["events"]
    passed = [e for e in feed if e["type"] == "deadline_passed"]
    assert [e["seat"] for e in passed] == [0, 1, 2, 3, 4]
    assert all(e["kinds"] == ["open_sesame", "no_call"] for e in passed)
    # the new window started at the time the old one ran out
    assert {p["deadline"] for p in view["pending"]} == {clock.now + 40}


def test_bots_call_only_inside_the_think_window(client, clock, redis_client):
    """R4: a bot calls at a secret time inside the think window, never after it. Four humans
    and a wordsmith: the bot has not moved at the start; by 80% of the window (the latest a bot
    thinks) it has called or said it has nothing, and nothing else happened in between."""
    table = setup_table(client, "wordjam", [None, None, "wordsmith", None, None], 5,
                        think_seconds=60)
    view = get_json(client, table.url)
    assert view["phase"] == THINK and 2 in [p["seat"] for p in view["pending"]]
    assert view["bot_seconds"] == 20
    deadline = view["pending"][0]["deadline"]
    assert {p["deadline"] for p in view["pending"]} == {deadline}, "the bot shows the window only"
    clock.advance(20)  # bot_seconds 20 (the default): it has moved by now
    view = get_json(client, table.url)
    _, doc = truth(redis_client, table.id)
    assert [m[:1] + m[2:] for m in doc["moves"]] == [[2, "bot"]]
    if doc["moves"][0][1]["type"] == "open_sesame":
        assert view["ali_baba"] == 2 and view["phase"] == "challenge"
    else:
        assert view["turn"] == 1 and view["players"][2]["no_call"] is True


def test_a_bot_thinks_before_it_calls(client, clock, redis_client):
    """Bots think like people: once every human has said no_call, the wordsmith does not answer
    at once but after its secret think time (at least a fifth of bot_seconds, at most all of
    it), applied by whichever request comes next."""
    table = setup_table(client, "wordjam", [None, None, "wordsmith", None, None], 5,
                        think_seconds=60)
    for s in (0, 1, 3, 4):
        resp = client.post(f"{table.url}/moves", json={"type": "no_call"},
                           headers=auth(table.tokens[s]))
        assert resp.status_code == 200
    view = get_json(client, table.url)
    assert [p["seat"] for p in view["pending"]] == [2], "the bot is still thinking"
    clock.advance(0.2 * 20 - 0.01)
    assert [p["seat"] for p in get_json(client, table.url)["pending"]] == [2]
    clock.advance(20)
    view = get_json(client, table.url)
    _, doc = truth(redis_client, table.id)
    assert doc["moves"][-1][0] == 2 and doc["moves"][-1][2] == "bot"
    assert view["ali_baba"] == 2 or view["turn"] == 2


def test_the_race_between_bots_is_not_won_by_seat_number(client, clock, redis_client):
    """All-bot tables: who calls first is decided by the bots' secret think times, so Alì Babà
    is not always seat 0 (before, seat 0 won every race)."""
    alis = []
    for seed in (1, 2):
        table = setup_table(client, "wordjam", ["wordsmith"] * 5, seed)
        for _ in range(600):
            if get_json(client, table.url)["status"] == "finished":
                break
            clock.advance(3)
        _, doc = truth(redis_client, table.id)
        alis += [r["ali_baba"] for r in doc["state"]["history"] if r["called"]]
    assert len(alis) >= 10 and len(set(alis)) >= 3, alis


def test_a_call_after_the_winner_is_409_and_a_bad_word_is_422(client, clock):
    table = setup_table(client, "wordjam", [None] * 5, 21)
    view = get_json(client, table.url)
    rng = random.Random(1)
    style = view["style"]
    check = style["check"]
    w1 = valid_word(view["coins"], view["forbidden"], check, view["used_words"], rng, style["id"])
    bad = "x" + view["forbidden"].lower() + "ab"
    body = assert_problem(client.post(f"{table.url}/moves",
                                      json={"type": "open_sesame", "word": bad},
                                      headers=auth(table.tokens[1])),
                          422, "word_forbidden_consonant")  # checked before the theme
    assert body["reason"] == "forbidden_consonant"
    assert get_json(client, table.url)["version"] == view["version"]
    resp = client.post(f"{table.url}/moves", json={"type": "open_sesame", "word": w1},
                       headers=auth(table.tokens[3]))
    assert resp.status_code == 200
    assert resp.get_json()["game"]["ali_baba"] == 3
    w2 = valid_word(view["coins"], view["forbidden"], check, view["used_words"] + [w1.upper()],
                    rng, style["id"])
    late = assert_problem(client.post(f"{table.url}/moves",
                                      json={"type": "open_sesame", "word": w2},
                                      headers=auth(table.tokens[0])),
                          409, "sesame_already_called")
    assert late["ali_baba"] == 3


# ------------------------------------------------------------------------------ words
#: look-alikes that only a compatibility mapping (NFKD) turns into Latin letters, and other
#: characters a word may not hold
NOT_LATIN = ["Ⓟⓘⓝ", "㍱", "Ｐinguino", "ﬁore", "pingu1no", "cat.", "wow!", "ΠΙΝ", "Ⅻ", "ᵖin",
             "𝐏in", "Dr. Jekyll"]


def _accented(word: str) -> str:
    """``word`` as a name might be written: accents, a typographic apostrophe, a hyphen."""
    out = word.lower().translate(str.maketrans("aeiouc", "àéîõüç"))
    return out[:1].upper() + "’" + out[1:2] + "-" + out[2:] + " "


def _refused(client, table, seat, move, code):
    before = get_json(client, table.url, table.tokens[seat])
    body = assert_problem(client.post(f"{table.url}/moves", json=move,
                                      headers=auth(table.tokens[seat])), 422, code)
    assert get_json(client, table.url, table.tokens[seat]) == before
    return body


def test_a_word_is_written_in_latin_letters_in_a_call_and_a_thief_word(client, clock):
    """Ⓟⓘⓝ was PIN and ㍱ HPA: every word check now refuses what is not a Latin letter
    (accented or not), a space, an apostrophe or a hyphen, with word_invalid_characters; the
    length and emptiness checks are the rules' too (not a schema bound)."""
    table = setup_table(client, "wordjam", [None] * 5, 21)
    view = get_json(client, table.url)
    assert view["phase"] == THINK
    for word in NOT_LATIN:
        body = _refused(client, table, 1, {"type": "open_sesame", "word": word},
                        "word_invalid_characters")
        assert body["reason"] == "invalid_characters"
    _refused(client, table, 1, {"type": "open_sesame", "word": ""}, "word_empty")
    _refused(client, table, 1, {"type": "open_sesame", "word": "’ - "}, "word_empty")
    _refused(client, table, 1, {"type": "open_sesame", "word": "a" * 65}, "word_too_long")
    style = view["style"]
    word = valid_word(view["coins"], view["forbidden"], style["check"], view["used_words"],
                      random.Random(3), style["id"])
    written = _accented(word)
    resp = client.post(f"{table.url}/moves", json={"type": "open_sesame", "word": written},
                       headers=auth(table.tokens[1]))
    assert resp.status_code == 200, resp.get_json()
    game = resp.get_json()["game"]
    assert game["ali_word"]["word"] == written and game["used_words"][-1] == W.fold(word)
    for seat in (0, 2, 3, 4):  # the call stands
        assert client.post(f"{table.url}/moves", json={"type": "no_challenge"},
                           headers=auth(table.tokens[seat])).status_code == 200
    assert get_json(client, table.url)["phase"] == BETS
    for seat in (0, 2, 3, 4):
        assert client.post(f"{table.url}/moves", json={"type": "bet", "side": "thieves"},
                           headers=auth(table.tokens[seat])).status_code == 200
    assert get_json(client, table.url)["phase"] == WINDOW
    for word in NOT_LATIN:
        _refused(client, table, 2, {"type": "thief_word", "word": word},
                 "word_invalid_characters")


def test_sides_and_bets_name_their_own_choices(client, clock):
    """A side outside ali_baba / thieves is the rules' invalid_side (the spec lists the two),
    not a schema error."""
    table = setup_table(client, "wordjam", [None] * 5, 21)
    view = get_json(client, table.url)
    word = valid_word(view["coins"], view["forbidden"], view["style"]["check"],
                      view["used_words"], random.Random(3), view["style"]["id"])
    assert client.post(f"{table.url}/moves", json={"type": "open_sesame", "word": word},
                       headers=auth(table.tokens[1])).status_code == 200
    for seat in (0, 2, 3, 4):
        assert client.post(f"{table.url}/moves", json={"type": "no_challenge"},
                           headers=auth(table.tokens[seat])).status_code == 200
    for side in ("nobody", "", "ALI_BABA"):
        _refused(client, table, 0, {"type": "bet", "side": side}, "invalid_side")


# ------------------------------------------------------------------------------ the calculator
VALUE = "/v1/rulesets/wordjam/value"
COINS = {"T": 1, "P": 2, "N": 3, "F": 3}


@pytest.mark.parametrize("word,expected", [
    ("PINGUINO", {"value": 8, "valid": True, "reason": None}),
    ("pinguino", {"value": 8, "valid": True, "reason": None}),
    ("GAZZELLA", {"value": 0, "valid": True, "reason": None}),
    ("Gazzella", {"value": 0, "valid": True, "reason": None}),
    ("GORILLA", {"value": 0, "valid": False, "reason": "forbidden_consonant"}),
    ("COCCODRILLO", {"value": 0, "valid": False, "reason": "forbidden_consonant"}),
    ("ping-uino", {"value": 8, "valid": True, "reason": None}),
    ("Pìngüì’no", {"value": 8, "valid": True, "reason": None}),
])
def test_calculator(client, word, expected):
    resp = client.post(VALUE, json={"word": word, "coins": COINS, "forbidden": "R"})
    assert resp.status_code == 200, resp.get_data(as_text=True)
    assert resp.get_json() == expected


@pytest.mark.parametrize("word", NOT_LATIN)
def test_calculator_refuses_what_is_not_a_word_as_a_move_would(client, word):
    """Ⓟⓘⓝ was worth PIN's coins and ㍱ HPA's; now, as in a game, 422."""
    body = assert_problem(client.post(VALUE, json={"word": word, "coins": {"P": 2, "N": 3,
                                                                           "H": 1}}),
                          422, "word_invalid_characters")
    assert body["reason"] == "invalid_characters"


def test_calculator_refuses_an_empty_or_too_long_word_with_the_rules_codes(client):
    for word, code in [("", "word_empty"), ("- ’", "word_empty"), ("p" * 65, "word_too_long")]:
        assert_problem(client.post(VALUE, json={"word": word, "coins": COINS}), 422, code)


def test_calculator_without_forbidden_consonant(client):
    resp = client.post(VALUE, json={"word": "GORILLA", "coins": COINS})
    assert resp.status_code == 200
    assert resp.get_json() == {"value": 0, "valid": True, "reason": None}


@pytest.mark.parametrize("coins,forbidden", [
    ({"T": 1, "P": 2, "N": 3, "F": 3, "R": 1}, "R"),  # the forbidden consonant earns coins
    ({"A": 1}, "R"),  # a vowel
    ({"T": -1}, "R"),
    ({"T": 100}, "R"),
    ({"T": "1"}, "R"),
    ({"T": 1.5}, "R"),
    ({}, "R"),
    ([["T", 1]], "R"),
    ({"TT": 1}, "R"),
    ({"T": 1}, "A"),
    ({"T": 1}, "RR"),
    ({"T": 1}, 3),
])
def test_calculator_refuses_bad_coins(client, coins, forbidden):
    resp = client.post(VALUE, json={"word": "PINGUINO", "coins": coins, "forbidden": forbidden})
    assert resp.status_code == 422, resp.get_data(as_text=True)
    body = resp.get_json()
    assert resp.mimetype == "application/problem+json"
    assert body["code"] in ("invalid_body", "invalid_coins", "invalid_consonant"), body


def test_calculator_refuses_a_forbidden_consonant_among_the_coins_with_its_code(client):
    resp = client.post(VALUE, json={"word": "PINGUINO", "coins": {**COINS, "R": 2},
                                    "forbidden": "R"})
    assert_problem(resp, 422, "invalid_coins")
