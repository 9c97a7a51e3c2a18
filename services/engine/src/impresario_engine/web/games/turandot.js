// Turandot's table: the slots and their cards, the sealed-bid composer, the reveal from the
// event feed, the maestro's decisions as dialogs, the players' companies and the final score.
import { html, useEffect, useState } from "../lib.js";
import { faceDown, listNames, nameOf, titleCase } from "../shared/format.js";
import { has, phaseName, t } from "../shared/i18n.js";
import { Dialog } from "../shared/ui.js";
import { openRules } from "../shared/rules.js";

// Words players see are the catalogues' (`turandot.*`, in each edition's own terms); the
// engine's ids (categories, sexes, directors, helpers) pick the key.
export const CATEGORIES = ["professional", "amateur", "alternative", "classic", "comic", "dark"];
const SEX_SYMBOLS = { male: "♂", female: "♀", undefined: "⚥" };
const catName = (c) => (has(`turandot.cat.${c}`) ? t(`turandot.cat.${c}`) : c);
/** [symbol, word] of a sex ("Male"), or null for one the page does not know */
const sexOf = (s) => (SEX_SYMBOLS[s] ? [SEX_SYMBOLS[s], t(`turandot.sex.${s}`)] : null);
const stars = (n) => t("turandot.stars", { n });
export const ROLES = [
  { key: "turandot", name: "Turandot", sex: "female" }, { key: "calaf", name: "Calaf", sex: "male" },
  { key: "liu", name: "Liù", sex: "female" }, { key: "ping", name: "Ping", sex: "male" },
  { key: "pong", name: "Pong", sex: "male" }, { key: "pang", name: "Pang", sex: "male" },
];
const ROLE_NAME = Object.fromEntries(ROLES.map((r) => [r.key, r.name]));
const helperName = (h) => (has(`turandot.helper.${h}`) ? t(`turandot.helper.${h}`) : h);
//: the score's lines, in the score's order; each line's words are `turandot.line.<key>`
export const LINES = ["stars", "stage_elements", "favourite_roles", "wrong_sex", "director", "puccini"];
export const lineName = (key) => t(`turandot.line.${key}`);

export function directorName(id) {
  if (has(`turandot.director.${id}`)) return t(`turandot.director.${id}`);
  return titleCase(String(id || "").replace(/_over_/g, " over ").replace(/_/g, " "));
}

/** A director's effect in the page's language (the engine's words for one it does not know). */
export function directorEffect(card) {
  return card && has(`turandot.effect.${card.id}`) ? t(`turandot.effect.${card.id}`) : (card && card.effect) || "";
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
  if (card.kind === "director") return t("turandot.director_label", { name: directorName(card.id) });
  // the sentence agrees with the singer's sex (the card's, from the rules' card data): each
  // language words a female, a male and an undefined singer its own way ("la cantante")
  const sex = SEX_SYMBOLS[card.sex] ? card.sex : "undefined";
  return t(`turandot.singer_label.${sex}`, { category: catName(card.category), id: card.id, stars: stars(card.stars) });
}

export function Stars({ n }) {
  return html`<span class="stars" aria-label=${stars(n)}>${"★".repeat(n)}${"☆".repeat(Math.max(0, 3 - n))}<span class="sr-only"> ${stars(n)}</span></span>`;
}

/** A singer's or director's face: category, sex, stars and favourite role as symbols with text. */
export function CardFace({ card, compact = false, highlight = false, role = null, recent = false }) {
  if (!card) return html`<div class="tcard empty">—</div>`;
  if (card.kind === "director") {
    return html`<div class=${`tcard director${recent ? " recent" : ""}`} data-card=${card.id}>
      <div class="tcard-top"><span class="cat-badge cat-director">${t("turandot.director")}</span></div>
      <div class="tcard-name">${directorName(card.id)}</div>
      ${!compact && html`<div class="tcard-effect">${directorEffect(card)}</div>`}
    </div>`;
  }
  const [symbol, sexText] = sexOf(card.sex) || ["?", card.sex];
  return html`<div class=${`tcard singer cat-${card.category}${highlight ? " highlight" : ""}${recent ? " recent" : ""}`} data-card=${card.id}>
    ${recent && html`<span class="sr-only">${t("turandot.just_hired")} </span>`}
    ${role && html`<div class="tcard-role">${ROLE_NAME[role] || role}</div>`}
    <div class="tcard-top">
      <span class="cat-badge">${catName(card.category)}</span>
      <span class="tcard-id">${card.id}</span>
    </div>
    <div class="tcard-mid">
      <span class="sex" title=${sexText}><span aria-hidden="true">${symbol}</span> ${sexText}</span>
      <${Stars} n=${card.stars} />
    </div>
    <div class="tcard-fav">${card.favourite_role
      ? html`<span aria-hidden="true">♥</span> ${t("turandot.loves", { role: ROLE_NAME[card.favourite_role] || card.favourite_role })}`
      : html`<span class="muted">${t("turandot.no_favourite")}</span>`}</div>
  </div>`;
}

