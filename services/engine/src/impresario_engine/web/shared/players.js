// The player this browser is (docs/web.md, "Players"): an anonymous player (POST /v1/players),
// made the first time one is needed (a table set up, a seat taken, a quick match, another
// device), named with the name typed for the table. Its credential is kept in localStorage
// (store.js) and travels in the Authorization header only, never in a URL. With it the page
// lists the player's games on any device, takes back a seat whose token ended (the seat was
// resumed on another device), and moves the player to another device with a one-time code.
import { useEffect, useState } from "../lib.js";
import { call, Problem } from "./api.js";
import { forgetPlayer, keepPlayer, playerName, remember, setPlayerName, storedPlayer } from "./store.js";
import { botLevel } from "./ui.js";
import { t } from "./i18n.js";

/** The player this browser is (null: none yet), kept up to date: a player made, claimed,
 * renamed or forgotten here or in another tab re-renders the component. */
export function usePlayer() {
  const [player, setPlayer] = useState(storedPlayer);
  useEffect(() => {
    const changed = () => setPlayer(storedPlayer());
    window.addEventListener("impresario:player", changed);
    window.addEventListener("storage", changed);
    return () => {
      window.removeEventListener("impresario:player", changed);
      window.removeEventListener("storage", changed);
    };
  }, []);
  return player;
}

/** Whether the server said this device's player credential no longer works (the player was
 * removed, on this device or another). */
export function credentialEnded(err) {
  return err instanceof Problem && err.status === 401 && err.code === "invalid_player_token";
}

/** Whether a game's token (a seat's or the host's) was refused: another device resumed the
 * seat, and the tokens given before it ended. */
export function tokenEnded(err) {
  return err instanceof Problem && err.status === 401 && err.code === "invalid_token";
}

let making = null;  // one player, however many buttons ask at once

/**
 * The player's credential on this device; the player is made first when there is none, named
 * ``name`` (the name typed for the table). A name the engine refuses for a player (the table
 * will say why when it refuses it for the seat) gives the default name, which the player can
 * change on their profile. null: a server without players (the page then plays as before).
 */
export async function ensurePlayer(name) {
  const found = storedPlayer();
  if (found) return found.token;
  if (!making) making = make(name).finally(() => { making = null; });
  return making;
}

async function make(name) {
  const wanted = String(name || "").trim() || t("players.default_name");
  let made;
  try {
    made = await call("POST", "/v1/players", { body: { name: wanted } });
  } catch (err) {
    if (err instanceof Problem && [404, 405].includes(err.status)) return null;
    if (!(err instanceof Problem && err.status === 422)) throw err;
    made = await call("POST", "/v1/players", { body: { name: t("players.default_name") } });
  }
  return keepPlayer(made.data.player, made.data.token).token;
}

/** ``fn(token)`` with the player's credential; once more with a new player when the one kept
 * here was removed meanwhile. */
export async function asPlayer(name, fn) {
  const token = await ensurePlayer(name);
  try {
    return await fn(token);
  } catch (err) {
    if (!credentialEnded(err)) throw err;
    forgetPlayer();
    return fn(await ensurePlayer(name));
  }
}

/** A request as the player kept here (none: 401 ``missing_token``); a credential the server
 * no longer knows is forgotten. */
export async function playerCall(method, path, opts = {}) {
  const found = storedPlayer();
  if (!found) throw new Problem(401, { code: "missing_token" });
  try {
    return await call(method, path, { ...opts, token: found.token });
  } catch (err) {
    if (credentialEnded(err)) forgetPlayer();
    throw err;
  }
}

function nameAt(game, seat) {
  const found = (game.players || []).find((p) => p.seat === seat);
  return found ? found.name : undefined;
}

/** The player's seat at ``gameId`` on this device (POST /v1/me/games/{id}/resume): fresh
 * tokens, kept here; the ones other devices hold stop working. */
export async function resumeSeat(gameId) {
  const r = await playerCall("POST", `/v1/me/games/${encodeURIComponent(gameId)}/resume`);
  const d = r.data;
  const seated = d.seat !== null && d.seat !== undefined;
  const next = { ruleset: d.game.ruleset, token: d.token || undefined, seat: seated ? d.seat : undefined,
    name: seated ? nameAt(d.game, d.seat) : undefined };
  if (d.host_token) next.host = d.host_token;
  remember(gameId, next);
  return d;
}

/** This browser becomes the player a device code gives (the code is used up). */
export async function claimCode(code) {
  const r = await call("POST", "/v1/players/claim", { body: { code } });
  keepPlayer(r.data.player, r.data.token);
  if (!playerName()) setPlayerName(r.data.player.name);
  return r.data.player;
}

/** A player's name as the page shows it: a bot level (a rated player too) in the page's
 * language, anyone else by their own name. */
export function shownName(player) {
  if (player && player.kind === "bot") {
    return t("players.bot_name", { level: botLevel(String(player.name).replace(/ bot$/, "")) });
  }
  return player ? player.name : "";
}

/** The QR code of ``text`` as an image the page may show (its policy allows data: images):
 * drawn by the engine (POST /web/qr, the text in the body, never in a URL). */
export async function qrImage(text) {
  let resp;
  try {
    resp = await fetch("/web/qr", {
      method: "POST", cache: "no-store", body: JSON.stringify({ text }),
      headers: { "Content-Type": "application/json", Accept: "image/svg+xml" },
    });
  } catch {
    throw new Problem(0, { code: "network_error" });
  }
  if (!resp.ok) throw new Problem(resp.status, await resp.json().catch(() => ({})));
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(await resp.text())}`;
}
