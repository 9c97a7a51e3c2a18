// The game page: loads the caller's view, follows the event feed, and hands the view, the
// legal moves and ``act`` to the ruleset's module (games/*.js). A move carries the version the
// player saw (If-Match): when the game moved on first, nothing is played, the view is
// refreshed and the player is told. A seat whose token ended (the player resumed it on another
// device) is taken back here with the player's credential when the player opens the table or
// acts at it; noticed while the page only follows the game, it is offered (a button), so two
// open devices never take the seat from each other by themselves.
import { html, useCallback, useEffect, useRef, useState } from "../lib.js";
import { call, explain, isStale, Problem, serverNow } from "./api.js";
import { follow } from "./feed.js";
import { bankLeft, durationText, listNames, nameOf, nextDeadline, paceText, pendingOf, RULESET_TITLES, route, titleCase } from "./format.js";
import { forgetSeat, remember, seatOf, setFlash, storedPlayer, takeFlash } from "./store.js";
import { Alert, botLevel, Countdown, DialogRule, focusHeading, focusLost } from "./ui.js";
import { onLanguage, t } from "./i18n.js";
import { openRules, RulesHost, WhyLink } from "./rules.js";
import { GuidePanel } from "./learn.js";
import { heldSeats, LeaveGame, Setup } from "./seating.js";
import { resumeSeat, tokenEnded } from "./players.js";
import { NotifyMe } from "./notify.js";
import turandot from "../games/turandot.js";
import wordjam from "../games/wordjam.js";
import muzicando from "../games/muzicando.js";

export { heldSeats };
export const GAMES = { turandot, wordjam, muzicando };
const KEEP_EVENTS = 300;
//: a finished game's page looks for a rematch this often, for this long (the feed has ended)
const REMATCH_POLL_MS = 4000;
const REMATCH_POLL_FOR_MS = 15 * 60 * 1000;

/** What the table itself says happened (seats, rematches), before each ruleset's own events. */
export function describeEvent(module, e, view, live = false) {
  const who = (s) => nameOf(view, s);
  switch (e.type) {
    case "seat_taken": return live ? null : t(e.bot ? "event.seat_taken_bot" : "event.seat_taken", { name: e.name });
    case "seat_held": return live ? null : t("event.seat_held", { n: e.seat + 1, name: e.name });
    case "seat_left":
      if (!e.bot) return t("event.seat_left", { name: e.name });
      return e.bot === "defaults" ? t("event.seat_left_defaults", { name: e.name })
        : t("event.seat_left_bot", { name: e.name, bot: botLevel(e.bot) });
    case "rematch_of": return live ? null : t("event.rematch_of");
    case "game_abandoned": return t("event.game_abandoned");
    default: return module ? module.describeEvent(e, view, live) : (live ? null : titleCase(e.type));
  }
}

/** What happened after ``since`` (the last event this seat had seen when it last moved): the
 * events of a seat that is not ``me``, the table's own (seats, rematches) left out, and the
 * seat's own results the ruleset names (``module.resultFor``: a tie, a card it was given). */
export function othersSince(events, since, me, module = null) {
  if (me === null || me === undefined || since === null || since === undefined) return [];
  const mine = (e) => Boolean(module && module.resultFor && module.resultFor(e, me));
  return events.filter((e) => e.seq > since && !SEATING.has(e.type)
    && ((typeof e.seat === "number" && e.seat !== me) || mine(e)));
}

