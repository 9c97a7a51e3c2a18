// Word Jam's table: the coin consonants and the forbidden one, the theme card, the cave, and a
// panel for whatever the player may do now (call Open Sesame, challenge, vote, bet, steal),
// with the engine's own messages when a word is refused.
import { html, useEffect, useRef, useState } from "../lib.js";
import { Problem } from "../shared/api.js";
import { LANGUAGES, listNames, nameOf, titleCase } from "../shared/format.js";
import { has, language, phaseName, t } from "../shared/i18n.js";

// Words players see are the catalogues' (`wordjam.*`, the Italian edition's terms); the engine's
// ids (sides, reasons, outcomes, roles, style cards) pick the key, its own word when unknown.
const word = (group, id) => (has(`wordjam.${group}.${id}`) ? t(`wordjam.${group}.${id}`) : id);
const side = (id) => word("side", id);
const reason = (id, detail) => (has(`wordjam.reason.${id}`) ? t(`wordjam.reason.${id}`) : detail || id);
const coins = (n) => t("wordjam.coins", { n });

function Coins({ view }) {
  return html`<ul class="coins" aria-label=${t("wordjam.consonants")}>
    ${view.coins.map((c) => html`<li class="coin" data-consonant=${c.consonant}>
      <span class="letter">${c.consonant}</span>${coins(c.coins)}</li>`)}
    <li class="coin forbidden" data-consonant=${view.forbidden}><span class="letter" aria-hidden="true">${view.forbidden}</span>
      <span class="sr-only">${view.forbidden} </span>${t("wordjam.forbidden")}</li>
  </ul>`;
}

function Cave({ view }) {
  const shown = Object.fromEntries(view.cave.columns.map((c) => [c.column, c]));
  return html`<ol class="cave" aria-label=${t("wordjam.cave_label")}>
    ${Array.from({ length: view.cave.total_columns }, (_, i) => i + 1).map((n) => {
      const c = shown[n];
      const now = n === view.cave.column;
      return html`<li class=${`${now ? "now" : ""}${c ? "" : " hidden"}`} aria-current=${now ? "true" : undefined}>
        <div>${n}</div>${c ? html`<div><span class="red" title=${t("wordjam.red")}>${c.red}</span> / <span class="yellow" title=${t("wordjam.yellow")}>${c.yellow}</span></div>` : html`<div>?</div>`}
        ${now && html`<span class="sr-only"> (${t("wordjam.cave_now", { red: c ? c.red : "?", yellow: c ? c.yellow : "?" })})</span>`}</li>`;
    })}
  </ol>`;
}

/** What the word typed would be worth now, and whether the engine would take it: the game's own
 * check (``POST /v1/games/{id}/word-check``, the rules' checks of a call: letters, the
 * forbidden consonant, reuse, the theme's first letter or eight letters, the dictionary),
 * never a copy of the rules here. ``{word, valid, value, reason, detail}`` or null. */
function useWordValue(view, word, checkWord) {
  const [value, setValue] = useState(null);
  useEffect(() => {
    const typed = word.trim();
    if (!typed || !checkWord) { setValue(null); return undefined; }
    let live = true;
    const timer = setTimeout(async () => {
      try {
        const r = await checkWord(typed.slice(0, 64));
        if (live) setValue({ ...r, word: typed });
      } catch (err) {
        // a word that is not one (no letters, too long, other characters): the engine says why
        if (live) setValue(err instanceof Problem && err.status === 422
          ? { word: typed, valid: false, reason: (err.body && err.body.reason) || err.code, detail: err.detail } : null);
      }
    }, 250);
    return () => { live = false; clearTimeout(timer); };
  }, [word, view.version, checkWord]);
  return value;
}

function ValueHint({ value }) {
  if (!value) return null;
  return html`<p class="small" aria-live="polite" data-testid="word-value" data-word=${value.word}>${value.valid
    ? t("wordjam.worth", { coins: coins(value.value) }) : t("wordjam.not_valid", { reason: reason(value.reason, language() === "en" && value.detail) })}</p>`;
}

