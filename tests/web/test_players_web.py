"""Players who come back, in headless Chromium (docs/web.md, "Players"): a game set up from the
lobby is the player's, and a second browser that becomes the same player through another
device's link (its QR code drawn by the engine) finds it in "My games", resumes it and plays;
the first browser's table then finds its seat gone, offers it back and takes it back, and a
reload takes it back too; a move sent with a seat token that another device ended takes the
seat back and asks for the move again; play now with people, cancelled, then seated with bots
once the wait is over; a ruleset's leaderboard and a player's profile in the four languages,
with ratings of real rated games; renaming and forgetting the player; axe-core on the new
views; and the QR route itself (``POST /web/qr``)."""

from __future__ import annotations

import io
import re
import time
from typing import Any

import pytest
import requests
import segno

from .test_accessibility import axe_violations, in_each_language, report
from .test_i18n import english_left, load, switch_language
from .web_helpers import (MINE_OR_OVER, api, play_defaults, start_from_lobby, status,
                          turandot_move, version)

LANGS = ("en", "it", "de", "fr")
PLAYER = "JSON.parse(localStorage.getItem('impresario:player'))"


def stored_player(page) -> dict[str, Any] | None:
    """The player this browser is (localStorage), as the page keeps it."""
    return page.evaluate(PLAYER)


def become(page, player: dict[str, Any], token: str) -> None:
    """Make this browser the player (its credential kept as the page keeps it)."""
    page.goto("/")
    page.wait_for_selector(".lobby h1")
    page.evaluate("([p, token]) => localStorage.setItem('impresario:player', "
                  "JSON.stringify({id: p.id, name: p.name, token}))", [player, token])


def said(lang: str, key: str, **params: Any) -> str:
    """The catalogue's words of ``key`` in ``lang`` (a plural's ``other`` form), filled in."""
    value = load(lang)[key]
    text = value["other"] if isinstance(value, dict) else value
    for name, filled in params.items():
        text = text.replace("{" + name + "}", str(filled))
    return text


def qr_of(text: str) -> str:
    """segno's QR code of ``text``, drawn as the engine draws it (api/web.py): the route's
    answer is exactly this, so the picture holds that text and no other."""
    out = io.BytesIO()
    segno.make(text, error="m", micro=False).save(out, kind="svg", scale=6, border=4,
                                                   dark="#000", light="#fff", xmldecl=False)
    return out.getvalue().decode()


def rated_games(base: str, name: str, games: int) -> tuple[dict[str, Any], str]:
    """A player made through the API who has finished ``games`` rated Muzicando games (two
    players, two hands) against the medium bot, each played with the seat's default moves; the
    player and its credential, once every game is rated."""
    made = api(base, "POST", "/v1/players", json={"name": name})
    player, credential = made["player"], made["token"]
    for _ in range(games):
        created = api(base, "POST", "/v1/games", credential, json={
            "ruleset": "muzicando", "players": 2, "options": {"mode": "individual", "hands": 2}})
        gid, host = created["game"]["id"], created["host_token"]
        seat = api(base, "POST", f"/v1/games/{gid}/seats", host, json={"name": name})["token"]
        api(base, "POST", f"/v1/games/{gid}/seats", host, json={"name": "Robo", "bot": "medium"})
        play_defaults(base, gid, [seat])
    deadline = time.monotonic() + 30
    while api(base, "GET", f"/v1/players/{player['id']}")["games"] < games:
        assert time.monotonic() < deadline, "the games were never rated"
        time.sleep(0.2)
    return player, credential


