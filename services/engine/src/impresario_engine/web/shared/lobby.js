// The lobby: your games, the list of games (GET /v1/games: filters, pages), quick games
// against bots, a table set up with every option, and the page a join link opens.
import { html, useEffect, useRef, useState } from "../lib.js";
import { call, explain, Problem, withQuery } from "./api.js";
import { gameSummary, looksAlike, RULESET_TITLES, route, seatLine } from "./format.js";
import { myGames, playerName, remember, seatOf, setFlash, setPlayerName, takeFlash } from "./store.js";
import { Alert } from "./ui.js";

const BLURBS = {
  turandot: "Bid in secret for singers, hire a director, cast your opera. 2–5 players, about 15 minutes against bots.",
  wordjam: "Find a word worth many coins, then bet on Alì Babà or join the thieves. 5–12 players; 8 turns.",
  muzicando: "Bid for the layout, then shed your hand of notes on the board. 2–8 players, teams with 4.",
};
const FALLBACK_BOTS = { turandot: ["easy", "medium", "hard"], wordjam: ["easy", "medium"], muzicando: ["easy", "medium"] };
export const BOT_NAMES = ["Robo", "Rita", "Rex", "Ruby", "Rolf", "Rosa", "Remo", "Rina", "Raul", "Reva", "Ravi"];
// "Play now": a game a newcomer can finish in one sitting. Word Jam's bots think as long as the
// engine has them think (up to 20 s: a newcomer may call first); Muzicando: one hand dealt by
// each player, everyone for themselves.
export const QUICK = {
  turandot: { players: 4, options: {} },
  wordjam: { players: 5, options: {} },
  muzicando: { players: 3, options: { mode: "individual", hands: 3 } },
};

let rulesetCache = null;
export async function rulesets() {
  if (!rulesetCache) rulesetCache = call("GET", "/v1/rulesets").then((r) => r.data.rulesets);
  return rulesetCache;
}

/** The ruleset's bot levels, the default first (``medium``: a fair game for a newcomer), then
 * the others weakest first. */
export function botsOf(ruleset) {
  const bots = (ruleset && ruleset.bots) || FALLBACK_BOTS[ruleset && ruleset.name] || ["easy"];
  return bots.filter((b) => b === "medium").concat(bots.filter((b) => b !== "medium"));
}

function uniqueKey() {
  return (crypto.randomUUID && crypto.randomUUID()) || `${Date.now()}-${Math.random()}`;
}

/** A bot's name no seat's name looks like (the engine refuses look-alike names: name_taken). */
export function botName(taken, fallback) {
  return BOT_NAMES.find((n) => !taken.some((t) => looksAlike(t, n))) || fallback;
}

/**
 * Create a game, take the first seat, fill ``bots`` seats with the engine's bots. When the
 * game is created but the seat is refused (the name), the error carries ``gameId``: the
 * table exists, its host is this browser, and its page lets the player try another name.
 */
export async function startTable({ ruleset, players, options, isPrivate, name, bots, botKind, seatMyself = true }) {
  const created = await call("POST", "/v1/games", {
    body: { ruleset: ruleset.name, players, options, private: isPrivate },
  });
  const data = created.data;
  const id = data.game.id;
  remember(id, {
    ruleset: ruleset.name, host: data.host_token, spectator: data.spectator_token || undefined,
    join: data.join_token || undefined,
  });
  if (seatMyself) {
    try {
      const joined = await call("POST", `/v1/games/${id}/seats`, { token: data.host_token, body: { name } });
      remember(id, { token: joined.data.token, seat: joined.data.seat, name });
    } catch (err) {
      err.gameId = id;
      throw err;
    }
  }
  const taken = [name];
  for (let i = 0; i < bots; i++) {
    const robot = botName(taken, `Bot ${i + 1}`);
    taken.push(robot);
    await call("POST", `/v1/games/${id}/seats`, {
      token: data.host_token, body: { name: robot, bot: botKind },
    });
  }
  return id;
}

/** After a failed start: the table's page when the table exists (its host can go on), else the message. */
function startFailed(err, setError) {
  if (err.gameId) {
    setFlash(`The table is set up, but you have no seat yet: ${explain(err)}`);
    location.hash = route("game", err.gameId);
  } else {
    setError(explain(err));
  }
}

