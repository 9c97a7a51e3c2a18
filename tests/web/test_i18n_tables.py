"""The three game tables in the page's language (docs/web.md, "Languages"): one game of each
ruleset played to the end in Italian, German, French and English, and on the Italian page every
screen the player meets (each kind of decision, the final score, the replay) walked for English
left over; and every ruleset's refusal of a move has its sentence in every catalogue.

The games are the smallest the rules allow, with bots that move at once (``bot_seconds`` 0):
Turandot for two (with the dummy), Word Jam for five, Muzicando for two over two hands. The
player's moves are the engine's default moves (at Muzicando a card placed when one fits), sent
through the API once the page has shown the screen that asks for them, so each game takes
seconds."""

from __future__ import annotations

import time

import pytest
import requests
from impresario_rules.muzicando.declarations import REFUSALS as MUZICANDO
from impresario_rules.turandot.declarations import REFUSALS as TURANDOT
from impresario_rules.wordjam.declarations import REFUSALS as WORDJAM

from .test_i18n import LANGS, english_left, load, switch_language
from .web_helpers import api, game_id

GAMES = {
    "turandot": {"players": 2, "options": {}},
    "wordjam": {"players": 5, "options": {"think_seconds": 60, "bet_seconds": 60, "thief_seconds": 60,
                                          "challenge_seconds": 60, "vote_seconds": 60}},
    "muzicando": {"players": 2, "options": {"hands": 2}},
}


def test_every_refusal_of_a_move_has_its_sentence_in_every_catalogue():
    catalogues = {lang: load(lang) for lang in LANGS}
    codes = {code for refusals in (TURANDOT, WORDJAM, MUZICANDO)
             for code in (*refusals.illegal, *refusals.not_now, *refusals.stale)}
    assert {"empty_bid", "stale_round", "cell_occupied", "word_already_used"} <= codes
    missing = [f"{lang}: error.{code}" for lang, cat in catalogues.items() for code in sorted(codes)
               if f"error.{code}" not in cat]
    assert missing == []


def explained(page, code: str, detail: str) -> str:
    return page.evaluate("""async ([code, detail]) => {
      const api = await import('/web/shared/api.js');
      return api.explain(new api.Problem(422, {code, detail}));
    }""", [code, detail])


def new_game(base: str, ruleset: str) -> str:
    spec = GAMES[ruleset]
    created = api(base, "POST", "/v1/games", json={
        "ruleset": ruleset, "players": spec["players"], "seed": 7,
        "options": {**spec["options"], "bot_seconds": 0}})
    gid, host = created["game"]["id"], created["host_token"]
    for i in range(spec["players"] - 1):
        api(base, "POST", f"/v1/games/{gid}/seats", host, json={"name": f"Robo{i + 1}", "bot": "easy"})
    return gid


def sit_down(page, gid: str) -> str:
    """Take the free seat through the join page (in its language); this browser's seat token."""
    page.goto(f"/#/join/{gid}")
    page.fill("#join-name", "Lia")
    page.press("#join-name", "Enter")
    page.wait_for_selector(".game[data-status='playing'], .game[data-status='finished']")
    assert game_id(page) == gid
    return page.evaluate("id => JSON.parse(localStorage.getItem('impresario:game:' + id)).token", gid)


def screen(actions: dict) -> str:
    """What the player is asked for: the kinds of moves, as the table draws a screen for them."""
    return " ".join(sorted({m["type"] for m in actions["moves"]}))


def quick_move(actions: dict) -> dict | None:
    """The engine's default move, but a card placed when one fits (Muzicando's default is to
    pass, which makes a hand last)."""
    for space in actions["moves"]:
        if space["type"] == "place":
            for option in space["cards"]:
                if option["cells"]:
                    cell = option["cells"][0]
                    return {"type": "place", "card": option["card"], "x": cell["x"], "y": cell["y"]}
    return actions.get("default")


