// The table before and beside play: the seats of an open game (taking one, adding a bot,
// freeing one, the links to share), and leaving a game in play.
import { html, useEffect, useState } from "../lib.js";
import { call, explain } from "./api.js";
import { joinLink, route, watchLink } from "./format.js";
import { forgetSeat, playerName, seatOf, setFlash, setPlayerName, storedPlayer } from "./store.js";
import { Alert, botLevel, Countdown, Dialog, Seats, ShareLink } from "./ui.js";
import { botName, botsOf, rulesets, takeSeat as sitDown } from "./lobby.js";
import { t } from "./i18n.js";
import { tokenEnded } from "./players.js";

/** The seats of an open game held for a rematch's players, from its events: seat → {name, until}. */
export function heldSeats(events) {
  const held = new Map();
  for (const e of events) {
    if (e.type === "seat_held") held.set(e.seat, { name: e.name, until: e.until });
    else if (e.type === "seat_taken" || e.type === "seat_left") held.delete(e.seat);
  }
  return held;
}

/** The rulesets' description (GET /v1/rulesets), once per page: its bots, who plays a seat left. */
export function useRuleset(name) {
  const [found, setFound] = useState(null);
  useEffect(() => {
    rulesets().then((list) => setFound(list.find((r) => r.name === name) || { name })).catch(() => setFound({ name }));
  }, [name]);
  return found;
}

/** An open table: its seats, a seat to take (as the player), bots to add (the host), seats to
 * free, the links to share. ``recover(message)``: this browser's seat or host token ended (the
 * seat was resumed on another device), and the player takes it back here. */
