// The game's event feed: server-sent events read with fetch (so the seat's token travels in
// the Authorization header, which EventSource cannot send), resumed with Last-Event-ID after a
// dropped connection, and polling GET /events when streaming does not work.
import { Problem, withQuery } from "./api.js";

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
 * Follow a game's events after ``after``: ``onEvents(list)`` for each batch, ``onStatus(s)``
 * with "live", "reconnecting", "polling" or "closed". Returns ``{close()}``.
 */
export function follow({ gameId, token, spectator, after = 0, onEvents, onStatus }) {
  let last = after;
  let closed = false;
  let finished = false;
  let controller = null;
  let failures = 0;
  const path = `/v1/games/${encodeURIComponent(gameId)}/events`;
  const bearer = token || spectator;  // a spectator link's token in the header, never the URL
  const auth = () => (bearer ? { Authorization: `Bearer ${bearer}` } : {});
  const headers = () => ({ Accept: "text/event-stream", "Last-Event-ID": String(last), ...auth() });
  const url = () => path;
  const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

  const deliver = (list) => {
    const fresh = list.filter((e) => e.seq > last);
    if (!fresh.length) return;
    last = fresh[fresh.length - 1].seq;
    if (fresh.some((e) => e.type === "game_finished")) finished = true;
    onEvents(fresh);
  };

  async function stream() {
    controller = new AbortController();
    const resp = await fetch(url(), { headers: headers(), cache: "no-store", signal: controller.signal });
    if (!resp.ok || !resp.body) {
      let body = {};
      try { body = await resp.json(); } catch { /* not JSON */ }
      throw new Problem(resp.status, body);
    }
    onStatus("live");
    failures = 0;
    const reader = resp.body.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      const parsed = parseSSE(buffer);
      buffer = parsed.rest;
      const list = [];
      for (const item of parsed.events) {
        try { list.push(JSON.parse(item.data)); } catch { /* a frame we do not know */ }
      }
      if (list.length) deliver(list);
    }
  }

  async function poll(rounds) {
    onStatus("polling");
    for (let i = 0; i < rounds && !closed && !finished; i++) {
      try {
        const resp = await fetch(withQuery(url(), { after: last }), {
          headers: auth(), cache: "no-store",
        });
        if (resp.ok) deliver((await resp.json()).events || []);
      } catch { /* offline for now: the next round tries again */ }
      await wait(POLL_MS);
    }
  }

  (async () => {
    while (!closed && !finished) {
      try {
        const before = last;
        const started = Date.now();
        await stream();  // ends when the server closes it (time limit, game over)
        if (last === before && Date.now() - started < 2000) {
          // closed at once with nothing new: do not hammer the server
          failures++;
          await wait(1000 * failures);
        }
      } catch (err) {
        if (closed) break;
        failures++;
        if (err instanceof Problem && [401, 403, 404].includes(err.status)) { onStatus("closed"); return; }
        // the worker has no room for a stream, or streams keep failing: poll for a while
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
    close() { closed = true; if (controller) controller.abort(); },
    get last() { return last; },
  };
}
