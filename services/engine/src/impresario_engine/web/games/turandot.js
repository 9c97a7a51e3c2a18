// Turandot's table: the slots and their cards, the sealed-bid composer, the reveal from the
// event feed, the maestro's decisions as dialogs, the players' companies and the final score.
import { html, useEffect, useState } from "../lib.js";
import { faceDown, listNames, nameOf, plural, titleCase } from "../shared/format.js";
import { phaseName, t } from "../shared/i18n.js";
import { Dialog } from "../shared/ui.js";

export const CATEGORIES = {
  professional: "Professional", amateur: "Amateur", alternative: "Alternative",
  classic: "Classic", comic: "Comic", dark: "Dark",
};
export const SEXES = { male: ["♂", "Male"], female: ["♀", "Female"], undefined: ["⚥", "Undefined"] };
export const ROLES = [
  { key: "turandot", name: "Turandot", sex: "female" }, { key: "calaf", name: "Calaf", sex: "male" },
  { key: "liu", name: "Liù", sex: "female" }, { key: "ping", name: "Ping", sex: "male" },
  { key: "pong", name: "Pong", sex: "male" }, { key: "pang", name: "Pang", sex: "male" },
];
const ROLE_NAME = Object.fromEntries(ROLES.map((r) => [r.key, r.name]));
const PHASES = { bidding: "sealed bids", office: "office hires", nominate: "nomination", fire: "firing a director", casting: "casting", finished: "game over" };
const HELPERS = { costume_designer: "Costume designer", carpenter: "Carpenter" };
export const LINES = [
  ["stars", "Stars"], ["stage_elements", "Stage elements"], ["favourite_roles", "Favourite roles"],
  ["wrong_sex", "Role of the other sex"], ["director", "Director"], ["puccini", "Puccini (2 players)"],
];

export function directorName(id) {
  return titleCase(String(id || "").replace(/_over_/g, " over ").replace(/_/g, " "));
}

/** Every card the view shows, by id (to name the cards events mention). */
function cardsOf(view) {
  const out = {};
  for (const place of view.table || []) if (place.card) out[place.card.id] = place.card;
  for (const p of view.players || []) for (const s of p.singers || []) out[s.id] = s;
  if (view.dummy) for (const s of view.dummy.singers || []) out[s.id] = s;
  return out;
}

function cardLabel(view, id) {
  const card = cardsOf(view)[id];
  if (!card) return directorName(id);
  if (card.kind === "director") return `director ${directorName(card.id)}`;
  return `${CATEGORIES[card.category] || card.category} ${SEXES[card.sex] ? SEXES[card.sex][1].toLowerCase() : ""} singer ${card.id} (${plural(card.stars, "star")})`;
}

export function Stars({ n }) {
  return html`<span class="stars" aria-label=${plural(n, "star")}>${"★".repeat(n)}${"☆".repeat(Math.max(0, 3 - n))}<span class="sr-only"> ${plural(n, "star")}</span></span>`;
}

/** A singer's or director's face: category, sex, stars and favourite role as symbols with text. */
export function CardFace({ card, compact = false, highlight = false, role = null, recent = false }) {
  if (!card) return html`<div class="tcard empty">—</div>`;
  if (card.kind === "director") {
    return html`<div class=${`tcard director${recent ? " recent" : ""}`} data-card=${card.id}>
      <div class="tcard-top"><span class="cat-badge cat-director">Director</span></div>
      <div class="tcard-name">${directorName(card.id)}</div>
      ${!compact && html`<div class="tcard-effect">${card.effect}</div>`}
    </div>`;
  }
  const [symbol, sexText] = SEXES[card.sex] || ["?", card.sex];
  return html`<div class=${`tcard singer cat-${card.category}${highlight ? " highlight" : ""}${recent ? " recent" : ""}`} data-card=${card.id}>
    ${recent && html`<span class="sr-only">Just hired. </span>`}
    ${role && html`<div class="tcard-role">${ROLE_NAME[role] || role}</div>`}
    <div class="tcard-top">
      <span class="cat-badge">${CATEGORIES[card.category] || card.category}</span>
      <span class="tcard-id">${card.id}</span>
    </div>
    <div class="tcard-mid">
      <span class="sex" title=${sexText}><span aria-hidden="true">${symbol}</span> ${sexText}</span>
      <${Stars} n=${card.stars} />
    </div>
    <div class="tcard-fav">${card.favourite_role
      ? html`<span aria-hidden="true">♥</span> Loves ${ROLE_NAME[card.favourite_role] || card.favourite_role}`
      : html`<span class="muted">No favourite role</span>`}</div>
  </div>`;
}

