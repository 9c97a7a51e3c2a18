"""Word Jam played as a table of people would expect, through the API (fake clock):

- the cave pays the highest value visible (R1), with a custom cave too;
- bots' choices and think times come from a per-game secret nobody is ever sent;
- a seeded game says so in every view;
- a replay hides the thieves' words nobody heard and still replays exactly, step by step too;
- bots challenge and vote down words their lexicon does not know (a human calling KCKCKCKC
  every turn loses), and the ``dictionary`` option refuses such words outright;
- a bot's move is in the deadline index, so the reaper plays it with nobody looking;
- no bot stalls a game: an easy bot never hands in its word again unchanged, and a bot's move
  that would change nothing gives way to the seat's default.
"""

from __future__ import annotations

import json

import pytest

from impresario_rules.wordjam import WORDJAM
from impresario_engine.usecases import unit
from impresario_engine.usecases.reaper import RETRY_SECONDS, reap_once
from service_helpers import assert_problem, auth

from .games_helpers import (get_json, playable_words as _words, replay_core, setup_table,
                            strings_in, truth)

INDEX = "impresario:deadlines"
CAVE = {"red": [9, 1, 1, 1, 1, 1, 1, 6], "yellow": [5, 0, 0, 0, 0, 0, 0, 0]}


def _move(client, table, seat, move):
    """The seat looks at the game and makes ``move`` (with the version it saw: If-Match)."""
    seen = get_json(client, table.url, table.tokens[seat])["version"]
    resp = client.post(f"{table.url}/moves", json=move,
                       headers={**auth(table.tokens[seat]), "If-Match": f'"{seen}"'})
    assert resp.status_code == 200, (move, resp.get_data(as_text=True))
    return resp.get_json()


def _call_and_trust(client, table, caller=0):
    """``caller`` calls with a valid word, everyone lets it stand and trusts him."""
    view = get_json(client, table.url)
    _move(client, table, caller, {"type": "open_sesame", "word": _words(view)[-1]})
    for s in range(table.players):
        if s != caller:
            _move(client, table, s, {"type": "no_challenge"})
    for s in range(table.players):
        if s != caller:
            _move(client, table, s, {"type": "bet", "side": "ali_baba"})


# ------------------------------------------------------------------ R1
def test_a_custom_cave_pays_the_highest_value_visible(client, clock):
    table = setup_table(client, "wordjam", [None] * 5, 8, cave=CAVE, think_seconds=30)
    for turn in (1, 2):
        _call_and_trust(client, table)
        record = get_json(client, table.url)["history"][turn - 1]
        assert (record["turn"], record["red"], record["yellow"]) == (turn, 9, 5)
        assert {(a["role"], a["points"]) for a in record["awards"]} == {
            ("ali_baba", 9), ("follower", 5)}
    while get_json(client, table.url)["turn"] < 8:  # turns 3-7: nobody calls
        clock.advance(30)
    view = get_json(client, table.url)
    assert view["phase"] == "sides"
    for s in range(5):
        _move(client, table, s, {"type": "choose_side", "side": "ali_baba"})
    view = get_json(client, table.url)
    _move(client, table, 0, {"type": "open_sesame", "word": _words(view)[0]})
    for s in range(1, 5):
        _move(client, table, s, {"type": "no_challenge"})
    for s in range(1, 5):
        _move(client, table, s, {"type": "thief_pass"})
    view = get_json(client, table.url)
    record = view["history"][7]
    assert (record["turn"], record["red"], record["yellow"]) == (8, 9, 5)
    assert record["awards"] == [{"seat": 0, "colour": "red", "points": 9,
                                 "role": "best_ali_baba"}]


# ------------------------------------------------------------------ secrets
def _all_bot_game(client, seed):
    table = setup_table(client, "wordjam", ["wordsmith"] * 5, seed, bot_seconds=0)
    return table, get_json(client, table.url)


def test_bots_choices_come_from_a_secret_nobody_is_sent(client, redis_client):
    """Two all-bot games with the same seed (the same deal and themes, every public fact
    alike) play differently, and the game's secret is in no response about it."""
    (a, view_a), (b, view_b) = _all_bot_game(client, 41), _all_bot_game(client, 41)
    assert view_a["status"] == view_b["status"] == "finished"
    calls = [[(r["turn"], r["ali_baba"], r["word"]) for r in v["history"]]
             for v in (view_a, view_b)]
    assert [r["style"] for r in view_a["history"][:8]] == [
        r["style"] for r in view_b["history"][:8]], "the same deal (extra turns may differ)"
    assert calls[0] != calls[1], "the same public facts gave the same bot words"
    _, doc = truth(redis_client, a.id)
    secret = doc["secret"]
    assert len(secret) >= 32
    texts = [client.get(a.url + path).get_data(as_text=True)
             for path in ("", "/events", "/replay", "/score", "/actions")]
    texts.append(client.get(f"{a.url}?x=1", headers=auth(a.host_token)).get_data(as_text=True))
    assert all(secret not in t for t in texts)
    assert "secret" not in json.loads(texts[2])


