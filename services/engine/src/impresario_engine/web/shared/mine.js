// The lobby's parts of a player who comes back: my games on any device (GET /v1/me/games, a
// seat opened on a device that has no token for it is resumed there), play now with people
// (the quick match: POST, GET and DELETE /v1/match), and the player on another device (a
// one-time code, its link and the link's QR code).
import { html, useEffect, useRef, useState } from "../lib.js";
import { call, explain, Problem, serverNow, withQuery } from "./api.js";
import { clockText, RULESET_TITLES, route } from "./format.js";
import { myGames, seatOf, storedPlayer } from "./store.js";
import { Alert, Countdown, ShareLink } from "./ui.js";
import { formatNumber, t } from "./i18n.js";
import { asPlayer, credentialEnded, playerCall, qrImage, resumeSeat, usePlayer } from "./players.js";
import { NotifyMe } from "./notify.js";

const MY_PAGE = 10;
const STATUS_WORDS = { open: "list.open", playing: "list.playing", finished: "list.finished" };

/** One of my games: what it is, whether it waits for my move (and until when), and a button
 * that opens it (resuming the seat here when this browser holds no token for it). */
function MyGame({ game, open, busy }) {
  const saved = seatOf(game.id);
  const here = Boolean(saved.token || (saved.host && game.seat === null)) || game.status === "finished";
  const facts = [t(STATUS_WORDS[game.status] || "list.all"),
    t("format.seats_taken", { taken: game.seats_taken, total: game.seats_total })];
  if (game.name) facts.push(t("lobby.as_name", { name: game.name }));
  else if (game.host) facts.push(t("lobby.as_host"));
  if (game.status === "finished" && game.won !== null) facts.push(game.won ? t("mine.won") : t("mine.lost"));
  if (game.rated) facts.push(t("mine.rated"));
  return html`<li data-game=${game.id} data-your-move=${game.your_move ? "1" : "0"}>
    <div class="game-item">
      <strong>${RULESET_TITLES[game.ruleset] || game.ruleset}${game.your_move
        && html` <span class="badge badge-turn">${t("mine.your_move")}</span>`}</strong>
      <span class="small">${facts.join(" · ")}</span>
      ${game.your_move && typeof game.deadline === "number"
        && html`<span class="small"><${Countdown} deadline=${game.deadline} label=${t("game.your_time")} /></span>`}
    </div>
    ${here ? html`<a class="button" href=${route("game", game.id)}>${t("list.open_game")}</a>`
      : html`<button type="button" onClick=${() => open(game)} disabled=${busy}
          aria-label=${t("mine.open_here_label", { game: RULESET_TITLES[game.ruleset] || game.ruleset })}>${t("mine.open_here")}</button>`}
  </li>`;
}

/** My games: the player's, from the server (every device sees them), newest first; without a
 * player, the tables this browser holds a token of, as before. */
export function MyGames() {
  const player = usePlayer();
  const [games, setGames] = useState(null);
  const [next, setNext] = useState(null);
  const [pages, setPages] = useState(1);
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const asked = useRef(0);
  const first = async (quiet = false) => {
    if (!storedPlayer()) return;
    const ticket = ++asked.current;
    try {
      const r = await playerCall("GET", withQuery("/v1/me/games", { limit: MY_PAGE }));
      if (ticket !== asked.current) return;
      setGames(r.data.games); setNext(r.data.next); setPages(1); setError(null);
    } catch (err) {
      if (ticket !== asked.current) return;
      if (credentialEnded(err)) setGames(null);
      else if (!quiet) setError(explain(err));
    }
  };
  const more = async () => {
    const ticket = ++asked.current;
    setBusy(true);
    try {
      const r = await playerCall("GET", next);
      if (ticket !== asked.current) return;
      const seen = new Set(games.map((g) => g.id));
      setGames(games.concat(r.data.games.filter((g) => !seen.has(g.id))));
      setNext(r.data.next); setPages(pages + 1); setError(null);
    } catch (err) { setError(explain(err)); } finally { setBusy(false); }
  };
  useEffect(() => { setGames(null); first(); }, [player && player.id]);
  useEffect(() => {
    // the first page follows itself (whose move it is); once more pages are open, it stays
    if (!player || pages > 1) return undefined;
    const timer = setInterval(() => { if (document.visibilityState === "visible") first(true); }, 8000);
    return () => clearInterval(timer);
  }, [pages, Boolean(player)]);
  const open = async (game) => {
    setBusy(true); setError(null);
    try {
      await resumeSeat(game.id);
      location.hash = route("game", game.id);
    } catch (err) { setError(explain(err)); setBusy(false); }
  };
  // this browser's own tables the server does not list (set up before it had a player)
  const listed = new Set((games || []).map((g) => g.id));
  const local = player && (games === null || next) ? []
    : myGames().filter((g) => (g.token || g.host) && !listed.has(g.id)).slice(0, 8);
  if (!player && !local.length) return null;
  return html`<section class="card" aria-labelledby="my-games-title" data-testid="my-games">
    <h2 id="my-games-title">${t("mine.title")}</h2>
    ${player && html`<${NotifyMe} where="mine" />`}
    <${Alert} message=${error} />
    ${player && games === null && !error && html`<p>${t("list.looking")}</p>`}
    ${player && games !== null && games.length === 0 && !local.length && html`<p>${t("mine.none")}</p>`}
    ${(games && games.length > 0 || local.length > 0) && html`<ul class="game-list" aria-busy=${busy}>
      ${(games || []).map((g) => html`<${MyGame} key=${g.id} game=${g} open=${open} busy=${busy} />`)}
      ${local.map((g) => html`<li key=${g.id} data-game=${g.id}>
        <span><strong>${RULESET_TITLES[g.ruleset] || t("lobby.game")}</strong> ${g.id} · ${g.name ? t("lobby.as_name", { name: g.name }) : t("lobby.as_host")}</span>
        <a class="button" href=${route("game", g.id)}>${t("list.open_game")}</a></li>`)}
    </ul>`}
    ${next && html`<div class="actions"><button type="button" onClick=${more} disabled=${busy}>${t("mine.more")}</button></div>`}
  </section>`;
}

