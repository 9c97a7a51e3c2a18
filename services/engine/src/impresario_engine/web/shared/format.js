// Pure helpers shared by the pages (no DOM, no network): tested in the browser by
// tests/web/test_helpers.py.

/** "#/game/abc?spectator=x" → {page: "game", id: "abc", query: {spectator: "x"}} */
export function parseRoute(hash) {
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

export function joinLink(origin, id) {
  return `${origin}/${route("join", id)}`;
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
  if (seat === null || seat === undefined) return "nobody";
  const player = (view.players || []).find((p) => p.seat === seat);
  return (player && player.name) || `Seat ${seat + 1}`;
}

export function listNames(view, seats) {
  const names = (seats || []).map((s) => nameOf(view, s));
  if (names.length <= 1) return names.join("");
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
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
