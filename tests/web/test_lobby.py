"""The lobby in headless Chromium: another player's open table in the list of games and a seat
taken from it, the list's filters and pages, a private table joined through its join link,
leaving a table before and a game after the start, and a rematch two players ask for in two
browsers."""

from __future__ import annotations

import pytest

from .web_helpers import api, game_id, play_defaults, seat_token, set_up_table

pytestmark = pytest.mark.slow


def test_an_open_table_is_listed_and_joined_from_the_list(open_page, shot, web_server):
    anna = open_page("desktop").page
    gid = set_up_table(anna, "Anna", "turandot", 3, 1)
    bruno = open_page("phone").page
    bruno.goto("/")
    bruno.fill("#player-name", "Bruno")
    bruno.select_option("#list-ruleset", "turandot")
    item = bruno.locator(f"li[data-game='{gid}']")
    item.wait_for()
    text = item.inner_text()
    assert "Anna" in text and "Robo (bot)" in text and "1 seat free" in text, text
    shot(bruno, "lobby-list-phone")
    item.get_by_role("link", name="Join").click()
    bruno.wait_for_selector("#join-name")
    assert bruno.input_value("#join-name") == "Bruno"  # the lobby's name field, remembered
    # a name that looks like a seated player's is refused, in plain words
    bruno.fill("#join-name", "ANNA")
    bruno.click("text=Take a seat")
    bruno.wait_for_selector(".alert-error")
    assert "already has that name" in bruno.inner_text(".alert-error")
    bruno.fill("#join-name", "Bruno")
    bruno.click("text=Take a seat")
    for page in (anna, bruno):  # the last seat starts the game, on both pages
        page.wait_for_selector(".game[data-status='playing']")
    assert game_id(bruno) == gid
    assert [p["name"] for p in api(web_server, "GET", f"/v1/games/{gid}")["players"]] == [
        "Anna", "Robo", "Bruno"]


def test_the_list_filters_and_pages(open_page, web_server):
    ours = [api(web_server, "POST", "/v1/games", json={
        "ruleset": "muzicando", "players": 2, "options": {"mode": "individual", "hands": 2}})["game"]["id"]
        for _ in range(11)]
    page = open_page("desktop").page
    page.goto("/")
    page.select_option("#list-ruleset", "muzicando")
    page.select_option("#list-has_bots", "false")
    page.wait_for_selector(f"li[data-game='{ours[-1]}']")  # newest first
    listed = page.locator("[data-testid=game-list] li[data-game]")
    assert listed.count() == 10  # a page
    page.click("text=Show more tables")
    page.wait_for_selector(f"li[data-game='{ours[0]}']")
    ids = listed.evaluate_all("els => els.map(e => e.dataset.game)")
    assert set(ours) <= set(ids) and len(ids) == len(set(ids))
    assert all(g["ruleset"] == "muzicando" and not g["has_bots"] for g in
               api(web_server, "GET", "/v1/games?ruleset=muzicando&has_bots=false&limit=50")["games"])


def test_a_private_table_is_joined_through_its_join_link(open_page, shot, web_server):
    anna = open_page("desktop").page
    gid = set_up_table(anna, "Anna", "turandot", 2, 0, private=True)
    join = anna.input_value("#join-link")
    watch = anna.input_value("#watch-link")
    assert f"/#/join/{gid}?join=" in join and f"/#/game/{gid}?spectator=" in watch
    assert join.split("=")[1] != watch.split("=")[1]  # two links, two tokens
    shot(anna, "private-setup-desktop")
    listed = api(web_server, "GET", "/v1/games?ruleset=turandot&status=open&limit=50")["games"]
    assert gid not in [g["id"] for g in listed]

    # a spectator's link shows the table and never seats; a join page without the link says why
    cy_rec = open_page("phone")
    cy = cy_rec.page
    cy.goto(watch)
    cy.wait_for_selector(".game[data-status='open']")
    assert "You are watching (spectator link)" in cy.inner_text(".who")
    # the deal is made at the creation, but the table tells of it once the game has started
    assert "Round 1 begins" not in cy.text_content("main")
    # the link's token travels in the Authorization header, never in a URL the page requests;
    # the page's event streams (EventSource, which sends no header) carry a stream ticket the
    # page asked for with that header
    for _ in range(100):  # the page follows the table's event feed
        if any("/events" in r.url for r in cy_rec.responses):
            break
        cy.wait_for_timeout(100)
    token = watch.split("spectator=")[1]
    asked = [r for r in cy_rec.responses if "/v1/games/" in r.url]
    assert any("/events" in r.url for r in asked) and all(token not in r.url for r in asked)
    for r in asked:
        if r.request.resource_type == "eventsource":
            assert "ticket=" in r.url and "authorization" not in r.request.headers, r.url
        else:
            assert r.request.headers.get("authorization") == f"Bearer {token}", r.url
    assert any(r.request.resource_type == "eventsource" for r in asked)
    assert "ask the host for the join link" in cy.inner_text("section.setup")
    assert cy.locator("#seat-name").count() == 0
    cy.goto(f"/#/join/{gid}")
    cy.wait_for_selector(".alert-error")
    assert "needs its join link" in cy.inner_text(".alert-error")

    bruno = open_page("phone").page
    bruno.goto(join)
    bruno.fill("#join-name", "Bruno")
    bruno.click("text=Take a seat")
    for page in (anna, bruno):
        page.wait_for_selector("form.composer")
    assert "You are Bruno" in bruno.inner_text(".who")
    assert "Round 1 begins" in bruno.text_content("details.log")


