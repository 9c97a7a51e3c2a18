"""What a player does at the browser table, step by step, waiting on the page's own state
(``.game[data-status]``, ``data-version``, ``data-mine``), never on fixed sleeps."""

from __future__ import annotations

from typing import Any

import requests

from games.games_helpers import playable_words, walk  # noqa: F401 - the tests use them from here
from live.live_helpers import parse_sse

MINE_OR_OVER = ".game[data-mine='1'], .game[data-status='finished']"


def version(page) -> int:
    return int(page.get_attribute(".game", "data-version"))


def status(page) -> str:
    return page.get_attribute(".game", "data-status")


def after_move(page, before: int) -> None:
    """Wait until the page shows a newer version than ``before``."""
    page.wait_for_function(
        "v => { const g = document.querySelector('.game'); return g && Number(g.dataset.version) > v; }",
        arg=before)


def start_from_lobby(page, name: str, ruleset: str) -> str:
    """Open the lobby, write the name and press "Play now against bots"; the game's id."""
    page.goto("/")
    page.fill("#player-name", name)
    page.click(f"[data-ruleset={ruleset}] button.primary")
    page.wait_for_selector(".game[data-status='playing'], .game[data-status='finished']")
    return game_id(page)


def game_id(page) -> str:
    return page.evaluate("location.hash").split("/")[2].split("?")[0]


def turandot_move(page, shot=None) -> str | None:
    """Make whatever move the Turandot table asks for, through its forms and dialogs; returns
    the dialog's title when the move was made in one (``shot(page)`` is called before it)."""
    before = version(page)
    try:
        page.wait_for_selector("form.composer, dialog[open]")  # a dialog opens once it is drawn
    except Exception as exc:  # noqa: BLE001 - say what the page showed instead
        raise AssertionError("my turn, but no form or dialog: " + page.inner_text("main")) from exc
    dialog = page.locator("dialog[open]")
    title = None
    if page.locator("form.composer").count():
        page.locator("form.composer input[name=bid-slot]").first.check()
        page.click("form.composer button[type=submit]")
    elif dialog.count():
        title = dialog.locator("h2").inner_text()
        if shot is not None:
            shot(page)
        if title.startswith("Office"):
            for i, select in enumerate(dialog.locator("select").all()):
                select.select_option(index=i + 1)
            dialog.locator("button[type=submit]").click()
        elif title.startswith("Cast"):
            dialog.get_by_role("button", name="Use the best cast").click()
        else:  # name who fires, or fire a director: the first choice
            dialog.locator(".button-list button").first.click()
    else:
        raise AssertionError("my turn, but no form or dialog: " + page.inner_text("main"))
    after_move(page, before)
    return title


#: what a Muzicando seat whose turn it is can press, once the table takes input again: while a
#: move is on its way every button is disabled, and the page may already show the next version
#: (the snapshot below would then find nothing enabled and press a Pass that is not there)
MUZICANDO_CONTROLS = ", ".join((
    "section[aria-labelledby=layout-title] button:not([disabled])",
    "section[aria-labelledby=auction-title] button:not([disabled])",
    ".hand button.mcard:not([disabled])",
    "section[aria-labelledby=mz-board-title] .actions button:not([disabled])",
))


def muzicando_move(page) -> None:
    try:
        page.wait_for_selector(MUZICANDO_CONTROLS)
    except Exception as exc:  # noqa: BLE001 - say what the page showed instead
        raise AssertionError("my turn, but nothing to press: " + page.inner_text("main")) from exc
    before = version(page)
    contracts = page.locator(".contracts button:not([disabled])")
    auction_pass = page.get_by_role("button", name="Pass", exact=True)
    layouts = page.locator("section[aria-labelledby=layout-title] button:not([disabled])")
    playable = page.locator(".hand button.mcard:not([disabled])")
    if layouts.count():
        layouts.first.click()
    elif page.locator("section[aria-labelledby=auction-title]").count() and (
            contracts.count() or auction_pass.count()):
        if auction_pass.count():
            auction_pass.click()
        else:
            contracts.first.click()
    elif playable.count():
        playable.first.click()
        page.locator("button.cell.legal").first.click()
    else:
        page.get_by_role("button", name="Pass").first.click()
    after_move(page, before)