function CallPanel({ view, space, act, busy, canPass, checkWord }) {
  const [word, setWord] = useState("");
  const [error, setError] = useState(null);
  const value = useWordValue(view, word, checkWord);
  const submit = async (e) => {
    e.preventDefault();
    if (!word.trim()) { setError(t("wordjam.write_first")); return; }
    setError(await act({ type: "open_sesame", word: word.trim() }, { inline: true }));
  };
  return html`<form class="card word-form" onSubmit=${submit} aria-labelledby="call-title">
    <h2 id="call-title">${t("wordjam.open_sesame")}</h2>
    <p>${t("wordjam.call_lead", { letter: view.forbidden })}
      ${space && space.check === "eight_letters" ? ` ${t("wordjam.must_eight")}` : ""}
      ${space && space.first_letter ? ` ${t("wordjam.must_start", { letter: space.first_letter })}` : ""}</p>
    <div class="field"><label for="call-word">${t("wordjam.your_word")}</label>
      <div class="share-row"><input id="call-word" type="text" autocomplete="off" autocapitalize="characters" spellcheck="false"
        maxlength="64" value=${word} onInput=${(e) => { setWord(e.target.value); setError(null); }}
        aria-describedby="call-error" />
      <button type="submit" class="primary" disabled=${busy}>${t("wordjam.open_sesame")}</button></div></div>
    <${ValueHint} value=${value} />
    <div id="call-error" class="field-error" role="alert">${error}</div>
    ${canPass && html`<button type="button" onClick=${() => act({ type: "no_call" })} disabled=${busy}>${t("wordjam.nothing_this_turn")}</button>`}
  </form>`;
}

function ChallengePanel({ view, space, act, busy }) {
  return html`<section class="card" aria-labelledby="challenge-title">
    <h2 id="challenge-title">${t("wordjam.challenge_title", { word: space.word })}</h2>
    <p>${t(space.about === "call" ? "wordjam.author_called" : "wordjam.author_declared", { name: nameOf(view, space.author) })} <strong>${space.word}</strong>${" "}(${coins(space.value)}).
      ${t("wordjam.off_theme")}</p>
    <div class="big-choice">
      <button type="button" onClick=${() => act({ type: "challenge", word_id: space.word_id })} disabled=${busy}>${t("wordjam.challenge")}</button>
      <button type="button" class="primary" onClick=${() => act({ type: "no_challenge", word_id: space.word_id })} disabled=${busy}>${t("wordjam.let_stand")}</button>
    </div>
  </section>`;
}

function VotePanel({ view, space, act, busy }) {
  const c = view.challenge;
  const wordId = (space && space.word_id) || (c && c.word_id) || null;
  return html`<section class="card" aria-labelledby="vote-title">
    <h2 id="vote-title">${c ? t("wordjam.vote_title", { word: c.word }) : t("wordjam.vote_title_any")}</h2>
    ${c && html`<p>${t("wordjam.vote_lead", { name: nameOf(view, c.challenger), author: nameOf(view, c.seat) })}</p>`}
    <div class="big-choice">
      <button type="button" class="primary" onClick=${() => act({ type: "vote", in_favour: true, word_id: wordId })} disabled=${busy}>${t("wordjam.keep")}</button>
      <button type="button" onClick=${() => act({ type: "vote", in_favour: false, word_id: wordId })} disabled=${busy}>${t("wordjam.reject")}</button>
    </div>
  </section>`;
}

