// The browser table's entry point: a hash router over the pages. Everything it shows comes
// from the public API (/v1); tokens live in localStorage, never in a URL the server sees.
import { html, render, useEffect, useState } from "./lib.js";
import { parseRoute } from "./shared/format.js";
import { language, LANGUAGES, onLanguage, setLanguage, t } from "./shared/i18n.js";
import { Lobby, JoinPage } from "./shared/lobby.js";
import { GamePage } from "./shared/game.js";
import { ReplayPage } from "./shared/replay.js";
import { CalculatorPage } from "./shared/calculators.js";
import { ClaimPage, LeaderboardPage, ProfilePage } from "./shared/profile.js";

/** The header's language switch: each language by its own name; the choice is remembered. */
function LanguageSwitch({ lang }) {
  return html`<div class="lang-switch">
    <label for="lang-select">${t("chrome.language")}</label>
    <select id="lang-select" value=${lang} onChange=${(e) => setLanguage(e.target.value)}>
      ${Object.entries(LANGUAGES).map(([code, name]) => html`<option value=${code} lang=${code}>${name}</option>`)}
    </select>
  </div>`;
}

function App() {
  const [where, setWhere] = useState(parseRoute(location.hash));
  // a new language re-renders every page from here, without a reload
  const [lang, setLang] = useState(language());
  useEffect(() => onLanguage(setLang), []);
  useEffect(() => {
    const moved = () => {
      setWhere(parseRoute(location.hash));
      window.scrollTo(0, 0);
    };
    window.addEventListener("hashchange", moved);
    return () => window.removeEventListener("hashchange", moved);
  }, []);
  useEffect(() => {
    // move focus to the new page's heading, as a screen reader user expects after navigation
    const heading = document.querySelector("main h1");
    if (heading) { heading.setAttribute("tabindex", "-1"); heading.focus({ preventScroll: true }); }
  }, [where.page, where.id]);
  let page;
  if (where.page === "game" && where.id) page = html`<${GamePage} key=${where.id} id=${where.id} query=${where.query} />`;
  else if (where.page === "join" && where.id) page = html`<${JoinPage} key=${where.id} id=${where.id} query=${where.query} />`;
  else if (where.page === "replay" && where.id) page = html`<${ReplayPage} key=${where.id} id=${where.id} query=${where.query} />`;
  else if (where.page === "calc") page = html`<${CalculatorPage} query=${where.query} />`;
  else if (where.page === "leaderboard") page = html`<${LeaderboardPage} key=${where.id} id=${where.id} />`;
  else if (where.page === "player" && where.id) page = html`<${ProfilePage} key=${where.id} id=${where.id} />`;
  else if (where.page === "claim") page = html`<${ClaimPage} code=${where.query.code} />`;
  else page = html`<${Lobby} />`;
  return html`
    <a class="skip" href="#main" onClick=${(e) => { e.preventDefault(); document.getElementById("main").focus(); }}>${t("chrome.skip")}</a>
    <header class="topbar">
      <a class="brand" href="#/">Impresario</a>
      <nav aria-label=${t("chrome.nav")}>
        <a href="#/">${t("chrome.lobby")}</a>
        <a href="#/calc">${t("chrome.calculators")}</a>
        <a href="/docs">API</a>
      </nav>
      <${LanguageSwitch} lang=${lang} />
    </header>
    <main id="main" tabindex="-1">${page}</main>`;
}

const root = document.getElementById("app");
root.textContent = "";  // the "Loading" line the page shows before the modules arrive
render(html`<${App} />`, root);