export function GamePage({ id, query }) {
  const saved = seatOf(id);
  const seatToken = saved.token || null;
  const host = saved.host || null;
  const spectator = query.spectator || saved.spectator || null;
  const readToken = seatToken || host;
  const [view, setView] = useState(null);
  const [actions, setActions] = useState(null);
  const [error, setError] = useState(null);
  const [notice, setNotice] = useState(takeFlash);
  const [busy, setBusy] = useState(false);
  const [events, setEvents] = useState([]);
  const [feed, setFeed] = useState("connecting");
  const [announce, setAnnounce] = useState("");
  // the last events read out were worded in the language of their moment: a switch clears them
  useEffect(() => onLanguage(() => setAnnounce("")), []);
  // the last event this seat had seen when it last moved (kept per game: a reload keeps it)
  const [lookedAt, setLookedAt] = useState(() => (typeof saved.looked === "number" ? saved.looked : null));
  const current = useRef(null);
  // the seat is being given up: its token is about to stop working, so nothing asks with it
  const leaving = useRef(false);
  const [feedEpoch, setFeedEpoch] = useState(0);
  const loading = useRef(false);
  const again = useRef(false);
  // this seat's token ended: another device resumed the seat (the page then offers it back)
  const [elsewhere, setElsewhere] = useState(false);

  // the seat back on this device (POST /v1/me/games/{id}/resume: the other device's token
  // ends), then the page again with ``message``; a finished game takes no new token: it is
  // shown to a spectator then
  const takeBack = useCallback(async (message) => {
    leaving.current = true;
    setFeedEpoch((n) => n + 1);
    try {
      await resumeSeat(id);
      setFlash(message);
    } catch (err) {
      remember(id, { host: undefined });
      forgetSeat(id);
      setFlash(err instanceof Problem && err.code === "game_finished" ? t("resume.finished") : explain(err));
    }
    location.reload();
  }, [id]);

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
    if (seatToken && me !== null) {
      // a seat's first look at the game: what happened before it is not news
      setLookedAt((old) => (old === null ? (remember(id, { looked: v.last_seq }), v.last_seq) : old));
    }
    setActions(moves);
    setView(v);
  }, [id, seatToken]);

  const refresh = useCallback(async () => {
    if (leaving.current) return;
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
      if (tokenEnded(err) && (seatToken || host) && storedPlayer()) {
        // opened here: the seat comes here; noticed while following: offered
        if (!current.current) await takeBack(t("resume.here"));
        else {
          // the feed stops, and nothing asks with the ended token until the player chooses
          leaving.current = true;
          setFeedEpoch((n) => n + 1);
          setFeed("closed");
          setElsewhere(true);
          setActions(null);
        }
      } else if (err instanceof Problem && err.status === 401 && seatToken) {
        setError(t("game.seat_invalid"));
        forgetSeat(id);
      } else {
        setError(explain(err));
      }
    } finally {
      loading.current = false;
    }
  }, [id, readToken, spectator, show, seatToken, host, takeBack]);

  useEffect(() => { refresh(); }, [refresh]);

  // the live feed, once the first view is in: every new event refreshes the view
  // (a game that ends while followed keeps its stream: the server closes it after the last event)
  const status = view ? view.status : null;
  useEffect(() => {
    if (!status || leaving.current) return undefined;
    if (current.current.status === "finished") {
      call("GET", `/v1/games/${encodeURIComponent(id)}/events`, { token: readToken, spectator })
        .then((r) => addEvents(r.data.events)).catch(() => {});
      setFeed("closed");
      return undefined;
    }
    const module = GAMES[current.current.ruleset];
    const handle = follow({
      gameId: id, token: readToken, spectator, after: 0,
      onStatus: (s) => {
        setFeed(s);
        // a feed refused before the game's end (the seat's token ended, the game expired):
        // the view says why
        if (s === "closed" && current.current && current.current.status !== "finished") refresh();
      },
      onEvents: (list) => {
        addEvents(list);
        const said = list.filter((e) => !beforeStart(e, current.current))
          .map((e) => describeEvent(module, e, current.current, true)).filter(Boolean);
        if (said.length) setAnnounce(said.slice(-2).join(" "));
        const v = current.current;
        if (!v || list[list.length - 1].seq > v.last_seq) refresh();
      },
    });
    return () => handle.close();
  }, [id, status !== null, readToken, feedEpoch]);

  // leaving a game in play: the feed stops and the view is not asked for with the seat's token
  // (it would answer 401 once the seat is given up); if the seat could not be given up, both
  // start again
  const leave = useCallback(async (give) => {
    leaving.current = true;
    setFeedEpoch((n) => n + 1);
    try {
      await give();
    } catch (err) {
      leaving.current = false;
      setFeedEpoch((n) => n + 1);
      refresh();
      throw err;
    }
  }, [refresh]);

  // a finished game: its feed has ended, but a player may ask for a rematch at any time; its
  // link is in the view (asked without If-None-Match: linking a rematch leaves the version)
  const rematchLink = view ? view.rematch : null;
  useEffect(() => {
    if (status !== "finished" || rematchLink) return undefined;
    const started = Date.now();
    const timer = setInterval(async () => {
      if (Date.now() - started > REMATCH_POLL_FOR_MS) { clearInterval(timer); return; }
      if (document.visibilityState !== "visible") return;
      try {
        const r = await call("GET", `/v1/games/${encodeURIComponent(id)}`, { token: readToken, spectator });
        if (r.data && r.data.rematch) await show(r.data);
      } catch { /* the next round tries again */ }
    }, REMATCH_POLL_MS);
    return () => clearInterval(timer);
  }, [status, rematchLink, id, readToken]);

  const act = useCallback(async (move, opts = {}) => {
    const v = current.current;
    setBusy(true);
    // this move is made having seen the game up to here: what others do next is news
    remember(id, { looked: v.last_seq });
    setLookedAt(v.last_seq);
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
      if (tokenEnded(err) && storedPlayer()) {
        // the seat was resumed on another device: it comes back here, and the move is made
        // again by the player, who looks at the table as it is now
        await takeBack(t("resume.move_again"));
        return t("resume.move_again");
      }
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
  }, [id, seatToken, show, refresh, addEvents, takeBack]);

  // Word Jam: the engine's own check of a word against the game as it is (the value hint)
  const checkWord = useCallback(async (word) => (await call("POST", `/v1/games/${encodeURIComponent(id)}/word-check`, {
    token: readToken, spectator, body: { word } })).data, [id, readToken, spectator]);

  // the heading that had the focus ("Loading the table…") is replaced by the game's: the
  // focus goes to the new one rather than falling back to the body
  const shown = view !== null;
  useEffect(() => { if (shown && focusLost()) focusHeading(); }, [shown]);

  const module = view && GAMES[view.ruleset];
  useEffect(() => {
    if (!view) return;
    const me = view.you ? view.you.seat : null;
    const mine = !elsewhere && me !== null && view.status === "playing" && pendingOf(view, me);
    document.title = `${mine ? `● ${t("game.your_move_title")} · ` : ""}${RULESET_TITLES[view.ruleset] || t("lobby.game")} · Impresario`;
  }, [view, elsewhere]);

  if (!view) {
    // a table that cannot be shown (a bad link, an expired table) says so, not "Loading", and
    // leads back to the lobby
    return error
      ? html`<div data-testid="game-unavailable"><h1>${t("game.unavailable")}</h1><${Alert} message=${error} />
          <p><a class="button primary" href="#/">${t("nav.back_lobby")}</a></p></div>`
      : html`<div><h1>${t("game.loading")}</h1></div>`;
  }
  const me = view.you ? view.you.seat : null;
  const title = RULESET_TITLES[view.ruleset] || view.ruleset;
  const mine = me !== null && view.status === "playing" && Boolean(pendingOf(view, me)) && Boolean(actions);
  const howTo = module && module.HowTo && html`<${HowToPlay} ruleset=${view.ruleset} title=${title} module=${module} />`;
  const recent = view.status === "playing" ? othersSince(events, lookedAt, me, module) : [];
  // the tables' dialogs ask for the seat's move: the rule behind it at their foot
  const asked = mine ? pendingOf(view, me).kinds : [];
  const dialogRule = module ? () => html`<${WhyLink} ruleset=${view.ruleset} kinds=${asked} phase=${view.phase} />` : null;
  return html`<${DialogRule.Provider} value=${dialogRule}><div class=${`game game-${view.ruleset}`} data-status=${view.status} data-version=${view.version}
      data-mine=${mine ? "1" : "0"}>
    <div class="game-head">
      <h1>${title} <small>${module ? module.status(view) : view.status}</small>
        ${view.private && html`<span class="badge">${t("game.private")}</span>`}
        ${view.seeded && html`<span class="badge badge-practice" title=${t("game.practice_title")}>${t("game.practice")}</span>`}
        <${PaceBadge} view=${view} /></h1>
      <${FeedStatus} feed=${feed} status=${view.status} />
    </div>
    <p class="who">${me !== null ? html`${t("game.you_are")} <strong>${nameOf(view, me)}</strong>.` : spectator ? t("game.watching_link") : t("game.watching")}</p>
    ${me !== null && view.status !== "finished" && !elsewhere && storedPlayer() && html`<${NotifyMe} where="table" />`}
    <${Alert} message=${error} onDismiss=${() => setError(null)} />
    <${Alert} message=${notice} kind="notice" onDismiss=${() => setNotice(null)} />
    ${elsewhere && html`<section class="card elsewhere" role="alert" data-testid="elsewhere">
      <p>${t("resume.elsewhere")}</p>
      <div class="actions"><button type="button" class="primary" onClick=${() => takeBack(t("resume.here"))}>${t("resume.play_here")}</button></div>
    </section>`}
    <div class="sr-only" aria-live="polite">${announce}</div>
    ${elsewhere ? null : view.status === "open"
      ? html`<${Setup} view=${view} id=${id} seatToken=${seatToken} host=${host} spectator=${spectator} refresh=${refresh} events=${events} recover=${takeBack} />
        ${howTo}`
      : html`<${TurnBar} view=${view} me=${me} module=${module} refresh=${refresh} />
        <${GuidePanel} view=${view} id=${id} token=${seatToken} />
        <${RecentMoves} recent=${recent} view=${view} module=${module} />
        ${view.status === "playing" && howTo}
        ${view.status === "finished" && html`<${Finished} view=${view} id=${id} module=${module} seatToken=${seatToken} spectator=${spectator} readToken=${readToken} />`}
        ${module && html`<${module.Table} view=${view} actions=${actions} act=${act} busy=${busy} me=${me} events=${events} recent=${recent} checkWord=${checkWord} />`}`}
    ${!elsewhere && html`<${EventLog} events=${events} view=${view} module=${module} />`}
    ${module && html`<${RulesHost} title=${title} />`}
    ${view.status === "playing" && me !== null && seatToken && !elsewhere && html`<${LeaveGame} view=${view} id=${id} me=${me} seatToken=${seatToken} leave=${leave} />`}
  </div><//>`;
}