export function SidePanel({ view, kind, act, busy }) {
  const bet = kind === "bet";
  const word = view.ali_word;
  return html`<section class="card" aria-labelledby="side-title">
    <h2 id="side-title">${t(bet ? "wordjam.your_bet" : "wordjam.choose_side_title")}</h2>
    <p>${bet && word ? html`${t("wordjam.is_ali_baba", { name: nameOf(view, view.ali_baba) })} <strong>${word.word}</strong> (${coins(word.value)}).${" "}${t("wordjam.trust_or_join")}` : t("wordjam.sides_lead")}</p>
    <div class="big-choice">
      <button type="button" class="primary" onClick=${() => act({ type: kind, side: "ali_baba" })} disabled=${busy}>${t("wordjam.trust")}</button>
      <button type="button" onClick=${() => act({ type: kind, side: "thieves" })} disabled=${busy}>${t("wordjam.join_thieves")}</button>
    </div>
  </section>`;
}

function ThiefPanel({ view, space, act, busy, checkWord }) {
  const you = view.you || {};
  const [word, setWord] = useState(you.word || "");
  const [error, setError] = useState(null);
  const value = useWordValue(view, word, checkWord);
  const send = async (final) => {
    if (!word.trim()) { setError(t("wordjam.write_first")); return; }
    setError(await act({ type: "thief_word", word: word.trim(), final }, { inline: true }));
  };
  return html`<form class="card word-form" onSubmit=${(e) => { e.preventDefault(); send(false); }} aria-labelledby="thief-title">
    <h2 id="thief-title">${t(view.final_turn ? "wordjam.secret_word" : "wordjam.window_title")}</h2>
    <p>${space.must_beat !== null && space.must_beat !== undefined ? `${t("wordjam.beat", { coins: coins(space.must_beat) })} ` : ""}
      ${t("wordjam.thief_lead")}</p>
    <div class="field"><label for="thief-word">${t("wordjam.secret_word")}</label>
      <input id="thief-word" type="text" autocomplete="off" autocapitalize="characters" spellcheck="false" maxlength="64"
        value=${word} onInput=${(e) => { setWord(e.target.value); setError(null); }} aria-describedby="thief-error" /></div>
    <${ValueHint} value=${value} />
    ${you.word && html`<p class="small" data-testid="my-secret-word">${t("wordjam.submitted")} <strong>${you.word}</strong>${you.word_check
      ? (you.word_check.valid ? `, ${t("wordjam.worth_now", { coins: coins(you.word_check.value) })}` : `, ${t("wordjam.not_valid_now", { reason: reason(you.word_check.reason) })}`) : ""}${you.word_final ? ` (${t("wordjam.final")})` : ""}.</p>`}
    <div id="thief-error" class="field-error" role="alert">${error}</div>
    <div class="actions">
      <button type="submit" disabled=${busy}>${t("wordjam.submit")}</button>
      <button type="button" class="primary" onClick=${() => send(true)} disabled=${busy}>${t("wordjam.submit_final")}</button>
      <button type="button" onClick=${() => act({ type: "thief_pass" })} disabled=${busy}>${t("wordjam.pass")}</button>
    </div>
  </form>`;
}

/** A short window's panel (a challenge, a vote, a bet, a side): brought on screen when the
 * window opens, so what must be clicked in it is visible without scrolling (at 1280×800 it
 * opens below the board). Once per window (``key``): a player who scrolls away stays there. */
function OnScreen({ children }) {
  const ref = useRef(null);
  useEffect(() => {
    const el = ref.current;
    if (el && el.scrollIntoView) el.scrollIntoView({ block: "nearest" });
  }, []);
  return html`<div ref=${ref} class="on-screen" data-testid="window-panel">${children}</div>`;
}

