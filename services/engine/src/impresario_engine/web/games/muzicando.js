// Muzicando's table: the auction, the choice of layout, the board with the legal cells of the
// chosen card highlighted (from GET /actions), tap or drag to place, passes, places and the
// score sheet, in the team game and the individual game.
import { html, useEffect, useRef, useState } from "../lib.js";
import { listNames, nameOf, plural, titleCase } from "../shared/format.js";
import { phaseName, t } from "../shared/i18n.js";

export const COLOURS = ["red", "orange", "yellow", "green", "blue", "indigo", "violet"];
export const NOTES = ["", "Do", "Re", "Mi", "Fa", "Sol", "La", "Si"];
export const LAYOUTS = { S: "Sarabanda", G: "Glissando", P: "Parada", M: "Muzicando" };
//: each layout's rule in a sentence (docs/muzicando.md, "The four layouts")
export const LAYOUT_RULES = {
  S: "Open with a Do. A note goes next to a card (left, right, above or below) and one step above or below a card it touches, in any colour (Si and Do are one step apart).",
  G: "Open with an oval card: it starts a row. A row is a scale, rising or falling, that grows at its ends in any colour; another oval, laid above or below a row's card one step away, opens a new row.",
  P: "A fixed board: one column per colour, one row per note. A colour's oval may go down at any time; then its column grows one note at a time, up or down (Do and Si do not touch here).",
  M: "Open with a Do. Each colour builds its own pile from its Do up to Si, in order; another colour's Do starts a new pile.",
};
const SIGNS = { red: "sharp", orange: "sharp", yellow: "natural", green: "natural", blue: "flat", indigo: "flat", violet: "rest" };
const SIGN_MARK = { sharp: "♯", natural: "♮", flat: "♭", rest: "—" };
const TEAMS = ["North–South", "East–West"];
const PHASES = { auction: "auction", choose: "choosing the layout", play: "play", finished: "game over" };

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
  if (c.sign) return `${c.colour} ${c.sign}`;
  return `${c.colour} ${NOTES[c.value]} (${c.value})${c.oval ? ", oval" : ""}`;
}

export function contractText(contract) {
  if (!contract) return "";
  return `level ${contract[0]} ${LAYOUTS[contract[1]] || contract[1]}`;
}