function CardBacks({ n }) {
  if (!n) return null;
  return html`<span class="backs" role="img" aria-label=${t("turandot.face_down", { n })}>
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
    <h2 id="composer-title">${t("turandot.your_sealed_bid")}</h2>
    <fieldset>
      <legend>${t("turandot.number_card")}</legend>
      <div class="choice-row">
        ${space.slots.map((s) => html`<label class=${`chip${slot === s ? " on" : ""}`}>
          <input type="radio" name="bid-slot" value=${s} checked=${slot === s} onChange=${() => setSlot(s)} /> ${s}</label>`)}
        ${space.helper && html`<label class=${`chip${slot === null ? " on" : ""}`}>
          <input type="radio" name="bid-slot" value="" checked=${slot === null} onChange=${() => setSlot(null)} /> ${t("turandot.none_helper")}</label>`}
      </div>
    </fieldset>
    <fieldset>
      <legend>${t("turandot.money_cards_held", { n: space.max_money })}</legend>
      <div class="choice-row">${moneyChoices.map((m) => html`<label class=${`chip${money === m ? " on" : ""}`}>
        <input type="radio" name="bid-money" value=${m} checked=${money === m} onChange=${() => setMoney(m)} /> ${m}</label>`)}</div>
    </fieldset>
    ${space.bluff && html`<div class="field check"><input id="bid-bluff" type="checkbox" checked=${bluff}
      onChange=${(e) => setBluff(e.target.checked)} /><label for="bid-bluff">${t("turandot.add_bluff")}</label></div>`}
    <p class="preview" data-testid="face-down-preview">${t("turandot.others_will_see")} <strong>${t("turandot.face_down", { n: count })}</strong> <${CardBacks} n=${count} /></p>
    ${slot === null && space.helper && html`<p class="hint">${t("turandot.hint_helper")}</p>`}
    ${count === 0 && html`<p class="hint">${t(space.helper ? "turandot.hint_choose_helper" : "turandot.hint_choose")}</p>`}
    <div class="field-error" role="alert">${error}</div>
    <button type="submit" class="primary" disabled=${busy || count === 0}>${t("turandot.seal")}</button>
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
    <h2 id="reveal-title">${t("turandot.bids_revealed_in", { n: round })}</h2>
    <table class="grid-table"><thead><tr><th scope="col">${t("turandot.col.player")}</th><th scope="col">${t("turandot.col.slot")}</th><th scope="col">${t("turandot.col.money")}</th><th scope="col">${t("turandot.col.bluff")}</th></tr></thead>
      <tbody>${bids.map((b) => html`<tr><th scope="row">${nameOf(view, b.seat)}</th><td>${b.slot || t("turandot.helper_bid")}</td><td>${b.money}</td><td>${b.bluff ? t("turandot.yes") : t("turandot.no")}</td></tr>`)}</tbody></table>
    ${after.length > 0 && html`<ul class="outcomes">${after.map((e) => html`<li>${describeEvent(e, view)}</li>`)}</ul>`}
  </section>`;
}

