// The game page: loads the caller's view, follows the event feed, and hands the view, the
// legal moves and ``act`` to the ruleset's module (games/*.js). A move carries the version the
// player saw (If-Match): when the game moved on first, nothing is played, the view is
// refreshed and the player is told.
import { html, useCallback, useEffect, useRef, useState } from "../lib.js";
import { call, explain, isStale, Problem } from "./api.js";
import { follow } from "./feed.js";
import { joinLink, listNames, nameOf, nextDeadline, pendingOf, RULESET_TITLES, route, titleCase, watchLink } from "./format.js";
import { forgetSeat, playerName, remember, seatOf, setPlayerName } from "./store.js";
import { Alert, Countdown, Seats, ShareLink } from "./ui.js";
import { BOT_NAMES, botsOf, rulesets } from "./lobby.js";
import turandot from "../games/turandot.js";
import wordjam from "../games/wordjam.js";
import muzicando from "../games/muzicando.js";

export const GAMES = { turandot, wordjam, muzicando };
const KEEP_EVENTS = 300;

export function GamePage({ id, query }) {
  const saved = seatOf(id);
  const seatToken = saved.token || null;
  const host = saved.host || null;
  const spectator = query.spectator || saved.spectator || null;
  const readToken = seatToken || host;
  const [view, setView] = useState(null);
  const [actions, setActions] = useState(null);
  const [error, setError] = useState(null);
  const [notice, setNotice] = useState(null);
  const [busy, setBusy] = useState(false);
  const [events, setEvents] = useState([]);
  const [feed, setFeed] = useState("connecting");
  const [announce, setAnnounce] = useState("");
  const current = useRef(null);
  const loading = useRef(false);
  const again = useRef(false);

  const addEvents = useCallback((list) => {
    if (!list || !list.length) return;
    setEvents((old) => {
      const seen = new Set(old.map((e) => e.seq));
      const merged = old.concat(list.filter((e) => !seen.has(e.seq))).sort((a, b) => a.seq - b.seq);
      return merged.slice(-KEEP_EVENTS);
    });
  }, []);

  // the view and the seat's legal moves at that view, shown together
  const show = useCallback(async (v) => {
    const me = v.you ? v.you.seat : null;
    let moves = null;
    if (seatToken && me !== null && v.status === "playing" && pendingOf(v, me)) {
      const r = await call("GET", `/v1/games/${encodeURIComponent(id)}/actions`, { token: seatToken });
      moves = { ...r.data, version: v.version };
    }
    if (current.current && current.current.version > v.version) return;  // a newer one is shown
    current.current = v;
    setActions(moves);
    setView(v);
  }, [id, seatToken]);

  const refresh = useCallback(async () => {
    if (loading.current) { again.current = true; return; }
    loading.current = true;
    try {
      do {
        again.current = false;
        const known = current.current;
        const r = await call("GET", `/v1/games/${encodeURIComponent(id)}`, {
          token: readToken, spectator, ifNoneMatch: known ? `"${known.version}"` : null,
        });
        if (r.status !== 304) await show(r.data);
      } while (again.current);
    } catch (err) {
      if (err instanceof Problem && err.status === 401 && seatToken) {
        setError("This browser's seat is no longer valid for this game. You are watching it now.");
        forgetSeat(id);
      } else {
        setError(explain(err));
      }
    } finally {
      loading.current = false;
    }
  }, [id, readToken, spectator, show, seatToken]);

  useEffect(() => { refresh(); }, [refresh]);

  // the live feed, once the first view is in: every new event refreshes the view
  // (a game that ends while followed keeps its stream: the server closes it after the last event)
  const status = view ? view.status : null;
  useEffect(() => {
    if (!status) return undefined;
    if (current.current.status === "finished") {
      call("GET", `/v1/games/${encodeURIComponent(id)}/events`, { token: readToken, spectator })
        .then((r) => addEvents(r.data.events)).catch(() => {});
      setFeed("closed");
      return undefined;
    }
    const module = GAMES[current.current.ruleset];
    const handle = follow({
      gameId: id, token: readToken, spectator, after: 0,
      onStatus: setFeed,
      onEvents: (list) => {
        addEvents(list);
        const said = list.map((e) => module && module.describeEvent(e, current.current, true)).filter(Boolean);
        if (said.length) setAnnounce(said.slice(-2).join(" "));
        const v = current.current;
        if (!v || list[list.length - 1].seq > v.last_seq) refresh();
      },
    });
    return () => handle.close();
  }, [id, status !== null, readToken]);

  const act = useCallback(async (move, opts = {}) => {
    const v = current.current;
    setBusy(true);
    if (!opts.inline) setError(null);
    setNotice(null);
    try {
      const r = await call("POST", `/v1/games/${encodeURIComponent(id)}/moves`, {
        token: seatToken, body: move, ifMatch: v.version,
      });
      addEvents(r.data.events);
      await show(r.data.game);
      return null;
    } catch (err) {
      const message = explain(err);
      if (isStale(err)) {
        await refresh();
        setNotice(message);
        return message;
      }
      if (!opts.inline) setError(message);
      return message;
    } finally {
      setBusy(false);
    }
  }, [id, seatToken, show, refresh, addEvents]);

  const module = view && GAMES[view.ruleset];
  useEffect(() => {
    if (!view) return;
    const me = view.you ? view.you.seat : null;
    const mine = me !== null && view.status === "playing" && pendingOf(view, me);
    document.title = `${mine ? "● Your move · " : ""}${RULESET_TITLES[view.ruleset] || "Game"} · Impresario`;
  }, [view]);

  if (!view) {
    return html`<div><h1>Loading the table…</h1><${Alert} message=${error} /></div>`;
  }
  const me = view.you ? view.you.seat : null;
  const title = RULESET_TITLES[view.ruleset] || view.ruleset;
  const mine = me !== null && view.status === "playing" && Boolean(pendingOf(view, me)) && Boolean(actions);
  return html`<div class=${`game game-${view.ruleset}`} data-status=${view.status} data-version=${view.version}
      data-mine=${mine ? "1" : "0"}>
    <div class="game-head">
      <h1>${title} <small>${module ? module.status(view) : view.status}</small></h1>
      <${FeedStatus} feed=${feed} status=${view.status} />
    </div>
    <p class="who">${me !== null ? html`You are <strong>${nameOf(view, me)}</strong>.` : html`You are watching${spectator ? " (spectator link)" : ""}.`}</p>
    <${Alert} message=${error} onDismiss=${() => setError(null)} />
    <${Alert} message=${notice} kind="notice" onDismiss=${() => setNotice(null)} />
    <div class="sr-only" aria-live="polite">${announce}</div>
    ${view.status === "open"
      ? html`<${Setup} view=${view} id=${id} seatToken=${seatToken} host=${host} spectator=${spectator} refresh=${refresh} />`
      : html`<${TurnBar} view=${view} me=${me} module=${module} refresh=${refresh} />
        ${view.status === "finished" && html`<${Finished} view=${view} id=${id} module=${module} seatToken=${seatToken} spectator=${spectator} />`}
        ${module && html`<${module.Table} view=${view} actions=${actions} act=${act} busy=${busy} me=${me} events=${events} />`}`}
    <${EventLog} events=${events} view=${view} module=${module} />
  </div>`;
}

