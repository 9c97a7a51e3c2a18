"""Bad input gets a clear problem+json error with a stable code, and changes nothing."""

from __future__ import annotations

import random

import pytest

from service_helpers import assert_problem, auth, keys_written, play_random, snapshot

BID = {"type": "bid", "slot": 1, "money": 0, "bluff": False}


def _move(client, game, token, body, **headers):
    return client.post(f"{game.url}/moves", json=body, headers={**auth(token), **headers})


def _all_bid_slot_one(client, game):
    """Round 1 with everyone on slot 1 without money: a tie, every seat waits for the office."""
    for token in game.tokens:
        assert _move(client, game, token, BID).status_code == 200
    view = client.get(game.url).get_json()
    assert view["phase"] == "office"
    return view


@pytest.fixture
def game(make_game):
    return make_game(players=4, seed=3, first_maestro=0)


# ------------------------------------------------------------------ malformed requests
def test_malformed_json(client, game):
    before = snapshot(client, game)
    resp = client.post(f"{game.url}/moves", data=b'{"type": "bid", "slot": ',
                       content_type="application/json", headers=auth(game.tokens[1]))
    assert_problem(resp, 400, "malformed_json")
    resp = client.post("/v1/games", data=b"{nope", content_type="application/json")
    assert_problem(resp, 400, "malformed_json")
    resp = client.post(f"{game.url}/seats", data=b"[1,", content_type="application/json")
    assert_problem(resp, 400, "malformed_json")
    assert snapshot(client, game) == before


@pytest.mark.parametrize("body,field", [
    ({"type": "bid", "slot": "3", "money": 0}, "slot"),
    ({"type": "bid", "slot": 3, "money": 9}, "money"),
    ({"type": "bid", "slot": 3, "money": 1, "bluff": "yes"}, "bluff"),
    ({"type": "bid", "money": 1}, "slot"),
    ({"type": "bid", "slot": 3, "colour": "red"}, "colour"),
    ({"type": "assign_office", "assignments": [{"seat": "a", "slot": 1}]}, "assignments"),
    ({"type": "nominate"}, "seat"),
    ({"type": "fire_director", "director": 5}, "director"),
    ({"type": "cast", "roles": ["S01"]}, "roles"),
])
def test_move_schema_violation_names_the_field(client, game, body, field):
    before = snapshot(client, game)
    problem = assert_problem(_move(client, game, game.tokens[1], body), 422, "invalid_body")
    assert field in problem["errors"], problem
    assert snapshot(client, game) == before


@pytest.mark.parametrize("body", [{"type": "dance"}, {"slot": 3}, {"type": None},
                                  {"type": "open_sesame", "word": "pinguino"},
                                  {"type": "auction_bid"}])
def test_unknown_or_missing_move_type_lists_turandots_moves(client, game, body):
    """Not invalid_body naming every ruleset's moves, nor a field of another game's move
    (`auction_bid` has a required `contract` Turandot never asks for)."""
    before = snapshot(client, game)
    problem = assert_problem(_move(client, game, game.tokens[1], body), 422, "unknown_move_type")
    moves = ["bid", "assign_office", "nominate", "fire_director", "cast"]
    assert problem["move_types"] == moves, problem
    assert problem["detail"].endswith("Turandot moves are " + ", ".join(moves)), problem
    assert snapshot(client, game) == before


def test_a_bid_out_of_the_games_slots_names_its_range(client, make_game):
    """With 2 players the slots are 1–3: the rules say so (slot_out_of_range), not the
    spec's widest bound (1–6, for 5 players) as a schema error."""
    game = make_game(players=2, seed=1)
    before = snapshot(client, game)
    for slot in (4, 6, 9, 0, -1, 10**12):
        problem = assert_problem(_move(client, game, game.tokens[0], dict(BID, slot=slot)),
                                 422, "slot_out_of_range")
        assert problem["detail"] == "slot must be from 1 to 3", problem
    assert snapshot(client, game) == before


def test_a_nomination_out_of_the_table_names_its_seats(client, make_game):
    game = make_game(players=3, seed=3, first_maestro=0)
    for token in game.tokens:  # everyone on slot 1: a tie, all wait for the office
        assert _move(client, game, token, BID).status_code == 200
    assert _move(client, game, game.tokens[0], {"type": "assign_office", "assignments": [
        {"seat": s, "slot": s + 1} for s in range(3)]}).status_code == 200
    assert client.get(game.url).get_json()["phase"] == "nominate"
    before = snapshot(client, game)
    for seat in (3, 4, 7):
        problem = assert_problem(_move(client, game, game.tokens[0],
                                       {"type": "nominate", "seat": seat}), 422, "unknown_seat")
        assert problem["detail"] == f"there is no seat {seat} at this table"
    assert snapshot(client, game) == before


