// The game's event feed: server-sent events read with EventSource. A seat's stream (or the
// host's, or a private game's spectator's) is opened with a stream ticket, asked for with the
// token (POST /stream-tickets): EventSource cannot send an Authorization header, and a token
// never travels in a URL. A ticket opens one stream, once, so each connection is a new
// EventSource with a new ticket, resumed with ?after= (the last event the page has); the
// page never lets an EventSource reconnect by itself. It stops once the game is over: after
// game_finished, or when the stream is refused and the feed says nothing is left (a finished
// game's stream answers 204 No Content). Polling GET /events when streaming does not work.
import { Problem, call, withQuery } from "./api.js";

/**
 * Parse server-sent events from ``text`` (RFC: fields per line, a blank line ends an event,
 * lines starting with ":" are comments). Returns the complete events and the unparsed rest.
 */
export function parseSSE(text) {
  const events = [];
  const normal = text.replace(/\r\n?/g, "\n");
  const blocks = normal.split("\n\n");
  const rest = blocks.pop();
  for (const block of blocks) {
    const event = { id: null, event: "message", data: [] };
    let fields = 0;
    for (const line of block.split("\n")) {
      if (!line || line.startsWith(":")) continue;
      const colon = line.indexOf(":");
      const name = colon < 0 ? line : line.slice(0, colon);
      let value = colon < 0 ? "" : line.slice(colon + 1);
      if (value.startsWith(" ")) value = value.slice(1);
      if (name === "data") event.data.push(value);
      else if (name === "id") event.id = value;
      else if (name === "event") event.event = value;
      else continue;
      fields++;
    }
    if (fields && event.data.length) events.push({ ...event, data: event.data.join("\n") });
  }
  return { events, rest };
}

export const POLL_MS = 2000;

/**
 * Every event type the engine and its games send. A server-sent event with a name (`event:
 * bid_committed`) reaches only the EventSource listeners of that name; a type missing here is
 * still delivered, from GET /events, as soon as a later event shows the gap
 * (tests/service/test_web_client.py holds this list to the rules' declarations).
 */
export const EVENT_TYPES = [
  // the engine's own
  "seat_taken", "seat_left", "seat_held", "game_started", "game_abandoned", "deadline_passed",
  "rematch_of", "game_finished",
  // the games'
  "auction_bid", "auction_pass", "auction_started", "auction_won", "bet_placed", "bets_revealed",
  "betting_opened", "bid_committed", "bids_revealed", "block_queued", "blocked", "call_voided",
  "card_discarded", "card_placed", "cast", "casting_started", "challenge_window", "chief_thief",
  "choice_passed", "chooser", "dealer_must_bid", "declaration", "declaration_voided",
  "director_fired", "directors_removed", "dummy_received", "extra_turn", "hand_dealt",
  "hand_scored", "helper_hired", "helper_missed", "hired", "layout_chosen", "no_call",
  "no_challenge", "nobody_called", "nominated", "office_pending", "passed", "player_out",
  "redeal", "round_ended", "round_started", "run_ended", "run_passed", "run_started",
  "sesame_called", "side_chosen", "sides_chosen", "sides_revealed", "slot_tied",
  "table_blocked", "turn_scored", "turn_skipped", "turn_started", "vote_cast", "vote_result",
  "window_closed", "window_opened", "window_passed", "word_challenged", "word_counted",
  "word_stands", "word_submitted",
];

/** An EventSource ended without ever opening: refused (204, 401, 503...) or unreachable. */
class Refused extends Error {}

/**
 * Follow a game's events after ``after``: ``onEvents(list)`` for each batch, ``onStatus(s)``
 * with "live", "reconnecting", "polling" or "closed". Returns ``{close()}``.
 */
export function follow({ gameId, token, spectator, after = 0, onEvents, onStatus }) {
  let last = after;
  let closed = false;
  let finished = false;
  let source = null;
  let failures = 0;
  let chain = Promise.resolve();
  const path = `/v1/games/${encodeURIComponent(gameId)}/events`;
  const bearer = token || spectator;  // a spectator link's token in the header, never the URL
  const auth = () => (bearer ? { Authorization: `Bearer ${bearer}` } : {});
  const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

  const deliver = (list) => {
    const fresh = list.filter((e) => e.seq > last);
    if (!fresh.length) return;
    last = fresh[fresh.length - 1].seq;
    if (fresh.some((e) => e.type === "game_finished")) finished = true;
    onEvents(fresh);
  };

  // the events after the last one the page has, from the JSON feed (null: not now)
  async function catchUp() {
    try {
      const resp = await fetch(withQuery(path, { after: last }), { headers: auth(), cache: "no-store" });
      if (!resp.ok) return resp.status;
      deliver((await resp.json()).events || []);
      return resp.status;
    } catch {
      return null;  // offline for now
    }
  }

  // where the next stream opens: a new ticket each time (single use), after the last event
  async function streamUrl() {
    if (!bearer) return withQuery(path, { after: last });
    const ticket = await call("POST", `${path.slice(0, -"/events".length)}/stream-tickets`,
      { token: bearer });
    return withQuery(ticket.data.url, { after: last });
  }

  // one stream: resolves when it ends after it opened (the server's time limit, a dropped
  // connection, the game's end), rejects with Refused when it never opened
  function stream(url) {
    return new Promise((resolve, reject) => {
      const es = new EventSource(url);
      source = es;
      let opened = false;
      const onFrame = (msg) => {
        let event;
        try { event = JSON.parse(msg.data); } catch { return; }  // a frame we do not know
        chain = chain.then(async () => {
          // an event of a type not listened to came before this one: fetch the gap first
          if (event.seq > last + 1) await catchUp();
          deliver([event]);
        }).catch(() => {});  // the page's own trouble with an event never stops the feed
      };
      for (const type of ["message", ...EVENT_TYPES]) es.addEventListener(type, onFrame);
      es.onopen = () => { opened = true; failures = 0; onStatus("live"); };
      es.onerror = () => {
        // this connection is over, whatever comes next: its ticket is used, so it never
        // reconnects by itself
        es.close();
        if (source === es) source = null;
        chain.then(() => (opened ? resolve() : reject(new Refused("stream refused"))));
      };
    });
  }

  async function poll(rounds) {
    onStatus("polling");
    for (let i = 0; i < rounds && !closed && !finished; i++) {
      await catchUp();
      await wait(POLL_MS);
    }
  }

  (async () => {
    while (!closed && !finished) {
      try {
        const before = last;
        const started = Date.now();
        const url = await streamUrl();
        if (closed) break;
        await stream(url);  // ends when the server closes it (time limit, game over)
        if (last === before && Date.now() - started < 2000) {
          // closed at once with nothing new: do not hammer the server
          failures++;
          await wait(1000 * failures);
        }
      } catch (err) {
        if (closed) break;
        failures++;
        if (err instanceof Problem && [401, 403, 404].includes(err.status)) { onStatus("closed"); return; }
        if (err instanceof Refused) {
          // EventSource does not say why: the feed tells whether anything is left to follow
          // (a finished game whose every event the page has answers the stream with 204)
          const status = await catchUp();
          if (finished || closed) break;
          if ([401, 403, 404].includes(status)) { onStatus("closed"); return; }
        }
        // no room for a stream, or streams keep failing: poll for a while
        if ((err instanceof Problem && err.status === 503) || failures >= 3) {
          await poll(15);
          failures = 0;
          continue;
        }
        onStatus("reconnecting");
        await wait(500 * failures);
      }
    }
    if (!closed) onStatus("closed");
  })();

  return {
    close() { closed = true; if (source) source.close(); },
    get last() { return last; },
  };
}
