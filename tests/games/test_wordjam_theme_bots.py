"""Word Jam's bots at a real table (the engine over HTTP, real Redis): a word off the Style card
that a person calls is challenged by the bots and voted down; a word on the card stands; the
game's language is shown in the view and in the lobby, and a bad one is refused."""

from __future__ import annotations

import pytest

from impresario_rules import RULESETS
from service_helpers import assert_problem, auth

from .games_helpers import get_json, setup_table, truth

WJ = RULESETS["wordjam"]


def _seed_for(style: str, word: str, language: str, players: int = 5) -> int:
    """A seed whose first Style card is ``style`` and whose deal lets ``word`` through the
    engine's own checks (so only the table judges whether it fits)."""
    for seed in range(500):
        state, _ = WJ.new_game(players, {"language": language}, seed)
        if state["style"] == style and WJ.check_word(state, word)["valid"]:
            return seed
    raise AssertionError(f"no seed deals {style} with {word} valid")


@pytest.mark.parametrize("style, word, language", [
    ("human_body", "CARROT", "en"), ("animals", "BICYCLE", "en"), ("flora", "CALCOLO", "it")])
def test_an_off_card_word_a_person_calls_is_challenged_and_voted_down_by_the_bots(
        client, clock, redis_client, style, word, language):
    seed = _seed_for(style, word, language)
    table = setup_table(client, "wordjam", [None, "wordsmith", "wordsmith", "wordsmith",
                                            "wordsmith"], seed, language=language)
    view = get_json(client, table.url, table.tokens[0])
    assert view["style"]["id"] == style and view["language"] == language
    resp = client.post(f"{table.url}/moves", json={"type": "open_sesame", "word": word},
                       headers=auth(table.tokens[0]))
    assert resp.status_code == 200, resp.get_data(as_text=True)
    word_id = get_json(client, table.url, table.tokens[0])["challenge"]["word_id"]
    # the person lets the bots decide; they challenge, then everybody votes (the author too)
    seen = get_json(client, table.url, table.tokens[0])
    for _ in range(60):
        if seen["phase"] == "vote" and seen["players"][0]["has_voted"] is False:
            client.post(f"{table.url}/moves", json={"type": "vote", "in_favour": True},
                        headers=auth(table.tokens[0]))
        last = seen.get("last_vote")
        if last and last["word_id"] == word_id:
            break
        clock.advance(2)
        seen = get_json(client, table.url, table.tokens[0])
    last = seen["last_vote"]
    assert last and last["word_id"] == word_id, seen["phase"]
    assert last["challenger"] in (1, 2, 3, 4)
    assert not last["stands"] and last["in_favour"] == 1
    assert {v["seat"]: v["in_favour"] for v in last["votes"]} == {
        0: True, 1: False, 2: False, 3: False, 4: False}
    # the call is void: the person may not call again, thinking resumes
    assert seen["ali_baba"] is None and 0 in seen["barred"]
    _, doc = truth(redis_client, table.id)
    challenges = [m for m in doc["moves"] if m[1]["type"] == "challenge"]
    assert challenges and all(m[2] == "bot" for m in challenges)


@pytest.mark.parametrize("style, word, language", [
    ("human_body", "ELBOW", "en"), ("flora", "GIRASOLE", "it")])
def test_a_word_on_the_card_stands(client, clock, redis_client, style, word, language):
    seed = _seed_for(style, word, language)
    table = setup_table(client, "wordjam", [None, "wordsmith", "wordsmith", "wordsmith",
                                            "wordsmith"], seed, language=language)
    resp = client.post(f"{table.url}/moves", json={"type": "open_sesame", "word": word},
                       headers=auth(table.tokens[0]))
    assert resp.status_code == 200, resp.get_data(as_text=True)
    for _ in range(30):
        view = get_json(client, table.url, table.tokens[0])
        if view["phase"] != "challenge":
            break
        clock.advance(2)
    assert view["ali_baba"] == 0 and view["last_vote"] is None  # nobody challenged
    _, doc = truth(redis_client, table.id)
    assert not [m for m in doc["moves"] if m[1]["type"] == "challenge"]


def test_bots_call_words_of_the_games_language_on_the_card(client, clock, redis_client):
    """An all-bot English game: every word a bot says fits the card it was said on."""
    from impresario_rules.wordjam import themes
    table = setup_table(client, "wordjam", ["wordsmith"] * 5, 3, language="en",
                        bot_seconds=0)
    for _ in range(400):
        if get_json(client, table.url)["status"] == "finished":
            break
        clock.advance(5)
    _, doc = truth(redis_client, table.id)
    records = doc["state"]["history"]
    assert records and all(r["word"] is None or themes.fits("en", r["style"], r["word"])
                           for r in records)
    said = [r["word"] for r in records if r["word"]]
    assert said


@pytest.mark.parametrize("language", ["de", "EN", "", 3, None, ["it"]])
def test_a_bad_language_is_refused_with_its_code(client, language):
    resp = client.post("/v1/games", json={"ruleset": "wordjam", "players": 5, "seed": 1,
                                          "options": {"language": language}})
    assert_problem(resp, 422, "invalid_language")


def test_the_language_is_in_the_lobby_and_defaults_to_italian(client):
    for options, expected in (({}, "it"), ({"language": "en"}, "en")):
        resp = client.post("/v1/games", json={"ruleset": "wordjam", "players": 5, "seed": 1,
                                              "options": options})
        assert resp.status_code == 201
        game = resp.get_json()["game"]
        view = get_json(client, f"/v1/games/{game['id']}")
        assert view["language"] == expected
        listed = get_json(client, "/v1/games?status=open&limit=50")["games"]
        mine = next(g for g in listed if g["id"] == game["id"])
        assert mine["options"]["language"] == expected, mine
