// Small pieces every page uses: countdowns, dialogs, alerts, links to share.
import { createContext, html, useContext, useEffect, useRef, useState } from "../lib.js";
import { serverNow } from "./api.js";
import { clockText } from "./format.js";
import { t } from "./i18n.js";

/** A visible countdown to ``deadline`` (server Unix seconds); ``onExpire`` once it reaches 0. */
export function Countdown({ deadline, label = t("ui.time_left"), onExpire }) {
  const [now, setNow] = useState(serverNow());
  const fired = useRef(false);
  useEffect(() => {
    fired.current = false;
    const timer = setInterval(() => setNow(serverNow()), 250);
    return () => clearInterval(timer);
  }, [deadline]);
  if (typeof deadline !== "number") return null;
  const left = deadline - now;
  if (left <= 0 && onExpire && !fired.current) {
    fired.current = true;
    setTimeout(onExpire, 0);
  }
  const urgent = left <= 10;
  return html`<span class=${`countdown${urgent ? " urgent" : ""}`} role="timer"
      aria-label=${`${label}: ${clockText(left)}`}>
    <span class="countdown-label">${label}</span> <strong>${clockText(left)}</strong></span>`;
}

/** Move the focus to the page's heading (a screen reader reads where the player is), without
 * scrolling: after a navigation, once a page's content replaces its "Loading" heading, and
 * when a dialog that opened by itself closes. */
export function focusHeading() {
  const heading = document.querySelector("main h1");
  if (!heading) return;
  heading.setAttribute("tabindex", "-1");
  heading.focus({ preventScroll: true });
}

/** Whether nothing in the page holds the focus (it fell back to the body). */
export function focusLost() {
  const active = document.activeElement;
  return !active || active === document.body || active === document.documentElement;
}

/** What a game page puts at the foot of its dialogs: ``() => element`` (the "why?" of the
 * seat's current prompt, shared/rules.js), or null. A dialog asks for a move while the rest of
 * the page is inert, so the rule behind it has to be inside it. */
export const DialogRule = createContext(null);

/**
 * A modal dialog (the native <dialog>: focus moves into it and stays there, Escape closes it).
 * ``open`` controls it; ``onClose`` is called when the player dismisses it; ``noRule`` leaves
 * out the page's ``DialogRule`` (a dialog that asks for no move).
 */
export function Dialog({ open, title, onClose, children, id, noRule = false }) {
  const rule = useContext(DialogRule);
  const ref = useRef(null);
  const opener = useRef(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      opener.current = document.activeElement;
      dialog.showModal();
      const first = dialog.querySelector("[autofocus], input, select, button:not(.dialog-close):not(.why)");
      if (first) first.focus();
    } else if (!open && dialog.open) {
      dialog.close();
      // back where the player was; a dialog that opened by itself (the player's turn came)
      // had no opener, or one the new view removed: the page's heading then, not the top
      const back = opener.current;
      if (back && back.isConnected && back !== document.body && back !== document.documentElement) back.focus();
      else focusHeading();
    }
  }, [open]);
  const titleId = `${id || "dialog"}-title`;
  return html`<dialog ref=${ref} class="dialog" aria-labelledby=${titleId} id=${id}
      onCancel=${(e) => { e.preventDefault(); if (onClose) onClose(); }}>
    <div class="dialog-head">
      <h2 id=${titleId}>${title}</h2>
      ${onClose && html`<button type="button" class="dialog-close" onClick=${onClose}
          aria-label=${t("ui.close")}>×</button>`}
    </div>
    ${open && children}
    ${open && rule && !noRule && html`<p class="dialog-rule">${rule()}</p>`}
  </dialog>`;
}

/** An error or notice, announced to screen readers. */
export function Alert({ message, kind = "error", onDismiss }) {
  if (!message) return null;
  return html`<div class=${`alert alert-${kind}`} role=${kind === "error" ? "alert" : "status"}>
    <span>${message}</span>
    ${onDismiss && html`<button type="button" class="link" onClick=${onDismiss}>${t("ui.dismiss")}</button>`}
  </div>`;
}

/** A link to share: shown in a read-only field, with a Copy button. */
export function ShareLink({ label, url, id }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      setCopied(true);
    } catch {
      const field = document.getElementById(id);
      if (field) { field.select(); }
    }
  };
  return html`<div class="share">
    <label for=${id}>${label}</label>
    <div class="share-row">
      <input id=${id} type="text" readonly value=${url} onFocus=${(e) => e.target.select()} />
      <button type="button" onClick=${copy}>${copied ? t("ui.copied") : t("ui.copy")}</button>
    </div>
  </div>`;
}

/** The older names of bot levels the engine's rulesets serve (``bot_aliases``), as learnt. */
const BOT_ALIASES = {};

/** Learn the rulesets' older bot names (the lobby's list of rulesets, once fetched). */
export function learnBotAliases(rulesets) {
  for (const r of rulesets || []) Object.assign(BOT_ALIASES, r.bot_aliases || {});
}

/** A bot level in words (easy, medium, hard); an older name of a level (the rulesets'
 * ``bot_aliases``: "greedy" is "medium") is its level; another name as the engine gives it. */
export function botLevel(level, aliases = BOT_ALIASES) {
  const known = (aliases && aliases[level]) || level;  // an older name ("greedy"): its level
  return ["easy", "medium", "hard"].includes(known) ? t(`bot.${known}`) : level;
}

/** Seat chips: name, bot, "you", who must act now, a free seat; ``extra(p)`` and ``action(p)``
 * add a badge and a button of the page's own. */
export function Seats({ view, me, extra = null, action = null }) {
  const pending = new Set((view.pending || []).map((p) => p.seat));
  const players = view.players && view.players.length ? view.players
    : Array.from({ length: view.seats_taken || 0 }, (_, seat) => ({ seat }));
  return html`<ul class="seats" aria-label=${t("ui.players")}>
    ${players.map((p) => html`<li class=${`seat${p.seat === me ? " me" : ""}${pending.has(p.seat) ? " acting" : ""}${p.name ? "" : " free"}`}
        data-seat=${p.seat}>
      <span class="seat-name">${p.name || t("format.seat", { n: p.seat + 1 })}</span>
      ${!p.name && view.status === "open" && html`<span class="badge">${t("ui.free")}</span>`}
      ${p.bot && html`<span class="badge" title=${t("ui.played_by_engine")}>${p.bot === "defaults" ? t("ui.plays_defaults") : t("ui.bot_level", { level: botLevel(p.bot) })}</span>`}
      ${p.seat === me && html`<span class="badge badge-you">${t("ui.you_badge")}</span>`}
      ${pending.has(p.seat) && view.status === "playing" && html`<span class="badge badge-turn">${t("ui.to_act")}</span>`}
      ${extra && extra(p)}
      ${action && action(p)}
    </li>`)}
  </ul>`;
}