const WAITS = [10, 30, 60, 120, 300];
const MATCH = "impresario:match";  // this browser waits in a queue (after a reload, it asks)
const MATCH_POLL_MS = 2000;

function waitWords(seconds) {
  return seconds % 60 === 0 ? t("format.minutes", { n: seconds / 60 }) : t("format.seconds", { n: seconds });
}

/** How long the player has waited, second by second (not announced: the status line is). */
function Waited({ since }) {
  const [now, setNow] = useState(serverNow());
  useEffect(() => {
    const timer = setInterval(() => setNow(serverNow()), 1000);
    return () => clearInterval(timer);
  }, []);
  return html`<strong class="countdown">${clockText(now - since)}</strong>`;
}

/** Play now with people: a table of players with near ratings, bots in the seats nobody took
 * once the chosen wait is over; waiting can be cancelled; seated, the seat is resumed here and
 * the table opens. */
export function QuickMatch({ list, name, quick }) {
  const [ruleset, setRuleset] = useState("turandot");
  const found = list.find((r) => r.name === ruleset) || list[0];
  const [players, setPlayers] = useState(quick.turandot.players);
  const [wait, setWait] = useState(60);
  const [match, setMatch] = useState(null);
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const live = useRef(true);
  useEffect(() => () => { live.current = false; }, []);
  const seated = async (m) => {
    try { localStorage.removeItem(MATCH); } catch { /* private mode */ }
    await resumeSeat(m.game);
    if (live.current) location.hash = route("game", m.game);
  };
  const look = async () => {
    try {
      const r = await playerCall("GET", "/v1/match");
      if (!live.current) return;
      if (r.data.status === "seated") await seated(r.data);
      else setMatch(r.data);
    } catch (err) {
      if (!live.current) return;
      if (err instanceof Problem && err.code === "not_waiting") {
        try { localStorage.removeItem(MATCH); } catch { /* private mode */ }
        setMatch(null);
      } else setError(explain(err));
    }
  };
  // a wait that was going on before a reload (or in another tab) goes on here
  useEffect(() => {
    let waiting = false;
    try { waiting = Boolean(localStorage.getItem(MATCH)); } catch { /* private mode */ }
    if (waiting && storedPlayer()) look();
  }, []);
  const waiting = match && match.status === "waiting";
  useEffect(() => {
    if (!waiting) return undefined;
    const timer = setInterval(look, MATCH_POLL_MS);
    return () => clearInterval(timer);
  }, [waiting]);
  if (!found) return null;
  const pick = (value) => {
    setRuleset(value);
    const chosen = list.find((r) => r.name === value);
    setPlayers(quick[value] ? quick[value].players : chosen.min_players);
  };
  const start = async (e) => {
    e.preventDefault();
    if (!name.trim() && !storedPlayer()) { setError(t("lobby.name_first_top")); return; }
    setBusy(true); setError(null);
    try {
      const r = await asPlayer(name, (token) => call("POST", "/v1/match", {
        token, body: { ruleset: found.name, players: Number(players), wait_seconds: Number(wait) } }));
      try { localStorage.setItem(MATCH, "1"); } catch { /* private mode */ }
      if (r.data.status === "seated") await seated(r.data);
      else setMatch(r.data);
    } catch (err) { setError(explain(err)); } finally { setBusy(false); }
  };
  const cancel = async () => {
    setBusy(true); setError(null);
    try {
      await playerCall("DELETE", "/v1/match");
    } catch (err) {
      // seated meanwhile: the table is there, and it opens
      if (err instanceof Problem && err.code === "not_waiting") { await look(); return; }
      setError(explain(err)); return;
    } finally { setBusy(false); }
    try { localStorage.removeItem(MATCH); } catch { /* private mode */ }
    setMatch(null);
  };
  const sizes = [];
  for (let n = found.min_players; n <= found.max_players; n++) sizes.push(n);
  return html`<section class="card quick-match" aria-labelledby="match-title" data-testid="quick-match">
    <h2 id="match-title">${t("match.title")}</h2>
    ${waiting ? html`<div>
        <p role="status">${t("match.waiting", { game: RULESET_TITLES[match.ruleset] || match.ruleset, n: match.players })}</p>
        <p>${t("match.waited")} <${Waited} since=${match.since} /> · ${t("match.bots_after", { time: waitWords(match.wait_seconds) })}</p>
        ${typeof match.window === "number" && html`<p class="small" data-testid="match-window">${t("match.window", { points: formatNumber(match.window, { maximumFractionDigits: 1 }) })}</p>`}
        <${Alert} message=${error} />
        <div class="actions"><button type="button" onClick=${cancel} disabled=${busy}>${t("match.cancel")}</button></div>
      </div>`
      : html`<form onSubmit=${start}>
        <p>${t("match.lead")}</p>
        <div class="filters">
          <div class="field"><label for="match-ruleset">${t("list.game")}</label>
            <select id="match-ruleset" value=${found.name} onChange=${(e) => pick(e.target.value)}>
              ${list.map((r) => html`<option value=${r.name}>${r.title}</option>`)}</select></div>
          <div class="field"><label for="match-players">${t("match.players")}</label>
            <select id="match-players" value=${String(players)} onChange=${(e) => setPlayers(Number(e.target.value))}>
              ${sizes.map((n) => html`<option value=${String(n)}>${n}</option>`)}</select></div>
          <div class="field"><label for="match-wait">${t("match.wait")}</label>
            <select id="match-wait" value=${String(wait)} onChange=${(e) => setWait(Number(e.target.value))}>
              ${WAITS.map((s) => html`<option value=${String(s)}>${waitWords(s)}</option>`)}</select></div>
        </div>
        <p class="small muted">${t("match.rated_note")}</p>
        <${Alert} message=${error} />
        <div class="actions"><button type="submit" class="primary" disabled=${busy}>${t("match.start")}</button></div>
      </form>`}
  </section>`;
}

