// The replay viewer of a finished game: step through its moves and see the table after each
// one (GET /replay/{step}), as a spectator or through one seat's eyes, drawn by the ruleset's
// own table in read-only mode.
import { html, useEffect, useState } from "../lib.js";
import { call, explain } from "./api.js";
import { RULESET_TITLES, route, titleCase } from "./format.js";
import { seatOf } from "./store.js";
import { Alert } from "./ui.js";
import { GAMES, usePlaces } from "./game.js";
import { has, t } from "./i18n.js";
import { RulesHost } from "./rules.js";

/** A move's type and field names in the page's language (`replay.move.<type>`,
 * `replay.field.<name>`), else the engine's own; a value in the ruleset's words where its
 * module has them (``fieldValue``: a card, a side, a director), else the move's data. */
const named = (group, id) => (has(`replay.${group}.${id}`) ? t(`replay.${group}.${id}`) : null);

export function describeMove(move, names, module = null) {
  const m = move.move;
  const who = names[move.seat] || t("format.seat", { n: move.seat + 1 });
  const by = move.by === "bot" ? ` ${t("replay.by_bot")}` : move.by === "deadline" ? ` ${t("replay.by_deadline")}` : "";
  const value = (k, v) => {
    const own = module && module.fieldValue ? module.fieldValue(k, v) : undefined;
    if (own !== undefined) return own;
    if (typeof v === "boolean") return t(v ? "replay.true" : "replay.false");
    return typeof v === "object" && v !== null ? JSON.stringify(v) : v;
  };
  const details = Object.entries(m).filter(([k]) => k !== "type")
    .map(([k, v]) => `${named("field", k) || k.replace(/_/g, " ")} ${value(k, v)}`).join(", ");
  return `${who}${by}: ${named("move", m.type) || titleCase(m.type)}${details ? ` — ${details}` : ""}`;
}

export function ReplayPage({ id, query }) {
  const saved = seatOf(id);
  const spectator = query.spectator || saved.spectator || null;
  const [replay, setReplay] = useState(null);
  const [step, setStep] = useState(0);
  const [seat, setSeat] = useState(saved.seat !== undefined && saved.seat !== null ? String(saved.seat) : "");
  const [frame, setFrame] = useState(null);
  const [error, setError] = useState(null);
  const places = usePlaces(id, saved.token || saved.host, spectator);
  useEffect(() => {
    call("GET", `/v1/games/${encodeURIComponent(id)}/replay`, { spectator, token: saved.token || saved.host })
      .then((r) => setReplay(r.data)).catch((err) => setError(explain(err)));
  }, [id]);
  useEffect(() => {
    if (!replay) return undefined;
    let live = true;
    const q = new URLSearchParams();
    if (seat !== "") q.set("seat", seat);
    const text = q.toString();
    call("GET", `/v1/games/${encodeURIComponent(id)}/replay/${step}${text ? `?${text}` : ""}`, { spectator, token: saved.token || saved.host })
      .then((r) => { if (live) setFrame(r.data); }).catch((err) => { if (live) setError(explain(err)); });
    return () => { live = false; };
  }, [replay, step, seat]);
  if (!replay) return html`<div><h1>${t("replay.title")}</h1><${Alert} message=${error} />${!error && html`<p>${t("replay.loading")}</p>`}</div>`;
  const total = replay.moves.length;
  const module = GAMES[replay.ruleset];
  const go = (n) => setStep(Math.max(0, Math.min(total, n)));
  return html`<div class="replay">
    <h1>${t("replay.title")} <small>${RULESET_TITLES[replay.ruleset] || replay.ruleset} · ${replay.names.join(", ")}</small></h1>
    <${Alert} message=${error} />
    <section class="card" aria-labelledby="replay-controls">
      <h2 id="replay-controls">${t("replay.move_of", { step, total })}</h2>
      <div class="stepper">
        <button type="button" onClick=${() => go(0)} disabled=${step === 0} aria-label=${t("replay.first")}>⏮</button>
        <button type="button" onClick=${() => go(step - 1)} disabled=${step === 0} aria-label=${t("replay.previous")}>◀ ${t("replay.back")}</button>
        <input type="range" min="0" max=${total} value=${step} aria-label=${t("replay.number")} onInput=${(e) => go(Number(e.target.value))} />
        <button type="button" onClick=${() => go(step + 1)} disabled=${step === total} aria-label=${t("replay.next_move")}>${t("replay.next")} ▶</button>
        <button type="button" onClick=${() => go(total)} disabled=${step === total} aria-label=${t("replay.last")}>⏭</button>
      </div>
      <div class="field"><label for="replay-seat">${t("replay.see_as")}</label>
        <select id="replay-seat" value=${seat} onChange=${(e) => setSeat(e.target.value)}>
          <option value="">${t("replay.spectator")}</option>
          ${replay.names.map((n, i) => html`<option value=${String(i)}>${n}</option>`)}
        </select></div>
      <p aria-live="polite" data-testid="replay-move">${step === 0 ? t("replay.deal") : describeMove(replay.moves[step - 1], replay.names, module)}</p>
      <a class="button" href=${route("game", id, { spectator })}>${t("replay.back_game")}</a>
    </section>
    ${frame && module && html`<${module.Table} view=${frame.game} actions=${null} act=${async () => t("replay.is_replay")} busy=${true}
        me=${frame.seat} events=${[]} />`}
    ${frame && module && frame.step === total && html`<section class="card"><h2>${t("final.title")}</h2><${module.Score} view=${frame.game} score=${replay.score} places=${places} /></section>`}
    ${module && html`<${RulesHost} title=${RULESET_TITLES[replay.ruleset] || replay.ruleset} />`}
  </div>`;
}
