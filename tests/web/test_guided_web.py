"""The guided first game in the browser: a newcomer's lobby offers "Learn to play" first under
each ruleset; the guided table (the rules package's seed, players and gentle bots) shows the
seat's step in a panel near the prompt, in the page's language, with a "why?" that opens the
rule behind it; and the game plays to its end with the step following every move.

In English the player makes every move through the page's own forms and buttons (make test);
in a second language (make test-deep) the page shows the step in that language at each move,
and the seat's moves are its engine defaults sent with the page's own seat token, so the same
check does not depend on each table's words in that language."""

from __future__ import annotations

import pytest
import requests

from impresario_rules import guide
from .web_helpers import (after_move, api, game_id, muzicando_move, seat_token, status,
                          turandot_move, version, word_jam_move)

MINE_OR_OVER = ".game[data-mine='1'], .game[data-status='finished']"


def learn_from_lobby(page, name: str, ruleset: str) -> str:
    """A newcomer's lobby: "Learn to play" comes first in the ruleset's card; pressing it
    starts the guided table. The game's id once its page shows the game."""
    page.goto("/")
    page.fill("#player-name", name)
    card = page.locator(f"[data-ruleset={ruleset}]")
    learn = card.locator("[data-testid=learn]")
    assert card.locator("button").first.get_attribute("data-testid") == "learn"
    learn.click()
    page.wait_for_selector(".game[data-status='playing'], .game[data-status='finished']")
    return game_id(page)


def shown_step(page, base: str, gid: str, lang: str) -> dict:
    """The step the panel shows, once it is the engine's step for the version on the page, in
    ``lang``; checked against the rules package's text of the step."""
    page.wait_for_function(
        "() => { const g = document.querySelector('.game'); const s = document.querySelector("
        "'[data-testid=guide]'); return g && s && s.dataset.version === g.dataset.version; }",
        timeout=60_000)
    step = api(base, "GET", f"/v1/games/{gid}/guide?lang={lang}", seat_token(page, gid))
    shown = page.locator("[data-testid=guide]")
    if step["version"] == version(page):
        assert shown.locator(".guide-text").inner_text() == step["text"]
        assert shown.get_attribute("data-step") == step["key"]
    assert step["text"] == guide.text(page_ruleset(page), lang, step)
    return step


def page_ruleset(page) -> str:
    return page.get_attribute(".game", "class").split("game-")[1].split()[0]


def check_why(page, expected_title: str) -> None:
    page.click("[data-testid=guide-why]")
    dialog = page.locator("dialog[open]")
    dialog.wait_for()
    # the rules are fetched when the dialog opens: "Loading the rules…" until they arrive
    page.wait_for_selector("dialog[open] [data-testid=rules][data-lang]:not([data-lang=''])",
                           timeout=30_000)
    assert expected_title in dialog.inner_text()
    page.keyboard.press("Escape")
    page.wait_for_selector("dialog[open]", state="detached")


def guided_word_jam_move(page, base: str, gid: str) -> None:
    before = version(page)
    word_jam_move(page, base, gid)
    after_move(page, before)


MOVES = {"turandot": lambda page, base, gid: turandot_move(page),
         "muzicando": lambda page, base, gid: muzicando_move(page),
         "wordjam": guided_word_jam_move}


@pytest.mark.parametrize("ruleset", [
    # Turandot in make test (about 20 s); Word Jam (about 40 s) and Muzicando (three hands of
    # bots thinking up to a second each: about 2.5 minutes) in make test-deep
    "turandot", pytest.param("wordjam", marks=pytest.mark.deep),
    pytest.param("muzicando", marks=pytest.mark.deep)])
def test_a_guided_game_in_english_through_the_page(open_page, web_server, ruleset):
    page = open_page("desktop").page
    gid = learn_from_lobby(page, "Lia", ruleset)
    view = api(web_server, "GET", f"/v1/games/{gid}")
    setup = guide.guided_setup(ruleset, "en")
    assert view["guided"] is True and view["seats_total"] == setup["players"]
    assert [p["bot"] for p in view["players"][1:]] == setup["bots"]
    first = shown_step(page, web_server, gid, "en")
    check_why(page, first["rule_title"])
    keys = {first["key"]}
    moves = 0
    while True:
        page.wait_for_selector(MINE_OR_OVER, timeout=60_000)
        if status(page) == "finished":
            break
        keys.add(shown_step(page, web_server, gid, "en")["key"])
        MOVES[ruleset](page, web_server, gid)
        moves += 1
        assert moves < 300, "the guided game does not end"
    last = shown_step(page, web_server, gid, "en")
    assert last["key"] == "finished" and len(keys) >= 3, keys
    replay = api(web_server, "GET", f"/v1/games/{gid}/replay")
    assert replay["seed"] == setup["seed"]
    assert all(by != "deadline" for _, _, by in replay["moves"])


@pytest.mark.deep
@pytest.mark.parametrize("ruleset, locale, lang", [
    ("turandot", "it-IT", "it"), ("wordjam", "fr-FR", "fr"), ("muzicando", "de-DE", "de")])
def test_a_guided_game_in_another_language(open_page, web_server, ruleset, locale, lang):
    page = open_page("phone", locale=locale).page
    gid = learn_from_lobby(page, "Lia", ruleset)
    token = seat_token(page, gid)
    first = shown_step(page, web_server, gid, lang)
    check_why(page, first["rule_title"])
    for _ in range(400):
        page.wait_for_selector(MINE_OR_OVER, timeout=60_000)
        if status(page) == "finished":
            break
        shown_step(page, web_server, gid, lang)
        before = version(page)
        actions = api(web_server, "GET", f"/v1/games/{gid}/actions", token)
        resp = requests.post(
            f"{web_server}/v1/games/{gid}/moves", json=actions["default"], timeout=30,
            headers={"Authorization": f"Bearer {token}", "If-Match": f'"{before}"'})
        assert resp.status_code in (200, 412), resp.text  # 412: the page moved on meanwhile
        after_move(page, before)
    else:
        raise AssertionError("the guided game does not end")
    assert shown_step(page, web_server, gid, lang)["key"] == "finished"
