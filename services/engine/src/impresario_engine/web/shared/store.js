// What the browser keeps between visits (localStorage): per game the seat's token, and the
// host token of the games created here; the player's name; the player this browser is (its
// id, name and credential: shared/players.js). A reload, or a tab closed and opened again,
// finds the seat again.

const PREFIX = "impresario:game:";

function read(key) {
  try { return JSON.parse(localStorage.getItem(key) || "null"); } catch { return null; }
}

export function seatOf(gameId) {
  return read(PREFIX + gameId) || {};
}

export function remember(gameId, fields) {
  const next = { ...seatOf(gameId), ...fields, saved: Date.now() };
  try { localStorage.setItem(PREFIX + gameId, JSON.stringify(next)); } catch { /* private mode */ }
  return next;
}

export function forgetSeat(gameId) {
  const entry = seatOf(gameId);
  delete entry.token; delete entry.seat;
  try {
    if (entry.host || entry.spectator) localStorage.setItem(PREFIX + gameId, JSON.stringify(entry));
    else localStorage.removeItem(PREFIX + gameId);
  } catch { /* ignore */ }
}

/** The games this browser holds a seat or the host token of, newest first. */
export function myGames() {
  const out = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    if (key && key.startsWith(PREFIX)) out.push({ id: key.slice(PREFIX.length), ...read(key) });
  }
  return out.sort((a, b) => (b.saved || 0) - (a.saved || 0));
}

export function playerName() {
  return localStorage.getItem("impresario:name") || "";
}

export function setPlayerName(name) {
  try { localStorage.setItem("impresario:name", name); } catch { /* ignore */ }
}

// The player this browser is: ``{id, name, token}`` (the token is the player's credential on
// this device; it goes in the Authorization header only, never in a URL).
const PLAYER = "impresario:player";

// the pages that show the player hear of a player made, claimed, renamed or forgotten
function playerChanged() {
  try { window.dispatchEvent(new Event(PLAYER)); } catch { /* no window */ }
}

export function storedPlayer() {
  const found = read(PLAYER);
  return found && found.id && found.token ? found : null;
}

export function keepPlayer(player, token) {
  const next = { id: player.id, name: player.name, token };
  try { localStorage.setItem(PLAYER, JSON.stringify(next)); } catch { /* private mode */ }
  playerChanged();
  return next;
}

export function renamePlayer(name) {
  const found = storedPlayer();
  if (found) keepPlayer({ ...found, name }, found.token);
}

export function forgetPlayer() {
  try { localStorage.removeItem(PLAYER); } catch { /* ignore */ }
  playerChanged();
}

// A message for the next page (set before a navigation or a reload, shown once by the page it
// leads to): kept in sessionStorage, this tab's own.
const FLASH = "impresario:flash";

export function setFlash(text) {
  try { sessionStorage.setItem(FLASH, text); } catch { /* private mode */ }
}

export function takeFlash() {
  try {
    const out = sessionStorage.getItem(FLASH);
    sessionStorage.removeItem(FLASH);
    return out;
  } catch { return null; }
}
