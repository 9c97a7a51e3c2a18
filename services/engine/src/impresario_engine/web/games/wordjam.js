// Word Jam's table: the coin consonants and the forbidden one, the theme card, the cave, and a
// panel for whatever the player may do now (call Open Sesame, challenge, vote, bet, steal),
// with the engine's own messages when a word is refused.
import { html, useEffect, useState } from "../lib.js";
import { Problem } from "../shared/api.js";
import { LANGUAGES, listNames, nameOf, plural, titleCase } from "../shared/format.js";

const SIDES = { ali_baba: "Alì Babà", thieves: "the Thieves" };
const PHASES = { sides: "choose a side", think: "find a word", challenge: "challenge?", vote: "vote", bets: "bets", window: "thieves' window", finished: "game over" };
const REASONS = {
  empty: "the word is empty", too_long: "the word is too long", invalid_characters: "only letters are allowed",
  forbidden_consonant: "it uses the forbidden consonant", already_used: "it was already used in this game",
  not_eight_letters: "the theme asks for exactly 8 letters", wrong_first_letter: "it must start with the 1-coin consonant",
  not_in_dictionary: "the dictionary does not know it",
};
const OUTCOMES = { pass: "passed", invalid: "invalid", not_enough: "not enough", voided: "voided by the vote", chief: "Chief Thief!", not_counted: "not said", counted: "counted", pending: "being judged" };
const ROLES = { ali_baba: "Alì Babà", follower: "trusted Alì Babà", chief_thief: "Chief Thief", thief: "thief", best_ali_baba: "best word, Alì Babà side", best_thieves: "best word, Thieves side" };

function Coins({ view }) {
  return html`<ul class="coins" aria-label="Consonants of this turn">
    ${view.coins.map((c) => html`<li class="coin" data-consonant=${c.consonant}>
      <span class="letter">${c.consonant}</span>${plural(c.coins, "coin")}</li>`)}
    <li class="coin forbidden" data-consonant=${view.forbidden}><span class="letter" aria-hidden="true">${view.forbidden}</span>
      <span class="sr-only">${view.forbidden} </span>forbidden</li>
  </ul>`;
}

function Cave({ view }) {
  const shown = Object.fromEntries(view.cave.columns.map((c) => [c.column, c]));
  return html`<ol class="cave" aria-label="The cave: red and yellow scores per column">
    ${Array.from({ length: view.cave.total_columns }, (_, i) => i + 1).map((n) => {
      const c = shown[n];
      const now = n === view.cave.column;
      return html`<li class=${`${now ? "now" : ""}${c ? "" : " hidden"}`} aria-current=${now ? "true" : undefined}>
        <div>${n}</div>${c ? html`<div><span class="red" title="red">${c.red}</span> / <span class="yellow" title="yellow">${c.yellow}</span></div>` : html`<div>?</div>`}
        ${now && html`<span class="sr-only"> (this turn's column: red ${c ? c.red : "?"}, yellow ${c ? c.yellow : "?"})</span>`}</li>`;
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
    ? `Worth ${plural(value.value, "coin")}.` : `Not valid: ${REASONS[value.reason] || value.detail || value.reason}.`}</p>`;
}

function CallPanel({ view, space, act, busy, canPass, checkWord }) {
  const [word, setWord] = useState("");
  const [error, setError] = useState(null);
  const value = useWordValue(view, word, checkWord);
  const submit = async (e) => {
    e.preventDefault();
    if (!word.trim()) { setError("Write a word first."); return; }
    setError(await act({ type: "open_sesame", word: word.trim() }, { inline: true }));
  };
  return html`<form class="card word-form" onSubmit=${submit} aria-labelledby="call-title">
    <h2 id="call-title">Open Sesame!</h2>
    <p>Find a word on the theme, with as many coins as you can and without the forbidden ${view.forbidden}.
      ${space && space.check === "eight_letters" ? " It must have exactly 8 letters." : ""}
      ${space && space.first_letter ? ` It must start with ${space.first_letter}.` : ""}</p>
    <div class="field"><label for="call-word">Your word</label>
      <div class="share-row"><input id="call-word" type="text" autocomplete="off" autocapitalize="characters" spellcheck="false"
        maxlength="64" value=${word} onInput=${(e) => { setWord(e.target.value); setError(null); }}
        aria-describedby="call-error" />
      <button type="submit" class="primary" disabled=${busy}>Open Sesame!</button></div></div>
    <${ValueHint} value=${value} />
    <div id="call-error" class="field-error" role="alert">${error}</div>
    ${canPass && html`<button type="button" onClick=${() => act({ type: "no_call" })} disabled=${busy}>I have nothing this turn</button>`}
  </form>`;
}