function FeedStatus({ feed, status }) {
  if (status === "finished") return html`<span class="feed feed-closed">Game over</span>`;
  const text = { live: "Live", reconnecting: "Reconnecting…", polling: "Updating every 2 s", connecting: "Connecting…", closed: "Not updating" }[feed] || feed;
  return html`<span class=${`feed feed-${feed}`} role="status">${text}</span>`;
}

function TurnBar({ view, me, module, refresh }) {
  if (view.status !== "playing") return null;
  const mine = me !== null ? pendingOf(view, me) : null;
  const others = (view.pending || []).filter((p) => p.seat !== me).map((p) => p.seat);
  const deadline = mine ? mine.deadline : nextDeadline(view);
  const text = mine
    ? (module && module.yourTurn ? module.yourTurn(view, mine) : `Your move: ${mine.kinds.map(titleCase).join(" or ")}.`)
    : others.length ? `Waiting for ${listNames(view, others)}.` : "The engine is playing…";
  return html`<div class=${`turnbar${mine ? " mine" : ""}`} data-testid="turnbar">
    <span class="turn-text">${text}</span>
    ${typeof deadline === "number" && html`<${Countdown} deadline=${deadline} label=${mine ? "Your time" : "Time left"} onExpire=${refresh} />`}
  </div>`;
}