function NameField({ name, setName }) {
  return html`<div class="field name-field">
    <label for="player-name">Your name at the table</label>
    <input id="player-name" type="text" maxlength="40" autocomplete="nickname" value=${name}
      onInput=${(e) => { setName(e.target.value); setPlayerName(e.target.value.trim()); }} />
  </div>`;
}

function optionFields(ruleset, players) {
  // the options of each ruleset, as form fields (docs: GET /v1/rulesets/{ruleset})
  const seats = Array.from({ length: players }, (_, i) => ({ value: String(i), label: `Seat ${i + 1}` }));
  if (ruleset === "turandot") {
    return [{ key: "first_maestro", label: "First maestro (holds Puccini)", type: "select",
      choices: [...seats.map((s, i) => ({ ...s, label: i === 0 ? "Seat 1 (the creator)" : s.label })),
        { value: "random", label: "Drawn at random" }], initial: "0", number: true }];
  }
  if (ruleset === "wordjam") {
    return [
      { key: "think_seconds", label: "Seconds to find a word", type: "number", initial: 120, min: 1 },
      { key: "bet_seconds", label: "Seconds to bet", type: "number", initial: 15, min: 1 },
      { key: "thief_seconds", label: "Seconds for the thieves' window", type: "number", initial: 20, min: 1 },
      { key: "challenge_seconds", label: "Seconds to challenge a word", type: "number", initial: 10, min: 1 },
      { key: "vote_seconds", label: "Seconds to vote", type: "number", initial: 20, min: 1 },
      { key: "bot_seconds", label: "How long the bots think before each move", type: "select", initial: "20", number: true,
        choices: [{ value: "0", label: "Not at all: they move at once" }, { value: "5", label: "Up to 5 seconds" },
          { value: "10", label: "Up to 10 seconds" }, { value: "20", label: "Up to 20 seconds, like people (the engine's default)" }] },
      { key: "language", label: "Language of the words (the bots call, challenge and vote in it)", type: "select", initial: "it",
        choices: [{ value: "it", label: "Italiano (the game's own)" }, { value: "en", label: "English" }] },
      { key: "dictionary", label: "Refuse words the dictionary does not know (Italian and English lists): for tables of strangers", type: "checkbox", initial: false },
      { key: "no_visible_objects", label: "Leave out the card “Objects visible from where you sit”", type: "checkbox", initial: false },
    ];
  }
  if (ruleset === "muzicando") {
    const team = players === 4;
    return [
      { key: "mode", label: "Mode", type: "select", initial: team ? "team" : "individual",
        choices: team ? [{ value: "team", label: "Teams: North–South against East–West" }, { value: "individual", label: "Everyone for themselves" }]
          : [{ value: "individual", label: "Everyone for themselves" }] },
      { key: "hands", label: "Hands in the match (teams: 4 or more; everyone for themselves: a multiple of the players)", type: "number",
        initial: team ? 4 : players, min: 1, max: 64 },
      { key: "auction", label: "Open each hand with the auction (individual game of 4 or 8)", type: "checkbox", initial: false,
        when: (values) => values.mode === "individual" && (players === 4 || players === 8) },
      { key: "first_dealer", label: "First dealer", type: "select", initial: "0", number: true,
        choices: [...seats, { value: "random", label: "Drawn at random" }] },
    ];
  }
  return [];
}

const HANDLED = {
  turandot: ["first_maestro", "catalogue"],
  wordjam: ["think_seconds", "bet_seconds", "thief_seconds", "challenge_seconds", "vote_seconds", "bot_seconds", "language", "dictionary", "no_visible_objects", "cave"],
  muzicando: ["mode", "hands", "auction", "first_dealer"],
};

/** Options the engine documents that this page has no field of its own for (a newer engine). */
function otherOptions(ruleset) {
  const known = HANDLED[ruleset.name] || [];
  const out = [];
  for (const [key, doc] of Object.entries(ruleset.options || {})) {
    if (known.includes(key)) continue;
    const type = String(doc.type || "");
    const label = `${key.replace(/_/g, " ")}${doc.description ? `: ${doc.description}` : ""}`;
    if (type.includes("bool")) out.push({ key, label, type: "checkbox", initial: Boolean(doc.default) });
    else if (type.includes("int") || type.includes("number")) out.push({ key, label, type: "number", initial: doc.default ?? 0 });
  }
  return out;
}