/** The pace the table chose at its creation (option pace), when it chose one. */
function PaceBadge({ view }) {
  if (!view.pace) return null;
  return html`<span class="badge badge-pace" data-testid="pace" title=${t("game.pace_title")}>${paceText(view.pace)}</span>`;
}

/** What the other seats did since this seat last moved, newest last, each line flashing once as
 * it arrives (not with prefers-reduced-motion); the tables mark the same moves (``recent``). */
function RecentMoves({ recent, view, module }) {
  const lines = recent.map((e) => ({ seq: e.seq, text: describeEvent(module, e, view, false) })).filter((l) => l.text);
  if (!lines.length) return null;
  return html`<section class="card recent-moves" aria-labelledby="recent-title" data-testid="recent-moves">
    <h2 id="recent-title">${t("game.since_last")}</h2>
    <ul>${lines.slice(-12).map((l) => html`<li key=${l.seq} class="fresh" data-seq=${l.seq}>${l.text}</li>`)}</ul>
  </section>`;
}

/** The rules in a minute: folded, so the table stays in view, unless the player opened them at
 * this ruleset's last table (this browser remembers it); the full rules (shared/rules.js) one
 * click beside it. */
function HowToPlay({ ruleset, title, module }) {
  const key = `impresario:how-to-open:${ruleset}`;
  const [open] = useState(() => { try { return localStorage.getItem(key) === "1"; } catch { return false; } });
  const toggled = (e) => { try { localStorage.setItem(key, e.currentTarget.open ? "1" : "0"); } catch { /* private mode */ } };
  return html`<div class="how-to-wrap">
    <details class="card how-to" open=${open} onToggle=${toggled}>
      <summary>${t("game.how_to", { game: title })}</summary>
      <${module.HowTo} />
    </details>
    <button type="button" class="link rules-open" data-testid="rules-open"
      onClick=${() => openRules(ruleset)}>${t("rules.full", { game: title })}</button>
  </div>`;
}