def test_leaving_before_the_start_frees_the_seat_and_after_it_a_bot_plays(open_page, shot,
                                                                          web_server):
    anna = open_page("desktop").page
    gid = set_up_table(anna, "Anna", "turandot", 3, 0)
    link = anna.input_value("#join-link")
    bruno = open_page("phone").page
    bruno.goto(link)
    bruno.fill("#join-name", "Bruno")
    bruno.click("text=Take a seat")
    bruno.wait_for_selector("text=2 of 3 seated")
    bruno.click("text=Leave this table")
    bruno.wait_for_selector(".lobby .alert-notice")
    assert "You left the table" in bruno.inner_text(".alert-notice")
    anna.wait_for_selector("text=1 of 3 seated")  # Anna's page heard it
    assert api(web_server, "GET", f"/v1/games/{gid}")["players"][1]["name"] is None

    cy = open_page("phone").page
    cy.goto(link)
    cy.fill("#join-name", "Cy")
    cy.click("text=Take a seat")
    cy.wait_for_selector("text=2 of 3 seated")
    assert api(web_server, "GET", f"/v1/games/{gid}")["players"][1]["name"] == "Cy"  # seat 2 again
    anna.wait_for_selector("text=2 of 3 seated")
    anna.click("text=Add a bot")
    cy.wait_for_selector(".game[data-status='playing']")

    cy.click("text=Leave the game…")
    dialog = cy.locator("dialog[open]")
    dialog.wait_for()
    # the leave bot by its level's name (Turandot's leave_bot is greedy, an alias of medium)
    assert "the engine's medium bot plays your seat" in dialog.inner_text()
    shot(cy, "leave-dialog-phone")
    dialog.get_by_role("button", name="Leave the game").click()
    cy.wait_for_selector(".alert-notice")
    assert "You left the game" in cy.inner_text(".alert-notice")
    cy.wait_for_selector(".game")
    assert "You are watching" in cy.inner_text(".who")
    seat = api(web_server, "GET", f"/v1/games/{gid}")["players"][1]
    assert (seat["name"], seat["bot"]) == ("Cy", "greedy")


def test_a_rematch_asked_by_two_players_seats_both_in_one_game(open_page, shot, web_server):
    anna = open_page("desktop").page
    gid = set_up_table(anna, "Anna", "turandot", 2, 0)
    bruno = open_page("phone").page
    bruno.goto(anna.input_value("#join-link"))
    bruno.fill("#join-name", "Bruno")
    bruno.click("text=Take a seat")
    bruno.wait_for_selector(".game[data-status='playing']")
    play_defaults(web_server, gid, [seat_token(anna, gid), seat_token(bruno, gid)])
    for page in (anna, bruno):
        page.wait_for_selector("section.finished")

    anna.get_by_role("button", name="Rematch").click()
    anna.wait_for_selector("section.setup")
    rematch = game_id(anna)
    assert rematch != gid
    # the rematch is created with every seat held, then Anna's is given to her: the page may
    # show the first state for a moment, so wait for the one hold left
    from playwright.sync_api import expect

    held = anna.locator(".seat .badge-held")
    expect(held).to_have_count(1)
    assert "held for Bruno" in held.inner_text()
    shot(anna, "rematch-held-desktop")
    assert api(web_server, "GET", f"/v1/games/{gid}")["rematch"] == rematch

    # Bruno's finished table finds the rematch by itself and offers his seat in it
    bruno.get_by_role("button", name="Join the rematch").click()
    for page in (anna, bruno):
        page.wait_for_selector(".game[data-status='playing']")
        assert game_id(page) == rematch
    view = api(web_server, "GET", f"/v1/games/{rematch}")
    assert sorted(p["name"] for p in view["players"]) == ["Anna", "Bruno"]


def test_a_turn_based_table_set_up_shows_its_banks_in_the_list_and_at_the_table(open_page,
                                                                                 web_server):
    """A day a move and a three-day bank chosen in the form: the game has them, the list of
    games says so, and the table shows each player's bank beside whose move it is."""
    anna = open_page("desktop").page
    anna.goto("/")
    anna.fill("#player-name", "Anna")
    anna.click("[data-ruleset=turandot] >> text=Set up a table…")
    assert not anna.locator("#create-turandot-bank").count()  # only for a move of an hour or more
    anna.fill("#create-turandot-players", "3")
    anna.fill("#create-turandot-bots", "1")
    anna.select_option("#create-turandot-move", "86400")
    anna.select_option("#create-turandot-bank", "259200")
    anna.click("text=Create the table")
    anna.wait_for_selector("section.setup")
    gid = game_id(anna)
    view = api(web_server, "GET", f"/v1/games/{gid}")
    assert (view["move_seconds"], view["bank_seconds"], view["bank_refill_seconds"]) == (
        86400, 259200, 3600)
    bruno = open_page("phone").page
    bruno.goto("/")
    bruno.select_option("#list-ruleset", "turandot")
    item = bruno.locator(f"li[data-game='{gid}']")
    item.wait_for()
    assert "1 day a move" in item.inner_text() and "time bank 3 days, 1 hour back a move" in \
        item.inner_text(), item.inner_text()
    item.get_by_role("link", name="Join").click()
    bruno.fill("#join-name", "Bruno")
    bruno.click("text=Take a seat")
    for page in (anna, bruno):
        page.wait_for_selector("[data-testid=banks]")
        text = page.inner_text("[data-testid=banks]")
        assert "Time banks" in text and "Anna: 3 days" in text and "Bruno: 3 days" in text, text