@pytest.mark.slow
def test_a_game_resumed_on_another_device_and_taken_back(open_page, shot, web_server):
    anna_rec = open_page("desktop")
    anna = anna_rec.page
    gid = start_from_lobby(anna, "Anna", "turandot")
    anna.wait_for_selector(".game[data-mine='1']")
    me = stored_player(anna)
    assert me["name"] == "Anna" and me["token"].startswith("p_")
    # the game and the seat are the player's: the server lists them
    listed = api(web_server, "GET", "/v1/me/games", me["token"])["games"]
    assert [(g["id"], g["seat"], g["host"], g["your_move"]) for g in listed] == [(gid, 0, True, True)]

    # the lobby: my games, from the server, says whose move it is; another device's code
    anna.goto("/")
    mine = anna.locator(f"[data-testid=my-games] li[data-game='{gid}']")
    mine.wait_for()
    assert mine.get_attribute("data-your-move") == "1" and "your move" in mine.inner_text()
    anna.get_by_role("button", name="Play on another device…").click()
    anna.wait_for_selector("[data-testid=device-code]")
    code = anna.inner_text("[data-testid=device-code]")
    link = anna.input_value("#device-link")
    assert re.fullmatch(r"[2-9A-HJ-NP-Z]{10}", code) and link == f"{web_server}/#claim={code}"
    # the QR code is the engine's (segno's) drawing of the link, shown as an image the page's
    # policy allows
    qr = anna.locator("img[data-testid=device-qr]")
    qr.wait_for()
    anna.wait_for_function("() => document.querySelector('img.qr').naturalWidth > 0")
    assert anna.evaluate("() => decodeURIComponent(document.querySelector('img.qr').src.split(',')[1])") \
        == qr_of(link)
    shot(anna, "players-device-desktop")
    # the code is in no URL the page asked for: the QR's text went in the body
    asked = [r.url for r in anna_rec.responses]
    assert any(u.endswith("/web/qr") for u in asked) and not any(code in u for u in asked)
    mine.get_by_role("link", name="Open").click()
    anna.wait_for_selector(".game[data-mine='1']")

    # another device opens the link: it becomes Anna, with a credential of its own, and the
    # code leaves the address bar
    bruno_rec = open_page("phone")
    phone = bruno_rec.page
    phone.goto(link)
    phone.wait_for_selector(".lobby .alert-notice")
    assert "You are Anna on this device now" in phone.inner_text(".alert-notice")
    assert code not in phone.evaluate("location.href")
    there = stored_player(phone)
    assert there["id"] == me["id"] and there["token"] != me["token"]
    # my games lists the game there; this device has no token for it: it resumes the seat
    item = phone.locator(f"[data-testid=my-games] li[data-game='{gid}']")
    item.wait_for()
    assert item.get_attribute("data-your-move") == "1"
    shot(phone, "players-my-games-phone")
    item.get_by_role("button", name="Continue here: Turandot").click()
    phone.wait_for_selector(".game[data-mine='1']")
    assert "You are Anna" in phone.inner_text(".who")
    old_seat = anna.evaluate(f"JSON.parse(localStorage.getItem('impresario:game:{gid}')).token")
    resp = requests.get(f"{web_server}/v1/games/{gid}", timeout=30,
                        headers={"Authorization": f"Bearer {old_seat}"})
    assert resp.status_code == 401 and resp.json()["code"] == "invalid_token"
    turandot_move(phone)

    # the laptop's table finds the seat gone (its feed is refused): it says so and offers the
    # seat back, rather than taking it from the phone by itself
    elsewhere = anna.locator("[data-testid=elsewhere]")
    elsewhere.wait_for(timeout=30_000)
    assert "You opened this game on another device" in elsewhere.inner_text()
    assert anna.get_attribute(".game", "data-mine") == "0"
    shot(anna, "players-elsewhere-desktop")
    elsewhere.get_by_role("button", name="Play here").click()
    anna.wait_for_selector(".alert-notice")
    assert "Your seat is on this device now" in anna.inner_text(".alert-notice")
    assert "You are Anna" in anna.inner_text(".who")
    anna.wait_for_selector(MINE_OR_OVER, timeout=60_000)
    assert status(anna) == "playing"
    turandot_move(anna)

    # and now the phone's seat is the one gone; a reload there takes it back at once
    phone.locator("[data-testid=elsewhere]").wait_for(timeout=30_000)
    phone.reload()
    phone.wait_for_selector(".alert-notice")
    assert "Your seat is on this device now" in phone.inner_text(".alert-notice")
    phone.wait_for_selector(MINE_OR_OVER, timeout=60_000)
    assert "You are Anna" in phone.inner_text(".who")
    anna.locator("[data-testid=elsewhere]").wait_for(timeout=30_000)