function MyMove({ view, actions, act, busy, checkWord }) {
  if (!actions || !actions.moves.length) return null;
  const find = (t) => actions.moves.find((m) => m.type === t);
  const windowKey = `${view.phase}-${view.turn}-${view.extra_turn || 0}-${view.challenge ? view.challenge.word_id : ""}`;
  const onScreen = (panel) => html`<${OnScreen} key=${windowKey}>${panel}<//>`;
  if (find("open_sesame")) return html`<${CallPanel} key=${`call-${view.turn}`} view=${view} space=${find("open_sesame")} act=${act} busy=${busy} canPass=${Boolean(find("no_call"))} checkWord=${checkWord} />`;
  if (find("challenge") || find("no_challenge")) return onScreen(html`<${ChallengePanel} view=${view} space=${find("challenge") || { ...find("no_challenge"), word: view.challenge && view.challenge.word, value: view.challenge && view.challenge.value, author: view.challenge && view.challenge.seat, about: view.challenge && view.challenge.about }} act=${act} busy=${busy} />`);
  if (find("vote")) return onScreen(html`<${VotePanel} view=${view} space=${find("vote")} act=${act} busy=${busy} />`);
  if (find("bet")) return onScreen(html`<${SidePanel} view=${view} kind="bet" act=${act} busy=${busy} />`);
  if (find("choose_side")) return onScreen(html`<${SidePanel} view=${view} kind="choose_side" act=${act} busy=${busy} />`);
  if (find("thief_word") || find("thief_pass")) return html`<${ThiefPanel} key=${`thief-${view.turn}`} view=${view} space=${find("thief_word") || {}} act=${act} busy=${busy} checkWord=${checkWord} />`;
  return null;
}

/** Whether the view's ``last_vote`` (the game's last, kept across turns) was this turn's: the
 * feed's last vote comes after the last turn's start. Without events (the replay) it is shown. */
export function voteThisTurn(view, events) {
  if (!view.last_vote) return false;
  if (!events || !events.length) return true;
  let started = -1;
  let voted = -1;
  for (const e of events) {
    if (e.type === "turn_started") started = e.seq;
    else if (e.type === "vote_result") voted = e.seq;
  }
  return started < 0 || voted > started;
}

export function Situation({ view, events }) {
  const items = [];
  const bets = (list) => list.map((b) => `${nameOf(view, b.seat)} → ${side(b.side)}`).join(", ");
  if (view.ali_word) items.push(html`<li>${t("wordjam.sit_ali")} <strong>${nameOf(view, view.ali_baba)}</strong> ${t("wordjam.with")} <strong>${view.ali_word.word}</strong> (${coins(view.ali_word.value)}).</li>`);
  if (view.barred.length) items.push(html`<li>${t("wordjam.sit_barred", { names: listNames(view, view.barred) })}</li>`);
  if (view.challenge) items.push(html`<li>${t("wordjam.sit_challenge", { word: view.challenge.word, name: nameOf(view, view.challenge.seat), state: view.challenge.stage === "vote"
    ? t("wordjam.sit_challenged", { name: nameOf(view, view.challenge.challenger), votes: t("wordjam.votes", { n: view.challenge.votes_cast }) }) : t("wordjam.sit_may_challenge") })}</li>`);
  if (voteThisTurn(view, events)) items.push(html`<li>${t(view.last_vote.stands ? "wordjam.sit_vote_stands" : "wordjam.sit_vote_falls", { word: view.last_vote.word, n: view.last_vote.in_favour })}${" "}(${view.last_vote.votes.map((v) => `${nameOf(view, v.seat)} ${t(v.in_favour ? "wordjam.for" : "wordjam.against")}`).join(", ")}).</li>`);
  if (view.bets) items.push(html`<li>${t("wordjam.sit_bets", { list: bets(view.bets) })}</li>`);
  if (view.sides) items.push(html`<li>${t("wordjam.sit_sides", { list: bets(view.sides) })}</li>`);
  if (view.window && view.window.length) items.push(html`<li>${view.must_beat !== null ? t("wordjam.sit_window_beat", { names: listNames(view, view.window), coins: coins(view.must_beat) }) : t("wordjam.sit_window", { names: listNames(view, view.window) })}</li>`);
  for (const d of view.declarations || []) items.push(html`<li>${nameOf(view, d.seat)} (${side(d.side)}): ${d.word ? html`<strong>${d.word}</strong> ${d.value !== null ? `(${coins(d.value)})` : ""}` : ""} — ${word("outcome", d.outcome)}${d.reason ? ` (${reason(d.reason)})` : ""}.</li>`);
  if (view.chief_thief !== null) items.push(html`<li>${t("wordjam.sit_chief")} <strong>${nameOf(view, view.chief_thief)}</strong>.</li>`);
  if (view.best) for (const s of ["ali_baba", "thieves"]) if (view.best[s]) items.push(html`<li>${t("wordjam.sit_best", { side: side(s), word: view.best[s].word, name: nameOf(view, view.best[s].seat), coins: coins(view.best[s].value) })}</li>`);
  if (!items.length) return null;
  return html`<section class="card" aria-labelledby="situation-title"><h2 id="situation-title">${t("wordjam.this_turn")}</h2><ul>${items}</ul></section>`;
}

