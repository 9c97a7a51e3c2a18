"""The pace a table chooses, at the browser (issue 39): the lobby's forms offer it (relaxed
against bots), "Play now" takes it, the table and the list show it; a Word Jam window's buttons
are on screen when it opens at 1280×800; and a newcomer's relaxed Word Jam against bots leaves
time for every decision (deep)."""

from __future__ import annotations

import time

import pytest

from .web_helpers import MINE_OR_OVER, api, game_id, sit_at, status, version

BOTS = ["Robo", "Rita", "Rex", "Ruby", "Rolf"]
#: long windows: only the page's clicks move seat 0
WINDOWS = {f"{window}_seconds": 3600 for window in ("think", "bet", "thief", "challenge", "vote")}


def _word_jam_against_bots(base: str, bots: int, options: dict) -> tuple[str, str]:
    """A Word Jam of seat 0 (the browser's) and ``bots`` easy bots; its id and seat 0's token."""
    created = api(base, "POST", "/v1/games", json={"ruleset": "wordjam", "players": bots + 1,
                                                   "seed": 7, "options": options})
    gid, host = created["game"]["id"], created["host_token"]
    token = api(base, "POST", f"/v1/games/{gid}/seats", host, json={"name": "Lia"})["token"]
    for name in BOTS[:bots]:
        api(base, "POST", f"/v1/games/{gid}/seats", host, json={"name": name, "bot": "easy"})
    return gid, token


def _listed(base: str, gid: str, status_: str) -> dict:
    """The game's options as the list of games shows them."""
    games = api(base, "GET", f"/v1/games?status={status_}&limit=100")["games"]
    return next(g for g in games if g["id"] == gid)["options"]


ON_SCREEN = """sel => { const els = [...document.querySelectorAll(sel)];
  return els.length > 0 && els.every((el) => { const r = el.getBoundingClientRect();
    return r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight; }); }"""


def test_a_window_s_buttons_are_on_screen_when_it_opens(open_page, web_server):
    """At 1280×800 the challenge, vote and bet panels open below the board: the page brings
    their buttons on screen, without the player scrolling. Bots that move at once, so each
    window opens as soon as the page's click closes the one before."""
    gid, token = _word_jam_against_bots(web_server, 4, {**WINDOWS, "bot_seconds": 0})
    page = open_page("laptop").page
    sit_at(page, gid, token)
    seen: set[str] = set()
    for _ in range(60):
        if {"challenge", "side"} <= seen or status(page) == "finished":
            break
        page.wait_for_selector(MINE_OR_OVER, timeout=60_000)
        if status(page) == "finished":
            break
        before = version(page)
        if page.locator("#call-word").count():
            page.get_by_role("button", name="I have nothing this turn").click()
        else:
            for kind, buttons, click in (
                    ("challenge", "#challenge-title ~ .big-choice button", "Let it stand"),
                    ("vote", "#vote-title ~ .big-choice button", "Keep it"),
                    ("side", "#side-title ~ .big-choice button", "Trust Alì Babà")):
                if page.locator(buttons).count():
                    seen.add(kind)
                    page.wait_for_function(ON_SCREEN, arg=buttons, timeout=10_000)
                    page.get_by_role("button", name=click).click()
                    break
            else:
                page.get_by_role("button", name="Pass", exact=True).click()
        page.wait_for_function(
            "v => Number(document.querySelector('.game').dataset.version) > v", arg=before)
    assert {"challenge", "side"} <= seen, seen


def test_the_lobby_s_form_offers_the_paces_relaxed_against_bots(open_page, web_server):
    page = open_page("desktop").page
    page.goto("/")
    page.fill("#player-name", "Lia")
    for ruleset in ("turandot", "wordjam", "muzicando"):
        page.click(f"[data-ruleset={ruleset}] >> text=Set up a table…")
        select = page.locator(f"#create-{ruleset}-pace")
        select.wait_for()
        names = select.locator("option").evaluate_all("os => os.map((o) => o.value)")
        assert names == ["", "relaxed", "normal", "fast"]
        assert select.input_value() == "relaxed"  # every seat but the player's is a bot
        page.fill(f"#create-{ruleset}-bots", "0")
        assert select.input_value() == ""  # a table of people: each option as set
        page.fill(f"#create-{ruleset}-bots", "1")
        assert select.input_value() == "relaxed"
        page.click(f"[data-ruleset={ruleset}] >> text=Cancel")
    # a relaxed Word Jam: the form shows the pace's windows, and sends none of them
    page.click("[data-ruleset=wordjam] >> text=Set up a table…")
    page.locator("#create-wordjam-pace").wait_for()
    assert page.input_value("#create-wordjam-think_seconds") == "240"
    assert page.input_value("#create-wordjam-bet_seconds") == "45"
    page.fill("#create-wordjam-vote_seconds", "50")  # one changed: it wins over the pace
    page.click("text=Create the table")
    page.wait_for_selector(".game[data-status='playing']")
    gid = game_id(page)
    view = api(web_server, "GET", f"/v1/games/{gid}")
    assert view["pace"] == "relaxed" and view["bot_seconds"] == 60
    options = _listed(web_server, gid, "playing")
    assert options["think_seconds"] == 240 and options["vote_seconds"] == 50
    assert page.inner_text("[data-testid=pace]") == "relaxed pace"