@pytest.mark.slow
def test_a_move_sent_with_an_ended_seat_token_takes_the_seat_back(open_page, web_server):
    page = open_page("desktop").page
    gid = start_from_lobby(page, "Carla", "turandot")
    page.wait_for_selector(".game[data-mine='1']")
    # the page follows nothing more: it cannot notice the seat going elsewhere before it acts
    page.route(re.compile(r"/(stream-tickets|events)(\?|$)"), lambda route: route.abort())
    me = stored_player(page)
    # another device becomes Carla and resumes her seat there
    code = api(web_server, "POST", "/v1/me/device-codes", me["token"])["code"]
    other = api(web_server, "POST", "/v1/players/claim", json={"code": code})["token"]
    there = api(web_server, "POST", f"/v1/me/games/{gid}/resume", other)["token"]
    before = version(page)
    turandot_move(page)  # refused (401): the seat comes back, and the page shows it anew
    # two resumes (the other device's, then this one's) and no move: the version of each
    assert version(page) == before + 2
    notice = page.inner_text(".alert-notice")
    assert "that move was not sent" in notice and "make your move again" in notice
    page.wait_for_selector(".game[data-mine='1']")
    assert "You are Carla" in page.inner_text(".who")
    resp = requests.get(f"{web_server}/v1/games/{gid}", timeout=30,
                        headers={"Authorization": f"Bearer {there}"})
    assert resp.status_code == 401  # the other device's token ended in turn
    turandot_move(page)  # and the move is made, with the seat's new token


@pytest.mark.slow
def test_play_now_with_people_waits_can_stop_and_seats_with_bots(open_page, shot, web_server):
    page = open_page("phone").page
    page.goto("/")
    page.fill("#player-name", "Quinn")
    match = page.locator("[data-testid=quick-match]")
    match.wait_for()
    page.select_option("#match-ruleset", "turandot")
    page.select_option("#match-players", "2")
    page.select_option("#match-wait", "300")
    match.get_by_role("button", name="Find a table").click()
    match.get_by_role("status").wait_for()
    assert "Looking for players: Turandot, a table of 2" in match.inner_text()
    assert "bots take the empty seats after 5 minutes" in match.inner_text()
    assert "rating points of yours" in page.inner_text("[data-testid=match-window]")
    shot(page, "players-match-waiting-phone")
    me = stored_player(page)
    assert me["name"] == "Quinn"
    assert api(web_server, "GET", "/v1/match", me["token"])["status"] == "waiting"
    match.get_by_role("button", name="Stop waiting").click()
    match.get_by_role("button", name="Find a table").wait_for()
    resp = requests.get(f"{web_server}/v1/match", timeout=30,
                        headers={"Authorization": f"Bearer {me['token']}"})
    assert resp.status_code == 404 and resp.json()["code"] == "not_waiting"

    # a short wait: nobody else comes, a bot takes the other seat, the table opens
    page.select_option("#match-wait", "10")
    started = time.monotonic()
    match.get_by_role("button", name="Find a table").click()
    page.wait_for_selector(".game[data-status='playing']", timeout=40_000)
    assert time.monotonic() - started >= 9
    assert "You are Quinn" in page.inner_text(".who")
    gid = page.evaluate("location.hash").split("/")[2]
    view = api(web_server, "GET", f"/v1/games/{gid}")
    assert view["players"][0]["name"] == "Quinn" and view["players"][1]["bot"]
    assert [g["id"] for g in api(web_server, "GET", "/v1/me/games", me["token"])["games"]] == [gid]