function Company({ view, player, me, recent = [] }) {
  const hired = new Set(recent.filter((e) => e.type === "hired" && e.seat === player.seat).map((e) => e.card));
  const bidding = view.phase === "bidding";
  return html`<li class=${`company${player.seat === me ? " me" : ""}`} data-seat=${player.seat}>
    <div class="company-head">
      <strong>${player.name || t("format.seat", { n: player.seat + 1 })}</strong>
      ${player.seat === view.maestro && html`<span class="badge badge-maestro">${t("turandot.maestro_badge")}</span>`}
      ${player.bot && html`<span class="badge">${t("turandot.bot")}</span>`}
      <span class="money">${t("turandot.money_of", { n: player.money })}</span>
      ${player.stage_elements > 0 && html`<span class="badge">${t("turandot.stage_elements", { n: player.stage_elements })}</span>`}
      ${bidding && (player.has_bid ? html`<span class="bid-state">${t("turandot.bid_sealed")} <${CardBacks} n=${player.face_down} /></span>`
        : html`<span class="bid-state muted">${t("turandot.thinking")}</span>`)}
    </div>
    <div class="company-cards">
      ${player.director && html`<${CardFace} card=${player.director} compact=${true} recent=${hired.has(player.director.id)} />`}
      ${(player.singers || []).map((s) => html`<${CardFace} card=${s} compact=${true} recent=${hired.has(s.id)} />`)}
      ${!player.director && !(player.singers || []).length && html`<span class="muted">${t("turandot.no_cards")}</span>`}
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
  return html`<${Dialog} id="office-dialog" open=${open} onClose=${() => setOpen(false)} title=${t("turandot.office_title")}>
    <form onSubmit=${submit}>
      <p>${t("turandot.office_lead", { names: listNames(view, space.seats) })}</p>
      ${space.seats.map((s) => html`<div class="field">
        <label for=${`office-${s}`}>${t("turandot.gets", { name: nameOf(view, s) })}</label>
        <select id=${`office-${s}`} value=${choice[s] || ""} onChange=${(e) => setChoice({ ...choice, [s]: e.target.value })}>
          <option value="">${t("turandot.choose_slot")}</option>
          ${space.slots.map((slot) => {
            const card = (view.table.find((p) => p.slot === slot) || {}).card;
            return html`<option value=${slot} disabled=${used.has(String(slot)) && choice[s] !== String(slot)}>
              ${t("turandot.slot", { n: slot })}: ${card ? (card.kind === "director" ? directorName(card.id) : `${card.id} ${catName(card.category)} ${(sexOf(card.sex) || [])[1] || card.sex} ${stars(card.stars)}`) : ""}</option>`;
          })}
        </select></div>`)}
      <button type="submit" class="primary" disabled=${busy || !ready}>${t("turandot.hand_out")}</button>
    </form>
  <//>`;
}

function NominateDialog({ view, space, act, busy, open, setOpen }) {
  return html`<${Dialog} id="nominate-dialog" open=${open} onClose=${() => setOpen(false)} title=${t("turandot.nominate_title")}>
    <p>${t("turandot.nominate_lead")}</p>
    <div class="button-list">${space.seats.map((s) => html`<button type="button" disabled=${busy}
      onClick=${() => act({ type: "nominate", seat: s })}>${nameOf(view, s)}</button>`)}</div>
  <//>`;
}

function FireDialog({ view, space, act, busy, open, setOpen }) {
  const pile = Object.fromEntries((view.directors || []).map((d) => [d.id, d]));
  return html`<${Dialog} id="fire-dialog" open=${open} onClose=${() => setOpen(false)} title=${t("turandot.fire_title")}>
    <p>${t("turandot.fire_lead")}</p>
    <div class="button-list">${space.directors.map((d) => html`<button type="button" disabled=${busy}
      onClick=${() => act({ type: "fire_director", director: d })}>
      <strong>${directorName(d)}</strong><br /><span class="small">${pile[d] ? directorEffect(pile[d]) : ""}</span></button>`)}</div>
  <//>`;
}