export function Setup({ view, id, seatToken, host, spectator, refresh, events, recover }) {
  const [name, setName] = useState(playerName());
  const [bot, setBot] = useState(null);
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const ruleset = useRuleset(view.ruleset);
  const bots = ruleset ? botsOf(ruleset) : [];
  const chosenBot = bot || bots[0];
  const saved = seatOf(id);
  const joinToken = saved.join || null;
  const held = heldSeats(events);
  const free = view.seats_total - view.seats_taken;
  const mySeat = view.you ? view.you.seat : null;
  // a private table seats its host and the holders of its join link; the spectator link only watches
  const maySit = !view.private || host || joinToken;
  const run = async (fn) => {
    setBusy(true); setError(null);
    try {
      await fn();
      await refresh();
    } catch (err) {
      if (tokenEnded(err) && recover && storedPlayer()) { await recover(t("resume.here")); return; }
      setError(explain(err));
    } finally { setBusy(false); }
  };
  const takeSeat = (e) => {
    e.preventDefault();
    if (!name.trim()) { setError(t("lobby.name_first")); return; }
    run(async () => {
      await sitDown(id, { name: name.trim(), host, join: joinToken });
      setPlayerName(name.trim());
      location.reload();
    });
  };
  const addBot = () => run(async () => {
    const taken = (view.players || []).map((p) => p.name).filter(Boolean);
    await call("POST", `/v1/games/${encodeURIComponent(id)}/seats`, {
      token: host, body: { name: botName(taken, `Bot ${view.seats_taken + 1}`), bot: chosenBot } });
  });
  const free_ = (seat) => run(async () => {
    // before the start a seat's own token frees it, and the host's frees any seat
    const own = seat === mySeat;
    await call("DELETE", `/v1/games/${encodeURIComponent(id)}/seats/${seat}`, { token: own ? seatToken : host });
    if (own) {
      forgetSeat(id);
      setFlash(t("setup.left"));
      location.hash = route("lobby");
    }
  });
  const origin = location.origin;
  const seatLabel = (p) => {
    const h = held.get(p.seat);
    return h && html`<span class="badge badge-held">${t("setup.held_for", { name: h.name })} <${Countdown} deadline=${h.until} label=${t("setup.hold_ends")} /></span>`;
  };
  // the host frees any seat, one held for a rematch's player who does not come back included
  const canFree = (p) => p.name && (p.seat === mySeat ? seatToken : host);
  return html`<section class="card setup" aria-labelledby="setup-title">
    <h2 id="setup-title">${t("setup.waiting", { taken: view.seats_taken, total: view.seats_total })}</h2>
    <p>${t("setup.starts_itself")}${held.size ? ` ${t("setup.held_note")}` : ""}</p>
    <${Seats} view=${view} me=${mySeat} extra=${seatLabel}
      action=${(p) => canFree(p) && html`<button type="button" class="link" disabled=${busy} onClick=${() => free_(p.seat)}
        aria-label=${p.seat === mySeat ? t("setup.leave_table") : t("setup.free_seat", { n: p.seat + 1, who: held.has(p.seat) ? t("setup.held_for", { name: p.name }) : p.name })}>${p.seat === mySeat ? t("setup.leave") : t("setup.remove")}</button>`} />
    <${Alert} message=${error} />
    ${!seatToken && free > 0 && (maySit ? html`<form onSubmit=${takeSeat} class="inline-form">
      <div class="field"><label for="seat-name">${t("setup.your_name")}</label>
        <input id="seat-name" type="text" maxlength="40" value=${name} onInput=${(e) => setName(e.target.value)} autocomplete="nickname" /></div>
      <button type="submit" class="primary" disabled=${busy}>${t("join.take_seat")}</button></form>`
      : html`<p>${t("setup.spectator_only")}</p>`)}
    ${host && free > 0 && html`<div class="inline-form">
      <div class="field"><label for="bot-kind">${t("lobby.which_bot")}</label>
        <select id="bot-kind" value=${chosenBot} onChange=${(e) => setBot(e.target.value)}>${bots.map((b) => html`<option value=${b}>${botLevel(b)}</option>`)}</select></div>
      <button type="button" onClick=${addBot} disabled=${busy || !chosenBot}>${t("setup.add_bot")}</button></div>`}
    ${(!view.private || joinToken) && html`<${ShareLink} id="join-link" label=${view.private ? t("setup.join_link_keep") : t("setup.join_link")}
      url=${joinLink(origin, id, view.private ? joinToken : null)} />`}
    ${view.private && !joinToken && html`<p class="small">${t("setup.private_no_link")}</p>`}
    ${(!view.private || spectator) && html`<${ShareLink} id="watch-link" label=${view.private ? t("setup.watch_link_only") : t("setup.watch_link")}
      url=${watchLink(origin, id, view.private ? spectator : null)} />`}
    ${seatToken && html`<button type="button" class="danger" onClick=${() => free_(mySeat)} disabled=${busy}>${t("setup.leave_table")}</button>`}
  </section>`;
}

/** Leaving a game in play: the seat stays, played by the ruleset's bot or its defaults. */
export function LeaveGame({ view, id, me, seatToken, leave: stopping }) {
  const [open, setOpen] = useState(false);
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const ruleset = useRuleset(view.ruleset);
  const by = ruleset && ruleset.leave_bot;
  const who = by === "defaults" || !by ? t("leave.defaults") : t("leave.bot", { bot: botLevel(by) });
  const leave = async () => {
    setBusy(true); setError(null);
    try {
      await stopping(() => call("DELETE", `/v1/games/${encodeURIComponent(id)}/seats/${me}`, { token: seatToken }));
      forgetSeat(id);
      setFlash(t("leave.done", { who }));
      if (view.private) location.hash = route("lobby");
      else location.reload();
    } catch (err) { setError(explain(err)); setBusy(false); }
  };
  return html`<div class="leave-game">
    <button type="button" class="danger" onClick=${() => setOpen(true)}>${t("leave.open")}</button>
    <${Dialog} open=${open} title=${t("leave.title")} id="leave-dialog" onClose=${() => setOpen(false)} noRule=${true}>
      <p data-testid="leave-text">${t(view.private ? "leave.text_no_watch" : "leave.text", { who })}</p>
      <${Alert} message=${error} />
      <div class="actions">
        <button type="button" class="danger" onClick=${leave} disabled=${busy}>${t("leave.confirm")}</button>
        <button type="button" onClick=${() => setOpen(false)}>${t("leave.stay")}</button>
      </div>
    <//>
  </div>`;
}