function Setup({ view, id, seatToken, host, spectator, refresh }) {
  const [name, setName] = useState(playerName());
  const [bot, setBot] = useState(null);
  const [bots, setBots] = useState([]);
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    rulesets().then((list) => {
      const found = list.find((r) => r.name === view.ruleset);
      const names = botsOf(found || { name: view.ruleset });
      setBots(names); setBot(names[0]);
    }).catch(() => {});
  }, [view.ruleset]);
  const free = view.seats_total - view.seats_taken;
  const run = async (fn) => {
    setBusy(true); setError(null);
    try { await fn(); await refresh(); } catch (err) { setError(explain(err)); } finally { setBusy(false); }
  };
  const takeSeat = (e) => {
    e.preventDefault();
    if (!name.trim()) { setError("Write your name first."); return; }
    run(async () => {
      const r = await call("POST", `/v1/games/${encodeURIComponent(id)}/seats`, { body: { name: name.trim() } });
      setPlayerName(name.trim());
      remember(id, { token: r.data.token, seat: r.data.seat, name: name.trim(), ruleset: view.ruleset });
      location.reload();
    });
  };
  const addBot = () => run(async () => {
    const taken = new Set((view.players || []).map((p) => p.name));
    const botName = BOT_NAMES.find((n) => !taken.has(n)) || `Bot ${view.seats_taken + 1}`;
    await call("POST", `/v1/games/${encodeURIComponent(id)}/seats`, { token: host, body: { name: botName, bot } });
  });
  const leave = () => run(async () => {
    const seat = seatOf(id).seat;
    try {
      await call("DELETE", `/v1/games/${encodeURIComponent(id)}/seats/${seat}`, { token: seatToken });
    } catch (err) {
      if (err instanceof Problem && [404, 405].includes(err.status) && err.code !== "game_not_found") {
        throw new Problem(err.status, { detail: "this server does not let players leave a table yet" });
      }
      throw err;
    }
    forgetSeat(id);
    location.hash = route("lobby");
  });
  const origin = location.origin;
  return html`<section class="card setup" aria-labelledby="setup-title">
    <h2 id="setup-title">Waiting for players: ${view.seats_taken} of ${view.seats_total} seated</h2>
    <p>The game starts by itself when the last seat is taken.</p>
    <${Seats} view=${view} me=${view.you ? view.you.seat : null} />
    <${Alert} message=${error} />
    ${!seatToken && html`<form onSubmit=${takeSeat} class="inline-form">
      <div class="field"><label for="seat-name">Your name</label>
        <input id="seat-name" type="text" maxlength="40" value=${name} onInput=${(e) => setName(e.target.value)} /></div>
      <button type="submit" class="primary" disabled=${busy}>Take a seat</button></form>`}
    ${host && free > 0 && html`<div class="inline-form">
      <div class="field"><label for="bot-kind">Bot</label>
        <select id="bot-kind" value=${bot} onChange=${(e) => setBot(e.target.value)}>${bots.map((b) => html`<option value=${b}>${b}</option>`)}</select></div>
      <button type="button" onClick=${addBot} disabled=${busy || !bot}>Add a bot</button></div>`}
    <${ShareLink} id="join-link" label="Send this link to the players" url=${joinLink(origin, id)} />
    <${ShareLink} id="watch-link" label="Spectators watch with this link" url=${watchLink(origin, id, view.private ? spectator : null)} />
    ${seatToken && html`<button type="button" class="danger" onClick=${leave} disabled=${busy}>Leave this table</button>`}
  </section>`;
}

function Finished({ view, id, module, seatToken, spectator }) {
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const [supported, setSupported] = useState(true);
  const rematch = async () => {
    setBusy(true); setError(null);
    try {
      const r = await call("POST", `/v1/games/${encodeURIComponent(id)}/rematch`, { token: seatToken });
      const saved = seatOf(id);
      remember(r.data.rematch, { token: r.data.token, seat: r.data.seat, name: saved.name, ruleset: view.ruleset });
      location.hash = route("game", r.data.rematch);
    } catch (err) {
      if (err instanceof Problem && [404, 405].includes(err.status) && err.code !== "game_not_found") {
        setSupported(false);
        setError("This server does not offer rematches yet: start a new table from the lobby.");
      }
      else setError(explain(err));
    } finally { setBusy(false); }
  };
  return html`<section class="card finished" aria-labelledby="final-title">
    <h2 id="final-title">Final score</h2>
    ${module && html`<${module.Score} view=${view} score=${view.score} />`}
    <${Alert} message=${error} />
    <div class="actions">
      ${seatToken && supported && html`<button type="button" class="primary" onClick=${rematch} disabled=${busy}>
        ${view.rematch ? "Join the rematch" : "Rematch"}</button>`}
      ${!seatToken && view.rematch && html`<a class="button" href=${route("game", view.rematch)}>Watch the rematch</a>`}
      <a class="button" href=${route("replay", id, { spectator })}>Replay the game</a>
      <a class="button" href="#/">Back to the lobby</a>
    </div>
  </section>`;
}

function EventLog({ events, view, module }) {
  const lines = [];
  for (const e of events) {
    const text = module ? module.describeEvent(e, view, false) : null;
    if (text) lines.push({ seq: e.seq, text });
  }
  if (!lines.length) return null;
  return html`<details class="card log">
    <summary>What happened (${lines.length})</summary>
    <ol reversed>${lines.slice(-60).reverse().map((l) => html`<li key=${l.seq}>${l.text}</li>`)}</ol>
  </details>`;
}