function CreateForm({ ruleset, name, onCancel }) {
  const [players, setPlayers] = useState(QUICK[ruleset.name] ? QUICK[ruleset.name].players : ruleset.min_players);
  const [bots, setBots] = useState(players - 1);
  const [botKind, setBotKind] = useState(botsOf(ruleset)[0]);
  const [moveSeconds, setMoveSeconds] = useState("");
  const [isPrivate, setPrivate] = useState(false);
  const [values, setValues] = useState({});
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const fields = optionFields(ruleset.name, players).concat(otherOptions(ruleset));
  const value = (f) => (f.key in values ? values[f.key] : f.initial);
  const current = Object.fromEntries(fields.map((f) => [f.key, value(f)]));
  const prefix = `create-${ruleset.name}`;

  const submit = async (e) => {
    e.preventDefault();
    if (!name.trim()) { setError("Write your name first (top of the page)."); return; }
    const options = {};
    for (const f of fields) {
      if (f.when && !f.when(current)) continue;
      let v = value(f);
      if (f.type === "number") v = Number(v);
      if (f.number && v !== "random") v = Number(v);
      if (v !== f.initial || f.key === "hands") options[f.key] = v;
    }
    if (moveSeconds) options.move_seconds = Number(moveSeconds);
    setBusy(true); setError(null);
    try {
      const id = await startTable({ ruleset, players, options, isPrivate, name: name.trim(), bots: Math.min(bots, players - 1), botKind });
      location.hash = route("game", id);
    } catch (err) {
      startFailed(err, setError);
    } finally { setBusy(false); }
  };

  return html`<form class="create-form" onSubmit=${submit} aria-label=${`Set up a ${ruleset.title} table`}>
    <div class="field">
      <label for=${`${prefix}-players`}>Players (${ruleset.min_players}–${ruleset.max_players})</label>
      <input id=${`${prefix}-players`} type="number" min=${ruleset.min_players} max=${ruleset.max_players}
        value=${players} onInput=${(e) => { const n = Number(e.target.value); setPlayers(n); setBots(Math.max(0, n - 1)); }} />
    </div>
    <div class="field">
      <label for=${`${prefix}-bots`}>Seats played by the engine's bots</label>
      <input id=${`${prefix}-bots`} type="number" min="0" max=${Math.max(0, players - 1)} value=${bots}
        onInput=${(e) => setBots(Number(e.target.value))} />
    </div>
    <div class="field">
      <label for=${`${prefix}-botkind`}>Which bot</label>
      <select id=${`${prefix}-botkind`} value=${botKind} onChange=${(e) => setBotKind(e.target.value)}>
        ${botsOf(ruleset).map((b) => html`<option value=${b}>${b}</option>`)}
      </select>
    </div>
    ${ruleset.name !== "wordjam" && html`<div class="field">
      <label for=${`${prefix}-move`}>Time per move</label>
      <select id=${`${prefix}-move`} value=${moveSeconds} onChange=${(e) => setMoveSeconds(e.target.value)}>
        <option value="">No limit</option>
        <option value="30">30 seconds</option>
        <option value="60">1 minute</option>
        <option value="120">2 minutes</option>
        <option value="300">5 minutes</option>
      </select>
    </div>`}
    ${fields.filter((f) => !f.when || f.when(current)).map((f) => {
      const fid = `${prefix}-${f.key}`;
      const set = (v) => setValues({ ...values, [f.key]: v });
      if (f.type === "checkbox") {
        return html`<div class="field check"><input id=${fid} type="checkbox" checked=${value(f)}
          onChange=${(e) => set(e.target.checked)} /><label for=${fid}>${f.label}</label></div>`;
      }
      if (f.type === "select") {
        return html`<div class="field"><label for=${fid}>${f.label}</label>
          <select id=${fid} value=${String(value(f))} onChange=${(e) => set(e.target.value)}>
            ${f.choices.map((c) => html`<option value=${c.value}>${c.label}</option>`)}
          </select></div>`;
      }
      return html`<div class="field"><label for=${fid}>${f.label}</label>
        <input id=${fid} type="number" min=${f.min} max=${f.max} value=${value(f)}
          onInput=${(e) => set(e.target.value)} /></div>`;
    })}
    <div class="field check">
      <input id=${`${prefix}-private`} type="checkbox" checked=${isPrivate} onChange=${(e) => setPrivate(e.target.checked)} />
      <label for=${`${prefix}-private`}>Private: not in the list of games; players need the join link and spectators the spectator link</label>
    </div>
    <${Alert} message=${error} />
    <div class="actions">
      <button type="submit" class="primary" disabled=${busy}>${busy ? "Creating…" : "Create the table"}</button>
      <button type="button" onClick=${onCancel}>Cancel</button>
    </div>
  </form>`;
}