function FeedStatus({ feed, status }) {
  if (status === "finished") return html`<span class="feed feed-closed">${t("feed.over")}</span>`;
  const text = ["live", "reconnecting", "polling", "connecting", "closed"].includes(feed) ? t(`feed.${feed}`) : feed;
  return html`<span class=${`feed feed-${feed}`} role="status">${text}</span>`;
}

function TurnBar({ view, me, module, refresh }) {
  if (view.status !== "playing") return null;
  const mine = me !== null ? pendingOf(view, me) : null;
  const others = (view.pending || []).filter((p) => p.seat !== me).map((p) => p.seat);
  const deadline = mine ? mine.deadline : nextDeadline(view);
  const text = mine
    ? (module && module.yourTurn ? module.yourTurn(view, mine) : t("game.your_move_kinds", { kinds: mine.kinds.map(titleCase).join(t("format.or")) }))
    : others.length ? t("game.waiting_for", { names: listNames(view, others) }) : t("game.engine_playing");
  return html`<div class=${`turnbar${mine ? " mine" : ""}`} data-testid="turnbar">
    <span class="turn-say"><span class="turn-text">${text}</span>
      ${module && html`<${WhyLink} ruleset=${view.ruleset} kinds=${mine ? mine.kinds : []} phase=${view.phase} />`}</span>
    ${typeof deadline === "number" && html`<${Countdown} deadline=${deadline} label=${mine ? t("game.your_time") : t("ui.time_left")} onExpire=${refresh} />`}
    ${view.banks && html`<${Banks} view=${view} />`}
  </div>`;
}

