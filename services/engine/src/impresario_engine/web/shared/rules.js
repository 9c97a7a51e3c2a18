// The full rules at the table (docs/web.md): each game's rules in the page's language, as the
// engine serves them from the rules package (GET /web/rules/<ruleset>?lang=..: Markdown, and
// which section explains each prompt), in a dialog opened from "how to play" or from the
// "why?" beside a prompt, at that prompt's section.
//
// The Markdown is turned into Preact elements by the small renderer below, never into HTML
// text: whatever the text holds is shown as text (no HTML injection). It knows what the rules
// use: headings with `{#anchor}`, paragraphs, lists, tables, **bold**, *italics*, links to a
// section `[text](#anchor)`, and card pictures `![caption](card:kind?attr=value)`, drawn here
// with the tables' own card styles.
import { html, useEffect, useRef, useState } from "../lib.js";
import { call, explain } from "./api.js";
import { language, t } from "./i18n.js";
import { Dialog } from "./ui.js";

const HEADING = /^(#{1,6})\s+(.*?)\s*(?:\{#([a-z0-9-]+)\})?\s*$/;
const BULLET = /^\s*[-*]\s+(.*)$/;
const NUMBERED = /^\s*(\d+)\.\s+(.*)$/;
const CARD_LINE = /^!\[([^\]]*)\]\(card:([a-z]+)(?:\?([^)]*))?\)\s*$/;
// one inline token at a time: a picture, a link, bold, italics
const INLINE = /!\[([^\]]*)\]\(([^)]*)\)|\[([^\]]+)\]\(#([a-z0-9-]+)\)|\*\*(.+?)\*\*|\*([^*\s][^*]*?)\*/;

/** ``text`` with its inline marks as Preact children; ``onLink(anchor)`` for section links. */
export function inline(text, onLink) {
  const out = [];
  let rest = String(text);
  let key = 0;
  while (rest) {
    const m = INLINE.exec(rest);
    if (!m) { out.push(rest); break; }
    if (m.index) out.push(rest.slice(0, m.index));
    if (m[0].startsWith("![")) out.push(m[1]);  // a picture inside a line: its caption only
    else if (m[3] !== undefined) {
      const anchor = m[4];
      out.push(html`<button type="button" class="link rule-link" key=${key++} data-anchor=${anchor}
        onClick=${() => onLink && onLink(anchor)}>${m[3]}</button>`);
    } else if (m[5] !== undefined) out.push(html`<strong key=${key++}>${inline(m[5], onLink)}</strong>`);
    else out.push(html`<em key=${key++}>${m[6]}</em>`);
    rest = rest.slice(m.index + m[0].length);
  }
  return out;
}

function cells(line) {
  return line.trim().replace(/^\|/, "").replace(/\|$/, "").split("|").map((c) => c.trim());
}

/** Markdown as blocks: ``[{type, ...}]`` (heading, para, list, table, cards). */
export function parse(markdown) {
  const lines = String(markdown).replace(/\r\n?/g, "\n").split("\n");
  const blocks = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (!line.trim()) { i++; continue; }
    const head = HEADING.exec(line);
    if (head) {
      blocks.push({ type: "heading", level: head[1].length, text: head[2], anchor: head[3] || null });
      i++;
    } else if (CARD_LINE.test(line)) {
      const cards = [];
      for (; i < lines.length && CARD_LINE.test(lines[i]); i++) {
        const m = CARD_LINE.exec(lines[i]);
        cards.push({ caption: m[1], kind: m[2], attrs: Object.fromEntries(new URLSearchParams(m[3] || "")) });
      }
      blocks.push({ type: "cards", cards });
    } else if (line.trim().startsWith("|")) {
      const rows = [];
      for (; i < lines.length && lines[i].trim().startsWith("|"); i++) rows.push(cells(lines[i]));
      const body = rows.slice(1).filter((r) => !r.every((c) => /^:?-{2,}:?$/.test(c)));
      blocks.push({ type: "table", head: rows[0], rows: body });
    } else if (BULLET.test(line) || NUMBERED.test(line)) {
      const ordered = !BULLET.test(line);
      const items = [];
      for (; i < lines.length && lines[i].trim(); i++) {
        const m = ordered ? NUMBERED.exec(lines[i]) : BULLET.exec(lines[i]);
        if (m) items.push(ordered ? m[2] : m[1]);
        else if (items.length) items[items.length - 1] += ` ${lines[i].trim()}`;  // a wrapped item
      }
      blocks.push({ type: "list", ordered, items });
    } else {
      const text = [];
      for (; i < lines.length && lines[i].trim() && !HEADING.test(lines[i]) && !CARD_LINE.test(lines[i])
        && !lines[i].trim().startsWith("|") && !BULLET.test(lines[i]) && !NUMBERED.test(lines[i]); i++) {
        text.push(lines[i].trim());
      }
      blocks.push({ type: "para", text: text.join(" ") });
    }
  }
  return blocks;
}