function ChallengePanel({ view, space, act, busy }) {
  return html`<section class="card" aria-labelledby="challenge-title">
    <h2 id="challenge-title">Challenge “${space.word}”?</h2>
    <p>${nameOf(view, space.author)} ${space.about === "call" ? "called Open Sesame with" : "declared"} <strong>${space.word}</strong>${" "}(${plural(space.value, "coin")}).
      Off theme? Challenge it and everyone votes.</p>
    <div class="big-choice">
      <button type="button" onClick=${() => act({ type: "challenge", word_id: space.word_id })} disabled=${busy}>Challenge</button>
      <button type="button" class="primary" onClick=${() => act({ type: "no_challenge", word_id: space.word_id })} disabled=${busy}>Let it stand</button>
    </div>
  </section>`;
}

function VotePanel({ view, space, act, busy }) {
  const c = view.challenge;
  const wordId = (space && space.word_id) || (c && c.word_id) || null;
  return html`<section class="card" aria-labelledby="vote-title">
    <h2 id="vote-title">Vote: does “${c ? c.word : "the word"}” fit the theme?</h2>
    ${c && html`<p>${nameOf(view, c.challenger)} challenged ${nameOf(view, c.seat)}'s word. At least 3 votes in favour keep it;
      no vote counts as against.</p>`}
    <div class="big-choice">
      <button type="button" class="primary" onClick=${() => act({ type: "vote", in_favour: true, word_id: wordId })} disabled=${busy}>Keep it</button>
      <button type="button" onClick=${() => act({ type: "vote", in_favour: false, word_id: wordId })} disabled=${busy}>Reject it</button>
    </div>
  </section>`;
}

function SidePanel({ view, kind, act, busy }) {
  const bet = kind === "bet";
  const word = view.ali_word;
  return html`<section class="card" aria-labelledby="side-title">
    <h2 id="side-title">${bet ? "Your bet" : "Turn 8: choose your side in secret"}</h2>
    <p>${bet && word ? html`${nameOf(view, view.ali_baba)} is Alì Babà with <strong>${word.word}</strong> (${plural(word.value, "coin")}).
      Trust him, or join the thieves and try to beat his word.` : "Alì Babà's side scores with its best word, the Thieves with theirs."}</p>
    <div class="big-choice">
      <button type="button" class="primary" onClick=${() => act({ type: kind, side: "ali_baba" })} disabled=${busy}>Trust Alì Babà</button>
      <button type="button" onClick=${() => act({ type: kind, side: "thieves" })} disabled=${busy}>Join the Thieves</button>
    </div>
  </section>`;
}

