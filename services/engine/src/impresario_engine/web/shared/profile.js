// The pages of players: a ruleset's leaderboard (#/leaderboard/{ruleset}), a player's profile
// (#/player/{id}: ratings, rated games, recent results; the player's own can be renamed and
// forgotten), and the page a device code's link opens (#claim=CODE), which makes this browser
// the player the code gives.
import { html, useEffect, useRef, useState } from "../lib.js";
import { call, explain, withQuery } from "./api.js";
import { RULESET_TITLES, route } from "./format.js";
import { forgetPlayer, renamePlayer, setFlash, storedPlayer } from "./store.js";
import { Alert, Dialog } from "./ui.js";
import { formatDate, formatNumber, t } from "./i18n.js";
import { claimCode, playerCall, shownName } from "./players.js";

const BOARD_PAGE = 20;

function rating(value) {
  return formatNumber(value, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
}

function change(value) {
  const text = formatNumber(Math.abs(value), { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  return value > 0 ? `+${text}` : value < 0 ? `−${text}` : text;
}

/** The rulesets as links, the one shown marked as the current page. */
function BoardTabs({ current }) {
  return html`<nav class="board-tabs" aria-label=${t("board.others")}>
    ${Object.entries(RULESET_TITLES).map(([name, title]) => html`<a href=${route("leaderboard", name)}
      class=${`button${name === current ? " primary" : ""}`} aria-current=${name === current ? "page" : undefined}>${title}</a>`)}
  </nav>`;
}

/** A ruleset's leaderboard: rated players by displayed rating, best first, a page at a time. */
export function LeaderboardPage({ id }) {
  const ruleset = id || "turandot";
  const me = storedPlayer();
  const [board, setBoard] = useState(null);
  const [rows, setRows] = useState([]);
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    call("GET", withQuery(`/v1/leaderboards/${encodeURIComponent(ruleset)}`, { limit: BOARD_PAGE }))
      .then((r) => { setBoard(r.data); setRows(r.data.players); })
      .catch((err) => setError(explain(err)));
  }, [ruleset]);
  const more = async () => {
    setBusy(true);
    try {
      const r = await call("GET", board.next);
      const seen = new Set(rows.map((row) => row.player.id));
      setRows(rows.concat(r.data.players.filter((row) => !seen.has(row.player.id))));
      setBoard(r.data);
    } catch (err) { setError(explain(err)); } finally { setBusy(false); }
  };
  const title = RULESET_TITLES[ruleset] || ruleset;
  return html`<div class="leaderboard" data-ruleset=${ruleset}>
    <h1>${t("board.title")} <small>${title}</small></h1>
    <${BoardTabs} current=${ruleset} />
    <${Alert} message=${error} />
    ${board && html`<p class="small">${t("board.about", { n: board.min_games })}</p>`}
    ${board && (rows.length === 0 ? html`<p>${t("board.empty")}</p>` : html`<div class="table-wrap">
      <table class="grid-table board-table" data-testid="leaderboard">
        <caption class="sr-only">${t("board.caption", { game: title })}</caption>
        <thead><tr><th scope="col">${t("board.place")}</th><th scope="col">${t("board.player")}</th>
          <th scope="col">${t("board.rating")}</th><th scope="col">${t("board.games")}</th></tr></thead>
        <tbody>${rows.map((row) => html`<tr key=${row.player.id} data-player=${row.player.id}
            class=${me && me.id === row.player.id ? "me" : ""}>
          <td>${row.place}</td>
          <th scope="row"><a href=${route("player", row.player.id)}>${shownName(row.player)}</a>
            ${me && me.id === row.player.id && html`<span class="badge badge-you">${t("ui.you_badge")}</span>`}</th>
          <td>${rating(row.rating)}</td><td>${row.games}</td></tr>`)}</tbody>
      </table></div>`)}
    ${board && html`<p class="small muted">${t("board.total", { n: board.total })} ${t("board.rating_note")}</p>`}
    <div class="actions">
      ${board && board.next && html`<button type="button" onClick=${more} disabled=${busy}>${t("board.more")}</button>`}
    </div>
    <p><a href="#/">${t("nav.back_lobby")}</a></p>
  </div>`;
}

/** The player's own: the name on profiles and leaderboards, and removing the player. */
function MyPlayer({ name, onRenamed }) {
  const [text, setText] = useState(name);
  const [error, setError] = useState(null);
  const [notice, setNotice] = useState(null);
  const [busy, setBusy] = useState(false);
  const [asking, setAsking] = useState(false);
  const rename = async (e) => {
    e.preventDefault();
    if (!text.trim()) { setError(t("lobby.name_first")); return; }
    setBusy(true); setError(null); setNotice(null);
    try {
      const r = await playerCall("PATCH", "/v1/me", { body: { name: text.trim() } });
      renamePlayer(r.data.player.name);
      setNotice(t("profile.renamed", { name: r.data.player.name }));
      onRenamed(r.data.player.name);
    } catch (err) { setError(explain(err)); } finally { setBusy(false); }
  };
  const forget = async () => {
    setBusy(true); setError(null);
    try {
      await playerCall("DELETE", "/v1/me");
      forgetPlayer();
      setFlash(t("profile.forgotten"));
      location.hash = "#/";
    } catch (err) { setError(explain(err)); setBusy(false); }
  };
  return html`<section class="card" aria-labelledby="mine-title" data-testid="my-player">
    <h2 id="mine-title">${t("profile.yours")}</h2>
    <form class="inline-form" onSubmit=${rename}>
      <div class="field"><label for="profile-name">${t("profile.name_label")}</label>
        <input id="profile-name" type="text" maxlength="40" autocomplete="nickname" value=${text}
          onInput=${(e) => setText(e.target.value)} /></div>
      <button type="submit" disabled=${busy}>${t("profile.rename")}</button>
    </form>
    <p class="small muted">${t("profile.name_note")}</p>
    <${Alert} message=${notice} kind="notice" onDismiss=${() => setNotice(null)} />
    <${Alert} message=${error} />
    <div class="actions"><button type="button" class="danger" onClick=${() => setAsking(true)}>${t("profile.forget")}</button></div>
    <${Dialog} open=${asking} title=${t("profile.forget_title")} id="forget-dialog" onClose=${() => setAsking(false)} noRule=${true}>
      <p>${t("profile.forget_text")}</p>
      <div class="actions">
        <button type="button" class="danger" onClick=${forget} disabled=${busy}>${t("profile.forget_confirm")}</button>
        <button type="button" onClick=${() => setAsking(false)}>${t("profile.forget_keep")}</button>
      </div>
    <//>
  </section>`;
}

const KINDS = { anonymous: "profile.kind_anonymous", platform: "profile.kind_platform", bot: "profile.kind_bot" };

/** A player's profile: name, ratings per ruleset, rated games, the latest rated results. */
export function ProfilePage({ id }) {
  const me = storedPlayer();
  const mine = Boolean(me && me.id === id);
  const [data, setData] = useState(null);
  const [error, setError] = useState(null);
  const load = () => call("GET", `/v1/players/${encodeURIComponent(id)}`)
    .then((r) => { setData(r.data); setError(null); }).catch((err) => setError(explain(err)));
  useEffect(() => { load(); }, [id]);
  if (!data) return html`<div><h1>${t("profile.title")}</h1><${Alert} message=${error} />${!error && html`<p>${t("profile.loading")}</p>`}</div>`;
  const player = data.player;
  return html`<div class="profile" data-player=${player.id}>
    <h1>${shownName(player)} <small>${t(KINDS[player.kind] || "profile.kind_anonymous")}</small>
      ${mine && html`<span class="badge badge-you">${t("ui.you_badge")}</span>`}</h1>
    <${Alert} message=${error} />
    <p data-testid="profile-games">${t("profile.games", { n: data.games })}</p>
    <section class="card" aria-labelledby="ratings-title">
      <h2 id="ratings-title">${t("profile.ratings")}</h2>
      ${data.ratings.length === 0 ? html`<p>${t("profile.no_ratings")}</p>` : html`<div class="table-wrap">
        <table class="grid-table" data-testid="ratings">
          <thead><tr><th scope="col">${t("list.game")}</th><th scope="col">${t("board.rating")}</th>
            <th scope="col">${t("board.games")}</th><th scope="col">${t("profile.skill")}</th></tr></thead>
          <tbody>${data.ratings.map((r) => html`<tr key=${r.ruleset} data-ruleset=${r.ruleset}>
            <th scope="row"><a href=${route("leaderboard", r.ruleset)}>${RULESET_TITLES[r.ruleset] || r.ruleset}</a></th>
            <td>${rating(r.rating)}</td><td>${r.games}</td>
            <td class="small">${t("profile.mu_sigma", { mu: rating(r.mu), sigma: rating(r.sigma) })}</td></tr>`)}</tbody>
        </table></div>
        <p class="small muted">${t("board.rating_note")}</p>`}
    </section>
    <section class="card" aria-labelledby="recent-results-title">
      <h2 id="recent-results-title">${t("profile.recent")}</h2>
      ${data.recent.length === 0 ? html`<p>${t("profile.no_recent")}</p>` : html`<div class="table-wrap">
        <table class="grid-table" data-testid="recent">
          <thead><tr><th scope="col">${t("profile.when")}</th><th scope="col">${t("list.game")}</th>
            <th scope="col">${t("profile.place")}</th><th scope="col">${t("profile.rating_after")}</th>
            <th scope="col">${t("profile.change")}</th></tr></thead>
          <tbody>${data.recent.map((r, i) => html`<tr key=${`${r.game}-${i}`}>
            <td>${formatDate(r.finished)}</td>
            <td>${r.game ? html`<a href=${route("replay", r.game)}>${RULESET_TITLES[r.ruleset] || r.ruleset}</a>`
              : RULESET_TITLES[r.ruleset] || r.ruleset}</td>
            <td>${t("profile.rank", { rank: r.rank, n: r.players })}</td>
            <td>${rating(r.rating)}</td><td>${change(r.change)}</td></tr>`)}</tbody>
        </table></div>`}
    </section>
    ${mine && html`<${MyPlayer} name=${player.name} onRenamed=${() => load()} />`}
    <p><a href="#/">${t("nav.back_lobby")}</a></p>
  </div>`;
}

/** The page a device code opens (#claim=CODE, or #/claim to type one): this browser becomes
 * the player of the other device. The code leaves the address bar at once. */
export function ClaimPage({ code: given }) {
  const [code, setCode] = useState(given || "");
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const tried = useRef(false);
  const before = storedPlayer();
  const claim = async (value) => {
    setBusy(true); setError(null);
    try {
      const player = await claimCode(value.trim());
      setFlash(t("device.claimed", { name: player.name }));
      location.replace("#/");
    } catch (err) { setError(explain(err)); setBusy(false); }
  };
  useEffect(() => {
    if (!given || tried.current) return;
    tried.current = true;
    // the code is kept by the page, not in the history nor the address bar
    history.replaceState(null, "", `${location.pathname}${location.search}#/claim`);
    claim(given);
  }, []);
  return html`<div class="claim">
    <h1>${t("device.claim_title")}</h1>
    <p>${t("device.claim_lead")}</p>
    ${before && html`<p class="small">${t("device.claim_replaces", { name: before.name })}</p>`}
    <${Alert} message=${error} />
    <form class="inline-form" onSubmit=${(e) => { e.preventDefault(); if (code.trim()) claim(code); }}>
      <div class="field"><label for="claim-code">${t("device.code")}</label>
        <input id="claim-code" type="text" maxlength="32" autocomplete="off" autocapitalize="characters" spellcheck="false"
          value=${code} onInput=${(e) => setCode(e.target.value)} /></div>
      <button type="submit" class="primary" disabled=${busy || !code.trim()}>${busy ? t("device.claiming") : t("device.claim")}</button>
    </form>
    <p><a href="#/">${t("nav.back_lobby")}</a></p>
  </div>`;
}