const SUITS = { sharp: "♯", natural: "♮", flat: "♭", rest: "▬" };
const SEX = { male: "♂", female: "♀", undefined: "⚥" };

/** A small picture of a card, drawn with the tables' styles; its caption says it in words. */
export function CardPicture({ kind, attrs, caption }) {
  let face;
  if (kind === "singer") {
    const stars = Math.max(0, Math.min(3, Number(attrs.stars) || 0));
    face = html`<div class=${`tcard singer cat-${attrs.category || ""}`} aria-hidden="true">
      <div class="tcard-mid"><span class="sex">${SEX[attrs.sex] || "?"}</span>
        <span class="stars">${"★".repeat(stars)}${"☆".repeat(3 - stars)}</span></div>
      ${attrs.role && html`<div class="tcard-fav">♥</div>`}
    </div>`;
  } else if (kind === "number" || kind === "money" || kind === "bluff") {
    const mark = kind === "number" ? attrs.n : kind === "money" ? "¤" : "?";
    face = html`<div class=${`tcard rule-${kind}`} aria-hidden="true"><div class="tcard-name">${mark}</div></div>`;
  } else if (kind === "coin" || kind === "scimitar") {
    face = html`<div class=${`coin${kind === "scimitar" ? " forbidden" : ""}`} aria-hidden="true">
      <span class="letter">${attrs.letter}</span>${kind === "coin" ? "●".repeat(Number(attrs.coins) || 0) : "⚔"}</div>`;
  } else if (kind === "note" || kind === "sign") {
    face = html`<div class=${`mcard c-${attrs.colour || ""}${attrs.oval ? " oval" : ""}`} aria-hidden="true">
      <span class="note">${kind === "note" ? attrs.note : SUITS[attrs.sign] || "?"}</span></div>`;
  } else {
    face = null;
  }
  return html`<figure class="rule-card" data-card=${kind}>${face}<figcaption>${caption}</figcaption></figure>`;
}

/** The rules as Preact elements; headings with an anchor get the id ``rule-<anchor>``. */
export function Markdown({ text, onLink }) {
  return parse(text).map((b, n) => {
    switch (b.type) {
      case "heading": {
        if (b.level === 1) return null;  // the game's name: the dialog's title says it
        const level = Math.min(6, b.level + 1);  // the dialog's own title is the h2
        const Tag = `h${level}`;
        return html`<${Tag} key=${n} id=${b.anchor ? `rule-${b.anchor}` : null} data-anchor=${b.anchor}
          tabindex="-1">${inline(b.text, onLink)}<//>`;
      }
      case "cards":
        return html`<div class="rule-cards" key=${n}>${b.cards.map((c, k) => html`<${CardPicture} key=${k} ...${c} />`)}</div>`;
      case "table":
        return html`<div class="table-wrap" key=${n}><table class="rule-table">
          <thead><tr>${b.head.map((c) => html`<th scope="col">${inline(c, onLink)}</th>`)}</tr></thead>
          <tbody>${b.rows.map((r) => html`<tr>${r.map((c) => html`<td>${inline(c, onLink)}</td>`)}</tr>`)}</tbody>
        </table></div>`;
      case "list":
        return b.ordered
          ? html`<ol key=${n}>${b.items.map((it) => html`<li>${inline(it, onLink)}</li>`)}</ol>`
          : html`<ul key=${n}>${b.items.map((it) => html`<li>${inline(it, onLink)}</li>`)}</ul>`;
      default:
        return html`<p key=${n}>${inline(b.text, onLink)}</p>`;
    }
  });
}