@pytest.mark.slow
def test_the_leaderboard_and_the_profile_in_four_languages(open_page, shot, web_server):
    lena, credential = rated_games(web_server, "Lena", 5)
    page = open_page("desktop").page
    become(page, lena, credential)
    for lang in LANGS:
        page.goto("/#/leaderboard/muzicando")
        if page.get_attribute("html", "lang") != lang:
            switch_language(page, lang)
        page.wait_for_selector(f"[data-testid=leaderboard] tr[data-player='{lena['id']}']")
        assert page.inner_text("h1").startswith(said(lang, "board.title"))
        row = page.locator(f"tr[data-player='{lena['id']}']")
        assert "Lena" in row.inner_text() and said(lang, "ui.you_badge") in row.inner_text()
        assert said(lang, "board.about", n=5) in page.inner_text("main")
        # the medium bot is a rated player too, named by its level in the page's language
        bot = said(lang, "players.bot_name", level=said(lang, "bot.medium"))
        assert bot in page.inner_text("[data-testid=leaderboard]")
        names = tuple(page.locator("[data-testid=leaderboard] tbody th a").all_inner_texts())
        if lang != "en":
            left = english_left(page, lang, names=tuple(n for n in names if n != bot))
            assert left == [], "\n".join(left)
        shot(page, f"players-leaderboard-{lang}-desktop")
        row.get_by_role("link", name="Lena").click()
        page.wait_for_selector("[data-testid=recent]")
        assert page.inner_text("h1").startswith("Lena")
        assert page.inner_text("[data-testid=profile-games]") == said(lang, "profile.games", n=5)
        rating = page.locator("[data-testid=ratings] tr[data-ruleset=muzicando]")
        assert rating.locator("td").nth(1).inner_text() == "5"
        assert page.locator("[data-testid=recent] tbody tr").count() == 5
        assert said(lang, "profile.rank", rank=1, n=2) in page.inner_text("[data-testid=recent]") \
            or said(lang, "profile.rank", rank=2, n=2) in page.inner_text("[data-testid=recent]")
        assert page.get_by_label(said(lang, "profile.name_label")).input_value() == "Lena"
        if lang != "en":
            left = english_left(page, lang, names=("Lena",))
            assert left == [], "\n".join(left)
        shot(page, f"players-profile-{lang}-desktop")
    # a name on the board leads to that player's profile: the bot's
    page.goto("/#/leaderboard/muzicando")
    switch_language(page, "en")
    page.get_by_role("link", name="medium bot").click()
    page.wait_for_selector("[data-testid=ratings]")
    assert page.inner_text("h1").startswith("medium bot") and "a level of the engine's bots" in page.inner_text("h1")
    assert page.locator("[data-testid=my-player]").count() == 0  # not mine: no rename, no forget


@pytest.mark.slow
def test_the_player_renames_and_forgets_themselves_on_their_profile(open_page, shot, web_server):
    maxi, credential = rated_games(web_server, "Maxi", 1)
    page = open_page("phone").page
    become(page, maxi, credential)
    page.goto(f"/#/player/{maxi['id']}")
    page.wait_for_selector("[data-testid=my-player]")
    page.fill("#profile-name", "Maximilian")
    page.get_by_role("button", name="Rename").click()
    page.wait_for_selector("text=Your name is Maximilian now.")
    page.wait_for_function("() => document.querySelector('h1').textContent.startsWith('Maximilian')")
    assert api(web_server, "GET", f"/v1/players/{maxi['id']}")["player"]["name"] == "Maximilian"
    assert stored_player(page)["name"] == "Maximilian"

    page.get_by_role("button", name="Forget me…").click()
    dialog = page.locator("dialog[open]")
    dialog.wait_for()
    assert "This cannot be undone" in dialog.inner_text()
    shot(page, "players-forget-phone")
    dialog.get_by_role("button", name="Keep my player").click()  # changed their mind
    page.wait_for_selector("dialog[open]", state="detached")
    assert api(web_server, "GET", "/v1/me", credential)["player"]["id"] == maxi["id"]
    page.get_by_role("button", name="Forget me…").click()
    page.locator("dialog[open]").get_by_role("button", name="Forget me", exact=True).click()
    page.wait_for_selector(".lobby .alert-notice")
    assert "Your player was removed" in page.inner_text(".alert-notice")
    assert stored_player(page) is None
    gone = requests.get(f"{web_server}/v1/me", timeout=30, headers={"Authorization": f"Bearer {credential}"})
    assert gone.status_code == 401
    page.goto(f"/#/player/{maxi['id']}")
    page.wait_for_selector(".alert-error")
    assert "There is no such player" in page.inner_text(".alert-error")