function CastDialog({ view, space, act, busy, open, setOpen, me }) {
  const singers = Object.fromEntries(((view.players.find((p) => p.seat === me) || {}).singers || []).map((s) => [s.id, s]));
  const [roles, setRoles] = useState(space.optimal.slice());
  const valid = new Set(roles).size === 6 && roles.every(Boolean);
  const cast = (value) => act({ type: "cast", roles: value });
  return html`<${Dialog} id="cast-dialog" open=${open} onClose=${() => setOpen(false)} title=${t("turandot.cast_title")}>
    <p>${t("turandot.cast_lead")} <strong>${t("turandot.best_cast_scores", { n: space.optimal_total })}</strong></p>
    ${ROLES.map((role, i) => html`<div class="field cast-row">
      <label for=${`cast-${role.key}`}>${role.name} <span class="small">(${t(`turandot.role_of.${role.sex}`)})</span></label>
      <select id=${`cast-${role.key}`} value=${roles[i]} onChange=${(e) => { const next = roles.slice(); next[i] = e.target.value; setRoles(next); }}>
        ${space.singers.map((id) => { const s = singers[id]; return html`<option value=${id}>${id}${s ? ` · ${catName(s.category)} · ${(sexOf(s.sex) || [])[1] || s.sex} · ${stars(s.stars)}${s.favourite_role ? ` · ${t("turandot.loves_lower", { role: ROLE_NAME[s.favourite_role] })}` : ""}` : ""}</option>`; })}
      </select></div>`)}
    ${!valid && html`<p class="field-error" role="alert">${t("turandot.one_role_each")}</p>`}
    <div class="actions">
      <button type="button" class="primary" disabled=${busy} onClick=${() => cast(null)}>${t("turandot.use_best", { n: space.optimal_total })}</button>
      <button type="button" disabled=${busy || !valid} onClick=${() => cast(roles)}>${t("turandot.cast_as_chosen")}</button>
    </div>
  <//>`;
}

const DIALOGS = { assign_office: OfficeDialog, nominate: NominateDialog, fire_director: FireDialog, cast: CastDialog };
const dialogLabel = (type) => t(`turandot.decide.${type}`);

function Decisions({ view, actions, act, busy, me }) {
  const space = actions && actions.moves.find((m) => DIALOGS[m.type]);
  const key = space ? `${space.type}:${view.round}:${actions.version}` : null;
  const [open, setOpen] = useState(false);
  // each new decision opens its dialog; a decision made takes its dialog away with it
  useEffect(() => { setOpen(Boolean(space)); }, [key]);
  if (!space) return null;
  const Dlg = DIALOGS[space.type];
  return html`<div class="card decision">
    <p><strong>${dialogLabel(space.type)}.</strong></p>
    <button type="button" class="primary" onClick=${() => setOpen(true)}>${dialogLabel(space.type)}…</button>
    <${Dlg} key=${key} view=${view} space=${space} act=${act} busy=${busy} open=${open} setOpen=${setOpen} me=${me} />
  </div>`;
}

