// Muzicando's table: the auction, the choice of layout, the board with the legal cells of the
// chosen card highlighted (from GET /actions), tap or drag to place, passes, places and the
// score sheet, in the team game and the individual game.
import { html, useEffect, useRef, useState } from "../lib.js";
import { listNames, nameOf, titleCase } from "../shared/format.js";
import { formatNumber, phaseName, t } from "../shared/i18n.js";

// Words players see are the catalogues' (`muzicando.*`, the Italian edition's terms): the
// colours, notes and signs printed on the cards too. The ids below are the engine's.
export const COLOURS = ["red", "orange", "yellow", "green", "blue", "indigo", "violet"];
export const NOTES = ["", "Do", "Re", "Mi", "Fa", "Sol", "La", "Si"];
export const LAYOUTS = { S: "Sarabanda", G: "Glissando", P: "Parada", M: "Muzicando" };
//: each layout's rule in a sentence (docs/muzicando.md, "The four layouts"): `muzicando.rule.<letter>`
export const layoutRule = (l) => t(`muzicando.rule.${l}`);
const SIGNS = { red: "sharp", orange: "sharp", yellow: "natural", green: "natural", blue: "flat", indigo: "flat", violet: "rest" };
const SIGN_MARK = { sharp: "♯", natural: "♮", flat: "♭", rest: "—" };
const colourName = (c) => t(`muzicando.colour.${c}`);
const colourInitial = (c) => t(`muzicando.initial.${c}`);
const noteName = (v) => (NOTES[v] ? t(`muzicando.note.${v}`) : String(v));
const signName = (s) => t(`muzicando.sign.${s}`);
const teamName = (i) => t(`muzicando.team.${i}`);

/** "red-3" → {colour: "red", index: 0, value: 3, sign: null, oval: false} */
export function parseCard(id) {
  const [colour, rest] = String(id).split("-");
  const index = COLOURS.indexOf(colour);
  if (rest === "sign") return { id, colour, index, value: null, sign: SIGNS[colour], oval: false };
  const value = Number(rest);
  return { id, colour, index, value, sign: null, oval: value === index + 1 };
}

export function cardText(id) {
  const c = parseCard(id);
  if (c.sign) return t("muzicando.card_sign", { colour: colourName(c.colour), sign: signName(c.sign) });
  const text = t("muzicando.card_note", { colour: colourName(c.colour), note: noteName(c.value), n: c.value });
  return c.oval ? t("muzicando.card_oval", { card: text }) : text;
}

export function contractText(contract) {
  if (!contract) return "";
  return t("muzicando.contract", { n: Number(contract[0]), layout: LAYOUTS[contract[1]] || contract[1] });
}

function Card({ id, covered = null }) {
  const c = parseCard(id);
  // on the board: the note (or the sign's mark), then the colour's initial and the number
  const initial = html`<span class="cname" title=${colourName(c.colour)}>${colourInitial(c.colour)}</span>`;
  return html`<span class=${`mcard c-${c.colour}`} data-card=${id}>
    ${c.sign ? html`<span class="note" aria-hidden="true">${SIGN_MARK[c.sign]}</span><span class="val" aria-hidden="true">${initial}</span>`
      : html`<span class="note" aria-hidden="true">${noteName(c.value)}</span><span class="val" aria-hidden="true">${initial}\u2009${c.oval ? html`<span class="oval-mark">${c.value}</span>` : c.value}</span>`}
    <span class="sr-only">${cardText(id)}</span>
    ${covered && html`<span class="covered" title=${t("muzicando.covered", { sign: signName(SIGNS[parseCard(covered).colour]) })}><span aria-hidden="true">${SIGN_MARK[SIGNS[parseCard(covered).colour]]}</span><span class="sr-only">, ${t("muzicando.covered", { sign: signName(SIGNS[parseCard(covered).colour]) })}</span></span>`}
  </span>`;
}

