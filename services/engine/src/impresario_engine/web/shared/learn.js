// A guided first game (docs/web.md): the lobby's "Learn to play" creates the ruleset's guided
// table as the engine serves it (GET /web/guide/<ruleset>: the rules package's seed, players,
// gentle bots and options), and the table shows the seat's step, as the engine words it
// (GET /v1/games/{id}/guide), in a panel near the prompt, with a "why?" opening the rule.
import { html, useEffect, useState } from "../lib.js";
import { call, withQuery } from "./api.js";
import { language, onLanguage, t } from "./i18n.js";
import { openRules } from "./rules.js";

/** The guided table of ``ruleset`` (its name) for the page's language. */
export async function guidedTable(ruleset) {
  return (await call("GET", withQuery(`/web/guide/${encodeURIComponent(ruleset)}`, { lang: language() }))).data;
}

/** The seat's step in a guided game, fetched again at every version and language. */
export function GuidePanel({ view, id, token }) {
  const [step, setStep] = useState(null);
  const [lang, setLang] = useState(language);
  useEffect(() => onLanguage(() => setLang(language())), []);
  const wanted = Boolean(view.guided && token && view.status !== "open");
  useEffect(() => {
    if (!wanted) return undefined;
    let stale = false;
    call("GET", withQuery(`/v1/games/${encodeURIComponent(id)}/guide`, { lang }), { token })
      .then((r) => { if (!stale) setStep(r.data); })
      .catch(() => { /* the panel keeps the last step; the table shows the game's errors */ });
    return () => { stale = true; };
  }, [wanted, id, token, view.version, lang]);
  if (!wanted || !step) return null;
  return html`<section class="card guide" aria-labelledby="guide-title" data-testid="guide"
      data-step=${step.key} data-version=${step.version}>
    <h2 id="guide-title">${t("guide.title")}</h2>
    <p class="guide-text" aria-live="polite">${step.text}</p>
    <button type="button" class="link why" data-testid="guide-why"
      onClick=${() => openRules(view.ruleset, { anchor: step.anchor })}>${t("guide.why", { rule: step.rule_title || "" })}</button>
  </section>`;
}