@pytest.mark.slow
def test_the_new_views_have_no_serious_accessibility_violation(open_page, web_server):
    player, credential = rated_games(web_server, "Ada", 1)
    page = open_page("desktop").page
    page.emulate_media(reduced_motion="reduce")
    become(page, player, credential)
    found = []
    # the lobby with my games, play now with people, the player and another device's panel
    page.goto("/")
    page.wait_for_selector("[data-testid=my-games] li[data-game]")
    page.get_by_role("button", name="Play on another device…").click()
    page.wait_for_selector("img[data-testid=device-qr]")
    found += in_each_language(page, "lobby, another device")
    # waiting for a table
    switch_language(page, "en")
    page.select_option("#match-wait", "300")
    page.get_by_role("button", name="Find a table").click()
    page.locator("[data-testid=quick-match] [role=status]").wait_for()
    found += in_each_language(page, "lobby, waiting for a table")
    switch_language(page, "en")
    page.get_by_role("button", name="Stop waiting").click()
    page.get_by_role("button", name="Find a table").wait_for()
    for where, path, ready in (
            ("leaderboard", "/#/leaderboard/muzicando", ".leaderboard [data-testid=leaderboard], .leaderboard p"),
            ("my profile", f"/#/player/{player['id']}", "[data-testid=recent]"),
            ("claim page", "/#/claim", "#claim-code")):
        page.goto(path)
        page.wait_for_selector(ready)
        found += in_each_language(page, where)
    # the confirmation before forgetting the player
    page.goto(f"/#/player/{player['id']}")
    page.get_by_role("button", name=re.compile("Forget me|Dimenticami")).click()
    page.locator("dialog[open]").wait_for()
    found += [dict(v, where="forget dialog") for v in axe_violations(page)]
    assert not found, report(found)


def test_the_qr_route_draws_a_text_and_refuses_what_it_should_not(web_server):
    text = "https://play.example/#claim=7KQ2MZ4C"
    resp = requests.post(f"{web_server}/web/qr", json={"text": text}, timeout=30)
    assert resp.status_code == 200 and resp.headers["Content-Type"] == "image/svg+xml"
    assert resp.headers["Cache-Control"] == "no-store"  # it may carry a device code
    assert "default-src 'none'" in resp.headers["Content-Security-Policy"]
    assert resp.text == qr_of(text)
    assert resp.text != qr_of(text.replace("7KQ2", "7KQ3"))
    # what the page's policy lets it show: a data: image
    assert "img-src 'self' data:" in requests.get(f"{web_server}/", timeout=30).headers[
        "Content-Security-Policy"]
    for body in ({"text": ""}, {"text": "x" * 257}, {"text": 7}, {}, ["x"], {"text": "a\nb"}):
        refused = requests.post(f"{web_server}/web/qr", json=body, timeout=30)
        assert refused.status_code == 422, body
        assert refused.headers["Content-Type"] == "application/problem+json"
        assert refused.json()["code"] == "invalid_qr_text"
    assert requests.post(f"{web_server}/web/qr", json={"text": "x" * 256}, timeout=30).ok
    form = requests.post(f"{web_server}/web/qr", data={"text": text}, timeout=30)
    assert form.status_code == 415 and form.json()["code"] == "unsupported_media_type"
    broken = requests.post(f"{web_server}/web/qr", data=b"{", timeout=30,
                           headers={"Content-Type": "application/json"})
    assert broken.status_code == 400 and broken.json()["code"] == "malformed_json"
    # the text is never in a URL: there is no GET of it
    assert requests.get(f"{web_server}/web/qr", params={"text": text}, timeout=30).status_code == 404