def test_play_now_is_relaxed_and_the_list_shows_the_pace(open_page, web_server):
    page = open_page("desktop").page
    page.goto("/")
    page.fill("#player-name", "Lia")
    page.click("[data-ruleset=turandot] button.primary")
    page.wait_for_selector(".game[data-status='playing'], .game[data-status='finished']")
    gid = game_id(page)
    view = api(web_server, "GET", f"/v1/games/{gid}")
    assert view["pace"] == "relaxed" and view["move_seconds"] == 300 and view["bot_seconds"] == 0
    page.wait_for_selector("[data-testid=pace]")
    assert page.inner_text("[data-testid=pace]") == "relaxed pace"
    # an open table at a pace: the list says it
    created = api(web_server, "POST", "/v1/games", json={
        "ruleset": "muzicando", "players": 3, "options": {"pace": "fast"}})
    page.goto("/")
    item = page.locator(f"[data-game='{created['game']['id']}']")
    item.wait_for()
    assert "fast pace" in item.inner_text()


#: how long the scripted newcomer takes over each decision: the issue's reading and clicking
DECISION_SECONDS = 20


@pytest.mark.deep
@pytest.mark.timeout(3600)  # every window the player acts in takes 20 s: about half an hour
def test_a_newcomer_taking_20_s_a_decision_never_gets_a_default_at_a_relaxed_word_jam(
        open_page, web_server):
    """A relaxed Word Jam against five bots, the player scripted through the page: each
    decision takes DECISION_SECONDS from when the page shows it, then one click. A decision is
    each panel the page shows the seat, one for each window it must act in: the call (the
    player has nothing: "I have nothing this turn"), a challenge ("Let it stand"), a vote
    ("Keep it"), a bet or turn 8's side ("Trust Alì Babà"), the thieves' window ("Pass").
    The whole game, its eight turns and any extra ones: the engine must never play a default
    for the player's seat (no ``deadline_passed`` event of seat 0).

    The windows are the relaxed pace's. Only the bots' think time is given explicitly (the
    explicit option wins), 3 s instead of the pace's minute: the bots' speed does not shorten
    any window the player has, and a game of bots taking up to a minute a move would take an
    hour."""
    gid, token = _word_jam_against_bots(web_server, 5, {"pace": "relaxed", "bot_seconds": 3})
    options = _listed(web_server, gid, "playing")
    assert options["pace"] == "relaxed" and options["challenge_seconds"] == 40
    page = open_page("laptop").page
    sit_at(page, gid, token)
    decisions = 0
    clicks = (("#call-word", "I have nothing this turn"),
              ("#challenge-title", "Let it stand"), ("#vote-title", "Keep it"),
              ("#side-title", "Trust Alì Babà"), ("#thief-word", "Pass"))

    def panel() -> tuple[str, str, str] | None:
        """The decision the page shows the seat: its panel, its button and its title's text
        (a new window of the same kind is a new decision); None when it shows none. Read in
        one step, so a panel that goes while it is read is not half seen."""
        found = page.evaluate(
            """sels => { if (!document.querySelector("[data-mine='1']")) return null;
              for (const sel of sels) { const el = document.querySelector(sel);
                if (el) return [sel, sel.endsWith("-title") ? el.textContent : ""]; }
              return null; }""", [sel for sel, _ in clicks])
        return (found[0], dict(clicks)[found[0]], found[1]) if found else None

    while True:
        page.wait_for_selector(MINE_OR_OVER, timeout=300_000)
        if status(page) == "finished":
            break
        shown = panel()
        assert shown, "my move, but nothing to press: " + page.inner_text("main")
        # the newcomer reads for DECISION_SECONDS from when the page shows the decision: this is
        # the behaviour under test. A panel that gives way to another while they read (a bot's
        # call ends the call's window and opens a challenge) is a new decision, read in full.
        seen = time.monotonic()
        while time.monotonic() - seen < DECISION_SECONDS:
            time.sleep(0.2)
            now = panel()
            if now != shown:
                shown, seen = now, time.monotonic()
        if shown is None:
            continue  # the window closed without the player, and no other is theirs yet
        before = version(page)
        page.get_by_role("button", name=shown[1], exact=True).first.click()
        decisions += 1
        print(f"decision {decisions}: {shown[1]}", flush=True)
        page.wait_for_function(
            "v => Number(document.querySelector('.game').dataset.version) > v", arg=before,
            timeout=300_000)
    events = api(web_server, "GET", f"/v1/games/{gid}/events?after=0", token)["events"]
    late = [e for e in events if e["type"] == "deadline_passed" and e["seat"] == 0]
    assert late == [], late
    view = api(web_server, "GET", f"/v1/games/{gid}")
    assert view["turn"] >= 8 and decisions >= 8, (view["turn"], decisions)