def test_move_body_not_an_object(client, game):
    before = snapshot(client, game)
    assert_problem(_move(client, game, game.tokens[1], [BID]), 422, "invalid_body")
    assert snapshot(client, game) == before


@pytest.mark.parametrize("body,field", [
    ({"players": 4}, "ruleset"),
    ({"ruleset": "turandot"}, "players"),
    ({"ruleset": "turandot", "players": "4"}, "players"),
    ({"ruleset": "turandot", "players": 4, "seed": "x"}, "seed"),
    ({"ruleset": "turandot", "players": 4, "extra": 1}, "extra"),
])
def test_create_schema_violation(client, redis_client, body, field):
    problem = assert_problem(client.post("/v1/games", json=body), 422, "invalid_body")
    assert field in problem["errors"], problem
    assert keys_written(redis_client) == []


def test_join_schema_violation(client, make_game):
    game = make_game(players=3, seats=1)
    before = snapshot(client, game)
    for body, field in [({}, "name"), ({"name": ""}, "name"), ({"name": "x" * 41}, "name"),
                        ({"name": "a\nb"}, "name"), ({"name": 3}, "name")]:
        problem = assert_problem(client.post(f"{game.url}/seats", json=body), 422,
                                 "invalid_body")
        assert field in problem["errors"], problem
    assert snapshot(client, game) == before


def test_not_json_content_type(client, game):
    before = snapshot(client, game)
    resp = client.post(f"{game.url}/moves", data="type=bid&slot=1",
                       content_type="application/x-www-form-urlencoded",
                       headers=auth(game.tokens[1]))
    assert_problem(resp, 415, "unsupported_media_type")
    resp = client.post(f"{game.url}/moves", data='{"type": "bid", "slot": 1}',
                       content_type="text/plain", headers=auth(game.tokens[1]))
    assert_problem(resp, 415, "unsupported_media_type")
    assert_problem(client.post("/v1/games", data="x"), 415, "unsupported_media_type")
    assert snapshot(client, game) == before


def test_body_over_the_cap(app_factory, redis_client):

    app = app_factory(max_body_bytes=256)
    client = app.test_client()
    created = client.post("/v1/games", json={"ruleset": "turandot", "players": 2, "seed": 1})
    assert created.status_code == 201
    game_id = created.get_json()["game"]["id"]
    tokens = [client.post(f"/v1/games/{game_id}/seats", json={"name": n}).get_json()["token"]
              for n in ("A", "B")]
    before = client.get(f"/v1/games/{game_id}").get_json()
    big = dict(BID, padding="x" * 1000)
    resp = client.post(f"/v1/games/{game_id}/moves", json=big, headers=auth(tokens[1]))
    assert_problem(resp, 413, "body_too_large")
    resp = client.post("/v1/games", json={"ruleset": "turandot", "players": 2,
                                          "options": {"pad": "y" * 1000}})
    assert_problem(resp, 413, "body_too_large")
    assert client.get(f"/v1/games/{game_id}").get_json() == before
    assert len(list(redis_client.scan_iter("game:{*}", _type="hash"))) == 1


# ------------------------------------------------------------------ tokens and roles
def test_missing_token_on_a_move(client, game):
    before = snapshot(client, game)
    resp = _move(client, game, None, BID)
    assert_problem(resp, 401, "missing_token")
    assert resp.headers["WWW-Authenticate"].startswith("Bearer")
    assert snapshot(client, game) == before


@pytest.mark.parametrize("header", [
    "Bearer not-a-real-token", "Bearer ", "Basic dXNlcjpwYXNz", "Bearer " + "x" * 300,
])
def test_bad_token(client, game, header):
    before = snapshot(client, game)
    resp = client.post(f"{game.url}/moves", json=BID, headers={"Authorization": header})
    assert_problem(resp, 401, "invalid_token")
    assert_problem(client.get(game.url, headers={"Authorization": header}), 401,
                   "invalid_token")
    assert_problem(client.get(f"{game.url}/actions", headers={"Authorization": header}), 401,
                   "invalid_token")
    assert snapshot(client, game) == before


def test_token_of_another_game(client, make_game):
    game = make_game(players=2, seed=1)
    other = make_game(players=2, seed=2)
    before = snapshot(client, game)
    for token in (other.tokens[0], other.host_token):
        assert_problem(_move(client, game, token, BID), 401, "invalid_token")
        assert_problem(client.get(game.url, headers=auth(token)), 401, "invalid_token")
    assert snapshot(client, game) == before


def test_host_token_cannot_move(client, game):
    before = snapshot(client, game)
    assert_problem(_move(client, game, game.host_token, BID), 403, "not_a_seat")
    assert snapshot(client, game) == before


