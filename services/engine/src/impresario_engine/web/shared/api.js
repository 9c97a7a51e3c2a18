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
  if (opts.token) headers.Authorization = `Bearer ${opts.token}`;
  if (opts.body !== undefined) headers["Content-Type"] = "application/json";
  if (opts.ifMatch !== undefined && opts.ifMatch !== null) headers["If-Match"] = `"${opts.ifMatch}"`;
  if (opts.ifNoneMatch) headers["If-None-Match"] = opts.ifNoneMatch;
  const url = opts.spectator && !opts.token ? withQuery(path, { spectator: opts.spectator }) : path;
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
  deadline_passed: "Too late: the time for that move had run out, and the engine played the " +
    "default for you. The table now shows where the game is.",
  rate_limited: "Too many requests at once.",
  network_error: "The server cannot be reached. Check the connection; the table reconnects " +
    "by itself.",
  game_full: "Every seat of this game is taken. You can still watch it.",
  game_finished: "The game is over.",
  not_your_turn: "It is not your turn any more: the table now shows who must act.",
  storage_unavailable: "The server cannot reach its game store just now. Try again in a moment.",
  contention: "The game is changing very fast. Try again in a moment.",
};

/** A sentence a player understands: our wording for the codes that need one, else the engine's. */
export function explain(problem) {
  if (!(problem instanceof Problem)) return String(problem && problem.message || problem);
  let text = PLAIN[problem.code];
  if (problem.code === "rate_limited" && problem.retryAfter) {
    text = `${PLAIN.rate_limited} Wait ${problem.retryAfter} s and try again.`;
  }
  if (!text) {
    text = problem.detail || `The server refused (${problem.status}).`;
    text = text.charAt(0).toUpperCase() + text.slice(1);
    if (!/[.!?]$/.test(text)) text += ".";
  }
  return text;
}

/** Whether the move was refused because the game moved on: refresh and let the player look. */
export function isStale(problem) {
  return problem instanceof Problem && (problem.status === 412 || problem.status === 409);
}
