// The public API, as any frontend uses it: JSON in and out, bearer tokens, If-Match on moves,
// and problem+json errors turned into a Problem with the engine's code and message.

export class Problem extends Error {
  constructor(status, body = {}, retryAfter = null) {
    super(body.detail || body.title || `HTTP ${status}`);
    this.status = status;
    this.code = body.code || (status === 0 ? "network_error" : `http_${status}`);
    this.detail = body.detail || "";
    this.body = body;
    this.retryAfter = retryAfter;
  }
}

// the server's clock minus ours (seconds), from the Date header: deadlines are server times
export const clock = { offset: 0 };

export function serverNow() {
  return Date.now() / 1000 + clock.offset;
}

function noteDate(resp) {
  const date = resp.headers.get("Date");
  if (date) {
    const server = Date.parse(date) / 1000;
    if (!Number.isNaN(server)) clock.offset = server + 0.5 - Date.now() / 1000;
  }
}

export function withQuery(path, query = {}) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== "") params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `${path}${path.includes("?") ? "&" : "?"}${text}` : path;
}

/** call("POST", "/v1/games", {body, token, ifMatch, spectator}) → {status, data, etag} */
export async function call(method, path, opts = {}) {
  const headers = { Accept: "application/json" };
  // a spectator link's token goes in the header too (the API reads it as a bearer token), so
  // that no URL the page requests carries it
  const bearer = opts.token || opts.spectator;
  if (bearer) headers.Authorization = `Bearer ${bearer}`;
  if (opts.body !== undefined) headers["Content-Type"] = "application/json";
  if (opts.ifMatch !== undefined && opts.ifMatch !== null) headers["If-Match"] = `"${opts.ifMatch}"`;
  if (opts.ifNoneMatch) headers["If-None-Match"] = opts.ifNoneMatch;
  const url = path;
  let resp;
  try {
    resp = await fetch(url, {
      method, headers, cache: "no-store", signal: opts.signal,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    });
  } catch (err) {
    if (err.name === "AbortError") throw err;
    throw new Problem(0, { detail: "the server cannot be reached; check the connection" });
  }
  noteDate(resp);
  if (resp.status === 304) return { status: 304, data: null, etag: resp.headers.get("ETag") };
  const type = resp.headers.get("Content-Type") || "";
  let data = null;
  if (type.includes("json")) {
    try { data = await resp.json(); } catch { data = null; }
  }
  if (!resp.ok) {
    const retry = resp.headers.get("Retry-After");
    throw new Problem(resp.status, data || {}, retry === null ? null : Number(retry));
  }
  return { status: resp.status, data, etag: resp.headers.get("ETag") };
}

const PLAIN = {
  stale_version: "The table changed before your move arrived, so it was not played. " +
    "The table now shows what happened: look again and choose.",
  rate_limited: "Too many requests at once.",
  create_rate_limited: "You have set up a lot of tables in the last minute.",
  auth_rate_limited: "Too many wrong links or tokens came from this address.",
  network_error: "The server cannot be reached. Check the connection; the table reconnects " +
    "by itself.",
  game_full: "Every seat of this game is taken. You can still watch it.",
  game_finished: "The game is over.",
  not_your_turn: "It is not your turn any more: the table now shows who must act.",
  storage_unavailable: "The server cannot reach its game store just now. Try again in a moment.",
  contention: "The game is changing very fast. Try again in a moment.",
  game_not_found: "There is no such table. Its link may be incomplete, or the table expired " +
    "(a table nobody joins closes after a day; a finished one is kept for a while).",
  private_game: "This table is private: only its players, and people with its spectator " +
    "link, can see it.",
  join_link_required: "This table is private: taking a seat needs its join link. Ask the " +
    "host to send it to you.",
  invalid_join_token: "This join link does not open this table (it may have been cut short " +
    "when it was copied). Ask the host for the link again.",
  spectator_read_only: "This is the spectator link: it lets you watch, not play. To take a " +
    "seat, ask the host for the join link.",
  name_taken: "Someone at this table already has that name, or one that looks just like it " +
    "(capitals and look-alike letters count as the same). Choose another name.",
  name_blank: "Write a name with at least one visible letter.",
  seat_only: "Once the game has started, only the player can leave the seat.",
  not_your_seat: "You can only leave your own seat.",
};

/** The words of a 409 deadline_passed: what moved the game on, and what it did for the player. */
function movedOn(problem) {
  const body = problem.body || {};
  const where = [body.turn && `turn ${body.turn}`, body.round && `round ${body.round}`,
    body.hand && `hand ${body.hand}`].filter(Boolean).join(", ");
  const now = where ? ` It is now ${where}${body.phase ? ` (${String(body.phase).replace(/_/g, " ")})` : ""}.` : "";
  if (body.cause === "bot") {
    return `A bot moved first: the game moved on before your move arrived, so it was not played.${now} ` +
      "Look at the table and choose again.";
  }
  if (body.default_played) {
    return `Too late: your time for that move ran out, and the engine played the default move for you.${now}`;
  }
  return `Too late: the time for that move ran out before it arrived, and the game moved on.${now} ` +
    "Look at the table and choose again.";
}

/** A sentence a player understands: our wording for the codes that need one, else the engine's. */
export function explain(problem) {
  if (!(problem instanceof Problem)) return String(problem && problem.message || problem);
  if (problem.code === "deadline_passed") return movedOn(problem);
  let text = PLAIN[problem.code];
  if (text && problem.status === 429) {
    text += problem.retryAfter ? ` Wait ${problem.retryAfter} s and try again.` : " Wait a minute and try again.";
  }
  if (!text && problem.code.startsWith("name_")) {
    // name_too_long, name_invisible_characters: the engine says which limit or character
    text = `That name cannot be used: ${problem.detail || "choose another"}.`;
  }
  if (!text) {
    text = problem.detail || `The server refused (${problem.status}).`;
    text = text.charAt(0).toUpperCase() + text.slice(1);
  }
  if (!/[.!?]$/.test(text)) text += ".";
  return text;
}

/** Whether the move was refused because the game moved on: refresh and let the player look. */
export function isStale(problem) {
  return problem instanceof Problem && (problem.status === 412 || problem.status === 409);
}
