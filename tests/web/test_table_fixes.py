"""What new players tripped on at the browser table (issue 25, point 3), each held by a test:
Muzicando on a phone, its colours, the last moves of others, Word Jam's value hint, Turandot's
tie-break, the focus, and the smaller slips."""

from __future__ import annotations

import pytest

from .web_helpers import (MINE_OR_OVER, after_move, api, draw_muzicando, game_id, muzicando_move,
                          play_defaults, playable_words, seat_token, set_up_table,
                          start_from_lobby, status, turandot_move, version, word_jam_move)

pytestmark = pytest.mark.slow

# A Sarabanda board grown to 12 x 10 cells (as late in a hand), a sign covering a note, and a
# hand whose one playable card fits only at the far corner of the board.


def _big_board():
    """12 columns x 10 rows of cards (every other cell), a covered note in the middle."""
    colours = ["red", "orange", "yellow", "green", "blue", "indigo", "violet"]
    cells = []
    for y in range(10):
        for x in range(12):
            if (x + y) % 2 == 0:
                card = f"{colours[(x + y) % 7]}-{(x * 3 + y) % 7 + 1}"
                cells.append({"x": x, "y": y, "card": card, "covered_by": None})
    cells.append({"x": 5, "y": 4, "card": "blue-5", "covered_by": "red-sign"})
    cells = [c for c in cells if (c["x"], c["y"]) != (5, 5)]
    cells.append({"x": 5, "y": 5, "card": "green-2", "covered_by": "blue-sign"})
    return cells


def _draw_muzicando(page, filler: int = 260) -> None:
    hand = ["red-3", "blue-4", "indigo-6", "violet-2", "violet-sign", "yellow-7", "green-1"]
    fits = {"indigo-6": [{"x": 11, "y": 0}, {"x": 12, "y": 1}]}
    draw_muzicando(page, _big_board(), hand, filler=filler, moves=[
        {"type": "place", "cards": [{"card": c, "cells": fits.get(c, [])} for c in hand]},
        {"type": "pass", "draws": True}])
    page.wait_for_selector("#fixture .board .cell")


def _visible(page, selector: str) -> bool:
    """The centre of the element is on screen and the element itself is what is there (not
    hidden under the hand, the turn bar, or clipped by the board's box)."""
    return page.evaluate("""sel => {
      const el = document.querySelector(sel);
      if (!el) return false;
      const r = el.getBoundingClientRect();
      const x = r.left + r.width / 2, y = r.top + r.height / 2;
      if (x < 0 || y < 0 || x > innerWidth || y > innerHeight) return false;
      const hit = document.elementFromPoint(x, y);
      return Boolean(hit) && (hit === el || el.contains(hit));
    }""", selector)


