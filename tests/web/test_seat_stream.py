"""A seat's own event stream in headless Chromium: the table follows it with an EventSource
opened by a stream ticket (asked for with the seat's token, which never appears in a URL), a
new ticket for each connection (the test server ends every stream after 4 s), the seat's own
sealed bids included and nobody else's; once the game is over the page opens no stream again.
And Chromium's own EventSource stops reconnecting on the 204 a finished game's stream answers.

Pass criteria are counts (requests, events), never durations: the few seconds waited after the
end only give a page that would reconnect the time to show it."""

from __future__ import annotations

import json
from urllib.parse import parse_qs, urlsplit

import pytest

from .web_helpers import api, play_defaults

pytestmark = pytest.mark.slow

#: copies each frame every EventSource of the page receives into window.__frames (the page's
#: own listeners still get it), and each EventSource's URL into window.__sources
RECORD = """
window.__frames = [];
window.__sources = [];
const NativeEventSource = window.EventSource;
window.EventSource = class extends NativeEventSource {
  constructor(url, init) {
    super(url, init);
    window.__sources.push(String(url));
  }
  addEventListener(type, listener, options) {
    super.addEventListener(type, (e) => {
      if (typeof e.data === 'string') window.__frames.push(e.data);
      listener(e);
    }, options);
  }
};
"""

#: how long the page is watched after the end for a reconnection: several of the test
#: server's stream lives (4 s) and of the page's reconnection delays (at most a few seconds)
QUIET_MS = 12_000


def _streams(requests_seen: list) -> list:
    return [r for r in requests_seen if urlsplit(r.url).path.endswith("/events")
            and r.resource_type == "eventsource"]


def _tickets(requests_seen: list) -> list:
    return [r for r in requests_seen if urlsplit(r.url).path.endswith("/stream-tickets")]


def _after(request) -> int:
    return int(parse_qs(urlsplit(request.url).query).get("after", ["0"])[0])


def test_a_seat_follows_its_own_stream_by_ticket_and_stops_at_the_end(open_page, web_server):
    created = api(web_server, "POST", "/v1/games", json={
        "ruleset": "turandot", "players": 2, "seed": 21})
    gid = created["game"]["id"]
    hugo = api(web_server, "POST", f"/v1/games/{gid}/seats", json={"name": "Hugo"})
    bea = api(web_server, "POST", f"/v1/games/{gid}/seats", json={"name": "Bea"})
    assert hugo["seat"] == 0

    rec = open_page("desktop")
    page = rec.page
    seen: list = []
    page.on("request", lambda r: seen.append(r))
    # this browser holds Hugo's seat, as it would after joining here
    page.add_init_script(
        f"localStorage.setItem('impresario:game:{gid}', "
        f"JSON.stringify({{token: {json.dumps(hugo['token'])}, seat: 0, saved: Date.now()}}));")
    page.add_init_script(RECORD)
    page.goto(f"/#/game/{gid}")
    page.wait_for_selector(".game[data-status='playing']")
    assert "You are watching" not in page.inner_text(".who")

    # the server ends the first stream after 4 s: the page opens another, with a new ticket,
    # after the last event it has
    page.wait_for_event("request", predicate=lambda r: r.resource_type == "eventsource"
                        and _after(r) > 0, timeout=20_000)
    play_defaults(web_server, gid, [hugo["token"], bea["token"]])
    page.wait_for_selector(".game[data-status='finished']", timeout=60_000)
    page.wait_for_function("() => window.__frames.some(f => JSON.parse(f).type === 'game_finished')")
    # a few more reconnection intervals: nothing more is asked for
    at_end = (len(_streams(seen)), len(_tickets(seen)))
    page.wait_for_timeout(QUIET_MS)
    assert (len(_streams(seen)), len(_tickets(seen))) == at_end

    streams, tickets = _streams(seen), _tickets(seen)
    assert len(streams) >= 2
    # one ticket per stream, asked for with the seat's token in the header; no token in a URL
    assert len(tickets) == len(streams)
    assert all(t.method == "POST" and t.headers.get("authorization") == f"Bearer {hugo['token']}"
               for t in tickets)
    for request in seen:
        assert hugo["token"] not in request.url
    sources = page.evaluate("window.__sources")
    assert len(sources) == len(streams)
    assert len({parse_qs(urlsplit(s).query)["ticket"][0] for s in sources}) == len(sources)

    # the seat's own stream: its sealed bids with their content, the other seat's without
    events = {e["seq"]: e for e in map(json.loads, page.evaluate("window.__frames"))}
    committed = [e for e in events.values() if e["type"] == "bid_committed"]
    own = [e for e in committed if e["seat"] == 0]
    other = [e for e in committed if e["seat"] == 1]
    assert own and other
    assert all(isinstance(e.get("bid"), dict) for e in own)
    assert all("bid" not in e for e in other)
    assert all("_private" not in e for e in events.values())
    last = api(web_server, "GET", f"/v1/games/{gid}")["last_seq"]
    assert max(events) == last

    # Chromium's own EventSource on the finished game's stream, every event seen: 204, and
    # it stays closed (no reconnection), by a ticket and without one
    outcome = page.evaluate("""async ([gid, token, last]) => {
      const ask = await fetch(`/v1/games/${gid}/stream-tickets`, {
        method: 'POST', headers: {Authorization: `Bearer ${token}`}});
      const ticket = await ask.json();
      const states = [];
      for (const url of [`${ticket.url}&after=${last}`, `/v1/games/${gid}/events?after=${last}`]) {
        const source = new EventSource(url);
        states.push(await new Promise((resolve) => {
          source.onopen = () => resolve('opened');
          source.onerror = () => resolve(source.readyState === EventSource.CLOSED ? 'closed'
                                                                                 : 'reconnecting');
        }));
      }
      return states;
    }""", [gid, hugo["token"], last])
    assert outcome == ["closed", "closed"]
    before = len(_streams(seen))
    page.wait_for_timeout(QUIET_MS // 2)
    assert len(_streams(seen)) == before
    # Chromium says on the console why it gave up; that is the point here, not a page error
    rec.errors[:] = [e for e in rec.errors if "EventSource" not in e]
