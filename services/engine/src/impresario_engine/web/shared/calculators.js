// Calculators for tables playing the physical games: Turandot's best cast and score, and a
// Word Jam word's value (POST /v1/rulesets/turandot/score and /wordjam/value).
import { html, useEffect, useState } from "../lib.js";
import { call, explain } from "./api.js";
import { Alert } from "./ui.js";
import { CardFace, directorName, LINES, ROLES } from "../games/turandot.js";

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
  if (!catalogue) return html`<section class="card"><h2>Turandot: best cast</h2><${Alert} message=${error} /><p>Loading the catalogue…</p></section>`;
  const faces = Object.fromEntries(catalogue.singers.map((s) => [s.id, s]));
  return html`<form class="card" onSubmit=${score} aria-labelledby="calc-turandot">
    <h2 id="calc-turandot">Turandot: best cast and score</h2>
    <p>Pick your six singers (the default catalogue), your director and your stage elements.</p>
    <fieldset><legend>Singers: ${picked.length} of 6 picked</legend>
      <div class="singer-pick">${catalogue.singers.map((s) => html`<label>
        <input type="checkbox" checked=${picked.includes(s.id)} onChange=${() => toggle(s.id)} disabled=${!picked.includes(s.id) && picked.length >= 6}
          aria-label=${`${s.id}`} data-singer=${s.id} />
        <${CardFace} card=${s} /></label>`)}</div>
    </fieldset>
    <div class="field"><label for="calc-director">Director</label>
      <select id="calc-director" value=${director} onChange=${(e) => { setDirector(e.target.value); setResult(null); }}>
        ${catalogue.directors.map((d) => html`<option value=${d.id}>${directorName(d.id)}: ${d.effect}</option>`)}
      </select></div>
    <div class="field"><label for="calc-stage">Stage elements</label>
      <input id="calc-stage" type="number" min="0" max="21" value=${stage} onInput=${(e) => { setStage(e.target.value); setResult(null); }} /></div>
    <div class="field check"><input id="calc-puccini" type="checkbox" checked=${puccini} onChange=${(e) => setPuccini(e.target.checked)} />
      <label for="calc-puccini">Two players: I hold Puccini at the end (−1)</label></div>
    <${Alert} message=${error} />
    <button type="submit" class="primary" disabled=${picked.length !== 6}>Find the best cast</button>
    ${result && html`<div class="calc-result" data-testid="turandot-result" aria-live="polite">
      <h3>Best cast: ${result.best.total} points</h3>
      <div class="company-cards">${result.best.roles.map((id, i) => html`<${CardFace} card=${faces[id]} compact=${true} role=${ROLES[i].key} highlight=${true} />`)}</div>
      <table class="grid-table"><tbody>${LINES.map(([k, label]) => html`<tr><th scope="row">${label}</th><td>${result.best.lines[k]}</td></tr>`)}
        <tr class="total"><th scope="row">Total</th><td>${result.best.total}</td></tr></tbody></table>
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
  const reasons = { forbidden_consonant: "it uses the forbidden consonant", invalid_characters: "only letters are allowed", too_long: "it is too long", empty: "it is empty" };
  return html`<form class="card" onSubmit=${submit} aria-labelledby="calc-wordjam">
    <h2 id="calc-wordjam">Word Jam: a word's value</h2>
    <div class="choice-row">${values.map((v, i) => html`<div class="field"><label for=${`coin-${i}`}>${v}-coin card</label>
      <select id=${`coin-${i}`} value=${coins[i]} onChange=${(e) => { const next = coins.slice(); next[i] = e.target.value; setCoins(next); setResult(null); }}>
        ${CONSONANTS.map((c) => html`<option value=${c}>${c}</option>`)}</select></div>`)}
      <div class="field"><label for="coin-forbidden">Scimitar (forbidden)</label>
        <select id="coin-forbidden" value=${forbidden} onChange=${(e) => { setForbidden(e.target.value); setResult(null); }}>
          ${CONSONANTS.map((c) => html`<option value=${c}>${c}</option>`)}</select></div>
    </div>
    <div class="field"><label for="calc-word">Word</label>
      <input id="calc-word" type="text" value=${word} maxlength="64" onInput=${(e) => { setWord(e.target.value); setResult(null); }} /></div>
    <${Alert} message=${error} />
    <button type="submit" class="primary" disabled=${!word.trim()}>Value the word</button>
    ${result && html`<p class="winners" data-testid="word-result" aria-live="polite">${result.valid ? `${word}: ${result.value} coins.` : `${word} is not valid: ${reasons[result.reason] || result.reason}.`}</p>`}
  </form>`;
}

export function CalculatorPage() {
  return html`<div class="calculators">
    <h1>Scoring calculators</h1>
    <p class="lead">For tables playing the physical games: the engine does the arithmetic.</p>
    <div class="two-col"><div class="main-col"><${TurandotCalculator} /></div><div class="side-col"><${WordCalculator} /></div></div>
  </div>`;
}
