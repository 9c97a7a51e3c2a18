// The lobby: my games, the list of games (GET /v1/games: filters, pages), quick games
// against bots, play now with people, a table set up with every option, the player and
// another device, and the page a join link opens. Tables are set up and seats taken as the
// player this browser is (shared/players.js), so they are the player's on every device.
import { html, useEffect, useRef, useState } from "../lib.js";
import { call, explain, Problem, withQuery } from "./api.js";
import { gameSummary, looksAlike, RULESET_TITLES, route, seatLine, secondsText } from "./format.js";
import { myGames, playerName, remember, seatOf, setFlash, setPlayerName, storedPlayer, takeFlash } from "./store.js";
import { guidedTable } from "./learn.js";
import { Alert, botLevel, learnBotAliases } from "./ui.js";
import { t } from "./i18n.js";
import { asPlayer, resumeSeat } from "./players.js";
import { MyGames, PlayerCard, QuickMatch } from "./mine.js";

const BLURBS = { turandot: "lobby.blurb_turandot", wordjam: "lobby.blurb_wordjam", muzicando: "lobby.blurb_muzicando" };
const FALLBACK_BOTS = { turandot: ["easy", "medium", "hard"], wordjam: ["easy", "medium"], muzicando: ["easy", "medium"] };
export const BOT_NAMES = ["Robo", "Rita", "Rex", "Ruby", "Rolf", "Rosa", "Remo", "Rina", "Raul", "Reva", "Ravi"];
// "Play now": a game a newcomer can finish in one sitting, at the engine's pace against bots
// (relaxed: windows a newcomer can read in, bots that leave time to call first); Muzicando: one
// hand dealt by each player, everyone for themselves.
export const QUICK = {
  turandot: { players: 4, options: {} },
  wordjam: { players: 5, options: {} },
  muzicando: { players: 3, options: { mode: "individual", hands: 3 } },
};

let rulesetCache = null;
export async function rulesets() {
  if (!rulesetCache) {
    rulesetCache = call("GET", "/v1/rulesets").then((r) => {
      learnBotAliases(r.data.rulesets);
      return r.data.rulesets;
    });
  }
  return rulesetCache;
}

// The paces a table may choose (option pace): the engine's, by ruleset (GET
// /v1/rulesets/{ruleset}/paces): each pace's options, and the pace for a game against bots.
const paceCache = {};
export function pacesOf(ruleset) {
  if (!paceCache[ruleset]) {
    paceCache[ruleset] = call("GET", `/v1/rulesets/${encodeURIComponent(ruleset)}/paces`)
      .then((r) => r.data).catch(() => { delete paceCache[ruleset]; return null; });
  }
  return paceCache[ruleset];
}

/** The options a game is created with at ``pace`` (none: ``options`` as they are). */
export function withPace(options, pace) {
  return pace ? { ...options, pace } : options;
}

/** The form's pace: relaxed (the engine's pace against bots) when a seat is a bot, else none
 * (each option as the form sets it) until the player chooses. */
