// Pure helpers shared by the pages (no DOM, no network): tested in the browser by
// tests/web/test_helpers.py. Their words come from the catalogues (i18n.js).
import { has, t } from "./i18n.js";

/** "#/game/abc?spectator=x" → {page: "game", id: "abc", query: {spectator: "x"}}; another
 * device's link, "#claim=CODE", → {page: "claim", id: null, query: {code: "CODE"}} */
export function parseRoute(hash) {
  const claim = /^#claim=([^&?#]*)/.exec(hash || "");
  if (claim) return { page: "claim", id: null, query: { code: decodeURIComponent(claim[1]) } };
  const raw = (hash || "").replace(/^#\/?/, "");
  const [path, search = ""] = raw.split("?");
  const parts = path.split("/").filter(Boolean).map(decodeURIComponent);
  const query = Object.fromEntries(new URLSearchParams(search));
  return { page: parts[0] || "lobby", id: parts[1] || null, query };
}

export function route(page, id = null, query = {}) {
  let out = `#/${page}`;
  if (id) out += `/${encodeURIComponent(id)}`;
  const params = new URLSearchParams(Object.entries(query).filter(([, v]) => v));
  const text = params.toString();
  return text ? `${out}?${text}` : out;
}

/** The link players join by; a private game's carries its join token (?join=). */
export function joinLink(origin, id, join = null) {
  return `${origin}/${route("join", id, { join })}`;
}

export function watchLink(origin, id, spectator = null) {
  return `${origin}/${route("game", id, { spectator })}`;
}

/** Seconds left as "m:ss" (never negative). */
export function clockText(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  const m = Math.floor(s / 60);
  const h = Math.floor(m / 60);
  const ss = String(s % 60).padStart(2, "0");
  if (h) return `${h}:${String(m % 60).padStart(2, "0")}:${ss}`;
  return `${m}:${ss}`;
}

export function plural(n, one, many = `${one}s`) {
  return `${n} ${n === 1 ? one : many}`;
}

/** Turandot (R3): how many cards a sealed bid puts face down — what the others see. */
export function faceDown(bid) {
  if (!bid) return 0;
  return (bid.slot ? 1 : 0) + (bid.money || 0) + (bid.bluff ? 1 : 0);
}

/** seat → display name from a view's players (or a replay's names). */
export function nameOf(view, seat) {
  if (seat === null || seat === undefined) return t("format.nobody");
  const player = (view.players || []).find((p) => p.seat === seat);
  return (player && player.name) || t("format.seat", { n: seat + 1 });
}

export function listNames(view, seats) {
  const names = (seats || []).map((s) => nameOf(view, s));
  if (names.length <= 1) return names.join("");
  return t("format.list", { first: names.slice(0, -1).join(", "), last: names[names.length - 1] });
}

/** The pending entry of ``seat`` in a view (or null). */
export function pendingOf(view, seat) {
  return (view.pending || []).find((p) => p.seat === seat) || null;
}

/** The soonest deadline among the pending seats (null when none has one). */
export function nextDeadline(view) {
  const times = (view.pending || []).map((p) => p.deadline).filter((t) => typeof t === "number");
  return times.length ? Math.min(...times) : null;
}

export function titleCase(text) {
  return String(text || "").replace(/_/g, " ").replace(/^\w/, (c) => c.toUpperCase());
}

export const RULESET_TITLES = { turandot: "Turandot", wordjam: "Word Jam", muzicando: "Muzicando" };

/** Whether the engine would take two names for one (name_taken): case and width folded. Its
 * own check also folds look-alike letters; this one is for the names the page picks itself. */
export function looksAlike(a, b) {
  const fold = (s) => String(s || "").normalize("NFKC").trim().replace(/\s+/g, " ").toLowerCase();
  return fold(a) === fold(b);
}

export function secondsText(s) {
  if (s % 86400 === 0) return t("format.days", { n: s / 86400 });
  if (s % 3600 === 0) return t("format.hours", { n: s / 3600 });
  if (s % 60 === 0) return t("format.minutes", { n: s / 60 });
  return t("format.seconds_short", { n: s });
}

/** A time left, rounded down to what a player reads: days and hours, hours and minutes,
 * minutes, or seconds under a minute. */
export function durationText(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const d = Math.floor(s / 86400), h = Math.floor((s % 86400) / 3600), m = Math.floor((s % 3600) / 60);
  if (d) return h ? t("format.duration_dh", { d, h }) : t("format.days", { n: d });
  if (h) return m ? t("format.duration_hm", { h, m }) : t("format.hours", { n: h });
  if (m) return t("format.duration_m", { m });
  return t("format.seconds_short", { n: s });
}

/** A seat's time bank now: as its turn began, less what its pending move has drawn (the time
 * to its deadline, once its move's own time is over). */
export function bankLeft(view, seat, now) {
  const bank = (view.banks || [])[seat];
  if (typeof bank !== "number") return null;
  const p = pendingOf(view, seat);
  return p && typeof p.deadline === "number" ? Math.max(0, Math.min(bank, p.deadline - now)) : bank;
}

/** Word Jam's languages (option language), by their codes: the catalogue's key of each. */
export const LANGUAGES = { it: "format.lang_it", en: "format.lang_en" };

/** A table's pace (option pace) in words: "relaxed pace". */
export function paceText(pace) {
  return t("format.pace", { pace: has(`pace.${pace}`) ? t(`pace.${pace}`) : pace });
}

/** A list item's options in words: what a player deciding to join wants to know. */
export function gameSummary(game) {
  const o = game.options || {};
  const parts = [t("format.seats_taken", { taken: game.seats_taken, total: game.seats_total })];
  if (o.pace) parts.push(paceText(o.pace));
  if (typeof o.move_seconds === "number") parts.push(t("format.per_move", { time: secondsText(o.move_seconds) }));
  if (typeof o.bank_seconds === "number") parts.push(t("format.bank", { time: secondsText(o.bank_seconds), refill: secondsText(o.bank_refill_seconds || 0) }));
  if (game.ruleset === "wordjam" && typeof o.think_seconds === "number") parts.push(t("format.to_find_word", { time: secondsText(o.think_seconds) }));
  if (game.ruleset === "wordjam" && o.language) parts.push(t("format.words_in", { language: LANGUAGES[o.language] ? t(LANGUAGES[o.language]) : o.language }));
  if (game.ruleset === "wordjam" && o.dictionary) parts.push(t("format.dictionary_only"));
  if (game.ruleset === "muzicando") {
    if (o.mode) parts.push(o.mode === "team" ? t("format.teams") : t("format.individual"));
    if (typeof o.hands === "number") parts.push(t("format.hands", { n: o.hands }));
  }
  return parts.join(" · ");
}

/** Who sits where in a list item: names, bots, seats held for a rematch's players, free seats. */
export function seatLine(game) {
  const names = (game.seats || []).map((s) => (s.held ? t("format.seat_held", { name: s.name }) : s.bot ? t("format.seat_bot", { name: s.name }) : s.name));
  const free = game.seats_total - game.seats_taken;
  if (free > 0 && game.status === "open") names.push(t("format.seats_free", { n: free }));
  return names.join(", ");
}