# ------------------------------------------------------------------ bots never stall a game
#: a game secret with which, at seed 7 on the fake clock, an easy bot in the word window drew its own word again,
#: not final: a move that changes nothing
STALLING_SECRET = "stall-128"


def test_easy_bots_in_the_word_window_finish_the_game(client, clock, monkeypatch, engine_log):
    """With this secret an easy bot in the word window drew its own word again, not final: a
    move that changed nothing, so the bot was due again at once with the same draw. The game
    stalled for good, and every read of it spent seconds drawing that move 10,000 times. The
    bot makes such a word final: the game is over in the request that took its last seat."""
    monkeypatch.setattr(unit, "new_secret", lambda: STALLING_SECRET)
    table = setup_table(client, "wordjam", ["easy"] * 5, 7, bot_seconds=0)
    view = get_json(client, table.url)
    assert view["status"] == "finished", (view["phase"], view["turn"])
    assert not [r for r in engine_log.records if "changed nothing" in r.getMessage()]


def _stubborn_easy(monkeypatch) -> list[int]:
    """Seats a stubborn bot wherever a table asks for ``easy``: in the word window it always
    hands in its word again (PAROLA the first time), not final; elsewhere it plays as easy.
    Returns the seats it is asked for in the window, as they are asked."""
    easy = WORDJAM.bot_play("easy")
    asked: list[int] = []

    def stubborn(view, actions, rng):
        space = actions["moves"][0]
        if space["type"] != "thief_word":
            return easy(view, actions, rng)
        asked.append(view["you"]["seat"])
        return {"type": "thief_word", "word": space["current"] or "PAROLA", "final": False}

    monkeypatch.setitem(WORDJAM._bots, "easy", stubborn)
    return asked