function CardBacks({ n }) {
  if (!n) return null;
  return html`<span class="backs" role="img" aria-label=${`${plural(n, "card")} face down`}>
    ${Array.from({ length: n }, () => html`<span class="back" aria-hidden="true"></span>`)}
    <span class="backs-count" aria-hidden="true">${n}</span></span>`;
}

function BidComposer({ view, space, act, busy }) {
  const [slot, setSlot] = useState(null);
  const [money, setMoney] = useState(0);
  const [bluff, setBluff] = useState(false);
  const [error, setError] = useState(null);
  const bid = { slot, money, bluff };
  const count = faceDown(bid);
  const moneyChoices = Array.from({ length: space.max_money + 1 }, (_, i) => i);
  const submit = async (e) => {
    e.preventDefault();
    setError(await act({ type: "bid", slot, money, bluff, round: view.round }, { inline: true }));
  };
  return html`<form class="card composer" onSubmit=${submit} aria-labelledby="composer-title">
    <h2 id="composer-title">Your sealed bid</h2>
    <fieldset>
      <legend>Number card (the slot you want)</legend>
      <div class="choice-row">
        ${space.slots.map((s) => html`<label class=${`chip${slot === s ? " on" : ""}`}>
          <input type="radio" name="bid-slot" value=${s} checked=${slot === s} onChange=${() => setSlot(s)} /> ${s}</label>`)}
        ${space.helper && html`<label class=${`chip${slot === null ? " on" : ""}`}>
          <input type="radio" name="bid-slot" value="" checked=${slot === null} onChange=${() => setSlot(null)} /> None: a helper</label>`}
      </div>
    </fieldset>
    <fieldset>
      <legend>Money cards (you hold ${space.max_money})</legend>
      <div class="choice-row">${moneyChoices.map((m) => html`<label class=${`chip${money === m ? " on" : ""}`}>
        <input type="radio" name="bid-money" value=${m} checked=${money === m} onChange=${() => setMoney(m)} /> ${m}</label>`)}</div>
    </fieldset>
    ${space.bluff && html`<div class="field check"><input id="bid-bluff" type="checkbox" checked=${bluff}
      onChange=${(e) => setBluff(e.target.checked)} /><label for="bid-bluff">Add the bluff card (it never counts)</label></div>`}
    <p class="preview" data-testid="face-down-preview">The others will see <strong>${plural(count, "card")} face down</strong> <${CardBacks} n=${count} /></p>
    ${slot === null && space.helper && html`<p class="hint">With no number card you bid for a helper with exactly one money card.</p>`}
    ${count === 0 && html`<p class="hint">Choose the slot you want${space.helper ? " (or, for a helper, one money card)" : ""}; money makes the bid stronger.</p>`}
    <div class="field-error" role="alert">${error}</div>
    <button type="submit" class="primary" disabled=${busy || count === 0}>Seal my bid</button>
  </form>`;
}

function Reveal({ view, events }) {
  // the last reveal as the event feed told it (the view keeps it too, for a reload)
  let bids = view.reveal;
  let round = view.reveal_round;
  let after = [];
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i];
    if (e.type === "bids_revealed") {
      bids = e.bids; round = e.round;
      after = events.slice(i + 1).filter((x) => x.round === e.round && ["hired", "helper_hired", "helper_missed", "slot_tied", "card_discarded", "dummy_received"].includes(x.type));
      break;
    }
  }
  if (!bids) return null;
  return html`<section class="card reveal" aria-labelledby="reveal-title" data-round=${round}>
    <h2 id="reveal-title">Bids revealed in round ${round}</h2>
    <table class="grid-table"><thead><tr><th scope="col">Player</th><th scope="col">Slot</th><th scope="col">Money</th><th scope="col">Bluff</th></tr></thead>
      <tbody>${bids.map((b) => html`<tr><th scope="row">${nameOf(view, b.seat)}</th><td>${b.slot || "helper"}</td><td>${b.money}</td><td>${b.bluff ? "yes" : "no"}</td></tr>`)}</tbody></table>
    ${after.length > 0 && html`<ul class="outcomes">${after.map((e) => html`<li>${describeEvent(e, view)}</li>`)}</ul>`}
  </section>`;
}