// ---------------------------------------------------------------- the dialog, opened from anywhere

const loaded = new Map();  // "ruleset:lang" -> the engine's answer (a promise)
const listeners = new Set();

function fetchRules(ruleset, lang) {
  const key = `${ruleset}:${lang}`;
  if (!loaded.has(key)) {
    const p = call("GET", `/web/rules/${encodeURIComponent(ruleset)}?lang=${encodeURIComponent(lang)}`).then((r) => r.data);
    p.catch(() => loaded.delete(key));  // a failed load is tried again next time
    loaded.set(key, p);
  }
  return loaded.get(key);
}

/** Open the rules of ``ruleset``: at ``anchor``, or at the section of the prompt of ``kinds``
 * (a seat's pending move kinds) or else of ``phase``; at the top when none is given. */
export function openRules(ruleset, { anchor = null, kinds = [], phase = null } = {}) {
  for (const fn of listeners) fn({ ruleset, anchor, kinds, phase });
}

function sectionOf(prompts, { anchor, kinds, phase }) {
  if (anchor) return anchor;
  if (!prompts) return null;
  for (const k of kinds || []) if (prompts.kinds && prompts.kinds[k]) return prompts.kinds[k];
  return (phase && prompts.phases && prompts.phases[phase]) || null;
}

/** The "why?" beside a prompt: opens the rules at the section that explains it. */
export function WhyLink({ ruleset, kinds = [], phase = null }) {
  return html`<button type="button" class="link why" data-testid="rule-why"
    onClick=${() => openRules(ruleset, { kinds, phase })}>${t("rules.why")}</button>`;
}

/** The game page's one rules dialog (rendered once per page): listens for ``openRules``. */
export function RulesHost({ title }) {
  const [asked, setAsked] = useState(null);
  const [data, setData] = useState(null);
  const [error, setError] = useState(null);
  const body = useRef(null);
  const lang = language();
  useEffect(() => {
    const fn = (a) => setAsked({ ...a, at: Date.now() });
    listeners.add(fn);
    return () => listeners.delete(fn);
  }, []);
  const ruleset = asked && asked.ruleset;
  useEffect(() => {
    if (!ruleset) return;
    let live = true;
    setError(null);
    fetchRules(ruleset, lang).then((d) => { if (live) setData(d); }).catch((err) => { if (live) setError(explain(err)); });
    return () => { live = false; };
  }, [ruleset, lang]);
  const ready = data && asked && data.ruleset === asked.ruleset && data.lang === lang;
  const target = ready ? sectionOf(data.prompts, asked) : null;
  const goTo = (anchor) => {
    const root = body.current;
    const el = root && root.querySelector(`#rule-${CSS.escape(anchor || "")}`);
    if (!el) return;
    for (const old of root.querySelectorAll(".rule-target")) old.classList.remove("rule-target");
    el.classList.add("rule-target");
    el.scrollIntoView({ block: "start" });
    el.focus({ preventScroll: true });
  };
  // once the text is shown: to the asked section (or the top), its heading focused
  useEffect(() => {
    if (!ready) return;
    if (target) goTo(target);
    else if (body.current) body.current.scrollTop = 0;
  }, [ready, target, asked && asked.at]);
  const close = () => setAsked(null);
  const sections = ready ? parse(data.markdown).filter((b) => b.type === "heading" && b.level === 2 && b.anchor) : [];
  return html`<${Dialog} open=${Boolean(asked)} title=${t("rules.title", { game: title })} id="rules-dialog" onClose=${close} noRule=${true}>
    <div class="rules-body" ref=${body} data-testid="rules" data-lang=${ready ? data.lang : ""} data-target=${target || ""}>
      ${error && html`<p class="alert alert-error" role="alert">${error}</p>`}
      ${!ready && !error && html`<p>${t("rules.loading")}</p>`}
      ${ready && html`<nav aria-label=${t("rules.contents")} class="rules-toc"><ul>
        ${sections.map((s) => html`<li key=${s.anchor}><button type="button" class="link" onClick=${() => goTo(s.anchor)}>${inline(s.text)}</button></li>`)}
      </ul></nav>
      <article class="rules-text"><${Markdown} text=${data.markdown} onLink=${goTo} /></article>`}
    </div>
  <//>`;
}