function PaceField({ prefix, paces, pace, setPace }) {
  if (!paces) return null;
  return html`<div class="field">
    <label for=${`${prefix}-pace`}>${t("lobby.pace")}</label>
    <select id=${`${prefix}-pace`} value=${pace} onChange=${(e) => setPace(e.target.value)}>
      <option value="">${t("lobby.pace_none")}</option>
      ${Object.keys(paces.paces).map((p) => html`<option value=${p}>${t(`pace.${p}`)}</option>`)}
    </select>
  </div>`;
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
 * Create a game as the player (it is among the player's games, and the host's seat theirs),
 * take the first seat with the host token, fill ``bots`` seats with the engine's bots. When
 * the game is created but the seat is refused (the name), the error carries ``gameId``: the
 * table exists, its host is this browser, and its page lets the player try another name.
 */
export async function startTable({ ruleset, players, options, isPrivate, name, bots, botKind, seatMyself = true, seed = null }) {
  const body = { ruleset: ruleset.name, players, options, private: isPrivate };
  if (seed !== null) body.seed = seed;  // a guided game's: the same first deal for everyone
  const created = await asPlayer(name, (token) => call("POST", "/v1/games", { token, body }));
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

/**
 * Take the next free seat at ``id`` as the player: with the host token when this browser is
 * the host (the host's seat is the player's when the player set the table up), else with the
 * player's credential (and a private table's join token). A player seated there already (on
 * another device: 409 player_seated) gets that seat back here instead. The seat's token is
 * kept; the answer is the seat taken, or null for a seat resumed.
 */
export async function takeSeat(id, { name, host = null, join = null }) {
  const path = withQuery(`/v1/games/${encodeURIComponent(id)}/seats`, { join: host ? null : join });
  try {
    const r = host ? await call("POST", path, { token: host, body: { name } })
      : await asPlayer(name, (token) => call("POST", path, { token, body: { name } }));
    remember(id, { token: r.data.token, seat: r.data.seat, name, ruleset: r.data.game.ruleset,
      join: join || undefined });
    return r.data;
  } catch (err) {
    if (err instanceof Problem && err.code === "player_seated") {
      await resumeSeat(id);
      return null;
    }
    throw err;
  }
}

/** After a failed start: the table's page when the table exists (its host can go on), else the message. */
function startFailed(err, setError) {
  if (err.gameId) {
    setFlash(t("lobby.no_seat_yet", { reason: explain(err) }));
    location.hash = route("game", err.gameId);
  } else {
    setError(explain(err));
  }
}

function NameField({ name, setName }) {
  return html`<div class="field name-field">
    <label for="player-name">${t("lobby.your_name")}</label>
    <input id="player-name" type="text" maxlength="40" autocomplete="nickname" value=${name}
      onInput=${(e) => { setName(e.target.value); setPlayerName(e.target.value.trim()); }} />
  </div>`;
}

function optionFields(ruleset, players) {
  // the options of each ruleset, as form fields (docs: GET /v1/rulesets/{ruleset})
  const seats = Array.from({ length: players }, (_, i) => ({ value: String(i), label: t("format.seat", { n: i + 1 }) }));
  if (ruleset === "turandot") {
    return [{ key: "first_maestro", label: t("opt.first_maestro"), type: "select",
      choices: [...seats.map((s, i) => ({ ...s, label: i === 0 ? t("opt.seat_creator") : s.label })),
        { value: "random", label: t("opt.random") }], initial: "0", number: true }];
  }
  if (ruleset === "wordjam") {
    return [
      { key: "think_seconds", label: t("opt.think_seconds"), type: "number", initial: 120, min: 1 },
      { key: "bet_seconds", label: t("opt.bet_seconds"), type: "number", initial: 15, min: 1 },
      { key: "thief_seconds", label: t("opt.thief_seconds"), type: "number", initial: 20, min: 1 },
      { key: "challenge_seconds", label: t("opt.challenge_seconds"), type: "number", initial: 10, min: 1 },
      { key: "vote_seconds", label: t("opt.vote_seconds"), type: "number", initial: 20, min: 1 },
      { key: "bot_seconds", label: t("opt.bot_seconds"), type: "select", initial: "20", number: true,
        choices: [{ value: "0", label: t("opt.bot_seconds_0") }, { value: "5", label: t("opt.bot_seconds_upto", { n: 5 }) },
          { value: "10", label: t("opt.bot_seconds_upto", { n: 10 }) }, { value: "20", label: t("opt.bot_seconds_20") }] },
      { key: "language", label: t("opt.language"), type: "select", initial: "it",
        choices: [{ value: "it", label: t("opt.language_it") }, { value: "en", label: t("opt.language_en") }] },
      { key: "dictionary", label: t("opt.dictionary"), type: "checkbox", initial: false },
      { key: "no_visible_objects", label: t("opt.no_visible_objects"), type: "checkbox", initial: false },
    ];
  }
  if (ruleset === "muzicando") {
    const team = players === 4;
    return [
      { key: "mode", label: t("opt.mode"), type: "select", initial: team ? "team" : "individual",
        choices: team ? [{ value: "team", label: t("opt.mode_team") }, { value: "individual", label: t("opt.mode_individual") }]
          : [{ value: "individual", label: t("opt.mode_individual") }] },
      { key: "hands", label: t("opt.hands"), type: "number",
        initial: team ? 4 : players, min: 1, max: 64 },
      { key: "auction", label: t("opt.auction"), type: "checkbox", initial: false,
        when: (values) => values.mode === "individual" && (players === 4 || players === 8) },
      { key: "first_dealer", label: t("opt.first_dealer"), type: "select", initial: "0", number: true,
        choices: [...seats, { value: "random", label: t("opt.random") }] },
    ];
  }
  return [];
}

/** The form's fields with the pace's values as their starting values (a field the player
 * leaves as it is is not sent: the pace sets it; one changed wins over the pace). */
function paced(fields, paces, pace) {
  const values = pace && paces ? paces.paces[pace] || {} : {};
  return fields.map((f) => {
    if (!(f.key in values)) return f;
    const initial = values[f.key];
    const choices = f.choices && !f.choices.some((c) => Number(c.value) === values[f.key])
      ? f.choices.concat({ value: String(values[f.key]), label: t("opt.bot_seconds_upto", { n: values[f.key] }) })
      : f.choices;
    return { ...f, initial, choices };
  });
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
  const [bankSeconds, setBankSeconds] = useState("");
  const [isPrivate, setPrivate] = useState(false);
  const [values, setValues] = useState({});
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const [paces, setPaces] = useState(null);
  const [chosenPace, setPace] = useState(null);
  useEffect(() => { pacesOf(ruleset.name).then(setPaces); }, [ruleset.name]);
  const pace = chosenPace !== null ? chosenPace : paces && bots > 0 ? paces.against_bots : "";
  const fields = paced(optionFields(ruleset.name, players).concat(otherOptions(ruleset)), paces, pace);
  const value = (f) => (f.key in values ? values[f.key] : f.initial);
  const current = Object.fromEntries(fields.map((f) => [f.key, value(f)]));
  const prefix = `create-${ruleset.name}`;

  const submit = async (e) => {
    e.preventDefault();
    if (!name.trim()) { setError(t("lobby.name_first_top")); return; }
    const options = {};
    for (const f of fields) {
      if (f.when && !f.when(current)) continue;
      let v = value(f);
      if (f.type === "number") v = Number(v);
      if (f.number && v !== "random") v = Number(v);
      if (v !== f.initial || f.key === "hands") options[f.key] = v;
    }
    if (pace) options.pace = pace;
    if (moveSeconds) options.move_seconds = Number(moveSeconds);
    if (moveSeconds && bankSeconds && Number(moveSeconds) >= 3600) {
      // a turn-based table: the bank, and an hour back for each move a player makes
      options.bank_seconds = Number(bankSeconds);
      options.bank_refill_seconds = 3600;
    }
    setBusy(true); setError(null);
    try {
      const id = await startTable({ ruleset, players, options, isPrivate, name: name.trim(), bots: Math.min(bots, players - 1), botKind });
      location.hash = route("game", id);
    } catch (err) {
      startFailed(err, setError);
    } finally { setBusy(false); }
  };

  return html`<form class="create-form" onSubmit=${submit} aria-label=${t("lobby.form_label", { game: ruleset.title })}>
    <div class="field">
      <label for=${`${prefix}-players`}>${t("lobby.players_range", { min: ruleset.min_players, max: ruleset.max_players })}</label>
      <input id=${`${prefix}-players`} type="number" min=${ruleset.min_players} max=${ruleset.max_players}
        value=${players} onInput=${(e) => { const n = Number(e.target.value); setPlayers(n); setBots(Math.max(0, n - 1)); }} />
    </div>
    <div class="field">
      <label for=${`${prefix}-bots`}>${t("lobby.bot_seats")}</label>
      <input id=${`${prefix}-bots`} type="number" min="0" max=${Math.max(0, players - 1)} value=${bots}
        onInput=${(e) => setBots(Number(e.target.value))} />
    </div>
    <div class="field">
      <label for=${`${prefix}-botkind`}>${t("lobby.which_bot")}</label>
      <select id=${`${prefix}-botkind`} value=${botKind} onChange=${(e) => setBotKind(e.target.value)}>
        ${botsOf(ruleset).map((b) => html`<option value=${b}>${botLevel(b)}</option>`)}
      </select>
    </div>
    <${PaceField} prefix=${prefix} paces=${paces} pace=${pace} setPace=${setPace} />
    ${ruleset.name !== "wordjam" && html`<div class="field">
      <label for=${`${prefix}-move`}>${t("lobby.time_per_move")}</label>
      <select id=${`${prefix}-move`} value=${moveSeconds} onChange=${(e) => setMoveSeconds(e.target.value)}>
        <option value="">${pace && paces && paces.paces[pace].move_seconds
          ? t("lobby.pace_sets", { time: secondsText(paces.paces[pace].move_seconds) }) : t("lobby.no_limit")}</option>
        <option value="30">${t("format.seconds", { n: 30 })}</option>
        <option value="60">${t("format.minutes", { n: 1 })}</option>
        <option value="120">${t("format.minutes", { n: 2 })}</option>
        <option value="300">${t("format.minutes", { n: 5 })}</option>
        <option value="3600">${t("format.hours", { n: 1 })}</option>
        <option value="86400">${t("format.days", { n: 1 })}</option>
      </select>
    </div>`}
    ${ruleset.name !== "wordjam" && Number(moveSeconds) >= 3600 && html`<div class="field">
      <label for=${`${prefix}-bank`}>${t("lobby.time_bank")}</label>
      <select id=${`${prefix}-bank`} value=${bankSeconds} onChange=${(e) => setBankSeconds(e.target.value)}>
        <option value="">${t("lobby.no_bank")}</option>
        <option value="86400">${t("format.days", { n: 1 })}</option>
        <option value="259200">${t("format.days", { n: 3 })}</option>
        <option value="604800">${t("format.days", { n: 7 })}</option>
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
      <label for=${`${prefix}-private`}>${t("lobby.private")}</label>
    </div>
    <${Alert} message=${error} />
    <div class="actions">
      <button type="submit" class="primary" disabled=${busy}>${busy ? t("lobby.creating") : t("lobby.create")}</button>
      <button type="button" onClick=${onCancel}>${t("lobby.cancel")}</button>
    </div>
  </form>`;
}

/** "Learn to play": the ruleset's guided game (shared/learn.js), the player against gentle bots
 * that wait for them, each step told at the table. A newcomer (no player and no game in this
 * browser yet) sees it first, on its own line; everyone else beside the other ways to play. */
function Learn({ ruleset, name, setError, first }) {
  const [busy, setBusy] = useState(false);
  const learn = async () => {
    if (!name.trim()) { setError(t("lobby.name_first_top")); document.getElementById("player-name").focus(); return; }
    setBusy(true); setError(null);
    try {
      const setup = await guidedTable(ruleset.name);
      const id = await startTable({ ruleset, players: setup.players, options: setup.options, isPrivate: false,
        name: name.trim(), bots: setup.bots.length, botKind: setup.bots[0], seed: setup.seed });
      location.hash = route("game", id);
    } catch (err) { startFailed(err, setError); } finally { setBusy(false); }
  };
  const button = html`<button type="button" class="learn" data-testid="learn" onClick=${learn} disabled=${busy}>
    ${busy ? t("lobby.starting") : t("lobby.learn")}</button>`;
  return first ? html`<p class="learn-first">${button} <span class="small">${t("lobby.learn_hint")}</span></p>` : button;
}

function RulesetCard({ ruleset, name }) {
  const [newcomer] = useState(() => !storedPlayer() && myGames().length === 0);
  const [open, setOpen] = useState(false);
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const quick = QUICK[ruleset.name] || { players: ruleset.min_players, options: {} };
  const play = async () => {
    if (!name.trim()) { setError(t("lobby.name_first_top")); document.getElementById("player-name").focus(); return; }
    setBusy(true); setError(null);
    try {
      const paces = await pacesOf(ruleset.name);  // against bots: the engine's pace for it
      const options = withPace(quick.options, paces && paces.against_bots);
      const id = await startTable({ ruleset, players: quick.players, options, isPrivate: false,
        name: name.trim(), bots: quick.players - 1, botKind: botsOf(ruleset)[0] });
      location.hash = route("game", id);
    } catch (err) { startFailed(err, setError); } finally { setBusy(false); }
  };
  return html`<section class="card ruleset" aria-labelledby=${`rs-${ruleset.name}`} data-ruleset=${ruleset.name}>
    <h2 id=${`rs-${ruleset.name}`}>${ruleset.title}</h2>
    <p>${BLURBS[ruleset.name] ? t(BLURBS[ruleset.name]) : t("lobby.blurb_players", { min: ruleset.min_players, max: ruleset.max_players })}</p>
    ${newcomer && html`<${Learn} ruleset=${ruleset} name=${name} setError=${setError} first=${true} />`}
    <div class="actions">
      <button type="button" class="primary" onClick=${play} disabled=${busy}>
        ${busy ? t("lobby.starting") : t("lobby.play_now", { n: quick.players - 1 })}</button>
      <button type="button" aria-expanded=${open} onClick=${() => setOpen(!open)}>${t("lobby.set_up")}</button>
      ${!newcomer && html`<${Learn} ruleset=${ruleset} name=${name} setError=${setError} first=${false} />`}
    </div>
    <${Alert} message=${error} />
    ${open && html`<${CreateForm} ruleset=${ruleset} name=${name} onCancel=${() => setOpen(false)} />`}
    <p class="small"><a href=${route("leaderboard", ruleset.name)}>${t("lobby.leaderboard_of", { game: ruleset.title })}</a></p>
  </section>`;
}

export const PAGE_SIZE = 10;
const STATUS_FILTERS = [{ value: "open", label: "list.open" }, { value: "playing", label: "list.playing" },
  { value: "finished", label: "list.finished" }, { value: "", label: "list.all" }];
const BOT_FILTERS = [{ value: "", label: "list.bots_any" }, { value: "true", label: "list.bots_with" },
  { value: "false", label: "list.bots_none" }];

function GameItem({ game }) {
  const mine = seatOf(game.id);
  const free = game.seats_total - game.seats_taken;
  let action;
  if (mine.token || mine.host) action = html`<a class="button" href=${route("game", game.id)}>${t("list.open_game")}</a>`;
  else if (game.status === "open" && free > 0) action = html`<a class="button primary" href=${route("join", game.id)}>${t("list.join")}</a>`;
  else if (game.status === "finished") action = html`<a class="button" href=${route("replay", game.id)}>${t("list.replay")}</a>`;
  else action = html`<a class="button" href=${route("game", game.id)}>${t("list.watch")}</a>`;
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
        setError(t("list.cursor_expired"));
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
  const rulesetChoices = [{ value: "", label: t("list.all_games") }].concat(
    Object.entries(RULESET_TITLES).map(([value, label]) => ({ value, label, plain: true })));
  const select = (key, label, choices) => html`<div class="field">
    <label for=${`list-${key}`}>${label}</label>
    <select id=${`list-${key}`} value=${filters[key]} onChange=${set(key)}>
      ${choices.map((c) => html`<option value=${c.value}>${c.plain || c.label.indexOf(".") < 0 ? c.label : t(c.label)}</option>`)}</select></div>`;
  return html`<section class="card" aria-labelledby="open-games-title" data-testid="game-list">
    <h2 id="open-games-title">${t("list.title")}</h2>
    <div class="filters">
      ${select("status", t("list.show"), STATUS_FILTERS)}
      ${select("ruleset", t("list.game"), rulesetChoices)}
      ${select("has_bots", t("list.bots"), BOT_FILTERS)}
    </div>
    <${Alert} message=${error} />
    ${games === null ? html`<p>${t("list.looking")}</p>` : games.length === 0
      ? html`<p>${filters.status === "open" ? t("list.none_open") : t("list.none")}</p>`
      : html`<ul class="game-list" aria-busy=${busy}>${games.map((g) => html`<${GameItem} key=${g.id} game=${g} />`)}</ul>`}
    <div class="actions">
      ${next && html`<button type="button" onClick=${more} disabled=${busy}>${t("list.more")}</button>`}
      <button type="button" onClick=${() => first()} disabled=${busy}>${t("list.refresh")}</button>
    </div>
    <p class="small muted">${t("list.private_note")}</p>
  </section>`;
}

function JoinByLink() {
  const [text, setText] = useState("");
  const [missing, setMissing] = useState(false);
  const go = (e) => {
    e.preventDefault();
    const raw = text.trim();
    // "Go" on an empty field says what goes in it
    setMissing(!raw);
    if (!raw) { document.getElementById("join-text").focus(); return; }
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
    <h2 id="join-title">${t("lobby.got_link")}</h2>
    <div class="field"><label for="join-text">${t("lobby.paste_link")}</label>
      <div class="share-row"><input id="join-text" type="text" value=${text} aria-invalid=${missing ? "true" : null}
        aria-describedby=${missing ? "join-missing" : null} onInput=${(e) => { setText(e.target.value); setMissing(false); }} />
      <button type="submit">${t("lobby.go")}</button></div>
      ${missing && html`<p id="join-missing" class="field-error" role="alert">${t("lobby.paste_first", { go: t("lobby.go") })}</p>`}</div>
  </form>`;
}

export function Lobby() {
  const [list, setList] = useState(null);
  const [error, setError] = useState(null);
  const [name, setName] = useState(playerName());
  const [notice, setNotice] = useState(takeFlash);
  useEffect(() => { rulesets().then(setList).catch((err) => setError(explain(err))); }, []);
  return html`<div class="lobby">
    <h1>${t("lobby.title")}</h1>
    <${Alert} message=${notice} kind="notice" onDismiss=${() => setNotice(null)} />
    <p class="lead">${t("lobby.lead")}</p>
    <${NameField} name=${name} setName=${setName} />
    <${Alert} message=${error} />
    <div class="rulesets">${(list || []).map((r) => html`<${RulesetCard} ruleset=${r} name=${name} />`)}</div>
    <${MyGames} />
    ${list && list.length > 0 && html`<${QuickMatch} list=${list} name=${name} quick=${QUICK} />`}
    <${PlayerCard} />
    <${GameList} />
    <${JoinByLink} />
    <p class="more"><a href="#/calc">${t("lobby.calculators")}</a> ${t("lobby.calculators_for")}</p>
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
    if (!name.trim()) { setError(t("lobby.name_first")); return; }
    setBusy(true); setError(null);
    try {
      await takeSeat(id, { name: name.trim(), host: saved.host, join: joinToken });
      setPlayerName(name.trim());
      location.hash = route("game", id);
    } catch (err) { setError(explain(err)); } finally { setBusy(false); }
  };
  const title = game && game.ruleset ? RULESET_TITLES[game.ruleset] || game.ruleset : null;
  const free = game && !game.private ? game.seats_total - game.seats_taken : null;
  const canJoin = game && game.status === "open" && (game.private ? Boolean(joinToken) : free > 0);
  return html`<div class="join">
    <h1>${title ? t("join.title", { game: title }) : t("join.title_table")}</h1>
    ${game && game.private && html`<p>${t("join.private")}</p>`}
    ${game && !game.private && html`<p>${t("format.seats_taken", { taken: game.seats_taken, total: game.seats_total })}${game.players && game.players.some((p) => p.name)
      ? `: ${game.players.filter((p) => p.name).map((p) => p.name).join(", ")}` : ""}.</p>`}
    <${Alert} message=${error} />
    ${canJoin ? html`<form onSubmit=${join} class="card">
        <div class="field"><label for="join-name">${t("lobby.your_name")}</label>
          <input id="join-name" type="text" maxlength="40" value=${name} onInput=${(e) => setName(e.target.value)} autocomplete="nickname" /></div>
        <button type="submit" class="primary" disabled=${busy}>${busy ? t("join.joining") : t("join.take_seat")}</button>
      </form>`
      : game && !game.private && html`<p>${game.status === "open" ? t("join.full") : game.status === "playing"
          ? t("join.started") : t("join.over")}${" "}
          <a href=${route(game.status === "finished" ? "replay" : "game", id, { spectator: query.spectator })}>${game.status === "finished" ? t("join.see_replay") : t("join.watch_it")}</a>${t("join.instead")}</p>`}
    <p><a href="#/">${t("nav.back_lobby")}</a></p>
  </div>`;
}