/** The player this browser is, and the way to the same player on another device: a one-time
 * code, a link carrying it in its fragment (never sent to the server by the browser) and the
 * link's QR code. */
export function PlayerCard() {
  const player = usePlayer();
  const [code, setCode] = useState(null);
  const [qr, setQr] = useState(null);
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const make = async () => {
    setBusy(true); setError(null); setQr(null);
    try {
      const r = await playerCall("POST", "/v1/me/device-codes");
      setCode(r.data);
      try { setQr(await qrImage(`${location.origin}/#claim=${r.data.code}`)); } catch (err) { setError(explain(err)); }
    } catch (err) { setError(explain(err)); setCode(null); } finally { setBusy(false); }
  };
  const link = code ? `${location.origin}/#claim=${code.code}` : null;
  return html`<section class="card player-card" aria-labelledby="player-title" data-testid="player-card">
    <h2 id="player-title">${t("me.title")}</h2>
    ${player ? html`<p>${t("me.playing_as")} <strong data-testid="player-name">${player.name}</strong>.
        ${" "}<a href=${route("player", player.id)}>${t("me.profile")}</a></p>`
      : html`<p>${t("me.none_yet")}</p>`}
    ${player && html`<div class="actions">
      <button type="button" onClick=${code ? () => { setCode(null); setQr(null); } : make} disabled=${busy}
        aria-expanded=${Boolean(code)} aria-controls=${code ? "device-panel" : undefined}>${t("device.open")}</button></div>`}
    <${Alert} message=${error} />
    ${code && html`<div id="device-panel" class="device-panel" data-testid="device-panel">
      <p>${t("device.how")}</p>
      <p class="device-code"><span class="muted">${t("device.code")}</span> <strong data-testid="device-code">${code.code}</strong></p>
      <${ShareLink} id="device-link" label=${t("device.link")} url=${link} />
      ${qr && html`<img class="qr" src=${qr} width="222" height="222" alt=${t("device.qr_alt")} data-testid="device-qr" />`}
      <p class="small"><${Countdown} deadline=${code.expires_at} label=${t("device.expires")} onExpire=${() => { setCode(null); setQr(null); }} /></p>
      <p class="small muted">${t("device.once")}</p>
      <div class="actions"><button type="button" onClick=${make} disabled=${busy}>${t("device.new_code")}</button></div>
    </div>`}
    <p class="small"><a href=${route("claim")}>${t("device.have_code")}</a></p>
  </section>`;
}
