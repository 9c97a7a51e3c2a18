// The page's languages (docs/web.md): JSON catalogues in web/i18n/{lang}.json, flat keys,
// `{name}` placeholders, plurals as an object of Intl.PluralRules categories. `t(key, params)`
// gives the string in the chosen language; a key the language lacks falls back to English and
// is reported once in the console. Numbers and dates go through Intl.
//
// The catalogues are loaded here, with a top-level await: whatever imports this module gets a
// working `t` (English and the chosen language are in before any page renders).

/** Each language by its own name (the header's switch). */
export const LANGUAGES = { en: "English", it: "Italiano", de: "Deutsch", fr: "Français" };
export const DEFAULT_LANGUAGE = "en";
const STORE = "impresario:lang";

const catalogues = {};
const warned = new Set();
const listeners = new Set();
let current = DEFAULT_LANGUAGE;

async function load(code) {
  if (!catalogues[code]) {
    try {
      const resp = await fetch(`/web/i18n/${code}.json`);
      catalogues[code] = resp.ok ? await resp.json() : {};
    } catch {
      catalogues[code] = {};
    }
  }
  return catalogues[code];
}

/** The language to show: the one chosen here before, else the first of the browser's
 * languages we have (by its primary subtag: "it-CH" is Italian), else English. */
export function pickLanguage(stored, languages) {
  if (stored && stored in LANGUAGES) return stored;
  for (const tag of languages || []) {
    const primary = String(tag || "").toLowerCase().split("-")[0];
    if (primary in LANGUAGES) return primary;
  }
  return DEFAULT_LANGUAGE;
}

function storedLanguage() {
  try { return localStorage.getItem(STORE); } catch { return null; }
}

export function language() {
  return current;
}

/** Switch to ``code`` (loading its catalogue), remember it, and tell the listeners (the app
 * re-renders). */
export async function setLanguage(code, { keep = true } = {}) {
  if (!(code in LANGUAGES)) code = DEFAULT_LANGUAGE;
  await load(code);
  current = code;
  document.documentElement.lang = code;
  if (keep) {
    try { localStorage.setItem(STORE, code); } catch { /* private mode */ }
  }
  for (const fn of listeners) fn(code);
}

/** ``fn(code)`` after each switch; returns the function that stops it. */
export function onLanguage(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

export function formatNumber(n, options = {}) {
  return new Intl.NumberFormat(current, options).format(n);
}

export function formatDate(date, options = { dateStyle: "medium", timeStyle: "short" }) {
  const d = date instanceof Date ? date : new Date(typeof date === "number" ? date * 1000 : date);
  return new Intl.DateTimeFormat(current, options).format(d);
}

function lookup(code, key) {
  const cat = catalogues[code];
  return cat && Object.prototype.hasOwnProperty.call(cat, key) ? cat[key] : undefined;
}

function pluralForm(entry, code, params) {
  const n = typeof params.n === "number" ? params.n : Number(params.count);
  const category = new Intl.PluralRules(code).select(Number.isFinite(n) ? n : 0);
  return entry[category] ?? entry.other;
}

/** The string of ``key`` in the page's language, its `{name}` placeholders filled from
 * ``params`` (numbers formatted for the language). */
export function t(key, params = {}) {
  let code = current;
  let entry = lookup(code, key);
  if (entry === undefined && code !== DEFAULT_LANGUAGE) {
    if (!warned.has(`${code}:${key}`)) {
      warned.add(`${code}:${key}`);
      console.warn(`i18n: "${key}" is missing from the ${code} catalogue; English is shown`);
    }
    code = DEFAULT_LANGUAGE;
    entry = lookup(code, key);
  }
  if (entry === undefined) {
    if (!warned.has(`en:${key}`)) {
      warned.add(`en:${key}`);
      console.warn(`i18n: "${key}" is in no catalogue`);
    }
    return key;
  }
  let text = typeof entry === "object" ? pluralForm(entry, code, params) : entry;
  return String(text).replace(/\{(\w+)\}/g, (whole, name) => {
    if (!(name in params)) return whole;
    const value = params[name];
    return typeof value === "number" ? new Intl.NumberFormat(code).format(value) : String(value);
  });
}

/** Whether the current catalogue (or English) has ``key``: for codes the page may or may not
 * have words for. */
export function has(key) {
  return lookup(current, key) !== undefined || lookup(DEFAULT_LANGUAGE, key) !== undefined;
}

/** A game's phase in words: the catalogue's `phase.<ruleset>.<phase>`, else the game's own
 * (English) name from ``fallback``, else the engine's. */
export function phaseName(ruleset, phase, fallback = {}) {
  const key = `phase.${ruleset}.${phase}`;
  return has(key) ? t(key) : (fallback[phase] || phase);
}

await load(DEFAULT_LANGUAGE);
await setLanguage(pickLanguage(storedLanguage(), navigator.languages || [navigator.language]), { keep: false });