def word_jam_move(page, base: str, gid: str, called: set[int] | None = None) -> None:
    """Press what the page asks of the seat in Word Jam: call the longest playable word (once a
    turn when ``called`` keeps the turns called in, else whenever there is one) or "I have
    nothing this turn"; let a challenge stand, keep the word in a vote, trust Alì Babà, and
    pass as a thief."""
    if page.locator("#call-word").count():
        view = api(base, "GET", f"/v1/games/{gid}")
        if (called is None or view["turn"] not in called) and (words := playable_words(view)):
            if called is not None:
                called.add(view["turn"])  # one call a turn: the next form is a new turn's
            page.fill("#call-word", words[-1])
            page.get_by_role("button", name="Open Sesame!").click()
        else:
            page.get_by_role("button", name="I have nothing this turn").click()
    elif page.locator("#challenge-title").count():
        page.get_by_role("button", name="Let it stand").click()
    elif page.locator("#vote-title").count():
        page.get_by_role("button", name="Keep it").click()
    elif page.locator("#side-title").count():
        page.get_by_role("button", name="Trust Alì Babà").click()
    elif page.locator("#thief-word").count():
        page.get_by_role("button", name="Pass", exact=True).click()
    else:
        raise AssertionError("my move, but nothing to press: " + page.inner_text("main"))


# A Muzicando table drawn by the page's own module from a view shaped as the engine sends it,
# seat 0's hand and action space given (the engine's: a "place" move only where a card fits);
# ``filler`` pixels of heading above it stand for the table's heading, turn bar and notes
MUZICANDO_TABLE = """async ({cells, hand, moves, filler}) => {
  const lib = await import('/web/lib.js');
  const mz = await import('/web/games/muzicando.js');
  document.querySelector('#app').style.display = 'none';
  const host = document.createElement('main');
  host.id = 'fixture';
  document.body.appendChild(host);
  const players = [0, 1, 2].map((s) => ({seat: s, name: ['Mia', 'Ria', 'Rex'][s], bot: s ? 'greedy' : null,
    team: null, hand_size: s ? 5 : hand.length, blocked: false, out: false, place: null, total: 0}));
  const view = {ruleset: 'muzicando', status: 'playing', mode: 'individual', hand: 1, hands: 3, phase: 'play',
    dealer: 0, turn: 0, players, pending: [{seat: 0, kinds: moves.map((m) => m.type)}], pile_size: 4, auction: null,
    contract: null, declarer: null, chooser: 1, layout: 'S', table: {cells, rows: [], piles: []}, blocked: [],
    queued_blocks: [], run: null, places: [], results: [], you: {seat: 0, hand}, version: 40};
  window.__moves = [];
  const act = async (m) => { window.__moves.push(m); return null; };
  let root = host;
  if (filler) {
    const above = document.createElement('div');
    above.textContent = "the table's heading, turn bar and notes";
    above.style.height = `${filler}px`;  // through the CSSOM: the page's CSP refuses style attributes
    root = document.createElement('div');
    host.append(above, root);
  }
  lib.render(lib.html`<div class="game game-muzicando"><${mz.Table} view=${view} actions=${{moves}} act=${act} busy=${false} me=${0} events=${[]} /></div>`,
             root);
}"""


def draw_muzicando(page, cells: list[dict[str, Any]], hand: list[str],
                   moves: list[dict[str, Any]], filler: int = 0) -> None:
    """Draw MUZICANDO_TABLE on the lobby's page (the page's own modules)."""
    page.goto("/")
    page.wait_for_selector("[data-ruleset=muzicando]")
    page.evaluate(MUZICANDO_TABLE, {"cells": cells, "hand": hand, "moves": moves, "filler": filler})


def play_until_over(page, move, limit: int = 400) -> int:
    """Make moves whenever the page says it is this seat's turn, until the game is over."""
    moves = 0
    while True:
        page.wait_for_selector(MINE_OR_OVER, timeout=60_000)
        if status(page) == "finished":
            return moves
        move(page)
        moves += 1
        assert moves < limit, "the game does not end"


# ------------------------------------------------------------------ the API, as a second player
def api(base: str, method: str, path: str, token: str | None = None, **kw: Any) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    resp = requests.request(method, base + path, headers=headers, timeout=30, **kw)
    assert resp.status_code < 300, f"{method} {path} -> {resp.status_code} {resp.text}"
    return resp.json()


def sse_payloads(text: str) -> list[Any]:
    """The data of each event of a stream's text."""
    return [frame["data"] for frame in parse_sse(text.replace("\r\n", "\n")) if "data" in frame]


def set_up_table(page, name: str, ruleset: str, players: int, bots: int,
                 private: bool = False) -> str:
    """The lobby's "Set up a table…" form: the player's name, the players, the bots; the id of
    the table, once its page shows the seats (or the game, when the bots fill every seat)."""
    page.goto("/")
    page.fill("#player-name", name)
    page.click(f"[data-ruleset={ruleset}] >> text=Set up a table…")
    page.fill(f"#create-{ruleset}-players", str(players))
    page.fill(f"#create-{ruleset}-bots", str(bots))
    if private:
        page.check(f"#create-{ruleset}-private")
    page.click("text=Create the table")
    page.wait_for_selector("section.setup" if bots < players - 1 else ".game[data-status='playing']")
    return game_id(page)