function ThiefPanel({ view, space, act, busy, checkWord }) {
  const you = view.you || {};
  const [word, setWord] = useState(you.word || "");
  const [error, setError] = useState(null);
  const value = useWordValue(view, word, checkWord);
  const send = async (final) => {
    if (!word.trim()) { setError("Write a word first."); return; }
    setError(await act({ type: "thief_word", word: word.trim(), final }, { inline: true }));
  };
  return html`<form class="card word-form" onSubmit=${(e) => { e.preventDefault(); send(false); }} aria-labelledby="thief-title">
    <h2 id="thief-title">${view.final_turn ? "Your secret word" : "The thieves' window"}</h2>
    <p>${space.must_beat !== null && space.must_beat !== undefined ? `Beat Alì Babà's ${plural(space.must_beat, "coin")}. ` : ""}
      Only you see your word until it is declared. You may change it until you mark it final.</p>
    <div class="field"><label for="thief-word">Your secret word</label>
      <input id="thief-word" type="text" autocomplete="off" autocapitalize="characters" spellcheck="false" maxlength="64"
        value=${word} onInput=${(e) => { setWord(e.target.value); setError(null); }} aria-describedby="thief-error" /></div>
    <${ValueHint} value=${value} />
    ${you.word && html`<p class="small" data-testid="my-secret-word">Submitted: <strong>${you.word}</strong>${you.word_check
      ? (you.word_check.valid ? `, worth ${plural(you.word_check.value, "coin")} now` : `, not valid now: ${REASONS[you.word_check.reason] || you.word_check.reason}`) : ""}${you.word_final ? " (final)" : ""}.</p>`}
    <div id="thief-error" class="field-error" role="alert">${error}</div>
    <div class="actions">
      <button type="submit" disabled=${busy}>Submit (I may change it)</button>
      <button type="button" class="primary" onClick=${() => send(true)} disabled=${busy}>Submit as final</button>
      <button type="button" onClick=${() => act({ type: "thief_pass" })} disabled=${busy}>Pass</button>
    </div>
  </form>`;
}

function MyMove({ view, actions, act, busy, checkWord }) {
  if (!actions || !actions.moves.length) return null;
  const find = (t) => actions.moves.find((m) => m.type === t);
  if (find("open_sesame")) return html`<${CallPanel} key=${`call-${view.turn}`} view=${view} space=${find("open_sesame")} act=${act} busy=${busy} canPass=${Boolean(find("no_call"))} checkWord=${checkWord} />`;
  if (find("challenge") || find("no_challenge")) return html`<${ChallengePanel} view=${view} space=${find("challenge") || { ...find("no_challenge"), word: view.challenge && view.challenge.word, value: view.challenge && view.challenge.value, author: view.challenge && view.challenge.seat, about: view.challenge && view.challenge.about }} act=${act} busy=${busy} />`;
  if (find("vote")) return html`<${VotePanel} view=${view} space=${find("vote")} act=${act} busy=${busy} />`;
  if (find("bet")) return html`<${SidePanel} view=${view} kind="bet" act=${act} busy=${busy} />`;
  if (find("choose_side")) return html`<${SidePanel} view=${view} kind="choose_side" act=${act} busy=${busy} />`;
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

function Situation({ view, events }) {
  const items = [];
  if (view.ali_word) items.push(html`<li>Alì Babà: <strong>${nameOf(view, view.ali_baba)}</strong> with <strong>${view.ali_word.word}</strong> (${plural(view.ali_word.value, "coin")}).</li>`);
  if (view.barred.length) items.push(html`<li>Barred this turn (call voided): ${listNames(view, view.barred)}.</li>`);
  if (view.challenge) items.push(html`<li>“${view.challenge.word}” by ${nameOf(view, view.challenge.seat)}: ${view.challenge.stage === "vote"
    ? `challenged by ${nameOf(view, view.challenge.challenger)}; ${plural(view.challenge.votes_cast, "vote")} cast so far` : "anyone may challenge it now"}.</li>`);
  if (voteThisTurn(view, events)) items.push(html`<li>Last vote on “${view.last_vote.word}”: ${view.last_vote.in_favour} in favour, the word ${view.last_vote.stands ? "stands" : "falls"}${" "}(${view.last_vote.votes.map((v) => `${nameOf(view, v.seat)} ${v.in_favour ? "for" : "against"}`).join(", ")}).</li>`);
  if (view.bets) items.push(html`<li>Bets: ${view.bets.map((b) => `${nameOf(view, b.seat)} → ${SIDES[b.side]}`).join(", ")}.</li>`);
  if (view.sides) items.push(html`<li>Sides: ${view.sides.map((b) => `${nameOf(view, b.seat)} → ${SIDES[b.side]}`).join(", ")}.</li>`);
  if (view.window && view.window.length) items.push(html`<li>In the window: ${listNames(view, view.window)}${view.must_beat !== null ? `; they must beat ${plural(view.must_beat, "coin")}` : ""}.</li>`);
  for (const d of view.declarations || []) items.push(html`<li>${nameOf(view, d.seat)} (${SIDES[d.side]}): ${d.word ? html`<strong>${d.word}</strong> ${d.value !== null ? `(${plural(d.value, "coin")})` : ""}` : ""} — ${OUTCOMES[d.outcome] || d.outcome}${d.reason ? ` (${REASONS[d.reason] || d.reason})` : ""}.</li>`);
  if (view.chief_thief !== null) items.push(html`<li>Chief Thief: <strong>${nameOf(view, view.chief_thief)}</strong>.</li>`);
  if (view.best) for (const side of ["ali_baba", "thieves"]) if (view.best[side]) items.push(html`<li>Best word for ${SIDES[side]}: ${view.best[side].word} by ${nameOf(view, view.best[side].seat)} (${plural(view.best[side].value, "coin")}).</li>`);
  if (!items.length) return null;
  return html`<section class="card" aria-labelledby="situation-title"><h2 id="situation-title">This turn</h2><ul>${items}</ul></section>`;
}

function Awards({ view }) {
  const last = view.history[view.history.length - 1];
  if (!last) return null;
  return html`<section class="card" aria-labelledby="awards-title" data-testid="awards">
    <h2 id="awards-title">Turn ${last.turn}${last.extra_turn ? ` (extra turn ${last.extra_turn})` : ""}: awards</h2>
    ${last.called ? html`<p>${nameOf(view, last.ali_baba)} called “${last.word}” (${plural(last.value || 0, "coin")}).
      ${last.chief_thief !== null ? ` Chief Thief: ${nameOf(view, last.chief_thief)}.` : ""}</p>` : html`<p>Nobody called: the turn scores nothing.</p>`}
    ${last.awards.length > 0 && html`<ul>${last.awards.map((a) => html`<li>${nameOf(view, a.seat)}: +${a.points} ${a.colour} (${ROLES[a.role] || a.role})</li>`)}</ul>`}
  </section>`;
}

function Players({ view, me, recent = [] }) {
  // the seats that moved since this seat's last move: their rows are marked (and say so)
  const moved = new Set(recent.map((e) => e.seat));
  const flags = (p) => {
    const out = [];
    if (p.seat === view.ali_baba) out.push("Alì Babà");
    if (p.seat === view.chief_thief) out.push("Chief Thief");
    if (p.sitting_out) out.push("sitting out");
    if (p.no_call && view.phase === "think") out.push("has nothing");
    if (p.has_side) out.push("side chosen");
    if (p.has_bet) out.push("has bet");
    if (p.word_final) out.push("word final");
    if (p.has_voted) out.push("voted");
    return out.join(", ");
  };
  return html`<section class="card" aria-labelledby="wj-players-title">
    <h2 id="wj-players-title">Players</h2>
    <table class="grid-table players-table"><thead><tr><th scope="col">Player</th><th scope="col">Points</th><th scope="col">Now</th></tr></thead>
      <tbody>${view.players.map((p) => html`<tr class=${`${p.seat === me ? "me" : ""}${moved.has(p.seat) ? " recent" : ""}`} data-seat=${p.seat}><th scope="row">${p.name}${p.seat === me ? " (you)" : ""}${p.bot ? " · bot" : ""}${moved.has(p.seat) ? html`<span class="sr-only"> (moved since your last move)</span>` : ""}</th>
        <td>${p.total}</td><td class="flags">${flags(p)}</td></tr>`)}</tbody></table>
  </section>`;
}

export function Table({ view, actions, act, busy, me, checkWord, events, recent = [] }) {
  const turn = view.extra_turn ? `Extra turn ${view.extra_turn}` : `Turn ${view.turn} of 8`;
  return html`<div class="wj two-col"><div class="main-col">
    <section class="card" aria-labelledby="wj-board-title">
      <h2 id="wj-board-title">${turn}${view.final_turn ? " — the last turn: sides first, then one round of words" : ""}</h2>
      <${Coins} view=${view} />
      <div class="card theme-card" data-testid="theme">
        <strong>Theme: ${view.style.name}</strong>${view.style.name_it !== view.style.name ? html` <span class="muted">(${view.style.name_it})</span>` : ""}
        <div class="small">${view.style.description}${view.style.dictionary ? " · a dictionary may settle a dispute" : ""}${view.style.proper_nouns ? " · proper nouns allowed" : ""}</div>
        ${view.language && html`<div class="small" data-testid="language">Words in ${LANGUAGES[view.language] || view.language}</div>`}
      </div>
      <h3>The cave</h3>
      <${Cave} view=${view} />
    </section>
    <${MyMove} view=${view} actions=${actions} act=${act} busy=${busy} checkWord=${checkWord} />
    <${Situation} view=${view} events=${events} />
  </div><div class="side-col">
    <${Players} view=${view} me=${me} recent=${recent} />
    <${Awards} view=${view} />
    ${view.used_words.length > 0 && html`<section class="card"><h2>Words used</h2><p class="small">${view.used_words.join(", ")}</p></section>`}
  </div></div>`;
}

export function Score({ view, score }) {
  if (!score) return null;
  const turns = ["turn_1", "turn_2", "turn_3", "turn_4", "turn_5", "turn_6", "turn_7", "turn_8"];
  const extra = ["extra_1", "extra_2", "extra_3"].slice(0, score.extra_turns);
  return html`<div class="score">
    <p class="winners" data-testid="winners">${score.shared ? "A shared victory: " : "Winner: "}${listNames(view, score.winners)}.</p>
    <div class="table-wrap"><table class="grid-table score-table">
      <thead><tr><th scope="col">Player</th><th scope="col">Total</th>${turns.concat(extra).map((t) => html`<th scope="col"
        aria-label=${titleCase(t)}>${titleCase(t).replace("Turn ", "T").replace("Extra ", "X")}</th>`)}</tr></thead>
      <tbody>${score.players.map((p) => html`<tr><th scope="row" class=${score.winners.includes(p.seat) ? "win" : ""}>${nameOf(view, p.seat)}</th>
        <td class=${`total${score.winners.includes(p.seat) ? " win" : ""}`}>${p.total}</td>${turns.concat(extra).map((t) => html`<td>${p.lines[t]}</td>`)}</tr>`)}</tbody>
    </table></div>
  </div>`;
}

export function status(view) {
  if (view.status === "open") return "waiting for players";
  if (view.status === "finished") return "game over";
  const turn = view.extra_turn ? `extra turn ${view.extra_turn}` : `turn ${view.turn} of 8`;
  return `${turn} · ${PHASES[view.phase] || view.phase}`;
}

export function yourTurn(view, mine) {
  const k = mine.kinds;
  if (k.includes("open_sesame")) return "Your move: find a word and call Open Sesame!";
  if (k.includes("challenge")) return "Your move: challenge the word, or let it stand.";
  if (k.includes("vote")) return "Your move: vote on the word.";
  if (k.includes("bet")) return "Your move: bet on a side.";
  if (k.includes("choose_side")) return "Your move: choose a side in secret.";
  if (k.includes("thief_word")) return "Your move: your secret word.";
  return `Your move: ${k.map(titleCase).join(" or ")}.`;
}

/** A turn as the table names it: "Turn 3", or "Extra turn 1" (turn 9 counts on, R7). */
function turnName(e) {
  return e.extra_turn ? `Extra turn ${e.extra_turn}` : `Turn ${e.turn}`;
}

export function describeEvent(e, view, live = false) {
  const who = (s) => nameOf(view, s);
  switch (e.type) {
    case "turn_started": return `${turnName(e)} begins: theme ${e.style ? e.style.name : ""}.`;
    case "game_started": return "The game begins.";
    case "no_call": return live ? null : `${who(e.seat)} has nothing.`;
    case "sesame_called": return `${who(e.seat)} calls Open Sesame with “${e.word}” (${plural(e.value, "coin")}).`;
    case "challenge_window": return live ? null : `Anyone may challenge ${who(e.seat)}'s word.`;
    case "word_challenged": return `${who(e.seat)} challenges ${who(e.author)}'s word: everyone votes.`;
    case "vote_result": return `The vote: ${e.in_favour} in favour; the word ${e.stands ? "stands" : "falls"}.`;
    case "word_stands": return live ? null : "The word stands.";
    case "call_voided": return `${who(e.seat)}'s call is void: thinking resumes.`;
    case "nobody_called": return "Nobody called: the turn scores nothing.";
    case "betting_opened": return "Bets are open.";
    case "bet_placed": return live ? null : `${who(e.seat)} placed a bet.`;
    case "bets_revealed": return `Bets revealed: ${e.thieves && e.thieves.length ? `thieves ${listNames(view, e.thieves)}` : "nobody joined the thieves"}.`;
    case "window_opened": return `The thieves' window opens for ${listNames(view, e.seats)}.`;
    case "window_closed": return "The window closes.";
    case "declaration": return `${who(e.seat)} declares${e.word ? ` “${e.word}”` : ""}: ${OUTCOMES[e.outcome] || e.outcome}.`;
    case "chief_thief": return `${who(e.seat)} is the Chief Thief.`;
    case "sides_revealed": return "The sides are revealed.";
    case "word_counted": return `${who(e.seat)}'s “${e.word}” counts for ${SIDES[e.side]}.`;
    case "turn_scored": return `${turnName(e)} scored: ${(e.awards || []).map((a) => `${who(a.seat)} +${a.points}`).join(", ") || "nothing"}.`;
    case "extra_turn": return "A tie: an extra turn.";
    case "game_finished": return "The game is over.";
    case "deadline_passed": return `${who(e.seat)}'s time ran out: the engine played the default.`;
    default: return live ? null : titleCase(e.type);
  }
}

/** The rules in a minute, for a player who never read them. */
export function HowTo() {
  return html`<ul>
    <li>Each turn deals four consonants worth 1, 2, 3 and 3 coins, a forbidden consonant and a theme.</li>
    <li>Find a word on the theme without the forbidden consonant; every time a coin consonant appears in it, it earns its
      coins. The first to press <strong>Open Sesame!</strong> with a valid word is Alì Babà.</li>
    <li>Anyone may challenge a word that misses the theme: everyone votes, and it takes 3 votes to keep it.</li>
    <li>Then everyone else bets in secret: trust Alì Babà, or join the Thieves and write a better word in secret.
      If a thief's word beats his (and stands), that thief is the Chief Thief.</li>
    <li>The cave pays the turn: red points to Alì Babà (or the Chief Thief), yellow points to those who backed the winning
      side. Turn 8 is different: everyone picks a side first. After 8 turns the most points win.</li>
  </ul>`;
}

export default { Table, Score, status, yourTurn, describeEvent, HowTo };
