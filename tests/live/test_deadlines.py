"""Move deadlines (option ``move_seconds``, rules R7): when a seat's deadline passes, the engine
plays its default move, lazily, in whichever request touches the game next (a view, the actions,
the feed, a move), in ``POST /resolve``, and in the reaper (``reap_once`` and the real
``python -m impresario_engine reap`` command).

The app's clock is a fake one (``clock`` fixture) except for the reap command's test, which waits
for a real one-second deadline. Every default is checked against R7 as the rules page states it,
computed here from what the view showed before the deadline, not from the engine's own
``default_action``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pytest

from impresario_rules.turandot.cards import DIRECTORS
from impresario_engine.usecases.reaper import reap_once
from .live_helpers import create, doc_of, raw_events, setup_game
from service_helpers import assert_problem, auth

MINUTE = 60
LOWEST_BID = {"type": "bid", "slot": 1, "money": 0, "bluff": False}
INDEX = "impresario:deadlines"


def _view(client, game, token=None):
    resp = client.get(game.url, headers=auth(token))
    assert resp.status_code == 200, resp.get_data(as_text=True)
    return resp.get_json()


def _bid(client, game, seat, slot, money=0, bluff=False):
    resp = client.post(f"{game.url}/moves", headers=auth(game.tokens[seat]),
                       json={"type": "bid", "slot": slot, "money": money, "bluff": bluff})
    assert resp.status_code == 200, resp.get_data(as_text=True)
    return resp.get_json()


# ------------------------------------------------------------------------------ the option
@pytest.mark.parametrize("bad", [0, -1, "5", 10**9, True, 2.5, 7 * 86400 + 1])
def test_invalid_move_seconds_creates_nothing(client, redis_client, bad):
    resp = client.post("/v1/games", json={"ruleset": "turandot", "players": 3, "seed": 1,
                                          "options": {"move_seconds": bad}})
    body = assert_problem(resp, 422, "invalid_move_seconds")
    assert "move_seconds" in body["errors"]["options"]
    assert list(redis_client.scan_iter(match="game:*")) == []
    assert redis_client.zcard(INDEX) == 0


@pytest.mark.parametrize("seconds", [1, 7 * 86400])
def test_move_seconds_bounds_accepted(client, redis_client, seconds):
    created = create(client, players=2, seed=1, move_seconds=seconds)
    assert created["game"]["move_seconds"] == seconds
    assert created["game"]["pending"] == []  # nobody is waiting while seats are open
    doc = doc_of(redis_client, created["game"]["id"])
    # a setting of the service's: the ruleset never sees it
    assert doc["settings"]["move_seconds"] == seconds and "move_seconds" not in doc["options"]


def test_pending_deadlines_are_when_the_turn_began_plus_move_seconds(client, make_game, clock,
                                                                      redis_client):
    start = clock.now
    game = make_game(players=3, seed=2, first_maestro=1, move_seconds=MINUTE)
    view = _view(client, game)
    assert view["move_seconds"] == MINUTE
    assert [(p["seat"], p["deadline"]) for p in view["pending"]] == [
        (s, start + MINUTE) for s in range(3)]
    assert redis_client.zscore(INDEX, game.id) == start + MINUTE
    # a seat that moves later does not reset the others' time
    clock.advance(20)
    _bid(client, game, 0, 2)
    view = _view(client, game)
    assert [(p["seat"], p["deadline"]) for p in view["pending"]] == [
        (1, start + MINUTE), (2, start + MINUTE)]
    doc = doc_of(redis_client, game.id)
    for p in view["pending"]:
        assert p["deadline"] == doc["since"][str(p["seat"])] + MINUTE
    # a game without move_seconds shows no deadline and is not in the reaper's index
    plain = make_game(players=2, seed=2)
    assert [p["deadline"] for p in _view(client, plain)["pending"]] == [None, None]
    assert redis_client.zscore(INDEX, plain.id) is None


# ------------------------------------------------------------------------------ on read
def test_deadline_fires_on_read_with_the_lowest_bid_and_office_hires_in_slot_order(
        client, make_game, clock, redis_client):
    game = make_game(players=4, seed=3, first_maestro=0, move_seconds=MINUTE)
    table = [t["card"]["id"] for t in _view(client, game)["table"]]
    _bid(client, game, 2, slot=3, money=1)  # seat 2 alone on slot 3: it takes that card
    version = _view(client, game)["version"]
    clock.advance(MINUTE - 0.001)
    view = _view(client, game)
    assert view["version"] == version, "nothing is due a moment before the deadline"
    assert [p["seat"] for p in view["pending"]] == [0, 1, 3]
    seq = doc_of(redis_client, game.id)["seq"]

    clock.advance(0.001)  # exactly at the deadline: due
    view = _view(client, game, game.tokens[3])
    assert view["version"] == version + 1, "every due default in one write"
    assert view["phase"] == "office"
    doc = doc_of(redis_client, game.id)
    assert doc["moves"][-3:] == [[s, LOWEST_BID, "deadline"] for s in (0, 1, 3)]
    new = [e for q, e in raw_events(redis_client, game.id) if q > seq]
    assert [e["type"] for e in new] == [
        "deadline_passed", "bid_committed", "deadline_passed", "bid_committed",
        "deadline_passed", "bid_committed", "bids_revealed", "slot_tied", "hired",
        "office_pending"]
    passed = [e for e in new if e["type"] == "deadline_passed"]
    assert passed == [{"type": "deadline_passed", "seat": s, "kinds": ["bid"]} for s in (0, 1, 3)]
    for e in new:
        if e["type"] == "bid_committed":
            assert e["_private"][str(e["seat"])]["bid"] == {"slot": 1, "money": 0, "bluff": False}
            assert e["face_down"] == 1
    # R7: the waiting seats clockwise from the maestro's left get the remaining cards in slot
    # order: seats 1, 3, 0 get slots 1, 2, 4; slot 5 is discarded
    assert view["waiting"] == [1, 3, 0]
    assert view["pending"] == [{"seat": 0, "kinds": ["assign_office"],
                                "deadline": clock.now + MINUTE}]
    seq = doc["seq"]
    clock.advance(MINUTE)
    events = client.get(f"{game.url}/events?after={seq}").get_json()["events"]
    assert events[0] == {"seq": seq + 1, "type": "deadline_passed", "seat": 0,
                         "kinds": ["assign_office"]}
    hired = [(e["seat"], e["slot"], e["card"]) for e in events if e["type"] == "hired"]
    assert hired == [(1, 1, table[0]), (3, 2, table[1]), (0, 4, table[3])]
    assert all(e["by"] == "office" and e["money_spent"] == 0
               for e in events if e["type"] == "hired")
    assert {"type": "card_discarded", "round": 1, "card": table[4]} in [
        {k: v for k, v in e.items() if k != "seq"} for e in events]
    doc = doc_of(redis_client, game.id)
    assert doc["moves"][-1] == [0, {"type": "assign_office", "assignments": [
        {"seat": 1, "slot": 1}, {"seat": 3, "slot": 2}, {"seat": 0, "slot": 4}]}, "deadline"]
    assert doc["state"]["phase"] == "nominate"


def test_a_late_move_gets_the_default_first_and_is_then_refused(client, make_game, clock,
                                                                redis_client):
    game = make_game(players=2, seed=4, first_maestro=0, move_seconds=MINUTE)
    clock.advance(MINUTE)
    late = client.post(f"{game.url}/moves", headers=auth(game.tokens[0]),
                       json={"type": "bid", "slot": 3, "money": 2, "bluff": True})
    # both deadlines had passed: both defaults were played first, which resolved the round;
    # the late bid is refused, naming where the game is now (tests/live/test_late_moves.py)
    body = assert_problem(late, 409, "deadline_passed")
    assert (body["round"], body["phase"], body["default_played"]) == (1, "office", True)
    doc = doc_of(redis_client, game.id)
    assert doc["moves"] == [[0, LOWEST_BID, "deadline"], [1, LOWEST_BID, "deadline"]]
    assert doc["state"]["phase"] == "office"
    types = [e["type"] for _, e in raw_events(redis_client, game.id)]
    assert types.count("deadline_passed") == 2 and "bids_revealed" in types


# ------------------------------------------------------------------------------ resolve
def test_resolve(client, make_game, clock, redis_client):
    game = make_game(players=3, seed=5, first_maestro=2, move_seconds=MINUTE)
    url = f"{game.url}/resolve"
    assert_problem(client.post(url), 401, "missing_token")
    assert_problem(client.post(url, headers=auth(game.host_token)), 409, "nothing_due")
    clock.advance(MINUTE - 1)
    assert_problem(client.post(url, headers=auth(game.tokens[1])), 409, "nothing_due")
    _bid(client, game, 1, slot=2, money=3, bluff=True)
    seq0 = doc_of(redis_client, game.id)["seq"]
    clock.advance(1)
    resp = client.post(url, headers=auth(game.tokens[1]))
    assert resp.status_code == 200, resp.get_data(as_text=True)
    body = resp.get_json()
    assert resp.headers["ETag"] == f'"{body["version"]}"'
    doc = doc_of(redis_client, game.id)
    assert doc["moves"][-2:] == [[0, LOWEST_BID, "deadline"], [2, LOWEST_BID, "deadline"]]
    # the answer is the feed of those writes, as the caller may see it
    first = seq0 + 1
    feed = client.get(f"{game.url}/events?after={first - 1}",
                      headers=auth(game.tokens[1])).get_json()["events"]
    assert body["events"] == feed
    assert [e["seq"] for e in body["events"]] == list(range(first, doc["seq"] + 1))
    assert body["events"][0] == {"seq": first, "type": "deadline_passed", "seat": 0,
                                 "kinds": ["bid"]}
    commits = [e for e in body["events"] if e["type"] == "bid_committed"]
    assert [e["seat"] for e in commits] == [0, 2] and all("bid" not in e for e in commits)
    assert body["game"]["you"]["seat"] == 1
    # resolved: nothing is due any more
    assert_problem(client.post(url, headers=auth(game.host_token)), 409, "nothing_due")


def test_resolve_without_deadlines_or_outside_play(client, make_game, clock):
    plain = make_game(players=2, seed=6)
    clock.advance(10**7)
    body = assert_problem(client.post(f"{plain.url}/resolve", headers=auth(plain.host_token)),
                          409, "nothing_due")
    assert "move_seconds" in body["detail"]
    assert_problem(client.post(f"{plain.url}/resolve", headers=auth("not-a-token")), 401,
                   "invalid_token")
    waiting = make_game(players=3, seed=6, seats=2, move_seconds=5)
    clock.advance(100)
    assert_problem(client.post(f"{waiting.url}/resolve", headers=auth(waiting.host_token)), 409,
                   "game_not_started")
    done = make_game(players=2, seed=6, move_seconds=5)
    while _view(client, done)["status"] != "finished":
        clock.advance(5)
    assert_problem(client.post(f"{done.url}/resolve", headers=auth(done.tokens[0])), 409,
                   "game_finished")


# ------------------------------------------------------------------------------ the reaper
def test_reap_once_settles_due_games_only(app, client, make_game, clock, redis_client):
    service = app.extensions["impresario"]
    due = make_game(players=4, seed=7, first_maestro=0, move_seconds=MINUTE)
    later = make_game(players=2, seed=7, move_seconds=10 * MINUTE)
    plain = make_game(players=2, seed=7)
    assert reap_once(service)["checked"] == 0
    before = {g.id: doc_of(redis_client, g.id) for g in (due, later, plain)}
    clock.advance(MINUTE)
    report = reap_once(service, limit=10)
    assert report["checked"] == 1 and report["settled"] == 1 and report["moves"] == 4
    assert report["errors"] == 0 and report["missing"] == 0
    doc = doc_of(redis_client, due.id)
    assert doc["moves"] == [[s, LOWEST_BID, "deadline"] for s in range(4)]
    assert doc["state"]["phase"] == "office"
    # the index now holds the maestro's new deadline
    assert redis_client.zscore(INDEX, due.id) == clock.now + MINUTE
    for g in (later, plain):
        assert doc_of(redis_client, g.id) == before[g.id]
    # a second pass at the same time finds nothing due
    assert reap_once(service)["settled"] == 0
    # a game that is gone is dropped from the index
    redis_client.delete(f"game:{{{later.id}}}")
    clock.advance(10 * MINUTE)
    report = reap_once(service)
    assert report["missing"] == 1 and redis_client.zscore(INDEX, later.id) is None


def test_reap_command_applies_a_real_deadline(app_factory, tmp_path):
    """The real command, as the reaper's pod runs it (one pass), on a game whose 1-second
    deadline passed. On a Redis of its own: the session's has the test servers' reapers."""
    import redis

    from impresario_engine.store.embedded import EmbeddedRedis

    with EmbeddedRedis(tmp_path / "redis", appendonly=False) as own:
        _reap_a_real_deadline(app_factory(redis_url=own.url).test_client(), own.url,
                              redis.Redis.from_url(own.url))


def _reap_a_real_deadline(client, redis_url: str, redis_client) -> None:
    created = client.post("/v1/games", json={
        "ruleset": "turandot", "players": 4, "seed": 8,
        "options": {"first_maestro": 0, "move_seconds": 1}}).get_json()
    gid = created["game"]["id"]
    for i in range(4):
        assert client.post(f"/v1/games/{gid}/seats", json={"name": f"P{i}"}).status_code == 201
    time.sleep(1.2)
    assert doc_of(redis_client, gid)["moves"] == [], "nothing applies a deadline by itself"
    env = dict(os.environ, REDIS_URL=redis_url)
    done = subprocess.run([sys.executable, "-m", "impresario_engine", "reap", "--limit", "50"],
                          env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["checked"] == 1 and report["settled"] == 1 and report["moves"] == 4, report
    assert report["errors"] == 0
    doc = doc_of(redis_client, gid)
    assert doc["moves"] == [[s, LOWEST_BID, "deadline"] for s in range(4)]
    assert doc["state"]["phase"] == "office"  # all four on slot 1: a tie, office hires
    types = [e["type"] for _, e in raw_events(redis_client, gid)]
    assert types.count("deadline_passed") == 4 and "bids_revealed" in types


def test_the_reap_loop_plays_a_hard_bot_at_a_lower_cpu_priority(client, redis_url,
                                                                 redis_client):
    """``reap --loop`` (as ``make run`` and the reaper's pod run it) lowers its own CPU
    priority (``--nice``, 10 by default), so on a machine it shares with the engine the
    players' requests come before the searches; and it plays a ``hard`` bot's move by itself
    once its think time is over."""
    created, tokens = setup_game(client, [None, "hard"], seed=11)
    gid = created["game"]["id"]
    env = dict(os.environ, REDIS_URL=redis_url)
    reaper = subprocess.Popen([sys.executable, "-m", "impresario_engine", "reap", "--loop", "1",
                               "--quiet"], env=env, stdout=subprocess.DEVNULL)
    try:
        moves: list = []
        for _ in range(300):  # the bot thinks at least SEARCH_SECONDS (1 s), then searches
            moves = doc_of(redis_client, gid)["moves"]
            if moves:
                break
            time.sleep(0.05)
        # the reaper lowers its priority as it starts (another reaper on this Redis may have
        # played the move before this one got that far)
        for _ in range(200):
            stat = open(f"/proc/{reaper.pid}/stat").read()
            nice = int(stat.rsplit(")", 1)[1].split()[16])  # field 19 of proc(5)
            if nice != os.nice(0):
                break
            time.sleep(0.05)
    finally:
        reaper.terminate()
        reaper.wait(30)
    assert [(m[0], m[2]) for m in moves] == [(1, "bot")]
    assert nice == os.nice(0) + 10


# ------------------------------------------------------------------------------ whole games
def _expected_defaults(client, game, view) -> dict[int, dict]:
    """R7's default for each pending seat, from what the view (and the seat's actions) show."""
    out = {}
    n = game.players
    for p in view["pending"]:
        seat, (kind,) = p["seat"], p["kinds"]
        if kind == "bid":
            out[seat] = LOWEST_BID
        elif kind == "assign_office":
            free = [t["slot"] for t in view["table"] if t["card"] is not None]
            out[seat] = {"type": "assign_office", "assignments": [
                {"seat": s, "slot": slot} for s, slot in zip(view["waiting"], free)]}
        elif kind == "nominate":
            out[seat] = {"type": "nominate", "seat": (view["maestro"] + 1) % n}
        elif kind == "fire_director":
            pile = [d["id"] for d in view["directors"]]
            first = "neutral" if "neutral" in pile else next(d for d in DIRECTORS if d in pile)
            out[seat] = {"type": "fire_director", "director": first}
        elif kind == "cast":
            actions = client.get(f"{game.url}/actions", headers=auth(game.tokens[seat]))
            out[seat] = {"optimal": actions.get_json()["moves"][0]["optimal"]}
        else:
            raise AssertionError(kind)
    return out


@pytest.mark.parametrize("players,seed", [(2, 11), (3, 12), (4, 13), (5, 14)])
def test_a_game_played_entirely_by_deadlines(app, client, make_game, clock, redis_client,
                                             players, seed):
    service = app.extensions["impresario"]
    game = make_game(players=players, seed=seed, first_maestro="random", move_seconds=MINUTE)
    triggers = ["view", "resolve", "reap", "events", "actions"]
    turn_began = clock.now
    kinds_seen: set[str] = set()
    fired: list[str] = []
    steps = 0
    while True:
        view = _view(client, game)
        if view["status"] == "finished":
            break
        doc = doc_of(redis_client, game.id)
        for p in view["pending"]:
            assert p["deadline"] == turn_began + MINUTE == doc["since"][str(p["seat"])] + MINUTE
        expected = _expected_defaults(client, game, view)
        moves_before, seq = len(doc["moves"]), doc["seq"]

        clock.advance(MINUTE)
        trigger = triggers[steps % len(triggers)]
        if trigger == "view":
            _view(client, game, game.tokens[0])
        elif trigger == "resolve":
            assert client.post(f"{game.url}/resolve",
                               headers=auth(game.host_token)).status_code == 200
        elif trigger == "reap":
            assert reap_once(service)["settled"] == 1
        elif trigger == "events":
            assert client.get(f"{game.url}/events?after={seq}").status_code == 200
        else:
            assert client.get(f"{game.url}/actions",
                              headers=auth(game.tokens[-1])).status_code == 200
        turn_began = clock.now
        steps += 1

        doc = doc_of(redis_client, game.id)
        made = doc["moves"][moves_before:]
        assert [m[0] for m in made] == sorted(expected), "exactly the seats that were due"
        assert all(m[2] == "deadline" for m in made)
        new = [e for q, e in raw_events(redis_client, game.id) if q > seq]
        starts = [i for i, e in enumerate(new) if e["type"] == "deadline_passed"]
        assert len(starts) == len(made) and starts[0] == 0
        for (seat, move, _), i, p in zip(made, starts, view["pending"]):
            want = expected[seat]
            kinds_seen.add(move["type"])
            assert new[i] == {"type": "deadline_passed", "seat": seat, "kinds": p["kinds"]}
            follow = new[i + 1]
            if move["type"] == "cast":
                assert move == {"type": "cast", "roles": None}
                assert follow == {"type": "cast", "seat": seat, "roles": want["optimal"]}
                continue
            assert move == want
            if move["type"] == "bid":
                assert follow["type"] == "bid_committed" and follow["seat"] == seat
            elif move["type"] == "assign_office":
                end = starts[starts.index(i) + 1] if i != starts[-1] else len(new)
                hired = [(e["seat"], e["slot"]) for e in new[i + 1:end]
                         if e["type"] == "hired" and e["by"] == "office"]
                assert hired == [(a["seat"], a["slot"]) for a in want["assignments"]]
            elif move["type"] == "nominate":
                assert follow["type"] == "nominated" and follow["seat"] == want["seat"]
            elif move["type"] == "fire_director":
                assert follow["type"] == "director_fired"
                assert (follow["seat"], follow["director"]) == (seat, want["director"])
                fired.append(want["director"])
        assert steps < 100, "the game does not end"

    assert view["round"] == 7 and view["score"]["players"]
    assert {"bid", "assign_office", "fire_director", "cast"} <= kinds_seen
    if players > 2:
        assert "nominate" in kinds_seen  # two players: the nomination is forced
    # R7 firing: neutral while it is in the pile, then the first in catalogue order
    assert fired[0] == "neutral" and len(fired) == 3
    assert fired[1:] == [d for d in DIRECTORS if d != "neutral"][:2]
    assert redis_client.zscore(INDEX, game.id) is None, "a finished game leaves the index"
    replay = client.get(f"{game.url}/replay").get_json()
    assert {m["by"] for m in replay["moves"]} == {"deadline"}
    assert replay["move_seconds"] == MINUTE


def test_a_searching_bot_thinks_off_the_move_that_hands_it_its_turn(app, client, clock,
                                                                     redis_client):
    """Turandot's ``hard`` bot searches before it moves: the human's move that hands it its turn
    answers without it (the bot thinks at least ``SEARCH_SECONDS``); once that time is over the
    reaper plays its bid, with nobody asking for the game."""
    from impresario_engine.table.clock import SEARCH_SECONDS

    service = app.extensions["impresario"]
    created, tokens = setup_game(client, [None, "hard"], seed=11)
    gid = created["game"]["id"]
    moved = client.post(f"/v1/games/{gid}/moves", headers=auth(tokens[0]),
                        json={"type": "bid", "slot": 1, "money": 0, "bluff": False})
    assert moved.status_code == 200, moved.get_data(as_text=True)
    game = moved.get_json()["game"]
    assert [p["seat"] for p in game["pending"]] == [1]  # the bot has not bid yet
    assert [m[2] for m in doc_of(redis_client, gid)["moves"]] == ["seat"]
    clock.advance(SEARCH_SECONDS / 2)
    assert reap_once(service)["moves"] == 0  # still thinking
    clock.advance(SEARCH_SECONDS)
    report = reap_once(service)
    assert report["settled"] == 1 and report["moves"] >= 1
    doc = doc_of(redis_client, gid)
    assert [m[2] for m in doc["moves"]][:2] == ["seat", "bot"]
    assert doc["moves"][1][0] == 1 and doc["moves"][1][1]["type"] == "bid"


def test_no_request_plays_a_searching_bot_only_the_reaper_does(app, client, clock,
                                                               redis_client):
    """Once a ``hard`` bot's think time is over, no request makes its search: not a read of
    the game, its actions or its events, nor ``POST /resolve`` (409 ``nothing_due``, saying a
    bot is thinking). The reaper plays it, and everything that fell due after it, in order:
    here the bot's bid first, then the human's passed deadline."""
    from impresario_engine.table.clock import SEARCH_SECONDS

    service = app.extensions["impresario"]
    created, tokens = setup_game(client, [None, "hard"], seed=11, move_seconds=MINUTE)
    gid = created["game"]["id"]
    url = f"/v1/games/{gid}"
    clock.advance(MINUTE + SEARCH_SECONDS)  # the bot's think time, then the human's deadline
    for path in ("", "/actions", "/events"):
        got = client.get(url + path, headers=auth(tokens[0]))
        assert got.status_code == 200, (path, got.get_data(as_text=True))
    resolved = client.post(f"{url}/resolve", headers=auth(tokens[0]))
    assert_problem(resolved, 409, "nothing_due")
    assert "bot" in resolved.get_json()["detail"]
    assert doc_of(redis_client, gid)["moves"] == []
    assert redis_client.zscore(INDEX, gid) is not None  # the reaper finds it

    report = reap_once(service)
    assert report["settled"] == 1
    moves = doc_of(redis_client, gid)["moves"]
    assert [(m[0], m[2]) for m in moves[:2]] == [(1, "bot"), (0, "deadline")]


def test_a_move_after_a_searching_bot_fell_due_is_played_without_its_search(
        client, clock, redis_client):
    """A human's move that reaches the game after a ``hard`` bot's think time is over is made
    at once: the bot's move stays the reaper's, and the human's answer shows the bot still to
    move."""
    from impresario_engine.table.clock import SEARCH_SECONDS

    created, tokens = setup_game(client, [None, "hard"], seed=11)
    gid = created["game"]["id"]
    clock.advance(2 * SEARCH_SECONDS)
    moved = client.post(f"/v1/games/{gid}/moves", headers=auth(tokens[0]),
                        json={"type": "bid", "slot": 1, "money": 0, "bluff": False})
    assert moved.status_code == 200, moved.get_data(as_text=True)
    assert [p["seat"] for p in moved.get_json()["game"]["pending"]] == [1]
    assert [(m[0], m[2]) for m in doc_of(redis_client, gid)["moves"]] == [(0, "seat")]


def test_reapers_side_by_side_skip_the_game_another_one_is_settling(app, client, clock,
                                                                     redis_client):
    """A reaper claims each due game while it settles it (its searches included); another
    reaper skips a claimed game, and only the claim's holder gives it back. ``reap --loop``
    sleeps until the next game falls due, never less than ``MIN_WAIT_SECONDS`` nor more than
    its loop."""
    from impresario_engine.table.clock import SEARCH_SECONDS
    from impresario_engine.usecases.reaper import MIN_WAIT_SECONDS, wait_seconds

    service = app.extensions["impresario"]
    store = service.store
    created, _ = setup_game(client, [None, "hard"], seed=11)
    gid = created["game"]["id"]
    due_at = redis_client.zscore(INDEX, gid)
    assert due_at >= clock.now + SEARCH_SECONDS
    assert wait_seconds(service, 5.0) == pytest.approx(due_at - clock.now)
    assert wait_seconds(service, 0.5) == 0.5
    clock.advance(2 * SEARCH_SECONDS)
    assert wait_seconds(service, 5.0) == MIN_WAIT_SECONDS

    assert store.claim(gid, "another reaper", 30)
    assert not store.claim(gid, "this reaper", 30)
    report = reap_once(service)
    assert (report["claimed"], report["checked"], report["settled"]) == (1, 0, 0)
    store.release(gid, "this reaper")  # not its claim: left alone
    assert reap_once(service)["claimed"] == 1
    store.release(gid, "another reaper")
    report = reap_once(service)
    assert (report["claimed"], report["settled"]) == (0, 1)
    assert [m[2] for m in doc_of(redis_client, gid)["moves"]] == ["bot"]
    assert redis_client.exists(f"game:{{{gid}}}:claim") == 0  # given back


def test_a_move_after_its_deadline_is_refused_while_a_searching_bot_holds_the_default_up(
        app, client, clock, redis_client):
    """A seat's deadline passed after a ``hard`` bot's think time was over: the request cannot
    play the default (it comes after the bot's search, which only the reaper makes), and the
    late move is still refused (409 ``deadline_passed``, ``default_played`` false) and changes
    nothing; the reaper then plays the bot's move and the default, in that order."""
    service = app.extensions["impresario"]
    created, tokens = setup_game(client, [None, "hard"], seed=11, move_seconds=MINUTE)
    gid = created["game"]["id"]
    clock.advance(MINUTE + 1)
    late = client.post(f"/v1/games/{gid}/moves", headers=auth(tokens[0]),
                       json={"type": "bid", "slot": 1, "money": 0, "bluff": False})
    assert_problem(late, 409, "deadline_passed")
    body = late.get_json()
    assert body["default_played"] is False and body["cause"] == "deadline"
    assert body["version"] == created["game"]["version"] + 2  # two seats joined
    assert doc_of(redis_client, gid)["moves"] == []
    assert reap_once(service)["settled"] == 1
    assert [(m[0], m[2]) for m in doc_of(redis_client, gid)["moves"][:2]] == [
        (1, "bot"), (0, "deadline")]