function Company({ view, player, me, recent = [] }) {
  const hired = new Set(recent.filter((e) => e.type === "hired" && e.seat === player.seat).map((e) => e.card));
  const bidding = view.phase === "bidding";
  return html`<li class=${`company${player.seat === me ? " me" : ""}`} data-seat=${player.seat}>
    <div class="company-head">
      <strong>${player.name || `Seat ${player.seat + 1}`}</strong>
      ${player.seat === view.maestro && html`<span class="badge badge-maestro">Maestro · Puccini</span>`}
      ${player.bot && html`<span class="badge">bot</span>`}
      <span class="money">Money: ${player.money}</span>
      ${player.stage_elements > 0 && html`<span class="badge">${plural(player.stage_elements, "stage element")}</span>`}
      ${bidding && (player.has_bid ? html`<span class="bid-state">bid sealed: <${CardBacks} n=${player.face_down} /></span>`
        : html`<span class="bid-state muted">thinking…</span>`)}
    </div>
    <div class="company-cards">
      ${player.director && html`<${CardFace} card=${player.director} compact=${true} recent=${hired.has(player.director.id)} />`}
      ${(player.singers || []).map((s) => html`<${CardFace} card=${s} compact=${true} recent=${hired.has(s.id)} />`)}
      ${!player.director && !(player.singers || []).length && html`<span class="muted">No cards yet</span>`}
    </div>
  </li>`;
}

function OfficeDialog({ view, space, act, busy, open, setOpen }) {
  const [choice, setChoice] = useState({});
  const used = new Set(Object.values(choice));
  const ready = space.seats.every((s) => choice[s]);
  const submit = async (e) => {
    e.preventDefault();
    const assignments = space.seats.map((s) => ({ seat: s, slot: Number(choice[s]) }));
    await act({ type: "assign_office", assignments });
  };
  return html`<${Dialog} id="office-dialog" open=${open} onClose=${() => setOpen(false)} title="Office hires: give each waiting player a card">
    <form onSubmit=${submit}>
      <p>As the maestro you hand the cards left on the table to ${listNames(view, space.seats)}.</p>
      ${space.seats.map((s) => html`<div class="field">
        <label for=${`office-${s}`}>${nameOf(view, s)} gets</label>
        <select id=${`office-${s}`} value=${choice[s] || ""} onChange=${(e) => setChoice({ ...choice, [s]: e.target.value })}>
          <option value="">Choose a slot…</option>
          ${space.slots.map((slot) => {
            const card = (view.table.find((p) => p.slot === slot) || {}).card;
            return html`<option value=${slot} disabled=${used.has(String(slot)) && choice[s] !== String(slot)}>
              Slot ${slot}: ${card ? (card.kind === "director" ? directorName(card.id) : `${card.id} ${CATEGORIES[card.category]} ${SEXES[card.sex][1]} ${plural(card.stars, "star")}`) : ""}</option>`;
          })}
        </select></div>`)}
      <button type="submit" class="primary" disabled=${busy || !ready}>Hand out the cards</button>
    </form>
  <//>`;
}

function NominateDialog({ view, space, act, busy, open, setOpen }) {
  return html`<${Dialog} id="nominate-dialog" open=${open} onClose=${() => setOpen(false)} title="Name the player who fires a director">
    <p>The player you name removes one director from the pile.</p>
    <div class="button-list">${space.seats.map((s) => html`<button type="button" disabled=${busy}
      onClick=${() => act({ type: "nominate", seat: s })}>${nameOf(view, s)}</button>`)}</div>
  <//>`;
}

function FireDialog({ view, space, act, busy, open, setOpen }) {
  const pile = Object.fromEntries((view.directors || []).map((d) => [d.id, d]));
  return html`<${Dialog} id="fire-dialog" open=${open} onClose=${() => setOpen(false)} title="Fire a director">
    <p>The director you fire leaves the game.</p>
    <div class="button-list">${space.directors.map((d) => html`<button type="button" disabled=${busy}
      onClick=${() => act({ type: "fire_director", director: d })}>
      <strong>${directorName(d)}</strong><br /><span class="small">${pile[d] ? pile[d].effect : ""}</span></button>`)}</div>
  <//>`;
}