function RulesetCard({ ruleset, name }) {
  const [open, setOpen] = useState(false);
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const quick = QUICK[ruleset.name] || { players: ruleset.min_players, options: {} };
  const play = async () => {
    if (!name.trim()) { setError("Write your name first (top of the page)."); document.getElementById("player-name").focus(); return; }
    setBusy(true); setError(null);
    try {
      const id = await startTable({ ruleset, players: quick.players, options: quick.options, isPrivate: false,
        name: name.trim(), bots: quick.players - 1, botKind: botsOf(ruleset)[0] });
      location.hash = route("game", id);
    } catch (err) { startFailed(err, setError); } finally { setBusy(false); }
  };
  return html`<section class="card ruleset" aria-labelledby=${`rs-${ruleset.name}`} data-ruleset=${ruleset.name}>
    <h2 id=${`rs-${ruleset.name}`}>${ruleset.title}</h2>
    <p>${BLURBS[ruleset.name] || `${ruleset.min_players}–${ruleset.max_players} players.`}</p>
    <div class="actions">
      <button type="button" class="primary" onClick=${play} disabled=${busy}>
        ${busy ? "Starting…" : `Play now against ${quick.players - 1} bots`}</button>
      <button type="button" aria-expanded=${open} onClick=${() => setOpen(!open)}>Set up a table…</button>
    </div>
    <${Alert} message=${error} />
    ${open && html`<${CreateForm} ruleset=${ruleset} name=${name} onCancel=${() => setOpen(false)} />`}
  </section>`;
}

export const PAGE_SIZE = 10;
const STATUS_FILTERS = [{ value: "open", label: "Open to join" }, { value: "playing", label: "In play" },
  { value: "finished", label: "Finished" }, { value: "", label: "All" }];
const BOT_FILTERS = [{ value: "", label: "With or without bots" }, { value: "true", label: "With bots" },
  { value: "false", label: "Only people" }];

function GameItem({ game }) {
  const mine = seatOf(game.id);
  const free = game.seats_total - game.seats_taken;
  let action;
  if (mine.token || mine.host) action = html`<a class="button" href=${route("game", game.id)}>Open</a>`;
  else if (game.status === "open" && free > 0) action = html`<a class="button primary" href=${route("join", game.id)}>Join</a>`;
  else if (game.status === "finished") action = html`<a class="button" href=${route("replay", game.id)}>Replay</a>`;
  else action = html`<a class="button" href=${route("game", game.id)}>Watch</a>`;
  return html`<li data-game=${game.id}>
    <div class="game-item">
      <strong>${RULESET_TITLES[game.ruleset] || game.ruleset}</strong>
      <span class="small">${gameSummary(game)}</span>
      <span class="small muted">${seatLine(game)}</span>
    </div>
    ${action}
  </li>`;
}

