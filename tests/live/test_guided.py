"""Guided first games (option ``guided``, table/guided.py; the steps: impresario_rules.guide):
no deadline runs against the player's seat, the bots wait while the player must act, each
ruleset's guided table plays to its end with nothing deadlocked, and the seat's step
(``GET /v1/games/{id}/guide``) is answered in each language with its rules section.

The app's clock is a fake one (``clock`` fixture): days pass without sleeping.
"""

from __future__ import annotations

import pytest

from impresario_rules import guide
from impresario_rules.texts import LANGUAGES, anchors, rules_text
from .live_helpers import create, doc_of, setup_game
from service_helpers import assert_problem, auth

DAYS = 3 * 86400


def _guided(client, ruleset: str, lang: str = "en"):
    setup = guide.guided_setup(ruleset, lang)
    return setup_game(client, [None, *setup["bots"]], seed=setup["seed"], ruleset=ruleset,
                      **setup["options"])


def _get(client, url: str, token: str | None = None):
    resp = client.get(url, headers=auth(token))
    assert resp.status_code == 200, resp.get_data(as_text=True)
    return resp.get_json()


@pytest.mark.parametrize("bad", ["yes", 1, None, [True]])
def test_a_guided_option_that_is_not_a_boolean_creates_nothing(client, redis_client, bad):
    resp = client.post("/v1/games", json={"ruleset": "turandot", "players": 3,
                                          "options": {"guided": bad}})
    body = assert_problem(resp, 422, "invalid_guided")
    assert "guided" in body["errors"]["options"]
    assert list(redis_client.scan_iter(match="game:*")) == []


def test_the_view_says_guided_only_when_it_is(client):
    assert create(client, players=3, guided=True)["game"]["guided"] is True
    assert "guided" not in create(client, players=3, guided=False)["game"]
    assert "guided" not in create(client, players=3)["game"]


@pytest.mark.parametrize("guided", [True, False])
def test_word_jam_bots_wait_for_the_player_before_calling(client, clock, redis_client, guided):
    """Word Jam's Open Sesame is a race: in a guided game no bot calls while the player has not
    answered the window (called, or said they have nothing), however long they read, and the
    player has no deadline; once they have answered, the bots play on. Without the option the
    bots call within their think time and the player's window has its deadline."""
    options = {"bot_seconds": 1, "think_seconds": 5}
    if guided:
        options["guided"] = True
    created, tokens = setup_game(client, [None, "easy", "easy", "easy", "easy"], seed=39,
                                 ruleset="wordjam", language="en", **options)
    url = f"/v1/games/{created['game']['id']}"
    clock.advance(DAYS if guided else 30)
    view = _get(client, url, tokens[0])
    if not guided:
        assert doc_of(redis_client, view["id"])["moves"], "the bots called without a guide"
        return
    assert view["phase"] == "think" and view["turn"] == 1
    assert doc_of(redis_client, view["id"])["moves"] == []
    mine = [p for p in view["pending"] if p["seat"] == 0]
    assert mine and mine[0]["deadline"] is None
    resp = client.post(f"{url}/moves", json={"type": "no_call"}, headers=auth(tokens[0]))
    assert resp.status_code == 200, resp.get_data(as_text=True)
    clock.advance(5)
    moves = doc_of(redis_client, view["id"])["moves"]
    _get(client, url, tokens[0])
    moves = doc_of(redis_client, view["id"])["moves"]
    assert len(moves) > 1 and {m[0] for m in moves[1:]} <= {1, 2, 3, 4}


@pytest.mark.parametrize("ruleset", ["turandot", "wordjam", "muzicando"])
def test_each_guided_game_plays_to_its_end_with_a_step_at_every_move(client, clock, ruleset):
    """The player plays the engine's default whenever the table asks, waiting days between
    moves, and reads the step in a language each time: the game ends (no window waits on the
    player after they acted, no bot waits forever), every step names a section of the rules,
    and no deadline ever ran against the player (no move of theirs is the engine's)."""
    created, tokens = _guided(client, ruleset)
    url = f"/v1/games/{created['game']['id']}"
    keys = set()
    for i in range(300):
        view = _get(client, url, tokens[0])
        lang = LANGUAGES[i % len(LANGUAGES)]
        step = _get(client, f"{url}/guide?lang={lang}", tokens[0])
        assert step["lang"] == lang and step["text"] and step["version"] == view["version"]
        assert step["anchor"] in anchors(rules_text(ruleset, lang)) and step["rule_title"]
        keys.add(step["key"])
        if view["status"] == "finished":
            assert step["key"] == "finished"
            break
        actions = _get(client, f"{url}/actions", tokens[0])
        if actions["pending"]:
            headers = {**auth(tokens[0]), "If-Match": f'"{view["version"]}"'}
            resp = client.post(f"{url}/moves", json=actions["default"], headers=headers)
            assert resp.status_code == 200, resp.get_data(as_text=True)
        else:
            assert step["key"] == "wait"
            clock.advance(2)
    else:
        raise AssertionError(f"the guided {ruleset} game does not end: {view['pending']}")
    replay = _get(client, f"{url}/replay")
    assert all(by != "deadline" for _, _, by in replay["moves"]), "a deadline ran"
    assert len(keys) >= 4, keys


def test_the_guide_is_a_seats_and_a_guided_games_only(client):
    created, tokens = _guided(client, "turandot")
    url = f"/v1/games/{created['game']['id']}/guide"
    assert_problem(client.get(url), 403, "not_a_seat")
    assert_problem(client.get(url, headers=auth(created["host_token"])), 403, "not_a_seat")
    assert_problem(client.get(url + "?lang=xx", headers=auth(tokens[0])), 422, "invalid_body")
    assert _get(client, url, tokens[0])["lang"] == "en"
    plain, plain_tokens = setup_game(client, [None, "easy", "easy"], seed=39)
    assert_problem(client.get(f"/v1/games/{plain['game']['id']}/guide",
                              headers=auth(plain_tokens[0])), 409, "not_guided")


def test_a_guided_game_rates_nobody():
    """Every guided game of a ruleset deals the same first game against easy bots: a lesson,
    never a rated result, even a public one whose every seat is a player's or a bot's."""
    from impresario_engine.table.ratings import rateable

    seats = [{"player": "p_1"}, {"bot": "easy"}, {"bot": "easy"}]
    doc = {"settings": {"private": False}, "seats": seats}
    assert rateable(doc)
    assert not rateable({**doc, "settings": {"private": False, "guided": True}})