def test_unknown_game(client):
    for url in ("/v1/games/nope", "/v1/games/nope/actions", "/v1/games/nope/events",
                "/v1/games/nope/score", "/v1/games/bad%20id!"):
        assert_problem(client.get(url), 404, "game_not_found")
    assert_problem(client.post("/v1/games/nope/moves", json=BID, headers=auth("t")), 404,
                   "game_not_found")
    assert_problem(client.post("/v1/games/nope/seats", json={"name": "A"}), 404,
                   "game_not_found")


# ------------------------------------------------------------------ state of play
def test_not_your_turn(client, game):
    _all_bid_slot_one(client, game)
    before = snapshot(client, game)
    office = {"type": "assign_office", "assignments": [
        {"seat": 0, "slot": 1}, {"seat": 1, "slot": 2}, {"seat": 2, "slot": 3},
        {"seat": 3, "slot": 4}]}
    assert_problem(_move(client, game, game.tokens[1], office), 409, "not_your_turn")
    # and a bid outside the bidding phase
    assert_problem(_move(client, game, game.tokens[1], dict(BID, slot=2)), 409,
                   "not_bidding_phase")
    assert snapshot(client, game) == before
    # the maestro may
    assert _move(client, game, game.tokens[0], office).status_code == 200


def test_bid_already_committed_and_identical_rebid(client, game):
    first = _move(client, game, game.tokens[1], dict(BID, slot=2, money=1, bluff=True))
    assert first.status_code == 200
    before = snapshot(client, game)
    for other in (dict(BID, slot=3, money=1, bluff=True), dict(BID, slot=2, money=0, bluff=True),
                  dict(BID, slot=2, money=1, bluff=False), {"type": "bid", "slot": None,
                                                            "money": 1, "bluff": True}):
        assert_problem(_move(client, game, game.tokens[1], other), 409, "bid_already_committed")
    assert snapshot(client, game) == before
    again = _move(client, game, game.tokens[1], dict(BID, slot=2, money=1, bluff=True))
    assert again.status_code == 200
    body = again.get_json()
    assert body["version"] == first.get_json()["version"]
    assert body["events"] == []
    assert again.headers["ETag"] == before[str(None)][0]
    assert snapshot(client, game) == before


def test_move_before_the_game_starts(client, make_game):
    game = make_game(players=3, seats=2)
    before = snapshot(client, game)
    assert_problem(_move(client, game, game.tokens[0], BID), 409, "game_not_started")
    assert snapshot(client, game) == before
    acts = client.get(f"{game.url}/actions", headers=auth(game.tokens[0])).get_json()
    assert acts["moves"] == []


def test_move_after_the_game_ends_and_score(client, make_game):
    game = make_game(players=2, seed=9)
    assert_problem(client.get(f"{game.url}/score"), 409, "game_not_finished")
    play_random(client, game, random.Random(9))
    before = snapshot(client, game)
    for move in (BID, {"type": "cast", "roles": None}, {"type": "nominate", "seat": 1}):
        assert_problem(_move(client, game, game.tokens[0], move), 409, "game_finished")
    assert snapshot(client, game) == before


@pytest.mark.parametrize("seat,move,code", [
    (0, {"type": "bid", "slot": None, "money": 1, "bluff": False}, "maestro_cannot_hire_helper"),
    (1, {"type": "bid", "slot": None, "money": 2, "bluff": False}, "helper_bid_one_money"),
    (1, {"type": "bid", "slot": None, "money": 0, "bluff": True}, "empty_bid"),
    (1, {"type": "bid", "slot": 6, "money": 0, "bluff": False}, "slot_out_of_range"),
])
def test_illegal_by_the_rules(client, game, seat, move, code):
    before = snapshot(client, game)
    assert_problem(_move(client, game, game.tokens[seat], move), 422, code)
    assert snapshot(client, game) == before


def test_not_enough_money(client, make_game):
    game = make_game(players=3, seed=4, first_maestro=0)
    # round 1: every seat alone on its slot; seat 1 pays 2 and keeps 1
    for seat, slot, money in ((0, 1, 0), (1, 2, 2), (2, 3, 0)):
        assert _move(client, game, game.tokens[seat],
                     {"type": "bid", "slot": slot, "money": money, "bluff": False}
                     ).status_code == 200
    assert _move(client, game, game.tokens[0], {"type": "nominate", "seat": 1}).status_code == 200
    assert _move(client, game, game.tokens[1],
                 {"type": "fire_director", "director": "neutral"}).status_code == 200
    view = client.get(game.url).get_json()
    assert view["round"] == 2 and view["players"][1]["money"] == 1
    before = snapshot(client, game)
    problem = assert_problem(_move(client, game, game.tokens[1],
                                   {"type": "bid", "slot": 1, "money": 2, "bluff": False}),
                             422, "not_enough_money")
    assert "1" in problem["detail"]
    # firing, nominating and office errors by the rules
    assert snapshot(client, game) == before


