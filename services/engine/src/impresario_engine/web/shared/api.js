// The public API, as any frontend uses it: JSON in and out, bearer tokens, If-Match on moves,
// and problem+json errors turned into a Problem with the engine's code and message.
import { has, language, t } from "./i18n.js";

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
    throw new Problem(0, { code: "network_error" });
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

// The codes a player meets, by their stable API code: each has a catalogue key
// ("error.<code>"), so the sentence is in the page's language, never the server's English.
const CODES = ["stale_version", "rate_limited", "create_rate_limited", "auth_rate_limited",
  "network_error", "game_full", "game_finished", "not_your_turn", "storage_unavailable", "contention",
  "game_not_found", "private_game", "join_link_required", "invalid_join_token", "spectator_read_only",
  "name_taken", "name_blank", "seat_only", "not_your_seat",
  "invalid_token", "missing_token", "too_many_streams", "host_only", "game_not_started", "not_now",
  "seat_not_found", "not_a_player", "cursor_expired", "invalid_cursor", "invalid_body",
  "invalid_player_token", "invalid_device_code", "player_seated", "not_seated", "seat_left", "not_waiting",
  "player_not_found", "ruleset_not_found"];

// A ruleset's own refusals of a move (Turandot's, Word Jam's, Muzicando's: the codes in each
// ruleset's declarations) have their sentence in the catalogues as "error.<code>": on an English
// page the engine's `detail` says it best (it names the letter, the slot or the rule); another
// language has the catalogue's words.

/** The words of a 409 deadline_passed: what moved the game on, and what it did for the player. */
function movedOn(problem) {
  const body = problem.body || {};
  const where = [body.turn && t("where.turn", { n: body.turn }), body.round && t("where.round", { n: body.round }),
    body.hand && t("where.hand", { n: body.hand })].filter(Boolean).join(", ");
  // the phase is the engine's own name (English): shown on an English page only
  const phase = body.phase && language() === "en" ? String(body.phase).replace(/_/g, " ") : null;
  const now = where ? ` ${phase ? t("error.now_phase", { where, phase }) : t("error.now", { where })}` : "";
  if (body.cause === "bot") return t("error.deadline_bot", { now });
  if (body.default_played) return t("error.deadline_default", { now });
  return t("error.deadline_passed", { now });
}

/** A sentence a player understands, in the page's language, chosen by the problem's code. In
 * English an unknown code shows the engine's own ``detail`` (written in English); in another
 * language a general sentence naming the code, never the English ``detail``. */
export function explain(problem) {
  if (!(problem instanceof Problem)) return String(problem && problem.message || problem);
  if (problem.code === "deadline_passed") return movedOn(problem);
  let text = CODES.includes(problem.code) ? t(`error.${problem.code}`) : null;
  if (!text && has(`error.${problem.code}`) && !(language() === "en" && problem.detail)) text = t(`error.${problem.code}`);
  if (text && problem.status === 429) {
    text += " " + (problem.retryAfter ? t("error.wait_seconds", { n: problem.retryAfter }) : t("error.wait_minute"));
  }
  if (!text && problem.code.startsWith("name_")) {
    // name_too_long, name_invisible_characters: in English the engine says which limit or
    // character; in another language the page's own sentence for the code
    if (language() === "en" && problem.detail) text = t("error.name_detail", { detail: problem.detail });
    else text = has(`error.${problem.code}`) ? t(`error.${problem.code}`) : t("error.name_other");
  }
  if (!text && language() === "en" && problem.detail) {
    text = problem.detail.charAt(0).toUpperCase() + problem.detail.slice(1);
  }
  if (!text) text = t("error.unknown", { code: problem.code, status: problem.status });
  if (!/[.!?]$/.test(text)) text += ".";
  return text;
}

/** Whether the move was refused because the game moved on: refresh and let the player look. */
export function isStale(problem) {
  return problem instanceof Problem && (problem.status === 412 || problem.status === 409);
}