function CastDialog({ view, space, act, busy, open, setOpen, me }) {
  const singers = Object.fromEntries(((view.players.find((p) => p.seat === me) || {}).singers || []).map((s) => [s.id, s]));
  const [roles, setRoles] = useState(space.optimal.slice());
  const valid = new Set(roles).size === 6 && roles.every(Boolean);
  const cast = (value) => act({ type: "cast", roles: value });
  return html`<${Dialog} id="cast-dialog" open=${open} onClose=${() => setOpen(false)} title="Cast your opera">
    <p>Give each role one of your six singers. The best cast scores <strong>${space.optimal_total}</strong> points.</p>
    ${ROLES.map((role, i) => html`<div class="field cast-row">
      <label for=${`cast-${role.key}`}>${role.name} <span class="small">(${SEXES[role.sex][1].toLowerCase()} role)</span></label>
      <select id=${`cast-${role.key}`} value=${roles[i]} onChange=${(e) => { const next = roles.slice(); next[i] = e.target.value; setRoles(next); }}>
        ${space.singers.map((id) => { const s = singers[id]; return html`<option value=${id}>${id}${s ? ` · ${CATEGORIES[s.category]} · ${SEXES[s.sex][1]} · ${plural(s.stars, "star")}${s.favourite_role ? ` · loves ${ROLE_NAME[s.favourite_role]}` : ""}` : ""}</option>`; })}
      </select></div>`)}
    ${!valid && html`<p class="field-error" role="alert">Each singer can take only one role.</p>`}
    <div class="actions">
      <button type="button" class="primary" disabled=${busy} onClick=${() => cast(null)}>Use the best cast (${space.optimal_total} points)</button>
      <button type="button" disabled=${busy || !valid} onClick=${() => cast(roles)}>Cast as chosen</button>
    </div>
  <//>`;
}

const DIALOGS = { assign_office: OfficeDialog, nominate: NominateDialog, fire_director: FireDialog, cast: CastDialog };
const DIALOG_LABELS = { assign_office: "Hand out the office hires", nominate: "Name who fires a director", fire_director: "Fire a director", cast: "Cast your opera" };

function Decisions({ view, actions, act, busy, me }) {
  const space = actions && actions.moves.find((m) => DIALOGS[m.type]);
  const key = space ? `${space.type}:${view.round}:${actions.version}` : null;
  const [open, setOpen] = useState(false);
  // each new decision opens its dialog; a decision made takes its dialog away with it
  useEffect(() => { setOpen(Boolean(space)); }, [key]);
  if (!space) return null;
  const Dlg = DIALOGS[space.type];
  return html`<div class="card decision">
    <p><strong>${DIALOG_LABELS[space.type]}.</strong></p>
    <button type="button" class="primary" onClick=${() => setOpen(true)}>${DIALOG_LABELS[space.type]}…</button>
    <${Dlg} key=${key} view=${view} space=${space} act=${act} busy=${busy} open=${open} setOpen=${setOpen} me=${me} />
  </div>`;
}