def test_decision_errors_by_the_rules(client, game):
    _all_bid_slot_one(client, game)
    before = snapshot(client, game)
    maestro = game.tokens[0]
    cases = [
        ({"type": "assign_office", "assignments": [{"seat": 1, "slot": 1}]},
         "office_seats_mismatch"),
        ({"type": "assign_office", "assignments": [
            {"seat": 0, "slot": 1}, {"seat": 1, "slot": 1}, {"seat": 2, "slot": 3},
            {"seat": 3, "slot": 4}]}, "duplicate_slot"),
    ]
    for move, code in cases:
        assert_problem(_move(client, game, maestro, move), 422, code)
    assert_problem(_move(client, game, maestro, {"type": "nominate", "seat": 1}), 409,
                   "not_nominate_phase")
    assert snapshot(client, game) == before


@pytest.mark.parametrize("headers", [
    {"If-Match": "yesterday"}, {"Idempotency-Key": "x" * 300}, {"If-Match": "*"},
    {"Idempotency-Key": "clé"}, {"Content-Type": "text/plain"}])
def test_authentication_comes_first(client, game, headers):
    """No token, or a malformed one, is 401 before any other header or the body is looked at,
    on every operation that takes one."""
    before = snapshot(client, game)
    for body in (BID, {"type": "dance"}, [1]):
        for auth_header in ({}, {"Authorization": "Basic dXNlcjpwYXNz"}):
            resp = client.post(f"{game.url}/moves", json=body, headers={**headers, **auth_header})
            assert_problem(resp, 401, "invalid_token" if auth_header else "missing_token")
        assert_problem(client.post(f"{game.url}/resolve", json=body, headers=headers), 401,
                       "missing_token")
    bad = {"Authorization": "Bearer " + "x" * 300}
    for url in (f"{game.url}/events?after=-1", f"{game.url}?spectator=", f"{game.url}/actions",
                f"{game.url}/replay", f"{game.url}/replay/0?seat=-1", f"{game.url}/score"):
        assert_problem(client.get(url, headers=bad), 401, "invalid_token")
    assert_problem(client.post(f"{game.url}/seats", json={"name": ""}, headers=bad), 401,
                   "invalid_token")
    assert_problem(client.get(f"{game.url}/events?after=-1&spectator={'s' * 300}"), 401,
                   "invalid_token")
    assert snapshot(client, game) == before


def test_stale_if_match(client, game):
    etag = client.get(game.url).headers["ETag"]
    assert _move(client, game, game.tokens[1], BID, **{"If-Match": etag}).status_code == 200
    before = snapshot(client, game)
    resp = _move(client, game, game.tokens[2], dict(BID, slot=2), **{"If-Match": etag})
    problem = assert_problem(resp, 412, "stale_version")
    assert problem["version"] == int(before[str(None)][0].strip('"'))
    assert snapshot(client, game) == before
    for bad in ("yesterday", '"12', "*", "1_0", "²"):
        assert_problem(_move(client, game, game.tokens[2], BID, **{"If-Match": bad}), 400,
                       "invalid_if_match")
    for other in ('"999"', 'W/"999"', "999"):  # the forms the spec's pattern allows
        assert_problem(_move(client, game, game.tokens[2], BID, **{"If-Match": other}), 412,
                       "stale_version")
    fresh = client.get(game.url).headers["ETag"]
    assert _move(client, game, game.tokens[2], BID, **{"If-Match": fresh}).status_code == 200


def test_join_full_game(client, game):
    before = snapshot(client, game)
    assert_problem(client.post(f"{game.url}/seats", json={"name": "Late"}), 409, "game_full")
    assert snapshot(client, game) == before


def test_join_name_taken(client, make_game):
    game = make_game(players=3, seats=1)
    before = snapshot(client, game)
    assert_problem(client.post(f"{game.url}/seats", json={"name": "P0"}), 409, "name_taken")
    assert snapshot(client, game) == before


def test_unknown_ruleset_and_bad_player_counts(client, redis_client):
    assert_problem(client.post("/v1/games", json={"ruleset": "poker", "players": 4}), 404,
                   "ruleset_not_found")
    assert_problem(client.get("/v1/rulesets/poker"), 404, "ruleset_not_found")
    for players in (1, 6, 0, 64, -2, 10**9):  # the game's own range, whatever the number
        problem = assert_problem(client.post("/v1/games", json={"ruleset": "turandot",
                                                                "players": players}),
                                 422, "invalid_players")
        assert problem["detail"] == f"Turandot is for 2 to 5 players, not {players}"
    for options, code in [({"first_maestro": 4}, "invalid_first_maestro"),
                          ({"colour": "red"}, "unknown_option")]:
        resp = client.post("/v1/games", json={"ruleset": "turandot", "players": 3,
                                              "options": options})
        assert_problem(resp, 422, code)
    assert keys_written(redis_client) == []