def seat_token(page, gid: str) -> str:
    """The seat's token this browser keeps for a game (localStorage), as the page uses it."""
    return page.evaluate("id => JSON.parse(localStorage.getItem('impresario:game:' + id)).token", gid)


def play_defaults(base: str, gid: str, tokens: list[str], limit: int = 2000) -> int:
    """Play each seat's default move through the API until the game is over; the moves made."""
    moves = 0
    while api(base, "GET", f"/v1/games/{gid}")["status"] != "finished":
        for token in tokens:
            default = api(base, "GET", f"/v1/games/{gid}/actions", token)["default"]
            if default:
                requests.post(f"{base}/v1/games/{gid}/moves", json=default, timeout=30,
                              headers={"Authorization": f"Bearer {token}"})
                moves += 1
        assert moves < limit, "the game does not end"
    return moves


# ------------------------------------------------------------------ a table at a given point
#: the players of each game's table (seat 0 is the browser's), all moved through the API by the
#: tests, so the table stands still while it is checked or photographed
PLAYERS = {"turandot": ["Anna", "Bruno", "Carla", "Dario"],
           "wordjam": ["Lia", "Marco", "Nora", "Olga", "Piero"],
           "muzicando": ["Mia", "Rita", "Sandro"]}
#: Word Jam's windows, long enough that no deadline plays a move meanwhile
WINDOWS = {f"{window}_seconds": 3600 for window in ("think", "bet", "thief", "challenge", "vote")}


def _far_enough(view: dict[str, Any]) -> bool:
    """Far enough into the game that the table has something on it."""
    if view["ruleset"] == "turandot":
        return view["round"] >= 3
    if view["ruleset"] == "wordjam":
        return view["turn"] >= 3 and view["phase"] == "think"
    return view["phase"] == "play" and len(view["table"]["cells"]) >= 8


#: every seat's token of each game :func:`table_at` set up, by the game's id
TOKENS: dict[str, list[str]] = {}


def table_at(base: str, ruleset: str, finished: bool, seed: int = 5) -> tuple[str, str]:
    """A game of ``ruleset`` among PLAYERS, played with each seat's default move (and, at Word
    Jam, a word called by seat 1 each turn) either to its end or until it is well under way and
    seat 0 has a move to make; the game's id and seat 0's token."""
    names = PLAYERS[ruleset]
    created = api(base, "POST", "/v1/games", json={
        "ruleset": ruleset, "players": len(names), "seed": seed,
        "options": WINDOWS if ruleset == "wordjam" else {}})
    gid = created["game"]["id"]
    tokens = [api(base, "POST", f"/v1/games/{gid}/seats", json={"name": name})["token"]
              for name in names]
    TOKENS[gid] = tokens
    called: set[int] = set()
    for _ in range(5000):  # one move at a time, each from the game as it is now
        view = api(base, "GET", f"/v1/games/{gid}", tokens[0])
        if view["status"] == "finished":
            assert finished, "the game ended before the position"
            return gid, tokens[0]
        here = not finished and _far_enough(view)
        # the others first: in a phase where everyone moves, seat 0 is the one left to move
        pending = sorted({p["seat"] for p in view["pending"]}, key=lambda seat: (seat == 0, seat))
        if here and pending == [0]:
            return gid, tokens[0]
        assert pending, f"nobody to move: {view}"
        seat = pending[0]
        move = api(base, "GET", f"/v1/games/{gid}/actions", tokens[seat])["default"]
        assert move, f"seat {seat} is to move but has no default move"
        if (ruleset == "wordjam" and not here and seat == 1 and move["type"] == "no_call"
                and view["turn"] not in called):
            called.add(view["turn"])
            if words := playable_words(api(base, "GET", f"/v1/games/{gid}", tokens[1])):
                move = {"type": "open_sesame", "word": words[len(words) // 2]}
        requests.post(f"{base}/v1/games/{gid}/moves", json=move, timeout=30,
                      headers={"Authorization": f"Bearer {tokens[seat]}"})
    raise AssertionError(f"{ruleset}: the position never came")


def sit_at(page, gid: str, token: str, seat: int = 0) -> None:
    """Open the game's table in this browser as the seat (its token kept as the page keeps
    it), once the table is drawn."""
    page.goto("/")
    page.wait_for_selector(".lobby h1")  # the router listens: the hash below is followed
    page.evaluate("([id, token, seat]) => localStorage.setItem('impresario:game:' + id, "
                  "JSON.stringify({token, seat, saved: Date.now()}))", [gid, token, seat])
    page.goto(f"/#/game/{gid}")
    try:
        page.wait_for_selector(MINE_OR_OVER)
    except Exception as exc:  # noqa: BLE001 - say what the page showed instead
        raise AssertionError(f"{page.url}: " + page.inner_text("body")) from exc
