import { html } from "../lib.js";
export function Table() { return html`<p>todo</p>`; }
export function Score() { return null; }
export function status(v) { return v.status; }
export function describeEvent() { return null; }
export default { Table, Score, status, describeEvent };