function Awards({ view }) {
  const last = view.history[view.history.length - 1];
  if (!last) return null;
  return html`<section class="card" aria-labelledby="awards-title" data-testid="awards">
    <h2 id="awards-title">${t(last.extra_turn ? "wordjam.awards_extra" : "wordjam.awards", { n: last.turn, extra: last.extra_turn })}</h2>
    ${last.called ? html`<p>${t("wordjam.called", { name: nameOf(view, last.ali_baba), word: last.word, coins: coins(last.value || 0) })}
      ${last.chief_thief !== null ? ` ${t("wordjam.chief_is", { name: nameOf(view, last.chief_thief) })}` : ""}</p>` : html`<p>${t("wordjam.ev.nobody_called")}</p>`}
    ${last.awards.length > 0 && html`<ul>${last.awards.map((a) => html`<li>${nameOf(view, a.seat)}: +${a.points} ${word("colour", a.colour)} (${word("role", a.role)})</li>`)}</ul>`}
  </section>`;
}

function Players({ view, me, recent = [] }) {
  // the seats that moved since this seat's last move: their rows are marked (and say so)
  const moved = new Set(recent.map((e) => e.seat));
  const flags = (p) => {
    const out = [];
    if (p.seat === view.ali_baba) out.push(t("wordjam.flag.ali_baba"));
    if (p.seat === view.chief_thief) out.push(t("wordjam.flag.chief_thief"));
    if (p.sitting_out) out.push(t("wordjam.flag.sitting_out"));
    if (p.no_call && view.phase === "think") out.push(t("wordjam.flag.no_call"));
    if (p.has_side) out.push(t("wordjam.flag.has_side"));
    if (p.has_bet) out.push(t("wordjam.flag.has_bet"));
    if (p.word_final) out.push(t("wordjam.flag.word_final"));
    if (p.has_voted) out.push(t("wordjam.flag.has_voted"));
    return out.join(", ");
  };
  return html`<section class="card" aria-labelledby="wj-players-title">
    <h2 id="wj-players-title">${t("tables.players")}</h2>
    <table class="grid-table players-table"><thead><tr><th scope="col">${t("tables.player")}</th><th scope="col">${t("tables.points")}</th><th scope="col">${t("tables.now")}</th></tr></thead>
      <tbody>${view.players.map((p) => html`<tr class=${`${p.seat === me ? "me" : ""}${moved.has(p.seat) ? " recent" : ""}`} data-seat=${p.seat}><th scope="row">${p.name}${p.seat === me ? ` (${t("tables.you_mark")})` : ""}${p.bot ? ` · ${t("tables.bot")}` : ""}${moved.has(p.seat) ? html`<span class="sr-only"> (${t("tables.moved_since")})</span>` : ""}</th>
        <td>${p.total}</td><td class="flags">${flags(p)}</td></tr>`)}</tbody></table>
  </section>`;
}

