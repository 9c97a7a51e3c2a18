"""The calculators and the pure helpers of the browser client, in headless Chromium."""

from __future__ import annotations

import pytest

from .web_helpers import api

pytestmark = pytest.mark.slow


def test_the_turandot_calculator_finds_the_best_cast(open_page, shot, web_server):
    page = open_page("phone").page
    page.goto("/#/calc")
    page.wait_for_selector("[data-singer=S01]")
    singers = ["S04", "S01", "S10", "S02", "S03", "S07"]
    for sid in singers:
        page.check(f"[data-singer={sid}]")
    assert page.is_disabled("[data-singer=S20]")  # six is a cast
    page.select_option("#calc-director", "favourite_roles")
    page.fill("#calc-stage", "1")
    page.click("text=Find the best cast")
    result = page.locator("[data-testid=turandot-result]")
    result.wait_for()
    expected = api(web_server, "POST", "/v1/rulesets/turandot/score", json={
        "singers": singers, "director": "favourite_roles", "stage_elements": 1})
    assert f"Best cast: {expected['best']['total']} points" in result.inner_text()
    cards = result.locator(".tcard").evaluate_all("els => els.map(e => e.dataset.card)")
    assert cards == expected["best"]["roles"]
    shot(page, "calculator-phone")


def test_the_word_calculator_values_a_word(open_page, web_server):
    page = open_page("desktop").page
    page.goto("/#/calc")
    page.fill("#calc-word", "pinguino")
    page.click("text=Value the word")
    page.wait_for_selector("[data-testid=word-result]")
    assert page.inner_text("[data-testid=word-result]") == "pinguino: 8 coins."
    page.select_option("#coin-forbidden", "G")
    page.click("text=Value the word")
    page.wait_for_function("() => document.querySelector('[data-testid=word-result]')?.textContent.includes('not valid')")
    assert "forbidden consonant" in page.inner_text("[data-testid=word-result]")


HELPERS = """async () => {
  const feed = await import('/web/shared/feed.js');
  const fmt = await import('/web/shared/format.js');
  const mz = await import('/web/games/muzicando.js');
  const api = await import('/web/shared/api.js');
  const game = await import('/web/shared/game.js');
  const out = {};
  // the refusals a player must understand: what moved the game on, how long to wait
  const moved = (extra) => api.explain(new api.Problem(409, {code: 'deadline_passed', turn: 3, phase: 'bets', ...extra}));
  out.explained = [moved({cause: 'bot', default_played: false}), moved({cause: 'deadline', default_played: true}),
                   moved({cause: 'deadline', default_played: false}),
                   api.explain(new api.Problem(429, {code: 'create_rate_limited', detail: 'x'}, 42)),
                   api.explain(new api.Problem(422, {code: 'name_too_long', detail: 'names are at most 40 characters'}))];
  out.held = [...game.heldSeats([{type: 'seat_held', seat: 0, name: 'Anna', until: 9}, {type: 'seat_held', seat: 1, name: 'Bo', until: 9},
                                 {type: 'seat_taken', seat: 1, name: 'Bo'}]).entries()];
  const listed = {ruleset: 'muzicando', status: 'open', seats_taken: 2, seats_total: 4, options: {mode: 'team', hands: 4, move_seconds: 60},
                  seats: [{seat: 0, name: 'Anna', bot: null, held: true}, {seat: 1, name: 'Robo', bot: 'greedy', held: false}]};
  out.listed = [fmt.gameSummary(listed), fmt.seatLine(listed)];
  out.wordjam = fmt.gameSummary({ruleset: 'wordjam', seats_taken: 1, seats_total: 5, seats: [],
                                 options: {think_seconds: 120, language: 'en', dictionary: true}});
  out.alike = [fmt.looksAlike(' ANNA ', 'anna'), fmt.looksAlike('Ａnna', 'anna'), fmt.looksAlike('Anna', 'Ann')];
  // events split across network chunks, comments, CRLF, several data lines
  let buffer = 'retry: 2000\\n\\n: heartbeat\\n\\nid: 7\\nevent: hired\\ndata: {"seq":';
  let parsed = feed.parseSSE(buffer);
  out.partial = [parsed.events.length, parsed.rest];
  parsed = feed.parseSSE(parsed.rest + ' 7}\\r\\n\\r\\nid: 8\\ndata: a\\ndata: b\\n\\nid: 9');
  out.whole = parsed.events;
  out.rest = parsed.rest;
  out.faceDown = [fmt.faceDown({slot: 2, money: 1, bluff: true}), fmt.faceDown({slot: null, money: 1, bluff: false}),
                  fmt.faceDown(null)];
  out.clock = [fmt.clockText(0), fmt.clockText(9.2), fmt.clockText(75), fmt.clockText(3725), fmt.clockText(-4)];
  out.route = fmt.parseRoute(fmt.route('game', 'a b', {spectator: 'x/y'}));
  out.lobby = fmt.parseRoute('');
  out.card = [mz.parseCard('green-4'), mz.parseCard('violet-sign'), mz.cardText('yellow-3')];
  out.bounds = [mz.boardBounds('S', [{x: 0, y: 0}], [{x: -1, y: 0}, {x: 0, y: 1}]), mz.boardBounds('M', [], [])];
  return out;
}"""


def test_the_client_helpers(open_page):
    page = open_page("desktop").page
    page.goto("/")
    out = page.evaluate(HELPERS)
    assert out["partial"] == [0, 'id: 7\nevent: hired\ndata: {"seq":']
    assert out["whole"] == [{"id": "7", "event": "hired", "data": '{"seq": 7}'},
                            {"id": "8", "event": "message", "data": "a\nb"}]
    assert out["rest"] == "id: 9"
    assert out["faceDown"] == [3, 1, 0]
    assert out["clock"] == ["0:00", "0:10", "1:15", "1:02:05", "0:00"]
    assert out["route"] == {"page": "game", "id": "a b", "query": {"spectator": "x/y"}}
    assert out["lobby"] == {"page": "lobby", "id": None, "query": {}}
    assert out["card"][0] == {"id": "green-4", "colour": "green", "index": 3, "value": 4,
                              "sign": None, "oval": True}
    assert out["card"][1]["sign"] == "rest"
    assert out["card"][2] == "yellow Mi (3), oval"
    assert out["explained"] == [
        "A bot moved first: the game moved on before your move arrived, so it was not played. "
        "It is now turn 3 (bets). Look at the table and choose again.",
        "Too late: your time for that move ran out, and the engine played the default move for "
        "you. It is now turn 3 (bets).",
        "Too late: the time for that move ran out before it arrived, and the game moved on. It "
        "is now turn 3 (bets). Look at the table and choose again.",
        "You have set up a lot of tables in the last minute. Wait 42 s and try again.",
        "That name cannot be used: names are at most 40 characters."]
    assert out["held"] == [[0, {"name": "Anna", "until": 9}]]
    assert out["listed"] == ["2 of 4 seats taken · 1 minute a move · teams · 4 hands",
                             "Anna (seat held), Robo (bot), 2 seats free"]
    assert out["wordjam"] == ("1 of 5 seats taken · 2 minutes to find a word · words in English"
                              " · dictionary words only")
    assert out["alike"] == [True, True, False]
    assert out["bounds"] == [{"minX": -1, "maxX": 0, "minY": 0, "maxY": 1},
                             {"minX": 0, "maxX": 6, "minY": 1, "maxY": 7}]