def test_a_bot_move_that_changes_nothing_gives_way_to_the_seat_default(client, clock,
                                                                     monkeypatch, redis_client,
                                                                     engine_log):
    """A bot of any kind whose move would change nothing (here one that always hands in its
    word again, not final) no longer stalls the game: the engine plays the seat's default
    instead (its word, final), says so in the log, and the game goes on to its end."""
    _stubborn_easy(monkeypatch)
    table = setup_table(client, "wordjam", ["easy"] * 5, 7, bot_seconds=0)
    view = get_json(client, table.url)
    assert view["status"] == "finished", (view["phase"], view["turn"])
    _, doc = truth(redis_client, table.id)
    words = [m for _s, m, _by in doc["moves"] if m["type"] == "thief_word"]
    assert words and all(m["word"] == "PAROLA" for m in words)
    assert [m["final"] for m in words] == [False, True] * (len(words) // 2)
    noted = [r for r in engine_log.records if "changed nothing" in r.getMessage()]
    assert noted and {r.game_id for r in noted} == {table.id}


def test_a_game_nothing_moves_on_waits_a_minute_for_the_reaper(app, client, clock, monkeypatch,
                                                               redis_client):
    """Were the seat's default to change nothing too (a fault of the rules), the game is due
    and nothing moves it: a read stops asking at once, and the reaper counts an error and looks
    at the game again a minute later, not at each of its passes."""
    asked = _stubborn_easy(monkeypatch)
    default = WORDJAM.default_action
    monkeypatch.setattr(WORDJAM, "default_action",
                        lambda state, seat: {"type": "thief_word", "word": "PAROLA",
                                             "final": False} if state["phase"] == "window"
                        else default(state, seat))
    table = setup_table(client, "wordjam", ["easy"] * 5, 7, bot_seconds=0)
    view = get_json(client, table.url)
    assert (view["status"], view["phase"]) == ("playing", "window")
    asked.clear()
    get_json(client, table.url)
    assert len(asked) == 1, "a read asks the bot once, not 10,000 times"
    assert redis_client.zscore(INDEX, table.id) <= clock.now
    report = reap_once(app.extensions["impresario"])
    assert report["errors"] == 1 and report["settled"] == 0
    assert redis_client.zscore(INDEX, table.id) == clock.now + RETRY_SECONDS


def test_a_bots_think_time_is_in_the_deadline_index_and_never_shown(app, client, clock,
                                                                     redis_client):
    table = setup_table(client, "wordjam", [None, None, "wordsmith", None, None], 12,
                        think_seconds=60)
    view = get_json(client, table.url)
    window = {p["deadline"] for p in view["pending"]}
    assert len(window) == 1, "every seat, the bot too, shows the window's deadline"
    planned = redis_client.zscore(INDEX, table.id)
    assert clock.now + 0.2 * 20 <= planned <= clock.now + 20 < window.pop()
    for token in [None, *[t for t in table.tokens if t]]:
        text = client.get(table.url, headers=auth(token)).get_data(as_text=True)
        assert repr(planned) not in text and str(planned) not in text
    before = truth(redis_client, table.id)[1]["moves"]
    clock.now = planned - 0.001
    assert reap_once(app.extensions["impresario"])["settled"] == 0
    clock.now = planned
    report = reap_once(app.extensions["impresario"])
    assert report["settled"] == 1 and report["moves"] == 1
    after = truth(redis_client, table.id)[1]["moves"]
    assert after[:len(before)] == before and after[-1][0] == 2 and after[-1][2] == "bot"


def test_every_view_says_whether_the_game_was_seeded(client):
    seeded = setup_table(client, "wordjam", [None] * 5, 7)
    resp = client.post("/v1/games", json={"ruleset": "wordjam", "players": 5})
    assert resp.status_code == 201 and resp.get_json()["game"]["seeded"] is False
    for token in [None, seeded.host_token, *seeded.tokens]:
        assert get_json(client, seeded.url, token)["seeded"] is True
    for ruleset, players in (("turandot", 2), ("muzicando", 3)):
        resp = client.post("/v1/games", json={"ruleset": ruleset, "players": players, "seed": 1})
        assert resp.get_json()["game"]["seeded"] is True


def test_the_replay_hides_words_nobody_heard_and_still_replays_exactly(client, clock,
                                                                         redis_client):
    table = setup_table(client, "wordjam", [None] * 5, 14, think_seconds=30, bet_seconds=10,
                        thief_seconds=10, challenge_seconds=5, vote_seconds=5)
    view = get_json(client, table.url)
    words = _words(view)
    low, first, chief, after_chief = words[-1], words[1], words[0], words[2]
    _move(client, table, 0, {"type": "open_sesame", "word": low})
    for s in range(1, 5):
        _move(client, table, s, {"type": "no_challenge"})
    for s, side in ((1, "thieves"), (2, "thieves"), (3, "ali_baba"), (4, "ali_baba")):
        _move(client, table, s, {"type": "bet", "side": side})
    _move(client, table, 1, {"type": "thief_word", "word": first})  # replaced: never said
    _move(client, table, 1, {"type": "thief_word", "word": chief, "final": True})
    _move(client, table, 2, {"type": "thief_word", "word": after_chief, "final": True})
    for s in (0, 2, 3, 4):
        _move(client, table, s, {"type": "no_challenge"})
    view = get_json(client, table.url)
    assert view["history"][0]["chief_thief"] == 1 and view["turn"] == 2
    while get_json(client, table.url)["status"] != "finished":  # the rest by deadlines
        clock.advance(30)
    replay = get_json(client, f"{table.url}/replay")
    said = strings_in(replay)
    assert chief in said and low in said
    for secret in (first, after_chief):
        assert secret not in said, secret
    # turn 8: nobody called, so nobody's side was ever revealed: the replay does not say it
    sides = [m for m in replay["moves"] if m["move"]["type"] == "choose_side"]
    assert sides and all(m["move"]["side"] == "ali_baba" for m in sides)
    state = replay_core(table, replay)
    _, doc = truth(redis_client, table.id)
    assert state == doc["state"], "the redacted moves replay to the very same game"
    assert {"ruleset": "wordjam", **WORDJAM.score(state)} == replay["score"] \
        == get_json(client, f"{table.url}/score")
    # a replay viewer's steps show the table as each thief saw it, and still not those words
    styles = set()
    for step in range(len(replay["moves"]) + 1):
        for seat in ("", "?seat=1", "?seat=2"):
            shown = get_json(client, f"{table.url}/replay/{step}{seat}")
            for secret in (first, after_chief):
                assert secret not in strings_in(shown), (step, seat, secret)
            if step and not seat:
                assert shown["move"]["move"] == replay["moves"][step - 1]["move"]
            # what the table saw at the step: the turn's Style card among it
            assert shown["game"]["style"]["name"] and "check" in shown["game"]["style"]
            styles.add((shown["game"]["turn"], shown["game"]["style"]["name"]))
    # the Style card changes with the turn, as it did in play
    assert len({turn for turn, _ in styles}) == len(styles) >= 8


# ------------------------------------------------------------------ the lexicon
def _human_calls_gibberish(client, clock, table, me):
    """Seat ``me`` calls KCKCKCKC (KCKCKCKCKC in turn 2, and so on: never a used word) whenever
    it may (the engine refuses it only when it holds the forbidden consonant or misses the
    theme's length or first letter), lets everything else stand and trusts; the bots think."""
    for _ in range(3000):
        view = get_json(client, table.url, table.tokens[me])
        if view["status"] == "finished":
            return view
        mine = next((p["kinds"] for p in view["pending"] if p["seat"] == me), None)
        if mine is None:
            clock.advance(1)
            continue
        kind = mine[0]
        if kind == "open_sesame":
            resp = client.post(f"{table.url}/moves", json={"type": "open_sesame",
                                                           "word": "KC" * (view["turn"] + 3)},
                               headers={**auth(table.tokens[me]),
                                        "If-Match": f'"{view["version"]}"'})
            if resp.status_code == 200:
                continue
            assert resp.get_json()["code"] in (
                "word_forbidden_consonant", "call_barred", "word_not_eight_letters",
                "word_wrong_first_letter"), resp.get_json()
            move = {"type": "no_call"}
        elif kind == "vote":
            move = {"type": "vote", "in_favour": view["challenge"]["seat"] == me}
        else:
            actions = get_json(client, f"{table.url}/actions", table.tokens[me])
            move = actions["default"]
        _move(client, table, me, move)
    raise AssertionError("the game does not end")


def test_a_human_calling_gibberish_against_five_bots_is_always_voted_down(client, clock,
                                                                              redis_client):
    table = setup_table(client, "wordjam", [None] + ["wordsmith"] * 5, 6, bot_seconds=4)
    view = _human_calls_gibberish(client, clock, table, 0)
    _, doc = truth(redis_client, table.id)
    calls = [m for m in doc["moves"] if m[0] == 0 and m[1]["type"] == "open_sesame"]
    assert calls, "the human got to call"
    assert all(not (r["ali_baba"] == 0 and r["word"].startswith("KCKC"))
               for r in view["history"] if r["called"]), "a gibberish call stood"
    challenged = [m for m in doc["moves"] if m[1]["type"] == "challenge"]
    assert challenged and all(m[2] == "bot" for m in challenged)
    # no red award ever went to the gibberish caller: what he scored, he scored as a follower
    assert all(a["colour"] != "red" for r in view["history"] for a in r["awards"]
               if a["seat"] == 0 and r["ali_baba"] == 0), view["history"]


def test_the_dictionary_option_refuses_words_the_lexicon_does_not_know(client, redis_client):
    resp = client.post("/v1/games", json={"ruleset": "wordjam", "players": 5,
                                          "options": {"dictionary": "yes"}})
    assert_problem(resp, 422, "invalid_dictionary")
    table = setup_table(client, "wordjam", [None] * 5, 6, dictionary=True)
    view = get_json(client, table.url)
    assert view["forbidden"] not in "KC"
    version = view["version"]
    body = assert_problem(client.post(f"{table.url}/moves", json={"type": "open_sesame",
                                                                    "word": "KCKCKCKC"},
                                      headers=auth(table.tokens[1])),
                          422, "word_not_in_dictionary")
    assert body["reason"] == "not_in_dictionary"
    assert get_json(client, table.url)["version"] == version
    word = _words(view)[-1]
    _move(client, table, 1, {"type": "open_sesame", "word": word})
    assert get_json(client, table.url)["ali_baba"] == 1
    # a thief's unknown word is declared invalid, with the reason
    for s in (0, 2, 3, 4):
        _move(client, table, s, {"type": "no_challenge"})
    for s in (0, 2, 3, 4):
        _move(client, table, s, {"type": "bet", "side": "thieves" if s == 2 else "ali_baba"})
    _move(client, table, 2, {"type": "thief_word", "word": "QXQXQX" if "Q" != view["forbidden"]
                             else "JWJWJW", "final": True})
    record = get_json(client, table.url)["history"][0]
    assert record["declarations"][0]["reason"] == "not_in_dictionary"
    assert record["declarations"][0]["outcome"] == "invalid"
    # off by default: the same word is the table's call
    plain = setup_table(client, "wordjam", [None] * 5, 6)
    _move(client, plain, 1, {"type": "open_sesame", "word": "KCKCKCKC"})


@pytest.mark.parametrize("seed", [3, 4, 5])
def test_bots_of_one_table_do_not_all_find_the_same_word(seed):
    """Each bot thinks of its own secret share of the lexicon: at one table, in one turn, the
    five wordsmiths settle on different words (before, they all found the list's best)."""
    from impresario_rules.base import BotRandom
    from impresario_rules.wordjam.bots import settled_word

    state, _ = WORDJAM.new_game(5, None, seed)
    secret = f"secret-{seed}"
    found = [settled_word(WORDJAM.view(state, s), BotRandom(secret, 0, s)) for s in range(5)]
    words = {w for w, _ in filter(None, found)}
    assert len(words) >= 3, found