def test_muzicando_on_a_phone_keeps_the_hand_at_hand_and_the_legal_cells_in_view(open_page, shot):
    page = open_page("phone", touch=True).page
    _draw_muzicando(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    # the hand stays at the bottom of the screen while the player looks at the board above
    page.evaluate("window.scrollTo(0, 0)")
    hand = page.locator("#fixture section[aria-labelledby=hand-title]")
    box = hand.bounding_box()
    assert box is not None and box["y"] + box["height"] <= 740 + 1 and box["y"] < 740 - 40, box
    assert _visible(page, "#fixture .hand button.mcard[data-card='indigo-6']")
    shot(page, "muzicando-big-board-phone", full_page=False)
    # the card's one place is at the board's far corner: tapping the card brings it into view
    page.locator("#fixture .hand button.mcard[data-card='indigo-6']").tap()
    page.wait_for_function("""() => {
      const el = document.querySelector('#fixture button.cell.legal');
      if (!el) return false;
      const r = el.getBoundingClientRect();
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      return Boolean(hit) && el.contains(hit);
    }""")
    shot(page, "muzicando-legal-in-view-phone", full_page=False)
    page.locator("#fixture button.cell.legal").first.tap()
    assert page.evaluate("window.__moves") == [{"type": "place", "card": "indigo-6", "x": 12, "y": 1}]


def test_muzicando_board_zooms_and_pans(open_page):
    page = open_page("phone", touch=True).page
    _draw_muzicando(page)
    cell = page.locator("#fixture .board .cell").first
    wrap = page.locator("#fixture .board-wrap")
    wide = cell.bounding_box()["width"]
    page.get_by_role("button", name="Zoom out").click()
    page.wait_for_function("w => document.querySelector('#fixture .board .cell').getBoundingClientRect().width < w - 1", arg=wide)
    page.get_by_role("button", name="Zoom in").click()
    page.get_by_role("button", name="Zoom in").click()
    page.wait_for_function("w => document.querySelector('#fixture .board .cell').getBoundingClientRect().width > w + 1", arg=wide)
    # the whole board at once: no cell outside the board's box
    page.get_by_role("button", name="Fit the board").click()
    page.wait_for_function("""() => {
      const w = document.querySelector('#fixture .board-wrap');
      return w.scrollWidth <= w.clientWidth + 1;
    }""")
    # and panned by dragging (touch scrolls the box; a mouse drags it)
    page.get_by_role("button", name="Zoom in").click()
    page.get_by_role("button", name="Zoom in").click()
    page.get_by_role("button", name="Zoom in").click()
    page.wait_for_function("() => { const w = document.querySelector('#fixture .board-wrap'); return w.scrollWidth > w.clientWidth + 20; }")
    before = wrap.evaluate("w => w.scrollLeft")
    b = wrap.bounding_box()
    page.mouse.move(b["x"] + b["width"] - 20, b["y"] + 40)
    page.mouse.down()
    page.mouse.move(b["x"] + 20, b["y"] + 40, steps=8)
    page.mouse.up()
    assert wrap.evaluate("w => w.scrollLeft") > before


def test_muzicando_sign_badges_never_cover_the_card_text(open_page):
    for viewport in ("phone", "desktop"):
        page = open_page(viewport).page
        _draw_muzicando(page)
        overlaps = page.evaluate("""() => {
          const bad = [];
          for (const card of document.querySelectorAll('#fixture .board .mcard')) {
            const box = card.getBoundingClientRect();
            const parts = [...card.children].filter((c) => !c.classList.contains('sr-only'))
              .map((c) => ({el: c, r: c.getBoundingClientRect()}));
            for (const p of parts) {
              if (p.r.left < box.left - 0.5 || p.r.right > box.right + 0.5 || p.r.top < box.top - 0.5 || p.r.bottom > box.bottom + 0.5)
                bad.push(card.dataset.card + ': ' + p.el.className + ' outside the card');
              // a text that needs more room than it has spills over its neighbour
              if (p.el.scrollWidth > p.el.clientWidth + 1) bad.push(card.dataset.card + ': ' + p.el.className + ' cut');
            }
            for (let i = 0; i < parts.length; i++) for (let j = i + 1; j < parts.length; j++) {
              const a = parts[i].r, b = parts[j].r;
              if (a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5)
                bad.push(card.dataset.card + ': ' + parts[i].el.className + ' over ' + parts[j].el.className);
            }
          }
          return bad;
        }""")
        assert overlaps == [], (viewport, overlaps)
        covered = page.locator("#fixture .cell[data-x='5'][data-y='4']")
        assert "sharp" in covered.inner_text() or "sharp" in covered.text_content()


CARD_LOOKS = """() => {
  const rgb = (s) => (s.match(/[\\d.]+/g) || []).slice(0, 4).map(Number);
  const lum = ([r, g, b]) => {
    const f = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const contrast = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  return [...document.querySelectorAll('#fixture .hand button.mcard, #fixture .board .cell .mcard')].map((card) => {
    const style = getComputedStyle(card);
    let opacity = 1, filter = 'none';
    for (let el = card; el; el = el.parentElement) {
      const s = getComputedStyle(el);
      opacity *= Number(s.opacity);
      if (s.filter !== 'none') filter = s.filter;
    }
    // the colour's name (or its initial on the board), shown: not only for screen readers
    const named = [...card.querySelectorAll('.cname')].filter((n) => !n.closest('.sr-only'))
      .filter((n) => { const r = n.getBoundingClientRect(); return r.width > 3 && r.height > 3; })
      .map((n) => n.textContent.trim());
    return {card: card.dataset.card, inHand: Boolean(card.closest('.hand')), selected: card.classList.contains('selected'),
      disabled: card.disabled === true, background: style.backgroundColor, opacity, filter, named,
      contrast: contrast(rgb(style.color), rgb(style.backgroundColor))};
  });
}"""

COLOUR_OF = {"red": "rgb(198, 40, 40)", "blue": "rgb(30, 100, 200)", "indigo": "rgb(58, 42, 140)",
             "violet": "rgb(142, 59, 176)", "yellow": "rgb(245, 212, 35)", "green": "rgb(46, 125, 50)"}


@pytest.mark.parametrize("viewport", ["phone", "desktop"])
def test_muzicando_colours_are_named_kept_when_chosen_and_readable(open_page, viewport):
    page = open_page(viewport, touch=viewport == "phone").page
    _draw_muzicando(page)
    card = page.locator("#fixture .hand button.mcard[data-card='indigo-6']")
    if viewport == "phone":
        card.tap()
    else:
        card.click()  # the mouse stays over it
    page.wait_for_selector("#fixture .hand button.mcard.selected")
    looks = page.evaluate(CARD_LOOKS)
    assert len(looks) > 40
    problems = []
    for look in looks:
        colour = look["card"].split("-")[0]
        expected = colour if look["inHand"] else colour[0].upper()
        if look["named"] != [expected]:
            problems.append(f"{look['card']}: colour shown as {look['named']}, not {expected}")
        if look["opacity"] < 1 or look["filter"] != "none":
            problems.append(f"{look['card']}: faded (opacity {look['opacity']}, filter {look['filter']})")
        if look["contrast"] < 4.5:
            problems.append(f"{look['card']}: contrast {look['contrast']:.2f}")
        if colour in COLOUR_OF and look["background"] != COLOUR_OF[colour]:
            problems.append(f"{look['card']}: background {look['background']}"
                            f"{' (selected)' if look['selected'] else ''}")
    assert problems == [], problems
    hand = {look["card"]: look for look in looks if look["inHand"]}
    assert hand["indigo-6"]["selected"] and not hand["indigo-6"]["disabled"]
    assert hand["violet-2"]["disabled"] and hand["blue-4"]["disabled"]  # not playable now
    # blue, indigo and violet read differently, in words
    assert len({hand[c]["named"][0] for c in ("blue-4", "indigo-6", "violet-2")}) == 3


# ------------------------------------------------------------------ the last moves of others
SEATING = {"seat_taken", "seat_left", "seat_held", "rematch_of", "game_started", "game_abandoned"}


def turandot_result(e, me):
    """A Turandot seat's own result, listed with the others' moves since its last one."""
    if e["type"] == "slot_tied":
        return me in e["seats"]
    return e["type"] in ("hired", "helper_hired", "helper_missed", "nominated") and e.get("seat") == me


def _until_others_moved(page, base, gid, move, limit=40, own=lambda e, me: False):
    """Move whenever asked, until the page lists moves of others made since this seat's last
    move (and the seat's ``own`` results); then check the list against the seat's own events
    from the API."""
    me = page.evaluate("id => JSON.parse(localStorage.getItem('impresario:game:' + id)).seat", gid)
    token = seat_token(page, gid)
    for _ in range(limit):
        page.wait_for_selector(MINE_OR_OVER, timeout=60_000)
        if status(page) == "finished":
            break
        before = version(page)
        try:
            move(page)
            after_move(page, before)
        except Exception:
            if version(page) == before and status(page) != "finished":
                raise
        page.wait_for_selector(MINE_OR_OVER, timeout=60_000)
        if not page.locator("[data-testid=recent-moves] li").count():
            continue
        looked = page.evaluate("id => JSON.parse(localStorage.getItem('impresario:game:' + id)).looked", gid)
        shown = page.locator("[data-testid=recent-moves] li").evaluate_all("els => els.map(e => Number(e.dataset.seq))")
        # the seat's events up to the last one shown (the others may have moved on since)
        events = [e for e in api(base, "GET", f"/v1/games/{gid}/events", token)["events"]
                  if looked < e["seq"] <= shown[-1]]
        expected = [e["seq"] for e in events if e["type"] not in SEATING and (
            (isinstance(e.get("seat"), int) and e["seat"] != me) or own(e, me))]
        assert expected and shown == expected[-12:], (shown, expected)
        return [e for e in events if e["seq"] in expected]
    raise AssertionError("the others never moved after this seat")


def _animation(page, selector):
    return page.locator(selector).first.evaluate("el => getComputedStyle(el).animationName")


def test_the_last_moves_of_others_are_highlighted_at_muzicando(open_page, shot, web_server):
    page = open_page("phone", touch=True).page
    gid = start_from_lobby(page, "Mia", "muzicando")
    for _ in range(10):  # until the others placed cards after one of Mia's moves
        moved = _until_others_moved(page, web_server, gid, muzicando_move)
        hand = api(web_server, "GET", f"/v1/games/{gid}")["hand"]
        placed = [e for e in moved if e["type"] == "card_placed" and e["hand"] == hand]
        if placed and status(page) == "playing":
            break
    assert placed
    assert _animation(page, "[data-testid=recent-moves] li") == "recent-flash"
    cells = page.locator(".board .cell.recent")
    # one mark per cell (two of the others may have placed cards on the same cell)
    marked = cells.evaluate_all("els => els.map(e => e.dataset.x + ',' + e.dataset.y)")
    assert len(marked) == len(set(marked))
    assert set(marked) == {f"{e['x']},{e['y']}" for e in placed}
    assert _animation(page, ".board .cell.recent") == "recent-ring"
    shot(page, "muzicando-recent-phone", full_page=False)
    # a player who asks for less motion sees the same marks, standing still
    page.emulate_media(reduced_motion="reduce")
    assert _animation(page, "[data-testid=recent-moves] li") == "none"
    assert _animation(page, ".board .cell.recent") == "none"
    assert page.locator(".board .cell.recent").count() == len({(e["x"], e["y"]) for e in placed})


def test_the_last_moves_of_others_are_highlighted_at_turandot(open_page, shot, web_server):
    page = open_page("desktop").page
    gid = start_from_lobby(page, "Anna", "turandot")
    for _ in range(10):
        moved = _until_others_moved(page, web_server, gid, turandot_move, own=turandot_result)
        hired = [e for e in moved if e["type"] == "hired"]
        if hired:
            break
    assert hired
    for e in hired:
        assert page.locator(f".company[data-seat='{e['seat']}'] .tcard.recent[data-card='{e['card']}']").count() == 1
    assert _animation(page, ".tcard.recent") == "recent-ring"
    shot(page, "turandot-recent-desktop")


def test_the_last_moves_of_others_are_highlighted_at_word_jam(open_page, web_server):
    page = open_page("phone").page
    page.goto("/")
    page.fill("#player-name", "Lia")
    page.click("[data-ruleset=wordjam] >> text=Set up a table…")
    page.fill("#create-wordjam-players", "5")
    page.fill("#create-wordjam-bots", "4")
    for window in ("think", "bet", "thief", "challenge", "vote"):
        page.fill(f"#create-wordjam-{window}_seconds", "8")
    page.select_option("#create-wordjam-bot_seconds", "0")
    page.click("text=Create the table")
    page.wait_for_selector(".game[data-status='playing'], .game[data-status='finished']")
    gid = game_id(page)
    called: set[int] = set()
    moved = _until_others_moved(page, web_server, gid, lambda p: word_jam_move(p, web_server, gid, called))
    assert _animation(page, "[data-testid=recent-moves] li") == "recent-flash"
    # the players' table marks who moved
    rows = set(page.locator(".players-table tr.recent").evaluate_all("els => els.map(e => Number(e.dataset.seat))"))
    assert {e["seat"] for e in moved} <= rows


# ------------------------------------------------------------------ Word Jam's value hint
def _seed_with_theme(check: str) -> int:
    """A seed whose first theme card asks the engine to check ``check`` (the rules' own deal)."""
    from impresario_rules import RULESETS
    from impresario_rules.wordjam import words

    for seed in range(500):
        state, _ = RULESETS["wordjam"].new_game(5, {}, seed)
        if words.style_by_id()[state["style"]]["check"] == check:
            return seed
    raise AssertionError(f"no seed deals a {check} theme first")


def _hint(page, word: str) -> str:
    page.fill("#call-word", "")
    page.fill("#call-word", word)
    page.wait_for_function("w => { const h = document.querySelector('[data-testid=word-value]');"
                           " return h && (h.dataset.word === undefined || h.dataset.word === w); }",
                           arg=word)
    return page.inner_text("[data-testid=word-value]")


@pytest.mark.parametrize("check, reason, words", [
    ("first_letter", "wrong_first_letter", "must start with the 1-coin consonant"),
    ("eight_letters", "not_eight_letters", "exactly 8 letters"),
])
def test_word_jam_value_hint_applies_the_engines_checks(open_page, web_server, check, reason, words):
    from impresario_rules.wordjam import lexicon

    created = api(web_server, "POST", "/v1/games", json={
        "ruleset": "wordjam", "players": 5, "seed": _seed_with_theme(check),
        "options": {"think_seconds": 600, "bot_seconds": 300}})
    gid, host = created["game"]["id"], created["host_token"]
    for name in ("Ada", "Bea", "Cy", "Dee"):
        api(web_server, "POST", f"/v1/games/{gid}/seats", host, json={"name": name, "bot": "wordsmith"})
    page = open_page("phone").page
    page.goto(f"/#/join/{gid}")
    page.fill("#join-name", "Eve")
    page.click("text=Take a seat")
    page.wait_for_selector("#call-word")
    view = api(web_server, "GET", f"/v1/games/{gid}")  # dealt when Eve took the last seat
    assert view["style"]["check"] == check
    coins = {c["consonant"]: c["coins"] for c in view["coins"]}
    one = view["coins"][0]["consonant"]
    # a word the calculator would value (coins, no forbidden consonant) that the theme refuses
    wrong = next(w for w, folded in lexicon.vocabulary()
                 if view["forbidden"] not in folded and sum(coins.get(c, 0) for c in folded) > 1
                 and (not folded.startswith(one) if check == "first_letter" else len(folded) != 8))
    good = playable_words(view)[0]
    token = seat_token(page, gid)
    hint = _hint(page, wrong)
    assert "Worth" not in hint and words in hint, hint
    # the same answer as the engine's own check, and the call is refused for that reason
    checked = api(web_server, "POST", f"/v1/games/{gid}/word-check", token, json={"word": wrong})
    assert checked["valid"] is False and checked["reason"] == reason
    expected = api(web_server, "POST", f"/v1/games/{gid}/word-check", token, json={"word": good})
    assert expected["valid"] is True
    assert _hint(page, good) == f"Worth {expected['value']} coins."


# ------------------------------------------------------------------ Turandot's tie-break
#: a finished table's score drawn by the page's own module, from a score shaped as the engine's
SCORE = """async ({ruleset, view, score}) => {
  const lib = await import('/web/lib.js');
  const mod = (await import(`/web/games/${ruleset}.js`)).default;
  document.querySelector('#app').style.display = 'none';
  const host = document.createElement('main');
  host.id = 'fixture';
  document.body.appendChild(host);
  lib.render(lib.html`<section class="card finished"><${mod.Score} view=${view} score=${score} /></section>`, host);
}"""


def _turandot_score(stars, totals, winners):
    def lines(s, t):
        return {"stars": s, "stage_elements": 1, "favourite_roles": t - s - 1, "wrong_sex": 0,
                "director": 0, "puccini": 0}

    names = ["Anna", "Bruno", "Robo", "Zia"][:len(totals)]
    view = {"ruleset": "turandot", "status": "finished", "players": [
        {"seat": i, "name": n, "bot": "greedy" if n in ("Robo", "Zia") else None, "singers": []}
        for i, n in enumerate(names)], "table": []}
    score = {"players": [{"seat": i, "total": t, "lines": lines(s, t), "cast": []}
                         for i, (s, t) in enumerate(zip(stars, totals))],
             "dummy": None, "winners": winners, "dummy_wins": False}
    return view, score


@pytest.mark.parametrize("stars, totals, winners, why", [
    ([7, 9, 8, 5], [10, 13, 13, 9], [1], ("Bruno and Robo both have 13 points: the tie is broken "
                                          "by stars alone, and Bruno has more (9 against 8).")),
    ([7, 9, 9, 5], [10, 13, 13, 9], [1, 2], ("Bruno and Robo both have 13 points and as many "
                                             "stars (9): a shared victory.")),
])
def test_turandot_says_why_the_tie_went_to_the_winner(open_page, stars, totals, winners, why):
    page = open_page("desktop").page
    page.goto("/")
    page.wait_for_selector("[data-ruleset=turandot]")
    view, score = _turandot_score(stars, totals, winners)
    page.evaluate(SCORE, {"ruleset": "turandot", "view": view, "score": score})
    page.wait_for_selector("#fixture [data-testid=winners]")
    assert why in page.inner_text("#fixture [data-testid=tie-break]")
    # only the winners' casts are marked, whoever else has as many points
    marked = page.locator("#fixture .cast.best-cast").evaluate_all("els => els.map(e => Number(e.dataset.seat))")
    assert marked == winners
    badges = page.locator("#fixture .cast .badge").all_inner_texts()
    assert len(badges) == len(winners) and all("winner" in b.lower() for b in badges), badges


# ------------------------------------------------------------------ focus
FOCUSED = "() => { const a = document.activeElement; return a ? a.tagName + (a.closest('.game-head') ? '.game-head' : '') + ':' + a.textContent.trim().slice(0, 40) : null; }"


def test_entering_a_game_puts_the_focus_on_its_heading(open_page):
    page = open_page("desktop").page
    start_from_lobby(page, "Anna", "turandot")
    page.wait_for_selector("form.composer")
    assert page.evaluate(FOCUSED).startswith("H1.game-head:Turandot"), page.evaluate(FOCUSED)


def test_escape_on_a_dialog_that_opened_by_itself_returns_to_the_heading(open_page):
    page = open_page("desktop").page
    start_from_lobby(page, "Anna", "turandot")
    for _ in range(30):  # bids until a dialog opens by itself (Anna is the maestro of round 1)
        page.wait_for_selector(MINE_OR_OVER, timeout=60_000)
        if page.locator("dialog[open]").count():
            break
        turandot_move(page)
    dialog = page.locator("dialog[open]")
    assert dialog.count() == 1
    assert page.evaluate("() => document.activeElement.closest('dialog') !== null")  # focus moved in
    page.keyboard.press("Escape")
    page.wait_for_function("() => !document.querySelector('dialog[open]')")
    assert page.evaluate(FOCUSED).startswith("H1.game-head:Turandot"), page.evaluate(FOCUSED)


# ------------------------------------------------------------------ the smaller slips
#: a table drawn by the page's own module from a view (and events) as the engine sends them
TABLE = """async ({ruleset, view, events}) => {
  const lib = await import('/web/lib.js');
  const mod = (await import(`/web/games/${ruleset}.js`)).default;
  document.querySelector('#app').style.display = 'none';
  let host = document.querySelector('#fixture');
  if (!host) { host = document.createElement('main'); host.id = 'fixture'; document.body.appendChild(host); }
  lib.render(lib.html`<div class="game"><${mod.Table} view=${view} actions=${null} act=${async () => null} busy=${false}
    me=${null} events=${events} recent=${[]} /></div>`, host);
}"""


def _dealt(base, ruleset, players, seed, **options):
    created = api(base, "POST", "/v1/games", json={"ruleset": ruleset, "players": players, "seed": seed,
                                                     "options": options})
    gid, host = created["game"]["id"], created["host_token"]
    for i in range(players):
        api(base, "POST", f"/v1/games/{gid}/seats", host, json={"name": f"P{i}"})
    return api(base, "GET", f"/v1/games/{gid}")


def test_word_jam_this_turn_box_and_feed_follow_the_extra_turn(open_page, web_server):
    view = _dealt(web_server, "wordjam", 5, 3, think_seconds=600)
    vote = {"word_id": 4, "seat": 1, "word": "calcolo", "about": "call", "challenger": 2, "in_favour": 2,
            "votes": [{"seat": s, "in_favour": s < 2} for s in range(5)], "stands": False}
    page = open_page("desktop").page
    page.goto("/")
    page.wait_for_selector("[data-ruleset=wordjam]")
    # turn 1: the vote just happened, this turn
    turn1 = dict(view, last_vote=vote)
    events = [{"seq": 1, "type": "turn_started", "turn": 1, "extra_turn": 0},
              {"seq": 2, "type": "vote_result", **{k: v for k, v in vote.items()}}]
    page.evaluate(TABLE, {"ruleset": "wordjam", "view": turn1, "events": events})
    box = page.locator("#fixture section[aria-labelledby=situation-title]")
    assert "Last vote on “calcolo”: 2 in favour, the word falls (P0 for" in box.inner_text()
    # the extra turn after turn 8: that vote belongs to turn 1, not to this turn
    extra = dict(view, last_vote=vote, turn=9, extra_turn=1)
    events.append({"seq": 40, "type": "turn_started", "turn": 9, "extra_turn": 1})
    page.evaluate(TABLE, {"ruleset": "wordjam", "view": extra, "events": events})
    page.wait_for_selector("#fixture #wj-board-title:has-text('Extra turn 1')")
    assert "calcolo" not in page.inner_text("#fixture")
    # the feed names the extra turn as the table does
    said = page.evaluate("""async (view) => {
      const wj = await import('/web/games/wordjam.js');
      return [wj.describeEvent({type: 'turn_scored', turn: 9, extra_turn: 1, called: false, awards: [], totals: []}, view),
              wj.describeEvent({type: 'turn_started', turn: 9, extra_turn: 1, style: {name: 'Cinema'}}, view),
              wj.describeEvent({type: 'turn_scored', turn: 3, extra_turn: 0, called: false, awards: [], totals: []}, view)];
    }""", extra)
    assert said[0].startswith("Extra turn 1 scored") and said[1].startswith("Extra turn 1 begins"), said
    assert said[2].startswith("Turn 3 scored")


def test_turandot_round_four_offers_no_helpers_and_a_taken_slot_is_plain(open_page, web_server):
    view = _dealt(web_server, "turandot", 4, 7)
    assert view["helpers"]  # helpers are left in the box…
    table = [dict(view["table"][0], card=None), *view["table"][1:]]
    page = open_page("desktop").page
    page.goto("/")
    page.wait_for_selector("[data-ruleset=turandot]")
    page.evaluate(TABLE, {"ruleset": "turandot", "view": dict(view, table=table), "events": []})
    stage = page.locator("#fixture section.stage")
    assert "Helpers still to hire" in stage.inner_text()  # rounds 1–3 and 5–7 offer them
    # a taken slot is a dashed outline, without the card's thick coloured edge
    widths = page.locator("#fixture .slot .tcard.empty").evaluate(
        "el => { const s = getComputedStyle(el); return [s.borderLeftWidth, s.borderRightWidth]; }")
    assert widths[0] == widths[1], widths
    # …but round 4 (the directors) hires none (R4)
    page.evaluate(TABLE, {"ruleset": "turandot", "view": dict(view, table=table, round=4), "events": []})
    page.wait_for_selector("#fixture #stage-title:has-text('Directors')")
    assert "Helpers still to hire" not in stage.inner_text()


def test_a_player_who_left_gets_no_401(open_page, web_server):
    rec = open_page("desktop")
    page = rec.page
    gid = start_from_lobby(page, "Cy", "turandot")
    page.wait_for_selector("form.composer")
    page.wait_for_selector(".feed-live")
    page.click("text=Leave the game…")
    page.locator("dialog[open]").get_by_role("button", name="Leave the game").click()
    page.wait_for_selector(".alert-notice")
    page.wait_for_selector(".game")
    assert "You are watching" in page.inner_text(".who")
    # the watching page follows the game (the bots may have finished it already)
    page.wait_for_selector(".game[data-status='finished'], .feed-live")
    if status(page) == "finished":
        page.wait_for_load_state("networkidle")  # the last view and events of a finished game
    seat = api(web_server, "GET", f"/v1/games/{gid}")["players"][0]
    assert seat["bot"] == "greedy"
    refused = [f"{r.request.method} {r.url} -> {r.status}" for r in rec.responses if r.status == 401]
    assert refused == [], refused


def test_the_replay_shows_a_player_who_left_as_a_player_until_they_left(open_page, web_server):
    created = api(web_server, "POST", "/v1/games", json={"ruleset": "turandot", "players": 2, "seed": 4})
    gid = created["game"]["id"]
    anna = api(web_server, "POST", f"/v1/games/{gid}/seats", json={"name": "Anna"})["token"]
    bruno = api(web_server, "POST", f"/v1/games/{gid}/seats", json={"name": "Bruno"})["token"]
    for token in (anna, bruno):  # one bid each, then Anna leaves: the greedy bot plays on
        default = api(web_server, "GET", f"/v1/games/{gid}/actions", token)["default"]
        api(web_server, "POST", f"/v1/games/{gid}/moves", token, json=default)
    api(web_server, "DELETE", f"/v1/games/{gid}/seats/0", anna)
    play_defaults(web_server, gid, [bruno])
    steps = len(api(web_server, "GET", f"/v1/games/{gid}/replay")["moves"])
    first = api(web_server, "GET", f"/v1/games/{gid}/replay/0")["game"]["players"]
    last = api(web_server, "GET", f"/v1/games/{gid}/replay/{steps}")["game"]["players"]
    assert first[0]["bot"] is None and last[0]["bot"] == "greedy"
    assert api(web_server, "GET", f"/v1/games/{gid}/replay/2")["game"]["players"][0]["bot"] is None
    page = open_page("desktop").page
    page.goto(f"/#/replay/{gid}")
    page.wait_for_selector(".company[data-seat='0']")
    assert page.locator(".company[data-seat='0'] .badge:text-is('bot')").count() == 0
    page.click("[aria-label='Last move']")
    page.wait_for_selector("text=Final score")



# ------------------------------------------------------------------ a rematch's host
def test_the_host_of_a_rematch_seats_a_bot_for_a_player_who_does_not_come_back(open_page, web_server):
    anna = open_page("desktop").page
    gid = set_up_table(anna, "Anna", "turandot", 2, 0)
    bruno = open_page("phone").page
    bruno.goto(anna.input_value("#join-link"))
    bruno.fill("#join-name", "Bruno")
    bruno.click("text=Take a seat")
    bruno.wait_for_selector(".game[data-status='playing']")
    play_defaults(web_server, gid, [seat_token(anna, gid), seat_token(bruno, gid)])
    anna.wait_for_selector("section.finished")
    anna.get_by_role("button", name="Rematch").click()
    anna.wait_for_selector("section.setup .badge-held")
    rematch = game_id(anna)
    # Anna set the table up and sat at it: she hosts the rematch; Bruno does not come back
    anna.get_by_role("button", name="Free seat", exact=False).click()
    anna.wait_for_selector("text=Add a bot")
    anna.click("text=Add a bot")
    anna.wait_for_selector(".game[data-status='playing']")
    view = api(web_server, "GET", f"/v1/games/{rematch}")
    assert view["status"] == "playing" and [p["bot"] is not None for p in view["players"]].count(True) == 1