def play_to_the_end(page, base: str, gid: str, token: str, check=None) -> set[str]:
    """The player's moves through the API, at the engine's pace; with ``check``, on each new
    kind of screen the page is waited for (it shows that version, and that it is this seat's
    turn) and ``check(page)`` walks it. The screens met."""
    seen: set[str] = set()
    auth = {"Authorization": f"Bearer {token}"}
    for _ in range(1000):
        actions = api(base, "GET", f"/v1/games/{gid}/actions", token)
        kind = screen(actions)
        if not kind:
            if api(base, "GET", f"/v1/games/{gid}", token)["status"] == "finished":
                page.wait_for_selector(".game[data-status='finished']")
                return seen
            time.sleep(0.05)  # the bots' turn: they move inside the requests that make it theirs
            continue
        if kind not in seen and check is not None:
            page.wait_for_function(
                "v => { const g = document.querySelector('.game');"
                " return g && Number(g.dataset.version) >= v && g.dataset.mine === '1'; }",
                arg=api(base, "GET", f"/v1/games/{gid}", token)["version"])
            check(page)
        seen.add(kind)
        requests.post(f"{base}/v1/games/{gid}/moves", json=quick_move(actions), timeout=30, headers=auth)
    raise AssertionError("the game does not end")


@pytest.mark.slow
# Turandot's whole game in make test; the other two in make test-deep
@pytest.mark.parametrize("ruleset", [r if r == "turandot" else pytest.param(r, marks=pytest.mark.deep)
                                     for r in sorted(GAMES)])
def test_a_whole_game_in_each_language_leaves_no_english(open_page, shot, web_server, ruleset):
    for lang in ("it", "de", "fr", "en"):
        page = open_page("desktop", locale=f"{lang}-{lang.upper()}" if lang != "en" else "en-GB").page
        gid = new_game(web_server, ruleset)
        token = sit_down(page, gid)
        assert page.get_attribute("html", "lang") == lang

        def check(page, lang=lang):
            page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })")
            left = english_left(page, lang)
            assert left == [], f"{ruleset}, {lang}:\n" + "\n".join(left)

        # every screen on the Italian page; the others at the end (a cheaper walk)
        seen = play_to_the_end(page, web_server, gid, token, check if lang == "it" else None)
        assert seen, "the player was never asked for a move"
        final = page.locator("section.finished")
        final.wait_for()
        # the final score, the log of what happened and "how to play", opened; the log's last
        # line (the game_finished event, which the feed brings after the state that says
        # "finished") waited for, so the walk reads the whole screen
        page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })")
        page.wait_for_function("text => document.querySelector('main').innerText.includes(text)",
                               arg=load(lang)["tables.game_finished"])
        if lang != "en":
            left = english_left(page, lang)
            assert left == [], f"{ruleset}, {lang}:\n" + "\n".join(left)
        if lang in ("it", "de"):
            shot(page, f"i18n-{ruleset}-final-{lang}")
        if lang == "it":  # the replay viewer draws the same table: the deal, a move, the end
            it = load("it")
            page.click("section.finished a[href*='/replay/']")
            page.wait_for_selector("[data-testid=replay-move]")
            page.click(f"[aria-label='{it['replay.next_move']}']")
            page.wait_for_function("() => document.querySelector('[data-testid=replay-move]').textContent"
                                   " !== " + repr(it["replay.deal"]))
            check(page)
            page.click(f"[aria-label='{it['replay.last']}']")
            page.wait_for_selector(".score")
            check(page)
    # the walk is not vacuous: the English final screen has English in it; switched to Italian
    # (no reload), none is left
    assert len(english_left(page, "it")) > 5
    switch_language(page, "it")
    left = english_left(page, "it")
    assert left == [], f"{ruleset}, switched to it:\n" + "\n".join(left)


@pytest.mark.slow
def test_a_rulesets_refusal_is_worded_in_the_page_language(open_page):
    it, fr = load("it"), load("fr")
    page = open_page("desktop", locale="it-IT").page
    page.goto("/")
    page.wait_for_selector(".lobby h1")
    assert explained(page, "empty_bid", "a bid needs a number card") == it["error.empty_bid"]
    assert explained(page, "cell_occupied", "(0, 1) already holds red-3") == it["error.cell_occupied"]
    switch_language(page, "fr")
    assert explained(page, "stale_round", "this bid is for round 2") == fr["error.stale_round"]
    # in English the engine's own words, which name the slot or the cell
    switch_language(page, "en")
    assert explained(page, "cell_occupied", "(0, 1) already holds red-3") == "(0, 1) already holds red-3."