export function Table({ view, actions, act, busy, me, events, recent = [] }) {
  const bidSpace = actions && actions.moves.find((m) => m.type === "bid");
  const you = view.you;
  const dealing = view.phase !== "casting" && view.phase !== "finished";
  return html`<div class="td two-col"><div class="main-col">
    ${dealing && html`<section class="card stage" aria-labelledby="stage-title">
      <h2 id="stage-title">${t(view.round === 4 ? "turandot.directors_on_offer" : "turandot.singers_on_offer")}</h2>
      <ol class="slots">${view.table.map((place) => html`<li class="slot" data-slot=${place.slot}>
        <span class="slot-no">${t("turandot.slot", { n: place.slot })}</span>
        ${place.card ? html`<${CardFace} card=${place.card} />` : html`<div class="tcard empty">${t("turandot.taken")}</div>`}</li>`)}</ol>
      <p class="small">${t("turandot.deck_left", { n: view.deck_left })}
        ${view.round !== 4 && view.helpers && view.helpers.length ? ` ${t("turandot.helpers_left", { list: view.helpers.map(helperName).join(", ") })}` : ""}</p>
    </section>`}
    ${bidSpace && html`<${BidComposer} key=${`bid-${view.round}`} view=${view} space=${bidSpace} act=${act} busy=${busy} />`}
    ${you && you.bid && view.phase === "bidding" && html`<p class="card sealed" data-testid="my-sealed-bid">${t("turandot.my_bid", {
      bid: [you.bid.slot ? t("turandot.bid_slot", { n: you.bid.slot }) : t("turandot.bid_helper"), t("turandot.money_cards", { n: you.bid.money }),
        ...(you.bid.bluff ? [t("turandot.bid_bluff")] : [])].join(", ") })}
      ${t("turandot.others_see", { n: faceDown(you.bid) })}</p>`}
    <${Decisions} view=${view} actions=${actions} act=${act} busy=${busy} me=${me} />
    <${Reveal} view=${view} events=${events} />
    </div><div class="side-col">
    <section class="card" aria-labelledby="companies-title">
      <h2 id="companies-title">${t("turandot.companies")}</h2>
      <ul class="companies">${view.players.map((p) => html`<${Company} view=${view} player=${p} me=${me} recent=${recent} />`)}</ul>
      ${view.dummy && html`<div class="dummy"><h3>${t("turandot.dummy_title")}</h3>
        <div class="company-cards">${view.dummy.director && html`<${CardFace} card=${view.dummy.director} compact=${true} />`}
        ${view.dummy.singers.map((s) => html`<${CardFace} card=${s} compact=${true} />`)}
        ${!view.dummy.singers.length && !view.dummy.director && html`<span class="muted">${t("turandot.no_cards")}</span>`}</div></div>`}
    </section>
    <section class="card" aria-labelledby="pile-title">
      <h2 id="pile-title">${t("turandot.director_pile")}</h2>
      <ul class="pile">${(view.directors || []).map((d) => html`<li><strong>${directorName(d.id)}</strong>: ${directorEffect(d)}</li>`)}</ul>
      ${view.fired.length > 0 && html`<p class="small">${t("turandot.fired", { list: view.fired.map((f) => t("turandot.fired_by", { director: directorName(f.director.id), name: nameOf(view, f.seat) })).join(", ") })}</p>`}
      ${view.removed_directors.length > 0 && html`<p class="small">${t("turandot.removed", { list: view.removed_directors.map((d) => directorName(d.id)).join(", ") })}</p>`}
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
    return t(`turandot.tie_shared_${both}`, { names, top, stars: starsOf(tied[0]) });
  }
  const winners = tied.filter((p) => score.winners.includes(p.seat));
  const others = tied.filter((p) => !score.winners.includes(p.seat));
  const who = listNames(view, winners.map((p) => p.seat));
  const counts = [...new Set([starsOf(winners[0]), ...others.map(starsOf)])].join(t("turandot.against"));
  return t(`turandot.tie_broken_${both}${winners.length > 1 ? "_many" : ""}`, { names, top, who, stars: counts });
}

export function Score({ view, score, places = null }) {
  if (!score) return null;
  const cards = cardsOf(view);
  const rows = score.players.map((p) => ({ ...p, name: nameOf(view, p.seat), winner: score.winners.includes(p.seat) }));
  if (score.dummy) rows.push({ ...score.dummy, name: t("turandot.the_dummy"), winner: score.dummy_wins, seat: "dummy" });
  const why = tieBreak(view, score);
  // ``places``: each player's place as the rules rank them (GET /places: ties broken by stars)
  return html`<div class="score">
    <p class="winners" data-testid="winners">${score.dummy_wins ? t("turandot.dummy_wins") : t("turandot.winners", { n: score.winners.length, names: listNames(view, score.winners) })}</p>
    ${why && html`<p data-testid="tie-break">${why}</p>`}
    <p class="small"><button type="button" class="link" data-testid="tie-break-rules"
      onClick=${() => openRules("turandot", { anchor: "tie-breaks" })}>${t("turandot.tie_rules")}</button></p>
    <div class="table-wrap"><table class="grid-table score-table">
      <thead><tr><th scope="col">${t("turandot.col.line")}</th>${rows.map((r) => html`<th scope="col" class=${r.winner ? "win" : ""}>${r.name}</th>`)}</tr></thead>
      <tbody>${LINES.filter((key) => key !== "puccini" || view.players.length === 2).map((key) => html`<tr><th scope="row">${lineName(key)}</th>${rows.map((r) => html`<td>${r.lines[key]}</td>`)}</tr>`)}
        <tr class="total"><th scope="row">${t("turandot.col.total")}</th>${rows.map((r) => html`<td class=${r.winner ? "win" : ""}>${r.total}</td>`)}</tr>
        ${places && html`<tr class="places" data-testid="places"><th scope="row">${t("turandot.col.place")}</th>${rows.map((r) => html`<td data-seat=${r.seat}>${typeof r.seat === "number" ? t("turandot.place", { n: places[r.seat] }) : ""}</td>`)}</tr>`}</tbody>
    </table></div>
    <h3>${t("turandot.casts")}</h3>
    ${rows.map((r) => html`<div class=${`cast${r.winner ? " best-cast" : ""}`} data-seat=${r.seat}>
      <h4>${r.name}${r.winner ? html` <span class="badge badge-turn">${t("turandot.winner_points", { n: r.total })}</span>` : ` · ${t("turandot.points", { n: r.total })}`}</h4>
      <div class="company-cards">${(r.cast || []).map((id, i) => html`<${CardFace} card=${cards[id] || { id, kind: "singer", category: "", sex: "", stars: 0 }} compact=${true} role=${ROLES[i] && ROLES[i].key} highlight=${r.winner} />`)}</div>
    </div>`)}
  </div>`;
}

export function status(view) {
  if (view.status === "open") return t("status.open");
  if (view.status === "finished") return t("status.over");
  return `${t("status.round_of", { n: view.round, total: 7 })} · ${phaseName("turandot", view.phase)}`;
}

export function yourTurn(view, mine) {
  const kind = mine.kinds[0];
  const known = ["bid", "assign_office", "nominate", "fire_director", "cast"];
  return known.includes(kind) ? t(`turn.turandot.${kind}`) : t("game.your_move_kinds", { kinds: titleCase(kind) });
}

//: what the rules did to a seat after its move, told with the others' moves since it: the tie
//: that cost it a slot, the singer or helper it got (by its bid or from the Maestro), its
//: nomination
const RESULTS = new Set(["hired", "helper_hired", "helper_missed", "nominated"]);

/** Whether ``e`` is seat ``me``'s own result (not a move ``me`` made). */
export function resultFor(e, me) {
  if (e.type === "slot_tied") return (e.seats || []).includes(me);
  return RESULTS.has(e.type) && e.seat === me;
}

export function describeEvent(e, view, live = false) {
  const who = (s) => nameOf(view, s);
  const say = (key, params = {}) => t(`turandot.ev.${key}`, params);
  switch (e.type) {
    case "round_started": return say("round_started", { n: e.round, name: who(e.maestro) });
    case "game_started": return t("tables.game_started");
    case "bid_committed": return live ? null : say("bid_committed", { name: who(e.seat), cards: t("turandot.face_down", { n: e.face_down }) });
    case "bids_revealed": return say("bids_revealed", { n: e.round });
    case "hired": return e.by === "office" ? say("hired_office", { name: who(e.seat), card: cardLabel(view, e.card) })
      : say("hired", { name: who(e.seat), card: cardLabel(view, e.card), money: t("turandot.money_cards", { n: e.money_spent }) });
    case "helper_hired": return has(`turandot.ev.helper_hired.${e.helper}`) ? say(`helper_hired.${e.helper}`, { name: who(e.seat) })
      : say("helper_hired", { name: who(e.seat), helper: e.helper });
    case "helper_missed": return say("helper_missed", { name: who(e.seat) });
    case "slot_tied": return say("slot_tied", { n: e.slot, names: listNames(view, e.seats) });
    case "office_pending": return say("office_pending", { names: listNames(view, e.seats) });
    case "card_discarded": return live ? null : say("card_discarded");
    case "dummy_received": return say("dummy_received", { card: cardLabel(view, e.card) });
    case "nominated": return say(e.forced ? "nominated_forced" : "nominated", { name: who(e.seat) });
    case "director_fired": return say("director_fired", { name: who(e.seat), director: directorName(e.director) });
    case "directors_removed": return live ? null : say("directors_removed", { list: e.directors.map(directorName).join(", ") });
    case "round_ended": return live ? null : say("round_ended", { n: e.round });
    case "casting_started": return say("casting_started");
    case "cast": return say("cast", { name: who(e.seat) });
    case "game_finished": return t("tables.game_finished");
    case "deadline_passed": return t("tables.deadline_passed", { name: who(e.seat) });
    default: return live ? null : titleCase(e.type);
  }
}

/** A move's value in words, for the replay's line (a director). */
export function fieldValue(key, value) {
  return key === "director" ? directorName(value) : undefined;
}

/** The rules in a minute, for a player who never read them. */
export function HowTo() {
  return html`<ul>${[1, 2, 3, 4, 5].map((n) => html`<li>${t(`turandot.howto.${n}`)}</li>`)}</ul>`;
}

export default { Table, Score, resultFor, status, yourTurn, describeEvent, fieldValue, HowTo };
