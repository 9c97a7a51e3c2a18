"""Errors common to every ruleset, over HTTP: a move of another ruleset, bad options, player
counts out of range, unknown bots. Every refusal is a problem+json with a stable code, and a
refused move leaves the game as it was."""

from __future__ import annotations

import pytest

from service_helpers import assert_problem, auth

from .games_helpers import get_json, setup_table

TURANDOT_BID = {"type": "bid", "slot": 1, "money": 0, "bluff": False}
WORDJAM_MOVES = [{"type": "open_sesame", "word": "PINGUINO"}, {"type": "no_call"},
                 {"type": "bet", "side": "thieves"}, {"type": "thief_pass"},
                 {"type": "choose_side", "side": "ali_baba"}]
MUZICANDO_MOVES = [{"type": "auction_pass"}, {"type": "auction_bid", "contract": "1S"},
                   {"type": "choose_layout", "layout": "S"},
                   {"type": "place", "card": "red-1", "x": 0, "y": 0}, {"type": "pass"}]


def _refused_unchanged(client, table, seat, move, status, code):
    token = table.tokens[seat]
    before = get_json(client, table.url, token)
    body = assert_problem(client.post(f"{table.url}/moves", json=move, headers=auth(token)),
                          status, code)
    assert get_json(client, table.url, token) == before
    return body


def test_other_rulesets_moves_to_word_jam(client):
    table = setup_table(client, "wordjam", [None] * 5, 1)
    for move in (TURANDOT_BID, *MUZICANDO_MOVES):
        body = _refused_unchanged(client, table, 0, move, 422, "unknown_move_type")
        assert "open_sesame" in body["detail"]  # it names Word Jam's moves


def test_other_rulesets_moves_to_muzicando(client):
    table = setup_table(client, "muzicando", [None] * 3, 1, mode="individual", hands=3)
    seat = get_json(client, table.url)["turn"]
    for move in (TURANDOT_BID, *WORDJAM_MOVES):
        _refused_unchanged(client, table, seat, move, 422, "unknown_move_type")


def test_other_rulesets_moves_to_turandot(client):
    table = setup_table(client, "turandot", [None] * 3, 1)
    for move in (*WORDJAM_MOVES, *MUZICANDO_MOVES):
        _refused_unchanged(client, table, 0, move, 422, "unknown_move_type")


def test_a_move_the_body_schema_refuses_is_invalid_body(client):
    table = setup_table(client, "wordjam", [None] * 5, 1)
    for move in ({"type": "open_sesame"}, {"type": "open_sesame", "word": 7},
                 {"type": "bet", "side": None}, {"type": "no_call", "word": "x"}, []):
        _refused_unchanged(client, table, 0, move, 422, "invalid_body")


GAMES = {"turandot": ([None] * 3, {}), "wordjam": ([None] * 5, {}),
         "muzicando": ([None] * 3, {"mode": "individual", "hands": 3})}


@pytest.mark.parametrize("ruleset", sorted(GAMES))
def test_an_unknown_or_missing_move_type_lists_the_games_own_moves(client, ruleset):
    """As the docs say: 422 unknown_move_type naming this ruleset's moves, whatever the other
    fields; never invalid_body listing every ruleset's moves, nor a field another game's move
    of that name would need (`{"type": "bid"}` in Muzicando was "slot: Missing data")."""
    kinds, options = GAMES[ruleset]
    table = setup_table(client, ruleset, kinds, 1, **options)
    own = get_json(client, f"/v1/rulesets/{ruleset}")["move_types"]
    others = {m for name in GAMES if name != ruleset
              for m in get_json(client, f"/v1/rulesets/{name}")["move_types"]}
    seat = get_json(client, table.url)["pending"][0]["seat"]
    for move in ([{"type": kind} for kind in sorted(others)]
                 + [{"type": "no_such_move", "slot": 1}, {"slot": 1}, {"type": None},
                    {"type": 3}, {"type": ["bid"]}, {}]):
        body = _refused_unchanged(client, table, seat, move, 422, "unknown_move_type")
        assert body["move_types"] == own, body
        listed = body["detail"].split(" moves are ")[1].split(", ")
        assert listed == own, body


def _muzicando_in(client, phase, **options):
    """A Muzicando game of humans in ``phase``, and the seat to move."""
    n = 4 if options.get("mode") == "team" else 3
    for seed in range(1, 40):
        table = setup_table(client, "muzicando", [None] * n, seed, **options)
        view = get_json(client, table.url)
        if phase == "play" and view["phase"] == "choose":
            token = table.tokens[view["turn"]]
            (space,) = get_json(client, f"{table.url}/actions", token)["moves"]
            assert client.post(f"{table.url}/moves", json={
                "type": "choose_layout", "layout": space["layouts"][0]},
                headers=auth(token)).status_code == 200
            view = get_json(client, table.url)
        if view["phase"] == phase:
            return table, view["turn"]
    raise AssertionError(f"no game in the {phase} phase")