function Card({ id, covered = null }) {
  const c = parseCard(id);
  // on the board: the note (or the sign's mark), then the colour's initial and the number
  const initial = html`<span class="cname" title=${c.colour}>${c.colour[0].toUpperCase()}</span>`;
  return html`<span class=${`mcard c-${c.colour}`} data-card=${id}>
    ${c.sign ? html`<span class="note" aria-hidden="true">${SIGN_MARK[c.sign]}</span><span class="val" aria-hidden="true">${initial}</span>`
      : html`<span class="note" aria-hidden="true">${NOTES[c.value]}</span><span class="val" aria-hidden="true">${initial}\u2009${c.value}${c.oval ? "\u2009◯" : ""}</span>`}
    <span class="sr-only">${cardText(id)}</span>
    ${covered && html`<span class="covered" title=${`covered by a ${SIGNS[parseCard(covered).colour]}`}><span aria-hidden="true">${SIGN_MARK[SIGNS[parseCard(covered).colour]]}</span><span class="sr-only">, covered by a ${SIGNS[parseCard(covered).colour]}</span></span>`}
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
      const where = view.layout === "P" || view.layout === "M" ? `${COLOURS[x]} column, ${NOTES[y] || y}` : `column ${x}, row ${y}`;
      if (isLegal.has(key)) {
        rows.push(html`<button type="button" class=${`cell legal${over === key ? " drop" : ""}`} data-x=${x} data-y=${y} disabled=${busy}
          aria-label=${`Place ${cardText(selected)} at ${where}`}
          onClick=${() => place.onPlace(selected, x, y)}
          onDragOver=${(e) => { e.preventDefault(); setOver(key); }} onDragLeave=${() => setOver(null)}
          onDrop=${(e) => { e.preventDefault(); setOver(null); place.onPlace(selected, x, y); }}>
          ${cell ? html`<${Card} id=${cell.card} covered=${cell.covered_by} />` : "here"}</button>`);
      } else if (cell) {
        const by = fresh.get(key);
        rows.push(html`<div class=${`cell${by ? " recent" : ""}`} data-x=${x} data-y=${y} title=${by ? `just placed by ${nameOf(view, by.seat)}` : null}>
          <${Card} id=${cell.card} covered=${cell.covered_by} />${by && html`<span class="sr-only">, just placed by ${nameOf(view, by.seat)}</span>`}</div>`);
      } else {
        rows.push(html`<div class="cell" aria-hidden="true"></div>`);
      }
    }
  }
  return html`<div class="board-tools" role="group" aria-label="Board zoom">
      <button type="button" aria-label="Zoom out" onClick=${() => step(-1)} disabled=${zoom <= ZOOMS[0]}>−</button>
      <span class="small" aria-live="polite">${Math.round(zoom * 100)}%</span>
      <button type="button" aria-label="Zoom in" onClick=${() => step(1)} disabled=${zoom >= ZOOMS[ZOOMS.length - 1]}>+</button>
      <button type="button" onClick=${fit}>Fit the board</button>
    </div>
    <div class="board-wrap" tabindex="0" ref=${wrap} aria-label=${`The board: ${LAYOUTS[view.layout] || ""}`}
      onPointerDown=${onPointerDown} onPointerMove=${onPointerMove} onPointerUp=${endDrag} onPointerLeave=${endDrag} onPointerCancel=${endDrag}>
    <div class="board" style=${{ gridTemplateColumns: `repeat(${columns}, var(--cell-w))`, "--zoom": String(zoom) }}>${rows}</div></div>`;
}

function Hand({ view, place, selected, setSelected, busy }) {
  const hand = (view.you && view.you.hand) || [];
  const legalOf = Object.fromEntries(((place && place.cards) || []).map((c) => [c.card, c.cells.length]));
  return html`<section class="card hand-dock" aria-labelledby="hand-title">
    <h2 id="hand-title">Your hand (${plural(hand.length, "card")})</h2>
    ${place && (Object.values(legalOf).some((n) => n > 0)
      ? html`<p class="small">Tap a card, then a highlighted cell (or drag the card onto it).</p>`
      : html`<p class="small">None of your cards fits on the board now: pass.</p>`)}
    <ul class="hand">${hand.map((id) => {
      const playable = place && legalOf[id] > 0;
      return html`<li><button type="button" class=${`mcard c-${parseCard(id).colour}${selected === id ? " selected" : ""}${place && !playable ? " unplayable" : ""}`}
        aria-pressed=${selected === id}
        disabled=${busy || !place || !playable} draggable=${Boolean(playable)} data-card=${id}
        onClick=${() => setSelected(selected === id ? null : id)}
        onDragStart=${(e) => { setSelected(id); e.dataTransfer.setData("text/plain", id); }}>
        ${parseCard(id).sign ? html`<span class="note" aria-hidden="true">${SIGN_MARK[parseCard(id).sign]}</span><span aria-hidden="true">${parseCard(id).sign}</span>`
          : html`<span class="note" aria-hidden="true">${NOTES[parseCard(id).value]}</span><span aria-hidden="true">${parseCard(id).value}${parseCard(id).oval ? " ◯" : ""}</span>`}
        <span class="cname" aria-hidden="true">${parseCard(id).colour}</span>
        <span class="sr-only">${`${cardText(id)}${place ? (playable ? `, ${plural(legalOf[id], "place")} to play it` : ", cannot be played now") : ""}`}</span>
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
    <h2 id="auction-title">Auction</h2>
    <p>Bid a contract: a level (1–4) and a layout. The highest bid chooses the layout and must meet its target.
      ${a.bid ? html` Standing bid: <strong>${contractText(a.bid.contract)}</strong> by ${nameOf(view, a.bid.seat)}.` : " No bid yet."}</p>
    <ul class="auction-calls" aria-label="Calls so far">${a.calls.map((c) => html`<li>${nameOf(view, c.seat)}: ${c.call === "pass" ? "pass" : c.call}</li>`)}</ul>
    ${bid && html`<div class="contracts" role="group" aria-label="Contracts you may bid">${bid.contracts.map((c) => html`<button type="button" disabled=${busy}
      aria-label=${`Bid ${contractText(c)}`} onClick=${() => act({ type: "auction_bid", contract: c })}>${c}</button>`)}</div>`}
    ${(bid || pass) && html`<div class="actions">${pass && html`<button type="button" onClick=${() => act({ type: "auction_pass" })} disabled=${busy}>Pass</button>`}
      ${a.dealer_must_bid && bid && html`<span class="small">As the dealer you must bid now.</span>`}</div>`}
  </section>`;
}

function ChooseLayout({ view, space, act, busy }) {
  return html`<section class="card" aria-labelledby="layout-title">
    <h2 id="layout-title">Choose the layout</h2>
    <div class="button-list">${["S", "G", "P", "M"].map((l) => html`<button type="button" disabled=${busy || !space.layouts.includes(l)}
      aria-describedby=${`layout-rule-${l}`}
      onClick=${() => act({ type: "choose_layout", layout: l })}>${LAYOUTS[l]}${space.layouts.includes(l) ? "" : " (you cannot open it)"}</button>`)}</div>
    <dl class="small layout-rules">${["S", "G", "P", "M"].map((l) => html`<dt>${LAYOUTS[l]}</dt><dd id=${`layout-rule-${l}`}>${LAYOUT_RULES[l]}</dd>`)}</dl>
  </section>`;
}

function Players({ view, me }) {
  return html`<section class="card" aria-labelledby="mz-players-title">
    <h2 id="mz-players-title">Players</h2>
    <table class="grid-table"><thead><tr><th scope="col">Player</th>${view.mode === "team" && html`<th scope="col">Team</th>`}<th scope="col">Cards</th><th scope="col">Now</th><th scope="col">Points</th></tr></thead>
      <tbody>${view.players.map((p) => html`<tr class=${p.seat === me ? "me" : ""} data-seat=${p.seat}>
        <th scope="row">${p.name}${p.seat === me ? " (you)" : ""}${p.bot ? " · bot" : ""}</th>
        ${view.mode === "team" && html`<td>${TEAMS[p.team]}</td>`}
        <td>${p.hand_size}</td>
        <td class="small">${[p.seat === view.turn ? "to play" : "", p.seat === view.dealer ? "dealer" : "", p.seat === view.declarer ? "declarer" : "",
          p.blocked ? "blocked" : "", p.out ? `out, place ${p.place}` : "", p.seat === view.run ? "on a run" : ""].filter(Boolean).join(", ")}</td>
        <td>${p.total}</td></tr>`)}</tbody></table>
    ${view.team_totals && html`<p>Teams: ${TEAMS[0]} ${view.team_totals[0]} · ${TEAMS[1]} ${view.team_totals[1]}</p>`}
  </section>`;
}

function Sheet({ view, results }) {
  if (!results || !results.length) return null;
  return html`<div class="table-wrap"><table class="grid-table score-table" data-testid="score-sheet">
    <thead><tr><th scope="col">Hand</th><th scope="col">Layout</th>${view.players.map((p) => html`<th scope="col">${p.name}</th>`)}</tr></thead>
    <tbody>${results.map((r) => html`<tr><th scope="row">${r.hand}</th>
      <td>${LAYOUTS[r.layout]}${r.contract ? ` · ${r.contract} by ${nameOf(view, r.declarer)} ${r.made ? "made" : "failed"}` : ""}</td>
      ${r.points.map((pts, seat) => { const pl = r.places.find((x) => x.seat === seat); return html`<td>${pts}<span class="small muted">${pl ? ` (place ${pl.place})` : ""}</span></td>`; })}</tr>`)}</tbody>
  </table></div>`;
}

export function Table({ view, actions, act, busy, me, recent = [] }) {
  const [selected, setSelected] = useState(null);
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
    <section class="card" aria-labelledby="mz-board-title">
      <h2 id="mz-board-title">${view.layout ? LAYOUTS[view.layout] : "No layout yet"} · hand ${view.hand} of ${view.hands}</h2>
      <p class="small">${view.contract ? `Contract ${contractText(view.contract)} by ${nameOf(view, view.declarer)}. ` : ""}${view.chooser !== null ? `${nameOf(view, view.chooser)} chose the layout. ` : ""}
        Draw pile: ${plural(view.pile_size, "card")}.${view.blocked.length ? ` Blocked: ${listNames(view, view.blocked)}.` : ""}
        ${view.places.length ? ` Out: ${view.places.map((p) => `${nameOf(view, p.seat)} (${p.place})`).join(", ")}.` : ""}</p>
      ${view.layout && html`<p class="small" data-testid="layout-rule"><strong>${LAYOUTS[view.layout]}:</strong> ${LAYOUT_RULES[view.layout]}</p>`}
      ${view.layout ? html`<${Board} view=${view} place=${place} selected=${selected} busy=${busy} recent=${recent} />` : html`<p class="muted">The board appears once the layout is chosen.</p>`}
      ${(placeSpace || passSpace) && html`<div class="actions">
        ${passSpace && html`<button type="button" onClick=${() => act({ type: "pass" })} disabled=${busy}>${passSpace.draws ? "Pass and draw a card" : "Pass"}</button>`}
        ${placeSpace && !passSpace && html`<span class="small">You must play a card.</span>`}
      </div>`}
    </section>
    ${view.you && view.status !== "finished" && html`<${Hand} view=${view} place=${place} selected=${selected} setSelected=${setSelected} busy=${busy} />`}
    ${view.phase === "auction" && html`<${Auction} view=${view} actions=${actions} act=${act} busy=${busy} />`}
    ${layoutSpace && html`<${ChooseLayout} view=${view} space=${layoutSpace} act=${act} busy=${busy} />`}
  </div><div class="side-col">
    <${Players} view=${view} me=${me} />
    ${view.results.length > 0 && html`<section class="card" aria-labelledby="sheet-title"><h2 id="sheet-title">Score sheet</h2><${Sheet} view=${view} results=${view.results} /></section>`}
  </div></div>`;
}

export function Score({ view, score }) {
  if (!score) return null;
  return html`<div class="score">
    <p class="winners" data-testid="winners">Winner${score.winners.length > 1 ? "s" : ""}: ${listNames(view, score.winners)}${score.mode === "team" && score.teams.length
      ? ` (${TEAMS[score.teams.find((t) => t.seats.includes(score.winners[0])).team]})` : ""}.</p>
    ${score.teams.length > 0 && html`<p>${score.teams.map((t) => `${TEAMS[t.team]}: ${t.total}`).join(" · ")}</p>`}
    <div class="table-wrap"><table class="grid-table score-table">
      <thead><tr><th scope="col">Player</th><th scope="col">Places</th><th scope="col">Contracts</th><th scope="col">Chooser</th><th scope="col">Total</th></tr></thead>
      <tbody>${score.players.map((p) => html`<tr><th scope="row" class=${score.winners.includes(p.seat) ? "win" : ""}>${nameOf(view, p.seat)}</th>
        <td>${p.lines.places}</td><td>${p.lines.contracts}</td><td>${p.lines.chooser}</td><td class=${score.winners.includes(p.seat) ? "win" : ""}>${p.total}</td></tr>`)}</tbody>
    </table></div>
    <h3>Hands</h3>
    <${Sheet} view=${view} results=${score.hands} />
  </div>`;
}

export function status(view) {
  if (view.status === "open") return t("status.open");
  if (view.status === "finished") return t("status.over");
  return `${t("status.hand_of", { n: view.hand, total: view.hands })} · ${phaseName("muzicando", view.phase, PHASES)}${view.mode === "team" ? ` · ${t("format.teams")}` : ""}`;
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
  switch (e.type) {
    case "hand_dealt": return `Hand ${e.hand}: ${who(e.dealer)} deals.`;
    case "game_started": return "The game begins.";
    case "auction_bid": return live ? null : `${who(e.seat)} bids ${contractText(e.contract)}.`;
    case "auction_pass": return live ? null : `${who(e.seat)} passes.`;
    case "auction_won": return `${who(e.seat)} wins the auction: ${contractText(e.contract)}.`;
    case "layout_chosen": return `${who(e.seat)} chooses ${LAYOUTS[e.layout] || e.layout}.`;
    case "card_placed": return live ? null : `${who(e.seat)} places ${cardText(e.card)}.`;
    case "passed": return live ? null : `${who(e.seat)} passes${e.drew ? " and draws" : ""}.`;
    case "blocked": return `${who(e.seat)} plays a ${e.sign}: ${listNames(view, e.seats)} ${e.seats.length > 1 ? "are" : "is"} blocked.`;
    case "turn_skipped": return live ? null : `${who(e.seat)} is blocked and skips a turn.`;
    case "run_started": return `${who(e.seat)} plays the rest and runs.`;
    case "player_out": return `${who(e.seat)} is out, place ${e.place}.`;
    case "hand_scored": return `Hand ${e.hand} scored: ${(e.points || []).map((p, s) => `${who(s)} ${p}`).join(", ")}.`;
    case "redeal": return "Nobody could open: the cards are dealt again.";
    case "game_finished": return "The game is over.";
    case "deadline_passed": return `${who(e.seat)}'s time ran out: the engine played the default.`;
    default: return live ? null : titleCase(e.type);
  }
}

/** The rules in a minute, for a player who never read them. */
export function HowTo() {
  return html`<ul>
    <li>The cards are notes Do–Si (1–7) in seven colours, and signs: ♯ sharp, ♮ natural, ♭ flat and the rest.</li>
    <li>Each hand is played on one of four layouts, chosen at the start of the hand (by a player, or by whoever wins the
      auction). Each layout has its own rule for where a card may go, written above the board; the table lights up
      the cells where the card you tap fits.</li>
    <li>On your turn, place a card, or pass (and draw a card when the pile allows). A sign makes other players skip a turn;
      the rest lets you play a run of cards while the others wait.</li>
    <li>Get rid of all your cards: the first out takes the best place and the most points. After the last hand, the
      highest total wins.</li>
  </ul>`;
}

export default { Table, Score, status, yourTurn, describeEvent, HowTo };
