import { html } from "../lib.js";
export function CalculatorPage() { return html`<h1>Calculators</h1>`; }
