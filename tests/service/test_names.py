"""Player names: look-alikes never sit in one game, and names that hide something (invisible,
bidirectional or blank) are refused with their own codes."""

from __future__ import annotations

import pytest

from impresario_engine.table import names
from service_helpers import assert_problem, auth


def _join(client, game, name, **kw):
    return client.post(f"{game.url}/seats", json={"name": name}, **kw)


def test_look_alike_names_do_not_share_a_game(client, make_game):
    game = make_game(players=5, seats=0)
    assert _join(client, game, "Anna").status_code == 201
    for alike in ("ANNA", "anna", "Ann\u0430", "\uff21nna", " Anna ", "\u0410nn\u0430"):
        body = assert_problem(_join(client, game, alike), 409, "name_taken")
        assert "Anna" in body["detail"]
    # a bot's name is held to the same rule
    bot = client.post(f"{game.url}/seats", json={"name": "anna", "bot": "greedy"},
                      headers=auth(game.host_token))
    assert_problem(bot, 409, "name_taken")
    # other names sit down, normalised as stored and shown
    joined = _join(client, game, "  Bob \u3000 the  Bold ")
    assert joined.status_code == 201
    view = joined.get_json()["game"]
    assert [p["name"] for p in view["players"][:2]] == ["Anna", "Bob the Bold"]
    assert_problem(_join(client, game, "B0B THE B0LD"), 409, "name_taken")
    assert _join(client, game, "Annabel").status_code == 201


@pytest.mark.parametrize("name", ["Anna\u200b", "\u202eanna", "An\u2066na", "\u200d",
                                  "Anna\u00ad", "\u3164", "\u2800"])
def test_invisible_and_bidi_characters_are_refused(client, make_game, name):
    game = make_game(players=3, seats=0)
    body = assert_problem(_join(client, game, name), 422, "name_invisible_characters")
    assert "U+" in body["detail"]
    assert client.get(game.url).get_json()["seats_taken"] == 0


@pytest.mark.parametrize("name", [" ", "\u3000", "   \u2003  "])
def test_blank_names_are_refused(client, make_game, name):
    game = make_game(players=3, seats=0)
    assert_problem(_join(client, game, name), 422, "name_blank")


def test_capitals_that_look_like_other_letters_and_variation_selectors_are_one_name(
        client, make_game):
    """The finding: "lris" and "1ris" sat beside "Iris" (the name was case-folded before its
    skeleton, so "I" became "i" and no longer looked like "l"), and "Anna" with a variation
    selector (U+FE0F, which draws nothing after a letter) beside "Anna"."""
    game = make_game(players=5, seats=0)
    assert _join(client, game, "Iris").status_code == 201
    for alike in ("lris", "1ris", "iris", "IRIS", "|ris"):
        assert_problem(_join(client, game, alike), 409, "name_taken")
    assert _join(client, game, "Anna").status_code == 201
    for alike in ("Anna\ufe0f", "An\ufe00na", "Anna\U000e0100"):
        assert_problem(_join(client, game, alike), 409, "name_taken")
    # a selector is allowed where it means something: an emoji's presentation
    assert _join(client, game, "\u2764\ufe0f Bea").status_code == 201
    assert _join(client, game, "Carlo").status_code == 201
    assert names.likeness("arnold") == names.likeness("amold")


def test_the_six_names_of_the_report_give_one_seat():
    """The issue's set: "Anna", Cyrillic a, a zero-width space, upper case, a right-to-left
    override and a blank: one name sits, the others are refused or taken."""
    sat: set[str] = set()
    outcomes = []
    for raw in ("Anna", "Ann\u0430", "Anna\u200b", "ANNA", "\u202eanna", " "):
        try:
            looks = names.likeness(names.normalise(raw))
        except Exception as err:  # noqa: BLE001 - the ApiError's code is what is checked
            outcomes.append(err.code)
            continue
        outcomes.append("taken" if looks in sat else "seated")
        sat.add(looks)
    assert outcomes == ["seated", "taken", "name_invisible_characters", "taken",
                        "name_invisible_characters", "name_blank"]
