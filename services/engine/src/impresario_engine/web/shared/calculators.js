// Calculators for tables playing the physical games: Turandot's best cast and score, and a
// Word Jam word's value (POST /v1/rulesets/turandot/score and /wordjam/value).
import { html, useEffect, useState } from "../lib.js";
import { call, explain } from "./api.js";
import { Alert } from "./ui.js";
import { t } from "./i18n.js";
import { CardFace, directorEffect, directorName, lineName, LINES, ROLES } from "../games/turandot.js";

const CONSONANTS = "BCDFGHJKLMNPQRSTVWXYZ".split("");

function TurandotCalculator() {
  const [catalogue, setCatalogue] = useState(null);
  const [picked, setPicked] = useState([]);
  const [director, setDirector] = useState("neutral");
  const [stage, setStage] = useState(0);
  const [puccini, setPuccini] = useState(false);
  const [result, setResult] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    call("GET", "/v1/rulesets/turandot").then((r) => setCatalogue(r.data.catalogue)).catch((err) => setError(explain(err)));
  }, []);
  const toggle = (id) => {
    setResult(null);
    setPicked(picked.includes(id) ? picked.filter((x) => x !== id) : picked.length < 6 ? picked.concat(id) : picked);
  };
  const score = async (e) => {
    e.preventDefault();
    setError(null);
    try {
      const r = await call("POST", "/v1/rulesets/turandot/score", {
        body: { singers: picked, director: director || null, stage_elements: Number(stage), puccini },
      });
      setResult(r.data);
    } catch (err) { setError(explain(err)); }
  };
  if (!catalogue) return html`<section class="card"><h2>${t("calc.t_short")}</h2><${Alert} message=${error} /><p>${t("calc.t_loading")}</p></section>`;
  const faces = Object.fromEntries(catalogue.singers.map((s) => [s.id, s]));
  return html`<form class="card" onSubmit=${score} aria-labelledby="calc-turandot">
    <h2 id="calc-turandot">${t("calc.t_title")}</h2>
    <p>${t("calc.t_lead")}</p>
    <fieldset><legend>${t("calc.t_picked", { n: picked.length })}</legend>
      <div class="singer-pick">${catalogue.singers.map((s) => html`<label>
        <input type="checkbox" checked=${picked.includes(s.id)} onChange=${() => toggle(s.id)} disabled=${!picked.includes(s.id) && picked.length >= 6}
          aria-label=${`${s.id}`} data-singer=${s.id} />
        <${CardFace} card=${s} /></label>`)}</div>
    </fieldset>
    <div class="field"><label for="calc-director">${t("calc.t_director")}</label>
      <select id="calc-director" value=${director} onChange=${(e) => { setDirector(e.target.value); setResult(null); }}>
        ${catalogue.directors.map((d) => html`<option value=${d.id}>${directorName(d.id)}: ${directorEffect(d)}</option>`)}
      </select></div>
    <div class="field"><label for="calc-stage">${t("calc.t_stage")}</label>
      <input id="calc-stage" type="number" min="0" max="21" value=${stage} onInput=${(e) => { setStage(e.target.value); setResult(null); }} /></div>
    <div class="field check"><input id="calc-puccini" type="checkbox" checked=${puccini} onChange=${(e) => setPuccini(e.target.checked)} />
      <label for="calc-puccini">${t("calc.t_puccini")}</label></div>
    <${Alert} message=${error} />
    <button type="submit" class="primary" disabled=${picked.length !== 6}>${t("calc.t_find")}</button>
    ${result && html`<div class="calc-result" data-testid="turandot-result" aria-live="polite">
      <h3>${t("calc.t_best", { n: result.best.total })}</h3>
      <div class="company-cards">${result.best.roles.map((id, i) => html`<${CardFace} card=${faces[id]} compact=${true} role=${ROLES[i].key} highlight=${true} />`)}</div>
      <table class="grid-table"><tbody>${LINES.map((k) => html`<tr><th scope="row">${lineName(k)}</th><td>${result.best.lines[k]}</td></tr>`)}
        <tr class="total"><th scope="row">${t("calc.total")}</th><td>${result.best.total}</td></tr></tbody></table>
    </div>`}
  </form>`;
}

function WordCalculator() {
  const [word, setWord] = useState("");
  const [coins, setCoins] = useState(["T", "P", "N", "F"]);
  const [forbidden, setForbidden] = useState("R");
  const [result, setResult] = useState(null);
  const [error, setError] = useState(null);
  const values = [1, 2, 3, 3];
  const submit = async (e) => {
    e.preventDefault();
    setError(null);
    const map = {};
    coins.forEach((c, i) => { map[c] = (map[c] || 0) + values[i]; });
    try {
      const r = await call("POST", "/v1/rulesets/wordjam/value", { body: { word, coins: map, forbidden } });
      setResult(r.data);
    } catch (err) { setError(explain(err)); setResult(null); }
  };
  const reasons = ["forbidden_consonant", "invalid_characters", "too_long", "empty"];
  return html`<form class="card" onSubmit=${submit} aria-labelledby="calc-wordjam">
    <h2 id="calc-wordjam">${t("calc.w_title")}</h2>
    <div class="choice-row">${values.map((v, i) => html`<div class="field"><label for=${`coin-${i}`}>${t("calc.w_coin_card", { n: v })}</label>
      <select id=${`coin-${i}`} value=${coins[i]} onChange=${(e) => { const next = coins.slice(); next[i] = e.target.value; setCoins(next); setResult(null); }}>
        ${CONSONANTS.map((c) => html`<option value=${c}>${c}</option>`)}</select></div>`)}
      <div class="field"><label for="coin-forbidden">${t("calc.w_scimitar")}</label>
        <select id="coin-forbidden" value=${forbidden} onChange=${(e) => { setForbidden(e.target.value); setResult(null); }}>
          ${CONSONANTS.map((c) => html`<option value=${c}>${c}</option>`)}</select></div>
    </div>
    <div class="field"><label for="calc-word">${t("calc.w_word")}</label>
      <input id="calc-word" type="text" value=${word} maxlength="64" onInput=${(e) => { setWord(e.target.value); setResult(null); }} /></div>
    <${Alert} message=${error} />
    <button type="submit" class="primary" disabled=${!word.trim()}>${t("calc.w_value")}</button>
    ${result && html`<p class="winners" data-testid="word-result" aria-live="polite">${result.valid ? t("calc.w_worth", { word, n: result.value }) : t("calc.w_invalid", { word, reason: reasons.includes(result.reason) ? t(`calc.w_reason_${result.reason}`) : result.reason })}</p>`}
  </form>`;
}

export function CalculatorPage() {
  return html`<div class="calculators">
    <h1>${t("lobby.calculators")}</h1>
    <p class="lead">${t("calc.lead")}</p>
    <div class="two-col"><div class="main-col"><${TurandotCalculator} /></div><div class="side-col"><${WordCalculator} /></div></div>
  </div>`;
}
