"""The HTTP surface: ETag / If-None-Match, Location, probes, metrics, the spec, rulesets and the
score calculator."""

from __future__ import annotations

import itertools

from impresario_rules.turandot.cards import DEFAULT, DIRECTORS
from impresario_rules.turandot.scoring import score_cast
from service_helpers import assert_problem, auth

CAST = ["S04", "S01", "S10", "S02", "S03", "S07"]


def test_create_location_and_etag(client):
    resp = client.post("/v1/games", json={"ruleset": "turandot", "players": 2, "seed": 1})
    assert resp.status_code == 201
    body = resp.get_json()
    game_id = body["game"]["id"]
    assert resp.headers["Location"] == f"/v1/games/{game_id}"
    assert resp.headers["ETag"] == f'"{body["game"]["version"]}"'
    assert body["game"]["status"] == "open" and body["game"]["seats_taken"] == 0
    assert isinstance(body["host_token"], str) and len(body["host_token"]) >= 22
    got = client.get(resp.headers["Location"])
    assert got.status_code == 200 and got.get_json()["id"] == game_id


def test_etag_and_if_none_match(client, make_game):
    game = make_game(players=2, seed=1)
    resp = client.get(game.url)
    etag = resp.headers["ETag"]
    assert etag == f'"{resp.get_json()["version"]}"'
    not_modified = client.get(game.url, headers={"If-None-Match": etag})
    assert not_modified.status_code == 304
    assert not_modified.headers["ETag"] == etag
    assert not_modified.get_data() == b""
    for header in (f"W/{etag}", f'"999", {etag}', "*"):  # weak comparison, lists, any
        assert client.get(game.url, headers={"If-None-Match": header}).status_code == 304, header
    assert client.get(game.url, headers={"If-None-Match": '"999"'}).status_code == 200
    move = client.post(f"{game.url}/moves", json={"type": "bid", "slot": 1},
                       headers=auth(game.tokens[0]))
    assert move.status_code == 200
    assert move.headers["ETag"] == f'"{move.get_json()["version"]}"' != etag
    changed = client.get(game.url, headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["ETag"] == move.headers["ETag"]


def test_views_by_role(client, make_game):
    game = make_game(players=3, seed=2)
    spectator = client.get(game.url).get_json()
    host = client.get(game.url, headers=auth(game.host_token)).get_json()
    assert "you" not in spectator and "you" not in host
    for seat, token in enumerate(game.tokens):
        you = client.get(game.url, headers=auth(token)).get_json()["you"]
        assert you["seat"] == seat and you["bid"] is None
        assert you["hand"] == {"numbers": [1, 2, 3, 4], "money": 3, "bluff": True}
    for key in ("id", "ruleset", "version", "status", "round", "phase", "maestro", "table",
                "directors", "players", "pending"):
        assert key in spectator, key
    for player in spectator["players"]:
        for key in ("seat", "name", "singers", "director", "stage_elements", "money",
                    "face_down"):
            assert key in player
    assert all(set(p["card"]) >= {"id", "category", "sex", "stars", "favourite_role"}
               for p in spectator["table"])
    acts = client.get(f"{game.url}/actions", headers=auth(game.tokens[1])).get_json()
    assert acts["pending"] == ["bid"]
    assert acts["moves"] == [{"type": "bid", "slots": [1, 2, 3, 4], "max_money": 3,
                              "helper": True, "bluff": True}]
    assert client.get(f"{game.url}/actions").get_json()["moves"] == []


def test_probes_metrics_and_spec(client):
    assert client.get("/healthz").get_json() == {"status": "ok"}
    assert client.get("/readyz").get_json()["status"] == "ready"
    metrics = client.get("/metrics")
    assert metrics.status_code == 200
    assert b"impresario_http_requests_total" in metrics.get_data()
    spec = client.get("/openapi.json")
    assert spec.status_code == 200
    doc = spec.get_json()
    assert doc["openapi"].startswith("3.")
    assert "/v1/games/{game_id}/moves" in doc["paths"]
    assert client.get("/docs").status_code == 200


def test_bad_query_parameter(client, make_game):
    game = make_game(players=2, seed=1)
    problem = assert_problem(client.get(f"{game.url}/events?after=-1"), 422, "invalid_body")
    assert "after" in str(problem["errors"])
    assert_problem(client.get(f"{game.url}/events?after=x"), 422, "invalid_body")


def test_unknown_route_and_method_are_problems(redis_url):
    """Outside the spec's paths, so on an app of its own (not the contract-checked fixture)."""
    from impresario_engine.app import create_app

    client = create_app({"redis_url": redis_url}).test_client()
    assert_problem(client.get("/v1/nothing"), 404, "not_found")
    resp = client.delete("/v1/rulesets")
    assert_problem(resp, 405, "method_not_allowed")


def test_rulesets(client):
    listed = client.get("/v1/rulesets").get_json()["rulesets"]
    (turandot,) = [r for r in listed if r["name"] == "turandot"]
    assert turandot["min_players"] == 2 and turandot["max_players"] == 5
    assert {"first_maestro", "catalogue"} <= set(turandot["options"])
    assert turandot["move_types"] == ["bid", "assign_office", "nominate", "fire_director",
                                      "cast"]
    assert client.get("/v1/rulesets/turandot").get_json() == turandot


def test_calculator_known_cast(client):
    resp = client.post("/v1/rulesets/turandot/score",
                       json={"singers": CAST, "director": "favourite_roles",
                             "stage_elements": 1, "roles": CAST})
    assert resp.status_code == 200
    body = resp.get_json()
    expected = score_cast(CAST, "favourite_roles", 1, False, DEFAULT)
    assert body["total"] == expected.pop("total")
    assert body["lines"] == expected
    assert body["roles"] == CAST
    # the best arrangement is the maximum over all 720 arrangements
    totals = {p: score_cast(list(p), "favourite_roles", 1, False, DEFAULT)["total"]
              for p in itertools.permutations(CAST)}
    assert body["best"]["total"] == max(totals.values())
    assert totals[tuple(body["best"]["roles"])] == body["best"]["total"]
    assert body["best"]["total"] >= body["total"]


def test_calculator_by_hand(client):
    """A cast checked line by line from the catalogue, without the engine's scorer."""
    singers = DEFAULT.singers
    body = client.post("/v1/rulesets/turandot/score",
                       json={"singers": CAST, "director": "neutral", "roles": CAST}).get_json()
    roles = ["turandot", "calaf", "liu", "ping", "pong", "pang"]
    female_roles = {"turandot", "liu"}
    stars = sum(singers[s].stars for s in CAST)
    favourite = sum(singers[s].favourite_role == r for s, r in zip(CAST, roles))
    wrong = sum(singers[s].sex != "undefined"
                and (singers[s].sex == "female") != (r in female_roles)
                for s, r in zip(CAST, roles))
    assert body["lines"]["stars"] == stars
    assert body["lines"]["favourite_roles"] == favourite
    assert body["lines"]["wrong_sex"] == -wrong
    assert body["lines"]["director"] == 0 and body["lines"]["stage_elements"] == 0
    assert body["total"] == stars + favourite - wrong


def test_calculator_errors(client):
    problem = assert_problem(client.post("/v1/rulesets/turandot/score",
                                         json={"singers": ["S01", "S02", "S03", "S04", "S05",
                                                           "NOPE"], "director": None}),
                             422, "unknown_singer")
    assert problem["singers"] == ["NOPE"]
    assert_problem(client.post("/v1/rulesets/turandot/score",
                               json={"singers": ["S01"] * 6, "director": None}),
                   422, "not_six_singers")
    assert_problem(client.post("/v1/rulesets/turandot/score",
                               json={"singers": CAST, "director": "tyrant"}),
                   422, "unknown_director")
    assert_problem(client.post("/v1/rulesets/turandot/score",
                               json={"singers": CAST[:5], "director": None}),
                   422, "invalid_body")
    assert_problem(client.post("/v1/rulesets/turandot/score",
                               json={"singers": CAST, "director": None,
                                     "roles": ["S01", "S02", "S03", "S04", "S05", "S06"]}),
                   422, "not_a_permutation")
    assert set(DIRECTORS) >= {"neutral", "favourite_roles"}


def test_word_check_is_the_rules_own_check_of_a_call(client, make_game):
    """POST /v1/games/{id}/word-check answers what a call with the word would meet: the rules'
    check_word on the game as it is (the theme card included), nothing played."""
    from impresario_rules import RULESETS
    from impresario_rules.wordjam import lexicon
    from impresario_rules.wordjam.state import check_word

    seed = next(s for s in range(500) if _theme(s) == "first_letter")
    game = make_game(players=5, seed=seed, ruleset="wordjam")
    view = client.get(game.url).get_json()
    state = RULESETS["wordjam"].new_game(5, {}, seed)[0]
    for word, _folded in lexicon.vocabulary()[:300]:
        resp = client.post(f"{game.url}/word-check", json={"word": word}, headers=auth(game.tokens[0]))
        assert resp.status_code == 200, resp.get_data(as_text=True)
        expected = check_word(state, word)
        assert resp.get_json() == {"word": word, "value": expected["value"],
                                   "valid": expected["valid"], "reason": expected["reason"]}
    reasons = {check_word(state, w)["reason"] for w, _ in lexicon.vocabulary()[:300]}
    assert "wrong_first_letter" in reasons  # the theme card is judged, not only the coins
    assert client.get(game.url).get_json()["version"] == view["version"]  # nothing played
    # a spectator may ask too; a word that is not one, and a game without words, are refused
    assert client.post(f"{game.url}/word-check", json={"word": "casa"}).status_code == 200
    assert_problem(client.post(f"{game.url}/word-check", json={"word": "  "}), 422, "word_empty")
    assert_problem(client.post(f"{game.url}/word-check", json={"word": "c4sa"}), 422,
                   "word_invalid_characters")
    turandot = make_game(players=2, seed=1)
    assert_problem(client.post(f"{turandot.url}/word-check", json={"word": "casa"}), 409,
                   "not_a_word_game")
    assert_problem(client.post("/v1/games/nope/word-check", json={"word": "casa"}), 404,
                   "game_not_found")


def test_word_check_refuses_bad_input_and_changes_nothing(client, make_game):
    """Wrong types, unknown fields, a bad token, a private game asked without its spectator
    token: each a problem with a stable code, and the game stays as it was."""
    game = make_game(players=5, seed=3, ruleset="wordjam")
    before = client.get(game.url, headers=auth(game.tokens[0])).get_json()
    url = f"{game.url}/word-check"
    for body in ({"word": 5}, {"word": None}, {"word": ["casa"]}, {}, {"word": "casa", "x": 1},
                 ["casa"], "casa"):
        assert_problem(client.post(url, json=body, headers=auth(game.tokens[0])), 422,
                       "invalid_body")
    assert_problem(client.post(url, json={"word": "casa"}, headers=auth("not-a-token")), 401,
                   "invalid_token")
    assert client.get(game.url, headers=auth(game.tokens[0])).get_json() == before
    private = client.post("/v1/games", json={"ruleset": "wordjam", "players": 5,
                                             "private": True}).get_json()["game"]["id"]
    resp = client.post(f"/v1/games/{private}/word-check", json={"word": "casa"})
    assert_problem(resp, 403, "private_game")


def _theme(seed: int) -> str | None:
    from impresario_rules import RULESETS
    from impresario_rules.wordjam import words

    return words.style_by_id()[RULESETS["wordjam"].new_game(5, {}, seed)[0]["style"]]["check"]