export function Table({ view, actions, act, busy, me, checkWord, events, recent = [] }) {
  const turn = view.extra_turn ? t("wordjam.extra_turn", { n: view.extra_turn }) : t("wordjam.turn_of", { n: view.turn, total: 8 });
  const style = view.style;
  const styleName = has(`wordjam.style.${style.id}`) ? t(`wordjam.style.${style.id}`) : style.name;
  return html`<div class="wj two-col"><div class="main-col">
    <section class="card" aria-labelledby="wj-board-title">
      <h2 id="wj-board-title">${turn}${view.final_turn ? ` — ${t("wordjam.last_turn")}` : ""}</h2>
      <${Coins} view=${view} />
      <div class="card theme-card" data-testid="theme">
        <strong>${t("wordjam.theme", { name: styleName })}</strong>${style.name_it !== styleName ? html` <span class="muted" lang="it">(${style.name_it})</span>` : ""}
        <div class="small">${has(`wordjam.style_desc.${style.id}`) ? t(`wordjam.style_desc.${style.id}`) : style.description}${style.dictionary ? ` · ${t("wordjam.dictionary_settles")}` : ""}${style.proper_nouns ? ` · ${t("wordjam.proper_nouns")}` : ""}</div>
        ${view.language && html`<div class="small" data-testid="language">${t("wordjam.words_in", { language: LANGUAGES[view.language] ? t(LANGUAGES[view.language]) : view.language })}</div>`}
      </div>
      <h3>${t("wordjam.the_cave")}</h3>
      <${Cave} view=${view} />
    </section>
    <${MyMove} view=${view} actions=${actions} act=${act} busy=${busy} checkWord=${checkWord} />
    <${Situation} view=${view} events=${events} />
  </div><div class="side-col">
    <${Players} view=${view} me=${me} recent=${recent} />
    <${Awards} view=${view} />
    ${view.used_words.length > 0 && html`<section class="card"><h2>${t("wordjam.words_used")}</h2><p class="small">${view.used_words.join(", ")}</p></section>`}
  </div></div>`;
}

/** A score line's column: "turn_3" → "Turn 3" ("T3" in the heading), "extra_1" → "Extra 1" ("X1"). */
function lineLabel(line) {
  const [kind, n] = line.split("_");
  return t(kind === "extra" ? "wordjam.col_extra" : "wordjam.col_turn", { n: Number(n) });
}

function lineShort(line) {
  const [kind, n] = line.split("_");
  return t(kind === "extra" ? "wordjam.col_extra_short" : "wordjam.col_turn_short", { n: Number(n) });
}

export function Score({ view, score }) {
  if (!score) return null;
  const turns = ["turn_1", "turn_2", "turn_3", "turn_4", "turn_5", "turn_6", "turn_7", "turn_8"];
  const extra = ["extra_1", "extra_2", "extra_3"].slice(0, score.extra_turns);
  return html`<div class="score">
    <p class="winners" data-testid="winners">${t(score.shared ? "wordjam.shared_victory" : "wordjam.winner", { names: listNames(view, score.winners) })}</p>
    <div class="table-wrap"><table class="grid-table score-table">
      <thead><tr><th scope="col">${t("tables.player")}</th><th scope="col">${t("tables.total")}</th>${turns.concat(extra).map((line) => html`<th scope="col"
        aria-label=${lineLabel(line)}>${lineShort(line)}</th>`)}</tr></thead>
      <tbody>${score.players.map((p) => html`<tr><th scope="row" class=${score.winners.includes(p.seat) ? "win" : ""}>${nameOf(view, p.seat)}</th>
        <td class=${`total${score.winners.includes(p.seat) ? " win" : ""}`}>${p.total}</td>${turns.concat(extra).map((line) => html`<td>${p.lines[line]}</td>`)}</tr>`)}</tbody>
    </table></div>
  </div>`;
}

export function status(view) {
  if (view.status === "open") return t("status.open");
  if (view.status === "finished") return t("status.over");
  const turn = view.extra_turn ? t("status.extra_turn", { n: view.extra_turn }) : t("status.turn_of", { n: view.turn, total: 8 });
  return `${turn} · ${phaseName("wordjam", view.phase)}`;
}

export function yourTurn(view, mine) {
  const k = mine.kinds;
  for (const kind of ["open_sesame", "challenge", "vote", "bet", "choose_side", "thief_word"]) {
    if (k.includes(kind)) return t(`turn.wordjam.${kind}`);
  }
  return t("game.your_move_kinds", { kinds: k.map(titleCase).join(t("format.or")) });
}

