import { html } from "../lib.js";
export function ReplayPage() { return html`<h1>Replay</h1>`; }