/** The list of games (GET /v1/games): filters, and a page at a time through each page's ``next``. */
function GameList() {
  const [filters, setFilters] = useState({ status: "open", ruleset: "", has_bots: "" });
  const [games, setGames] = useState(null);
  const [next, setNext] = useState(null);
  const [pages, setPages] = useState(1);
  const [supported, setSupported] = useState(true);
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const asked = useRef(0);
  const first = async (quiet = false) => {
    const ticket = ++asked.current;
    if (!quiet) setBusy(true);
    try {
      const r = await call("GET", withQuery("/v1/games", { ...filters, limit: PAGE_SIZE }));
      if (ticket !== asked.current) return;
      setGames(r.data.games || []); setNext(r.data.next); setPages(1); setError(null);
    } catch (err) {
      if (ticket !== asked.current) return;
      if (err instanceof Problem && [404, 405].includes(err.status)) setSupported(false);
      else setError(explain(err));
    } finally { if (!quiet) setBusy(false); }
  };
  const more = async () => {
    const ticket = ++asked.current;
    setBusy(true);
    try {
      const r = await call("GET", next);
      if (ticket !== asked.current) return;
      const seen = new Set(games.map((g) => g.id));
      setGames(games.concat((r.data.games || []).filter((g) => !seen.has(g.id))));
      setNext(r.data.next); setPages(pages + 1); setError(null);
    } catch (err) {
      if (err instanceof Problem && ["cursor_expired", "invalid_cursor"].includes(err.code)) {
        setError("The list was left open for a long time: here it is again from the top.");
        await first(true);
      } else setError(explain(err));
    } finally { setBusy(false); }
  };
  useEffect(() => { first(); }, [filters.status, filters.ruleset, filters.has_bots]);
  useEffect(() => {
    // the first page follows the lobby by itself; once more pages are open, the player refreshes
    if (pages > 1) return undefined;
    const timer = setInterval(() => { if (document.visibilityState === "visible") first(true); }, 8000);
    return () => clearInterval(timer);
  }, [pages, filters.status, filters.ruleset, filters.has_bots]);
  if (!supported) return null;
  const set = (key) => (e) => setFilters({ ...filters, [key]: e.target.value });
  const rulesetChoices = [{ value: "", label: "All games" }].concat(
    Object.entries(RULESET_TITLES).map(([value, label]) => ({ value, label })));
  const select = (key, label, choices) => html`<div class="field">
    <label for=${`list-${key}`}>${label}</label>
    <select id=${`list-${key}`} value=${filters[key]} onChange=${set(key)}>
      ${choices.map((c) => html`<option value=${c.value}>${c.label}</option>`)}</select></div>`;
  return html`<section class="card" aria-labelledby="open-games-title" data-testid="game-list">
    <h2 id="open-games-title">Tables</h2>
    <div class="filters">
      ${select("status", "Show", STATUS_FILTERS)}
      ${select("ruleset", "Game", rulesetChoices)}
      ${select("has_bots", "Bots", BOT_FILTERS)}
    </div>
    <${Alert} message=${error} />
    ${games === null ? html`<p>Looking for tables…</p>` : games.length === 0
      ? html`<p>${filters.status === "open" ? "No table is waiting for players. Start one above and share its link." : "No table here."}</p>`
      : html`<ul class="game-list" aria-busy=${busy}>${games.map((g) => html`<${GameItem} key=${g.id} game=${g} />`)}</ul>`}
    <div class="actions">
      ${next && html`<button type="button" onClick=${more} disabled=${busy}>Show more tables</button>`}
      <button type="button" onClick=${() => first()} disabled=${busy}>Refresh</button>
    </div>
    <p class="small muted">Private tables are never listed: their players join through the link the host sends.</p>
  </section>`;
}

function MyGames() {
  const games = myGames().filter((g) => g.token || g.host).slice(0, 8);
  if (!games.length) return null;
  return html`<section class="card" aria-labelledby="my-games-title">
    <h2 id="my-games-title">Your tables</h2>
    <ul class="game-list">${games.map((g) => html`<li>
      <span><strong>${RULESET_TITLES[g.ruleset] || "Game"}</strong> ${g.id}${g.name ? ` · as ${g.name}` : " · as host"}</span>
      <a class="button" href=${route("game", g.id)}>Open</a></li>`)}</ul>
  </section>`;
}

function JoinByLink() {
  const [text, setText] = useState("");
  const go = (e) => {
    e.preventDefault();
    const raw = text.trim();
    const hash = raw.includes("#") ? raw.slice(raw.indexOf("#")) : null;
    if (hash) { location.hash = hash; return; }
    // the API's own links: /v1/games/{id}/seats?join=… and /v1/games/{id}?spectator=…
    const [path, search = ""] = raw.split("?");
    const query = Object.fromEntries(new URLSearchParams(search));
    const parts = path.split("/").filter(Boolean);
    const at = parts.indexOf("games");
    const id = at >= 0 && parts[at + 1] ? parts[at + 1] : parts.pop();
    if (!id) return;
    location.hash = query.spectator ? route("game", id, { spectator: query.spectator }) : route("join", id, { join: query.join });
  };
  return html`<form class="card join-link" onSubmit=${go} aria-labelledby="join-title">
    <h2 id="join-title">Got a link?</h2>
    <div class="field"><label for="join-text">Paste a join link, a spectator link or a table's id</label>
      <div class="share-row"><input id="join-text" type="text" value=${text} onInput=${(e) => setText(e.target.value)} />
      <button type="submit">Go</button></div></div>
  </form>`;
}