/** A turn as the table names it: "Turn 3", or "Extra turn 1" (turn 9 counts on, R7). */
function turnName(e) {
  return e.extra_turn ? t("wordjam.extra_turn", { n: e.extra_turn }) : t("wordjam.turn", { n: e.turn });
}

export function describeEvent(e, view, live = false) {
  const who = (s) => nameOf(view, s);
  const say = (key, params = {}) => t(`wordjam.ev.${key}`, params);
  switch (e.type) {
    case "turn_started": return say("turn_started", { turn: turnName(e), theme: e.style ? (has(`wordjam.style.${e.style.id}`) ? t(`wordjam.style.${e.style.id}`) : e.style.name) : "" });
    case "game_started": return t("tables.game_started");
    case "no_call": return live ? null : say("no_call", { name: who(e.seat) });
    case "sesame_called": return say("sesame_called", { name: who(e.seat), word: e.word, coins: coins(e.value) });
    case "challenge_window": return live ? null : say("challenge_window", { name: who(e.seat) });
    case "word_challenged": return say("word_challenged", { name: who(e.seat), author: who(e.author) });
    case "vote_result": return say(e.stands ? "vote_stands" : "vote_falls", { n: e.in_favour });
    case "word_stands": return live ? null : say("word_stands");
    case "call_voided": return say("call_voided", { name: who(e.seat) });
    case "nobody_called": return say("nobody_called");
    case "betting_opened": return say("betting_opened");
    case "bet_placed": return live ? null : say("bet_placed", { name: who(e.seat) });
    case "bets_revealed": return e.thieves && e.thieves.length ? say("bets_revealed", { names: listNames(view, e.thieves) }) : say("bets_revealed_none");
    case "window_opened": return say("window_opened", { names: listNames(view, e.seats) });
    case "window_closed": return say("window_closed");
    case "declaration": return say(e.word ? "declaration" : "declaration_none", { name: who(e.seat), word: e.word, outcome: word("outcome", e.outcome) });
    case "chief_thief": return say("chief_thief", { name: who(e.seat) });
    case "sides_revealed": return say("sides_revealed");
    case "word_counted": return say("word_counted", { name: who(e.seat), word: e.word, side: side(e.side) });
    case "turn_scored": return say("turn_scored", { turn: turnName(e), awards: (e.awards || []).map((a) => `${who(a.seat)} +${a.points}`).join(", ") || t("wordjam.nothing") });
    case "extra_turn": return say("extra_turn");
    // the log's and the replay's lines (the live feed leaves them out, as the table shows them)
    case "side_chosen": return live ? null : say("side_chosen", { name: who(e.seat) });
    case "sides_chosen": return live ? null : say("sides_chosen");
    case "no_challenge": return live ? null : say("no_challenge", { name: who(e.seat) });
    case "vote_cast": return live ? null : say("vote_cast", { name: who(e.seat) });
    case "word_submitted": return live ? null : say(e.final ? "word_submitted_final" : "word_submitted", { name: who(e.seat) });
    case "window_passed": return live ? null : say("window_passed", { name: who(e.seat) });
    case "declaration_voided": return live ? null : say("declaration_voided", { name: who(e.seat) });
    case "game_finished": return t("tables.game_finished");
    case "deadline_passed": return t("tables.deadline_passed", { name: who(e.seat) });
    default: return live ? null : titleCase(e.type);
  }
}

/** A move's value in words, for the replay's line (a side). */
export function fieldValue(key, value) {
  return key === "side" ? side(value) : undefined;
}

/** The rules in a minute, for a player who never read them. */
export function HowTo() {
  return html`<ul>${[1, 2, 3, 4, 5].map((n) => html`<li>${t(`wordjam.howto.${n}`)}</li>`)}</ul>`;
}

export default { Table, Score, status, yourTurn, describeEvent, fieldValue, HowTo };