export function Table({ view, actions, act, busy, me, events, recent = [] }) {
  const bidSpace = actions && actions.moves.find((m) => m.type === "bid");
  const you = view.you;
  const dealing = view.phase !== "casting" && view.phase !== "finished";
  return html`<div class="td two-col"><div class="main-col">
    ${dealing && html`<section class="card stage" aria-labelledby="stage-title">
      <h2 id="stage-title">${view.round === 4 ? "Directors" : "Singers"} on offer</h2>
      <ol class="slots">${view.table.map((place) => html`<li class="slot" data-slot=${place.slot}>
        <span class="slot-no">Slot ${place.slot}</span>
        ${place.card ? html`<${CardFace} card=${place.card} />` : html`<div class="tcard empty">taken</div>`}</li>`)}</ol>
      <p class="small">${plural(view.deck_left, "singer")} left in the deck.
        ${view.round !== 4 && view.helpers && view.helpers.length ? ` Helpers still to hire: ${view.helpers.map((h) => HELPERS[h] || h).join(", ")}.` : ""}</p>
    </section>`}
    ${bidSpace && html`<${BidComposer} key=${`bid-${view.round}`} view=${view} space=${bidSpace} act=${act} busy=${busy} />`}
    ${you && you.bid && view.phase === "bidding" && html`<p class="card sealed" data-testid="my-sealed-bid">Your sealed bid:
      ${you.bid.slot ? ` slot ${you.bid.slot}` : " a helper"}, ${plural(you.bid.money, "money card")}${you.bid.bluff ? ", the bluff card" : ""}.
      The others see ${plural(faceDown(you.bid), "card")} face down.</p>`}
    <${Decisions} view=${view} actions=${actions} act=${act} busy=${busy} me=${me} />
    <${Reveal} view=${view} events=${events} />
    </div><div class="side-col">
    <section class="card" aria-labelledby="companies-title">
      <h2 id="companies-title">Companies</h2>
      <ul class="companies">${view.players.map((p) => html`<${Company} view=${view} player=${p} me=${me} recent=${recent} />`)}</ul>
      ${view.dummy && html`<div class="dummy"><h3>The dummy (2 players)</h3>
        <div class="company-cards">${view.dummy.director && html`<${CardFace} card=${view.dummy.director} compact=${true} />`}
        ${view.dummy.singers.map((s) => html`<${CardFace} card=${s} compact=${true} />`)}
        ${!view.dummy.singers.length && !view.dummy.director && html`<span class="muted">No cards yet</span>`}</div></div>`}
    </section>
    <section class="card" aria-labelledby="pile-title">
      <h2 id="pile-title">Director pile</h2>
      <ul class="pile">${(view.directors || []).map((d) => html`<li><strong>${directorName(d.id)}</strong>: ${d.effect}</li>`)}</ul>
      ${view.fired.length > 0 && html`<p class="small">Fired: ${view.fired.map((f) => `${directorName(f.director.id)} (by ${nameOf(view, f.seat)})`).join(", ")}.</p>`}
      ${view.removed_directors.length > 0 && html`<p class="small">Removed in round 4: ${view.removed_directors.map((d) => directorName(d.id)).join(", ")}.</p>`}
    </section>
  </div></div>`;
}

/** Why the winners won when others had as many points: the rulings' tie-break (the highest sum
 * of stars alone; still tied, a shared victory), in words, from the score's own lines. */
export function tieBreak(view, score) {
  if (score.dummy_wins || !score.winners.length) return null;
  const top = Math.max(...score.players.map((p) => p.total));
  const tied = score.players.filter((p) => p.total === top);
  if (tied.length < 2) return null;
  const names = listNames(view, tied.map((p) => p.seat));
  const both = tied.length === 2 ? "both" : "all";
  const starsOf = (p) => p.lines.stars;
  if (tied.every((p) => score.winners.includes(p.seat))) {
    return `${names} ${both} have ${top} points and as many stars (${starsOf(tied[0])}): a shared victory.`;
  }
  const winners = tied.filter((p) => score.winners.includes(p.seat));
  const others = tied.filter((p) => !score.winners.includes(p.seat));
  const who = listNames(view, winners.map((p) => p.seat));
  const stars = [...new Set([starsOf(winners[0]), ...others.map(starsOf)])].join(" against ");
  return `${names} ${both} have ${top} points: the tie is broken by stars alone, and ${who} ${winners.length > 1 ? "have" : "has"} more (${stars}).`;
}

export function Score({ view, score }) {
  if (!score) return null;
  const cards = cardsOf(view);
  const rows = score.players.map((p) => ({ ...p, name: nameOf(view, p.seat), winner: score.winners.includes(p.seat) }));
  if (score.dummy) rows.push({ ...score.dummy, name: "The dummy", winner: score.dummy_wins, seat: "dummy" });
  const why = tieBreak(view, score);
  return html`<div class="score">
    <p class="winners" data-testid="winners">${score.dummy_wins ? "The dummy wins." : `Winner${score.winners.length > 1 ? "s" : ""}: ${listNames(view, score.winners)}.`}</p>
    ${why && html`<p data-testid="tie-break">${why}</p>`}
    <div class="table-wrap"><table class="grid-table score-table">
      <thead><tr><th scope="col">Line</th>${rows.map((r) => html`<th scope="col" class=${r.winner ? "win" : ""}>${r.name}</th>`)}</tr></thead>
      <tbody>${LINES.filter(([key]) => key !== "puccini" || view.players.length === 2).map(([key, label]) => html`<tr><th scope="row">${label}</th>${rows.map((r) => html`<td>${r.lines[key]}</td>`)}</tr>`)}
        <tr class="total"><th scope="row">Total</th>${rows.map((r) => html`<td class=${r.winner ? "win" : ""}>${r.total}</td>`)}</tr></tbody>
    </table></div>
    <h3>Casts</h3>
    ${rows.map((r) => html`<div class=${`cast${r.winner ? " best-cast" : ""}`} data-seat=${r.seat}>
      <h4>${r.name}${r.winner ? html` <span class="badge badge-turn">winner · ${r.total} points</span>` : ` · ${r.total} points`}</h4>
      <div class="company-cards">${(r.cast || []).map((id, i) => html`<${CardFace} card=${cards[id] || { id, kind: "singer", category: "", sex: "", stars: 0 }} compact=${true} role=${ROLES[i] && ROLES[i].key} highlight=${r.winner} />`)}</div>
    </div>`)}
  </div>`;
}