/** A turn-based game's time banks: each player's, the pending ones' drawn down as time goes. */
function Banks({ view }) {
  const [now, setNow] = useState(serverNow());
  useEffect(() => {
    const timer = setInterval(() => setNow(serverNow()), 30000);
    return () => clearInterval(timer);
  }, [view]);
  return html`<span class="banks small" data-testid="banks">${t("game.banks")}:
    ${view.banks.map((_, seat) => html` <span class="bank">${t("game.bank_of", { name: nameOf(view, seat), time: durationText(bankLeft(view, seat, now)) })}</span>`)}</span>`;
}

/** Each player's place in a finished game, as its rules rank them (GET /places), or null. */
export function usePlaces(id, token, spectator) {
  const [places, setPlaces] = useState(null);
  useEffect(() => {
    let live = true;
    call("GET", `/v1/games/${encodeURIComponent(id)}/places`, { token, spectator })
      .then((r) => { if (live) setPlaces(r.data.places); }).catch(() => { /* the score stands without them */ });
    return () => { live = false; };
  }, [id, token, spectator]);
  return places;
}

function Finished({ view, id, module, seatToken, spectator, readToken }) {
  const places = usePlaces(id, readToken, spectator);
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const [supported, setSupported] = useState(true);
  const joined = view.rematch && seatOf(view.rematch).token;
  const rematch = async () => {
    setBusy(true); setError(null);
    try {
      // every player asks with their own token: the first request creates the rematch, each
      // one gets that player's seat in it (asking again gives the same seat and token)
      const r = await call("POST", `/v1/games/${encodeURIComponent(id)}/rematch`, { token: seatToken });
      const saved = seatOf(id);
      // the rematch's host (the table's host who sat at it, or the first player back) gets
      // its host token too: bots and seats, as at the first table
      remember(r.data.rematch, { token: r.data.token, seat: r.data.seat, name: saved.name, ruleset: view.ruleset,
        join: saved.join || undefined, host: r.data.host_token || undefined });
      location.hash = route("game", r.data.rematch);
    } catch (err) {
      if (err instanceof Problem && [404, 405].includes(err.status) && err.code !== "game_not_found") {
        setSupported(false);
        setError(t("final.no_rematch"));
      } else setError(explain(err));
    } finally { setBusy(false); }
  };
  return html`<section class="card finished" aria-labelledby="final-title">
    <h2 id="final-title">${t("final.title")}</h2>
    ${module && html`<${module.Score} view=${view} score=${view.score} places=${places} />`}
    <${Alert} message=${error} />
    ${seatToken && supported && html`<p class="small" data-testid="rematch-text">${view.rematch
      ? t("final.rematch_asked") : t("final.rematch_offer")}</p>`}
    <div class="actions">
      ${joined ? html`<a class="button primary" href=${route("game", view.rematch)}>${t("final.go_rematch")}</a>`
        : seatToken && supported && html`<button type="button" class="primary" onClick=${rematch} disabled=${busy}>
        ${view.rematch ? t("final.join_rematch") : t("final.rematch")}</button>`}
      ${!seatToken && view.rematch && html`<a class="button" href=${route("game", view.rematch)}>${t("final.watch_rematch")}</a>`}
      <a class="button" href=${route("replay", id, { spectator })}>${t("final.replay")}</a>
      <a class="button" href="#/">${t("nav.back_lobby")}</a>
    </div>
  </section>`;
}

//: what happens at a table while it waits for players; the rules' own events (the deal is made
//: when the table is created: "Round 1 begins") are told once the game has started
const SEATING = new Set(["seat_taken", "seat_left", "seat_held", "rematch_of", "game_started", "game_abandoned"]);

function beforeStart(e, view) {
  return Boolean(view) && view.status === "open" && !SEATING.has(e.type);
}

function EventLog({ events, view, module }) {
  const lines = [];
  for (const e of events) {
    if (beforeStart(e, view)) continue;
    const text = describeEvent(module, e, view, false);
    if (text) lines.push({ seq: e.seq, text });
  }
  if (!lines.length) return null;
  return html`<details class="card log">
    <summary>${t("game.log", { n: lines.length })}</summary>
    <ol reversed>${lines.slice(-60).reverse().map((l) => html`<li key=${l.seq}>${l.text}</li>`)}</ol>
  </details>`;
}