//: the board's zoom steps (1 is the cell size of the screen's width); "fit" picks the step that
//: shows the whole board in its box
const ZOOMS = [0.5, 0.6, 0.7, 0.8, 0.9, 1, 1.2, 1.4, 1.7, 2];

function reducedMotion() {
  return typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** Scroll the board's box, then the page, so ``cell`` is in view: not under the sticky turn
 * bar at the top nor under the hand docked at the bottom (on a phone). */
export function bringIntoView(wrap, cell) {
  if (!wrap || !cell) return;
  const behavior = reducedMotion() ? "auto" : "smooth";
  const w = wrap.getBoundingClientRect();
  const c = cell.getBoundingClientRect();
  wrap.scrollBy({ left: c.left + c.width / 2 - (w.left + w.width / 2), top: c.top + c.height / 2 - (w.top + w.height / 2), behavior: "auto" });
  const r = cell.getBoundingClientRect();
  const bar = document.querySelector(".turnbar");
  const dock = document.querySelector(".hand-dock");
  const top = bar ? Math.max(0, bar.getBoundingClientRect().bottom) : 0;
  const dockTop = dock ? dock.getBoundingClientRect().top : innerHeight;
  const bottom = Math.min(innerHeight, dockTop > top + r.height ? dockTop : innerHeight);
  if (r.top < top + 4 || r.bottom > bottom - 4) {
    window.scrollBy({ top: r.top - (top + (bottom - top - r.height) / 2), behavior });
  }
}

/** The cells to draw: the occupied ones and every legal one, framed by one empty cell. */
export function boardBounds(layout, cells, legal) {
  if (layout === "P" || layout === "M") return { minX: 0, maxX: 6, minY: 1, maxY: 7 };
  const all = cells.concat(legal);
  if (!all.length) return { minX: 0, maxX: 0, minY: 0, maxY: 0 };
  const xs = all.map((c) => c.x);
  const ys = all.map((c) => c.y);
  return { minX: Math.min(...xs), maxX: Math.max(...xs), minY: Math.min(...ys), maxY: Math.max(...ys) };
}

function Board({ view, place, selected, busy, recent = [] }) {
  const fresh = new Map(recent.filter((e) => e.type === "card_placed" && e.hand === view.hand).map((e) => [`${e.x},${e.y}`, e]));
  const cells = (view.table && view.table.cells) || [];
  const legalAll = place ? place.cards.flatMap((c) => c.cells) : [];
  const legal = selected && place ? ((place.cards.find((c) => c.card === selected) || {}).cells || []) : [];
  const b = boardBounds(view.layout, cells, legalAll);
  const at = Object.fromEntries(cells.map((c) => [`${c.x},${c.y}`, c]));
  const isLegal = new Set(legal.map((c) => `${c.x},${c.y}`));
  const [over, setOver] = useState(null);
  const [zoom, setZoom] = useState(1);
  const wrap = useRef(null);
  const drag = useRef(null);
  const columns = b.maxX - b.minX + 1;
  const legalKey = legal.map((c) => `${c.x},${c.y}`).join(" ");
  useEffect(() => {
    // a card chosen: its first legal cell comes into view, wherever the board was panned to
    if (selected && legal.length && wrap.current) bringIntoView(wrap.current, wrap.current.querySelector("button.cell.legal"));
  }, [selected, legalKey]);
  const step = (dir) => {
    const i = ZOOMS.findIndex((z) => z >= zoom - 1e-9);
    setZoom(ZOOMS[Math.max(0, Math.min(ZOOMS.length - 1, (i < 0 ? ZOOMS.length - 1 : i) + dir))]);
  };
  const fit = () => {
    const box = wrap.current;
    const board = box && box.querySelector(".board");
    if (!board) return;
    const room = box.clientWidth - 12;
    const roomY = Math.max(box.clientHeight, 200) - 12;
    const scale = Math.min(room / board.scrollWidth, roomY / board.scrollHeight) * zoom;
    setZoom([...ZOOMS].reverse().find((z) => z <= scale) || ZOOMS[0]);
  };
  // a mouse pans the board by dragging its background (a finger scrolls its box natively)
  const onPointerDown = (e) => {
    if (e.pointerType !== "mouse" || e.button !== 0 || e.target.closest("button")) return;
    drag.current = { x: e.clientX, y: e.clientY, left: wrap.current.scrollLeft, top: wrap.current.scrollTop };
  };
  const onPointerMove = (e) => {
    const d = drag.current;
    if (!d) return;
    wrap.current.scrollLeft = d.left - (e.clientX - d.x);
    wrap.current.scrollTop = d.top - (e.clientY - d.y);
  };
  const endDrag = () => { drag.current = null; };
  const rows = [];
  for (let y = b.maxY; y >= b.minY; y--) {
    for (let x = b.minX; x <= b.maxX; x++) {
      const key = `${x},${y}`;
      const cell = at[key];
      const where = view.layout === "P" || view.layout === "M" ? t("muzicando.where_colour", { colour: colourName(COLOURS[x]), note: noteName(y) })
        : t("muzicando.where_cell", { x, y });
      if (isLegal.has(key)) {
        rows.push(html`<button type="button" class=${`cell legal${over === key ? " drop" : ""}`} data-x=${x} data-y=${y} disabled=${busy}
          aria-label=${t("muzicando.place_at", { card: cardText(selected), where })}
          onClick=${() => place.onPlace(selected, x, y)}
          onDragOver=${(e) => { e.preventDefault(); setOver(key); }} onDragLeave=${() => setOver(null)}
          onDrop=${(e) => { e.preventDefault(); setOver(null); place.onPlace(selected, x, y); }}>
          ${cell ? html`<${Card} id=${cell.card} covered=${cell.covered_by} />` : t("muzicando.here")}</button>`);
      } else if (cell) {
        const by = fresh.get(key);
        rows.push(html`<div class=${`cell${by ? " recent" : ""}`} data-x=${x} data-y=${y} title=${by ? t("muzicando.just_placed", { name: nameOf(view, by.seat) }) : null}>
          <${Card} id=${cell.card} covered=${cell.covered_by} />${by && html`<span class="sr-only">, ${t("muzicando.just_placed", { name: nameOf(view, by.seat) })}</span>`}</div>`);
      } else {
        rows.push(html`<div class="cell" aria-hidden="true"></div>`);
      }
    }
  }
  return html`<div class="board-tools" role="group" aria-label=${t("muzicando.zoom")}>
      <button type="button" aria-label=${t("muzicando.zoom_out")} onClick=${() => step(-1)} disabled=${zoom <= ZOOMS[0]}>−</button>
      <span class="small" aria-live="polite">${formatNumber(zoom, { style: "percent" })}</span>
      <button type="button" aria-label=${t("muzicando.zoom_in")} onClick=${() => step(1)} disabled=${zoom >= ZOOMS[ZOOMS.length - 1]}>+</button>
      <button type="button" onClick=${fit}>${t("muzicando.fit")}</button>
    </div>
    <div class="board-wrap" tabindex="0" ref=${wrap} aria-label=${t("muzicando.board", { layout: LAYOUTS[view.layout] || "" })}
      onPointerDown=${onPointerDown} onPointerMove=${onPointerMove} onPointerUp=${endDrag} onPointerLeave=${endDrag} onPointerCancel=${endDrag}>
    <div class="board" style=${{ gridTemplateColumns: `repeat(${columns}, var(--cell-w))`, "--zoom": String(zoom) }}>${rows}</div></div>`;
}

/** The first playable card of the hand's row that is out of its visible part: "left", "right" or
 * null (a phone's hand is one row that scrolls sideways). */
function offside(list, id) {
  const el = list && id && list.querySelector(`button.mcard[data-card="${CSS.escape(id)}"]`);
  if (!el) return null;
  const box = list.getBoundingClientRect();
  const r = el.getBoundingClientRect();
  if (r.right > box.right + 1) return "right";
  if (r.left < box.left - 1) return "left";
  return null;
}

function Hand({ view, place, pass, selected, setSelected, busy, act }) {
  const hand = (view.you && view.you.hand) || [];
  const legalOf = Object.fromEntries(((place && place.cards) || []).map((c) => [c.card, c.cells.length]));
  // the seat's turn to place or pass: every card says whether it can be played now
  const turn = Boolean(place || pass);
  const first = hand.find((id) => legalOf[id] > 0) || null;
  const list = useRef(null);
  const [side, setSide] = useState(null);
  const look = () => setSide(offside(list.current, first));
  const reveal = (behavior) => {
    const el = list.current && first && list.current.querySelector(`button.mcard[data-card="${CSS.escape(first)}"]`);
    if (!el) return;
    const box = list.current.getBoundingClientRect();
    const r = el.getBoundingClientRect();
    list.current.scrollBy({ left: r.left + r.width / 2 - (box.left + box.width / 2), behavior });
  };
  // the turn starts: the first playable card scrolls into the row's view (the page stays put)
  useEffect(() => { if (turn && first) reveal("auto"); look(); }, [turn, first, hand.join(" ")]);
  useEffect(() => {
    addEventListener("resize", look);
    return () => removeEventListener("resize", look);
  }, [first]);
  const nothing = turn && !first;
  return html`<section class="card hand-dock" aria-labelledby="hand-title">
    <h2 id="hand-title">${t("muzicando.your_hand", { cards: t("muzicando.cards", { n: hand.length }) })}</h2>
    ${turn && !nothing && html`<p class="small">${t("muzicando.tap_hint")}</p>`}
    ${nothing && html`<div class="nothing-fits" data-testid="nothing-fits"><p class="small">${t("muzicando.none_fits")}</p>
      ${pass && html`<button type="button" class="primary" onClick=${() => act({ type: "pass" })} disabled=${busy}>${t(pass.draws ? "muzicando.pass_draw" : "muzicando.pass")}</button>`}</div>`}
    ${first && side && html`<button type="button" class=${`link playable-hint to-${side}`} data-testid="playable-hint"
      onClick=${() => reveal(reducedMotion() ? "auto" : "smooth")}>${t(side === "right" ? "muzicando.playable_right" : "muzicando.playable_left")}</button>`}
    <ul class="hand" ref=${list} onScroll=${look}>${hand.map((id) => {
      const playable = turn && legalOf[id] > 0;
      return html`<li><button type="button" class=${`mcard c-${parseCard(id).colour}${selected === id ? " selected" : ""}${turn && !playable ? " unplayable" : ""}`}
        aria-pressed=${selected === id}
        disabled=${busy || !playable} draggable=${Boolean(playable)} data-card=${id}
        onClick=${() => setSelected(selected === id ? null : id)}
        onDragStart=${(e) => { setSelected(id); e.dataTransfer.setData("text/plain", id); }}>
        ${parseCard(id).sign ? html`<span class="note" aria-hidden="true">${SIGN_MARK[parseCard(id).sign]}</span><span class="sname" aria-hidden="true">${signName(parseCard(id).sign)}</span>`
          : html`<span class="note" aria-hidden="true">${noteName(parseCard(id).value)}</span><span aria-hidden="true">${parseCard(id).value}${parseCard(id).oval ? " ◯" : ""}</span>`}
        <span class="cname" aria-hidden="true">${colourName(parseCard(id).colour)}</span>
        <span class="sr-only">${`${cardText(id)}${turn ? `, ${playable ? t("muzicando.places_to_play", { n: legalOf[id] }) : t("muzicando.cannot_play")}` : ""}`}</span>
      </button></li>`;
    })}</ul>
  </section>`;
}

function Auction({ view, actions, act, busy }) {
  const bid = actions && actions.moves.find((m) => m.type === "auction_bid");
  const pass = actions && actions.moves.find((m) => m.type === "auction_pass");
  const a = view.auction;
  if (!a) return null;
  return html`<section class="card" aria-labelledby="auction-title">
    <h2 id="auction-title">${t("muzicando.auction")}</h2>
    <p>${t("muzicando.auction_lead")}
      ${a.bid ? html` ${t("muzicando.standing_bid")} <strong>${contractText(a.bid.contract)}</strong> ${t("muzicando.by", { name: nameOf(view, a.bid.seat) })}.` : ` ${t("muzicando.no_bid")}`}</p>
    <ul class="auction-calls" aria-label=${t("muzicando.calls_so_far")}>${a.calls.map((c) => html`<li>${nameOf(view, c.seat)}: ${c.call === "pass" ? t("muzicando.pass_call") : c.call}</li>`)}</ul>
    ${bid && html`<div class="contracts" role="group" aria-label=${t("muzicando.contracts_you_may")}>${bid.contracts.map((c) => html`<button type="button" disabled=${busy}
      aria-label=${t("muzicando.bid_contract", { contract: contractText(c) })} onClick=${() => act({ type: "auction_bid", contract: c })}>${c}</button>`)}</div>`}
    ${(bid || pass) && html`<div class="actions">${pass && html`<button type="button" onClick=${() => act({ type: "auction_pass" })} disabled=${busy}>${t("muzicando.pass")}</button>`}
      ${a.dealer_must_bid && bid && html`<span class="small">${t("muzicando.dealer_must_bid")}</span>`}</div>`}
  </section>`;
}

function ChooseLayout({ view, space, act, busy }) {
  return html`<section class="card" aria-labelledby="layout-title">
    <h2 id="layout-title">${t("muzicando.choose_layout")}</h2>
    <div class="button-list">${["S", "G", "P", "M"].map((l) => html`<button type="button" disabled=${busy || !space.layouts.includes(l)}
      aria-describedby=${`layout-rule-${l}`}
      onClick=${() => act({ type: "choose_layout", layout: l })}>${LAYOUTS[l]}${space.layouts.includes(l) ? "" : ` (${t("muzicando.cannot_open")})`}</button>`)}</div>
    <dl class="small layout-rules">${["S", "G", "P", "M"].map((l) => html`<dt>${LAYOUTS[l]}</dt><dd id=${`layout-rule-${l}`}>${layoutRule(l)}</dd>`)}</dl>
  </section>`;
}

function Players({ view, me }) {
  return html`<section class="card" aria-labelledby="mz-players-title">
    <h2 id="mz-players-title">${t("tables.players")}</h2>
    <table class="grid-table"><thead><tr><th scope="col">${t("tables.player")}</th>${view.mode === "team" && html`<th scope="col">${t("muzicando.team")}</th>`}<th scope="col">${t("muzicando.cards_col")}</th><th scope="col">${t("tables.now")}</th><th scope="col">${t("tables.points")}</th></tr></thead>
      <tbody>${view.players.map((p) => html`<tr class=${p.seat === me ? "me" : ""} data-seat=${p.seat}>
        <th scope="row">${p.name}${p.seat === me ? ` (${t("tables.you_mark")})` : ""}${p.bot ? ` · ${t("tables.bot")}` : ""}</th>
        ${view.mode === "team" && html`<td>${teamName(p.team)}</td>`}
        <td>${p.hand_size}</td>
        <td class="small">${[p.seat === view.turn ? t("muzicando.flag.to_play") : "", p.seat === view.dealer ? t("muzicando.flag.dealer") : "", p.seat === view.declarer ? t("muzicando.flag.declarer") : "",
          p.blocked ? t("muzicando.flag.blocked") : "", p.out ? t("muzicando.flag.out", { n: p.place }) : "", p.seat === view.run ? t("muzicando.flag.run") : ""].filter(Boolean).join(", ")}</td>
        <td>${p.total}</td></tr>`)}</tbody></table>
    ${view.team_totals && html`<p>${t("muzicando.teams_line", { a: teamName(0), a_total: view.team_totals[0], b: teamName(1), b_total: view.team_totals[1] })}</p>`}
  </section>`;
}

function Sheet({ view, results }) {
  if (!results || !results.length) return null;
  return html`<div class="table-wrap"><table class="grid-table score-table" data-testid="score-sheet">
    <thead><tr><th scope="col">${t("muzicando.col.hand")}</th><th scope="col">${t("muzicando.col.layout")}</th>${view.players.map((p) => html`<th scope="col">${p.name}</th>`)}</tr></thead>
    <tbody>${results.map((r) => html`<tr><th scope="row">${r.hand}</th>
      <td>${LAYOUTS[r.layout]}${r.contract ? ` · ${t(r.made ? "muzicando.sheet_made" : "muzicando.sheet_failed", { contract: r.contract, name: nameOf(view, r.declarer) })}` : ""}</td>
      ${r.points.map((pts, seat) => { const pl = r.places.find((x) => x.seat === seat); return html`<td>${pts}<span class="small muted">${pl ? ` (${t("muzicando.place", { n: pl.place })})` : ""}</span></td>`; })}</tr>`)}</tbody>
  </table></div>`;
}

/** A deal that just ended, told above the next one (who made what, each player's points) until
 * the player closes it or the next deal ends: the next deal starts at once, nothing waits. */
function DealOver({ view, result, onClose }) {
  return html`<section class="card deal-over" role="status" aria-labelledby="deal-over-title" data-testid="deal-over">
    <h2 id="deal-over-title">${t("muzicando.deal_over", { n: result.hand })}</h2>
    <p>${LAYOUTS[result.layout] || result.layout}${result.contract ? ` · ${t(result.made ? "muzicando.sheet_made" : "muzicando.sheet_failed", { contract: result.contract, name: nameOf(view, result.declarer) })}` : ""}</p>
    <ul class="deal-points">${result.points.map((pts, seat) => {
      const pl = result.places.find((x) => x.seat === seat);
      return html`<li data-seat=${seat}><strong>${nameOf(view, seat)}</strong> ${t("muzicando.deal_points", { n: pts })}${pl ? ` (${t("muzicando.place", { n: pl.place })})` : ""}</li>`;
    })}</ul>
    <div class="actions"><button type="button" onClick=${onClose}>${t("muzicando.deal_next", { n: result.hand + 1 })}</button></div>
  </section>`;
}

export function Table({ view, actions, act, busy, me, recent = [] }) {
  const [selected, setSelected] = useState(null);
  // the deal that ended while the table was open (or just before it was opened: the next deal
  // has not begun its play yet), shown until closed
  const results = view.results || [];
  const seen = useRef(results.length);
  const [ended, setEnded] = useState(() => (results.length && view.phase === "auction" ? results[results.length - 1] : null));
  useEffect(() => {
    if (results.length > seen.current) setEnded(results[results.length - 1]);
    seen.current = results.length;
  }, [results.length]);
  const find = (t) => actions && actions.moves.find((m) => m.type === t);
  const placeSpace = find("place");
  const passSpace = find("pass");
  const layoutSpace = find("choose_layout");
  useEffect(() => {
    // keep the selection only while it is still in the hand and playable
    if (selected && !(placeSpace && placeSpace.cards.some((c) => c.card === selected && c.cells.length))) setSelected(null);
  }, [actions]);
  const place = placeSpace && {
    cards: placeSpace.cards,
    onPlace: async (card, x, y) => { if (!(await act({ type: "place", card, x, y }))) setSelected(null); },
  };
  return html`<div class="mz two-col"><div class="main-col">
    ${ended && view.status !== "finished" && html`<${DealOver} view=${view} result=${ended} onClose=${() => setEnded(null)} />`}
    <section class="card" aria-labelledby="mz-board-title">
      <h2 id="mz-board-title">${view.layout ? LAYOUTS[view.layout] : t("muzicando.no_layout")} · ${t("status.hand_of", { n: view.hand, total: view.hands })}</h2>
      <p class="small">${view.contract ? `${t("muzicando.contract_by", { contract: contractText(view.contract), name: nameOf(view, view.declarer) })} ` : ""}${view.chooser !== null ? `${t("muzicando.chose_layout", { name: nameOf(view, view.chooser) })} ` : ""}
        ${t("muzicando.draw_pile", { cards: t("muzicando.cards", { n: view.pile_size }) })}${view.blocked.length ? ` ${t("muzicando.blocked_list", { names: listNames(view, view.blocked) })}` : ""}
        ${view.places.length ? ` ${t("muzicando.out_list", { list: view.places.map((p) => `${nameOf(view, p.seat)} (${p.place})`).join(", ") })}` : ""}</p>
      ${view.layout && html`<p class="small" data-testid="layout-rule"><strong>${LAYOUTS[view.layout]}:</strong> ${layoutRule(view.layout)}</p>`}
      ${view.layout ? html`<${Board} view=${view} place=${place} selected=${selected} busy=${busy} recent=${recent} />` : html`<p class="muted">${t("muzicando.board_later")}</p>`}
      ${(placeSpace || passSpace) && html`<div class="actions">
        ${passSpace && html`<button type="button" onClick=${() => act({ type: "pass" })} disabled=${busy}>${t(passSpace.draws ? "muzicando.pass_draw" : "muzicando.pass")}</button>`}
        ${placeSpace && !passSpace && html`<span class="small">${t("muzicando.must_play")}</span>`}
      </div>`}
    </section>
    ${view.you && view.status !== "finished" && html`<${Hand} view=${view} place=${place} pass=${passSpace} selected=${selected} setSelected=${setSelected} busy=${busy} act=${act} />`}
    ${view.phase === "auction" && html`<${Auction} view=${view} actions=${actions} act=${act} busy=${busy} />`}
    ${layoutSpace && html`<${ChooseLayout} view=${view} space=${layoutSpace} act=${act} busy=${busy} />`}
  </div><div class="side-col">
    <${Players} view=${view} me=${me} />
    ${view.results.length > 0 && html`<section class="card" aria-labelledby="sheet-title"><h2 id="sheet-title">${t("muzicando.score_sheet")}</h2><${Sheet} view=${view} results=${view.results} /></section>`}
  </div></div>`;
}

export function Score({ view, score }) {
  if (!score) return null;
  return html`<div class="score">
    <p class="winners" data-testid="winners">${t("muzicando.winners", { n: score.winners.length, names: `${listNames(view, score.winners)}${score.mode === "team" && score.teams.length
      ? ` (${teamName(score.teams.find((team) => team.seats.includes(score.winners[0])).team)})` : ""}` })}</p>
    ${score.teams.length > 0 && html`<p>${score.teams.map((team) => `${teamName(team.team)}: ${team.total}`).join(" · ")}</p>`}
    <div class="table-wrap"><table class="grid-table score-table">
      <thead><tr><th scope="col">${t("tables.player")}</th><th scope="col">${t("muzicando.col.places")}</th><th scope="col">${t("muzicando.col.contracts")}</th><th scope="col">${t("muzicando.col.chooser")}</th><th scope="col">${t("tables.total")}</th></tr></thead>
      <tbody>${score.players.map((p) => html`<tr><th scope="row" class=${score.winners.includes(p.seat) ? "win" : ""}>${nameOf(view, p.seat)}</th>
        <td>${p.lines.places}</td><td>${p.lines.contracts}</td><td>${p.lines.chooser}</td><td class=${score.winners.includes(p.seat) ? "win" : ""}>${p.total}</td></tr>`)}</tbody>
    </table></div>
    <p class="score-legend" data-testid="score-legend">${t("muzicando.score_legend")}</p>
    <h3>${t("muzicando.hands")}</h3>
    <${Sheet} view=${view} results=${score.hands} />
  </div>`;
}

export function status(view) {
  if (view.status === "open") return t("status.open");
  if (view.status === "finished") return t("status.over");
  return `${t("status.hand_of", { n: view.hand, total: view.hands })} · ${phaseName("muzicando", view.phase)}${view.mode === "team" ? ` · ${t("format.teams")}` : ""}`;
}

export function yourTurn(view, mine) {
  const k = mine.kinds;
  if (k.includes("auction_bid")) return t("turn.muzicando.auction_bid");
  if (k.includes("choose_layout")) return t("turn.muzicando.choose_layout");
  if (k.includes("place")) return k.includes("pass") ? t("turn.muzicando.place_or_pass") : t("turn.muzicando.place");
  return t("game.your_move_kinds", { kinds: k.map(titleCase).join(t("format.or")) });
}

export function describeEvent(e, view, live = false) {
  const who = (s) => nameOf(view, s);
  const say = (key, params = {}) => t(`muzicando.ev.${key}`, params);
  switch (e.type) {
    case "hand_dealt": return say("hand_dealt", { n: e.hand, name: who(e.dealer) });
    case "game_started": return t("tables.game_started");
    case "auction_bid": return live ? null : say("auction_bid", { name: who(e.seat), contract: contractText(e.contract) });
    case "auction_pass": return live ? null : say("auction_pass", { name: who(e.seat) });
    case "auction_won": return say("auction_won", { name: who(e.seat), contract: contractText(e.contract) });
    case "layout_chosen": return say("layout_chosen", { name: who(e.seat), layout: LAYOUTS[e.layout] || e.layout });
    case "card_placed": return live ? null : say("card_placed", { name: who(e.seat), card: cardText(e.card) });
    case "passed": return live ? null : say(e.drew ? "passed_drew" : "passed", { name: who(e.seat) });
    case "blocked": return say("blocked", { n: e.seats.length, name: who(e.seat), sign: signName(e.sign), names: listNames(view, e.seats) });
    case "turn_skipped": return live ? null : say("turn_skipped", { name: who(e.seat) });
    case "run_started": return say("run_started", { name: who(e.seat) });
    case "player_out": return say("player_out", { name: who(e.seat), n: e.place });
    case "hand_scored": return say("hand_scored", { n: e.hand, points: (e.points || []).map((p, s) => `${who(s)} ${p}`).join(", ") });
    case "redeal": return say("redeal");
    // the log's and the replay's lines (the live feed leaves them out, as the table shows them)
    case "auction_started": return live ? null : say("auction_started", { n: e.hand, name: who(e.dealer) });
    case "chooser": return live ? null : say("chooser", { name: who(e.seat) });
    case "choice_passed": return live ? null : say("choice_passed", { name: who(e.seat) });
    case "dealer_must_bid": return live ? null : say("dealer_must_bid", { name: who(e.seat) });
    case "run_passed": return live ? null : say("run_passed", { name: who(e.seat), to: who(e.to) });
    case "run_ended": return live ? null : say("run_ended", { name: who(e.seat) });
    case "block_queued": return live ? null : say("block_queued", { name: who(e.seat), sign: signName(e.sign), names: listNames(view, e.seats) });
    case "table_blocked": return live ? null : say("table_blocked", { names: listNames(view, e.seats) });
    case "game_finished": return t("tables.game_finished");
    case "deadline_passed": return t("tables.deadline_passed", { name: who(e.seat) });
    default: return live ? null : titleCase(e.type);
  }
}

/** A move's value in words, for the replay's line (a card, a contract, a layout). */
export function fieldValue(key, value) {
  if (key === "card") return cardText(value);
  if (key === "contract") return contractText(value);
  if (key === "layout") return LAYOUTS[value] || value;
  return undefined;
}

/** The rules in a minute, for a player who never read them. */
export function HowTo() {
  return html`<ul>${[1, 2, 3, 4].map((n) => html`<li>${t(`muzicando.howto.${n}`)}</li>`)}</ul>`;
}

export default { Table, Score, status, yourTurn, describeEvent, fieldValue, HowTo };