export function Lobby() {
  const [list, setList] = useState(null);
  const [error, setError] = useState(null);
  const [name, setName] = useState(playerName());
  const [notice, setNotice] = useState(takeFlash);
  useEffect(() => { rulesets().then(setList).catch((err) => setError(explain(err))); }, []);
  return html`<div class="lobby">
    <h1>Card games of secret bids</h1>
    <${Alert} message=${notice} kind="notice" onDismiss=${() => setNotice(null)} />
    <p class="lead">Pick a game and play against the engine's bots right away, or set up a table and send
      its link to friends: everyone plays on their own phone or laptop.</p>
    <${NameField} name=${name} setName=${setName} />
    <${Alert} message=${error} />
    <div class="rulesets">${(list || []).map((r) => html`<${RulesetCard} ruleset=${r} name=${name} />`)}</div>
    <${MyGames} />
    <${GameList} />
    <${JoinByLink} />
    <p class="more"><a href="#/calc">Scoring calculators</a> for tables playing the physical games.</p>
  </div>`;
}

/** The page a join link opens: the table's seats, and a seat to take (a private game's link
 * carries its join token, ``?join=``, sent with the request for the seat). */
export function JoinPage({ id, query }) {
  const [game, setGame] = useState(null);
  const [error, setError] = useState(null);
  const [name, setName] = useState(playerName());
  const [busy, setBusy] = useState(false);
  const saved = seatOf(id);
  const joinToken = query.join || saved.join || null;
  useEffect(() => {
    if (saved.token) { location.replace(route("game", id)); return; }
    call("GET", `/v1/games/${encodeURIComponent(id)}`, { spectator: query.spectator || saved.spectator, token: saved.host })
      .then((r) => setGame(r.data)).catch((err) => {
        // a private game shows its table only to its players, but its join link still seats
        if (err instanceof Problem && err.code === "private_game") {
          setGame({ status: "open", private: true, players: [] });
          if (!joinToken) setError(explain(new Problem(403, { code: "join_link_required" })));
        } else setError(explain(err));
      });
  }, [id]);
  const join = async (e) => {
    e.preventDefault();
    if (!name.trim()) { setError("Write your name first."); return; }
    setBusy(true); setError(null);
    try {
      const r = await call("POST", withQuery(`/v1/games/${encodeURIComponent(id)}/seats`, { join: joinToken }),
        { token: saved.host, body: { name: name.trim() } });
      setPlayerName(name.trim());
      remember(id, { token: r.data.token, seat: r.data.seat, name: name.trim(), ruleset: r.data.game.ruleset,
        join: joinToken || undefined });
      location.hash = route("game", id);
    } catch (err) { setError(explain(err)); } finally { setBusy(false); }
  };
  const title = game && game.ruleset ? RULESET_TITLES[game.ruleset] || game.ruleset : "a table";
  const free = game && !game.private ? game.seats_total - game.seats_taken : null;
  const canJoin = game && game.status === "open" && (game.private ? Boolean(joinToken) : free > 0);
  return html`<div class="join">
    <h1>Join ${title}</h1>
    ${game && game.private && html`<p>A private table: its join link seats you.</p>`}
    ${game && !game.private && html`<p>${game.seats_taken} of ${game.seats_total} seats taken${game.players && game.players.some((p) => p.name)
      ? `: ${game.players.filter((p) => p.name).map((p) => p.name).join(", ")}` : ""}.</p>`}
    <${Alert} message=${error} />
    ${canJoin ? html`<form onSubmit=${join} class="card">
        <div class="field"><label for="join-name">Your name at the table</label>
          <input id="join-name" type="text" maxlength="40" value=${name} onInput=${(e) => setName(e.target.value)} autocomplete="nickname" /></div>
        <button type="submit" class="primary" disabled=${busy}>${busy ? "Joining…" : "Take a seat"}</button>
      </form>`
      : game && !game.private && html`<p>${game.status === "open" ? "Every seat is taken or held for a player." : game.status === "playing"
          ? "This game has started." : "This game is over."}
          <a href=${route(game.status === "finished" ? "replay" : "game", id, { spectator: query.spectator })}>${game.status === "finished" ? "See its replay" : "Watch it"}</a> instead.</p>`}
    <p><a href="#/">Back to the lobby</a></p>
  </div>`;
}