export function status(view) {
  if (view.status === "open") return t("status.open");
  if (view.status === "finished") return t("status.over");
  return `${t("status.round_of", { n: view.round, total: 7 })} · ${phaseName("turandot", view.phase, PHASES)}`;
}

export function yourTurn(view, mine) {
  const kind = mine.kinds[0];
  const known = ["bid", "assign_office", "nominate", "fire_director", "cast"];
  return known.includes(kind) ? t(`turn.turandot.${kind}`) : t("game.your_move_kinds", { kinds: titleCase(kind) });
}

export function describeEvent(e, view, live = false) {
  const who = (s) => nameOf(view, s);
  switch (e.type) {
    case "round_started": return `Round ${e.round} begins; ${who(e.maestro)} is the maestro.`;
    case "game_started": return "The game begins.";
    case "bid_committed": return live ? null : `${who(e.seat)} sealed a bid: ${plural(e.face_down, "card")} face down.`;
    case "bids_revealed": return `Round ${e.round}: the bids are revealed.`;
    case "hired": return `${who(e.seat)} hired ${cardLabel(view, e.card)}${e.by === "office" ? " from the maestro" : ` for ${plural(e.money_spent, "money card")}`}.`;
    case "helper_hired": return `${who(e.seat)} hired the ${(HELPERS[e.helper] || e.helper).toLowerCase()} (a stage element).`;
    case "helper_missed": return `${who(e.seat)} bid for a helper, but none was left.`;
    case "slot_tied": return `Slot ${e.slot}: a tie between ${listNames(view, e.seats)}; nobody takes it.`;
    case "office_pending": return `The maestro hands out cards to ${listNames(view, e.seats)}.`;
    case "card_discarded": return live ? null : `The last card is discarded.`;
    case "dummy_received": return `The dummy receives ${cardLabel(view, e.card)}.`;
    case "nominated": return `${who(e.seat)} is named to fire a director${e.forced ? " (forced with 2 players)" : ""}.`;
    case "director_fired": return `${who(e.seat)} fired ${directorName(e.director)}.`;
    case "directors_removed": return live ? null : `Round 4: removed ${e.directors.map(directorName).join(", ")}.`;
    case "round_ended": return live ? null : `Round ${e.round} is over.`;
    case "casting_started": return "Casting: everyone casts their opera.";
    case "cast": return `${who(e.seat)} cast their opera.`;
    case "game_finished": return "The game is over.";
    case "deadline_passed": return `${who(e.seat)}'s time ran out: the engine played the default.`;
    default: return live ? null : titleCase(e.type);
  }
}

/** The rules in a minute, for a player who never read them. */
export function HowTo() {
  return html`<ul>
    <li>Seven rounds. Each round, singers (in round 4: directors) lie in numbered slots.</li>
    <li>Everyone seals a bid at the same time: the number of the slot you want and money cards. The most money on a slot
      takes it; a tie, and nobody does. The bluff card only makes your bid look bigger.</li>
    <li>A bid of one money card and no number hires a helper: a stage element, worth a point (not for the maestro, nor in round 4).</li>
    <li>Whoever won nothing gets one of the cards left, handed out by the maestro (who holds Puccini). In rounds 1–3 a
      player the maestro names then fires a director from the pile.</li>
    <li>After round 7 you cast your six singers in the opera's roles. You score their stars, +1 for each singer in their
      favourite role, −1 for each in a role of the other sex, your stage elements and your director's bonus. The
      highest total wins.</li>
  </ul>`;
}

export default { Table, Score, status, yourTurn, describeEvent, HowTo };