@pytest.mark.parametrize("phase,options,move,code", [
    ("auction", {"mode": "team"}, {"type": "auction_bid", "contract": "5S"}, "unknown_contract"),
    ("auction", {"mode": "team"}, {"type": "auction_bid", "contract": ""}, "unknown_contract"),
    ("choose", {"mode": "individual", "hands": 3}, {"type": "choose_layout", "layout": "X"},
     "unknown_layout"),
    ("choose", {"mode": "individual", "hands": 3},
     {"type": "choose_layout", "layout": "Sarabanda"}, "unknown_layout"),
    ("play", {"mode": "individual", "hands": 3},
     {"type": "place", "card": "pink-3", "x": 0, "y": 0}, "unknown_card"),
    ("play", {"mode": "individual", "hands": 3},
     {"type": "place", "card": "red-8", "x": 0, "y": 0}, "unknown_card"),
])
def test_muzicandos_documented_codes_come_back(client, phase, options, move, code):
    """unknown_contract, unknown_layout and unknown_card are the rules' answers (listed in
    docs/muzicando.md); the schema used to answer invalid_body first."""
    table, seat = _muzicando_in(client, phase, **options)
    body = _refused_unchanged(client, table, seat, move, 422, code)
    assert repr(move.get("contract", move.get("layout", move.get("card")))) in body["detail"]


OUT_OF_RANGE = [("wordjam", 4), ("wordjam", 13), ("wordjam", 1), ("muzicando", 1),
                ("muzicando", 9), ("turandot", 1), ("turandot", 6)]


def test_players_out_of_range(client, redis_client):
    for ruleset, players in OUT_OF_RANGE:
        resp = client.post("/v1/games", json={"ruleset": ruleset, "players": players,
                                              "seed": 1})
        assert_problem(resp, 422, "invalid_players")
    assert list(redis_client.scan_iter(match="game:*")) == []


BAD_OPTIONS = [
    ("wordjam", 5, {"think_seconds": 0}, "invalid_think_seconds"),
    ("wordjam", 5, {"think_seconds": 86_401}, "invalid_think_seconds"),
    ("wordjam", 5, {"bet_seconds": "10"}, "invalid_bet_seconds"),
    ("wordjam", 5, {"thief_seconds": 2.5}, "invalid_thief_seconds"),
    ("wordjam", 5, {"challenge_seconds": True}, "invalid_challenge_seconds"),
    ("wordjam", 5, {"vote_seconds": -3}, "invalid_vote_seconds"),
    ("wordjam", 5, {"cave": {"red": [1] * 7, "yellow": [1] * 8}}, "invalid_cave"),
    ("wordjam", 5, {"cave": {"red": [100] * 8, "yellow": [1] * 8}}, "invalid_cave"),
    ("wordjam", 5, {"no_visible_objects": "yes"}, "invalid_no_visible_objects"),
    ("wordjam", 5, {"mode": "team"}, "unknown_option"),
    ("wordjam", 5, {"move_seconds": 60}, "unknown_option"),  # Word Jam's windows are its own
    ("muzicando", 3, {"mode": "team"}, "team_needs_four_players"),
    ("muzicando", 4, {"mode": "duo"}, "invalid_mode"),
    ("muzicando", 4, {"mode": "team", "auction": False}, "team_game_has_auction"),
    ("muzicando", 3, {"auction": True}, "auction_needs_four_or_eight"),
    ("muzicando", 4, {"mode": "individual", "auction": "yes"}, "invalid_auction"),
    ("muzicando", 3, {"hands": 1}, "hands_not_multiple"),
    ("muzicando", 4, {"hands": 0}, "invalid_hands"),
    ("muzicando", 4, {"hands": 65}, "invalid_hands"),
    ("muzicando", 4, {"first_dealer": 4}, "invalid_first_dealer"),
    ("muzicando", 4, {"first_dealer": "left"}, "invalid_first_dealer"),
    ("muzicando", 4, {"think_seconds": 30}, "unknown_option"),
    ("turandot", 3, {"hands": 1}, "unknown_option"),
]


@pytest.mark.parametrize("name", ["wordjam", "muzicando", "turandot"])
def test_bad_options(client, redis_client, name):
    cases = [c for c in BAD_OPTIONS if c[0] == name]
    assert cases
    for ruleset, players, options, code in cases:
        resp = client.post("/v1/games", json={"ruleset": ruleset, "players": players,
                                              "seed": 1, "options": options})
        body = assert_problem(resp, 422, code)
        assert body["detail"], body
    assert list(redis_client.scan_iter(match="game:*")) == []


@pytest.mark.parametrize("ruleset,players,bot", [
    ("wordjam", 5, "greedy"), ("muzicando", 3, "wordsmith"), ("turandot", 3, "wordsmith"),
])
def test_another_rulesets_bot_is_unknown(client, ruleset, players, bot):
    resp = client.post("/v1/games", json={"ruleset": ruleset, "players": players, "seed": 1})
    created = resp.get_json()
    gid = created["game"]["id"]
    body = assert_problem(client.post(f"/v1/games/{gid}/seats", json={"name": "B", "bot": bot},
                                      headers=auth(created["host_token"])), 422, "unknown_bot")
    assert bot in body["detail"]
    assert get_json(client, f"/v1/games/{gid}")["seats_taken"] == 0


def test_unknown_ruleset(client):
    assert_problem(client.post("/v1/games", json={"ruleset": "scopa", "players": 4}), 404,
                   "ruleset_not_found")
