// Small pieces every page uses: countdowns, dialogs, alerts, links to share.
import { html, useEffect, useRef, useState } from "../lib.js";
import { serverNow } from "./api.js";
import { clockText } from "./format.js";

/** A visible countdown to ``deadline`` (server Unix seconds); ``onExpire`` once it reaches 0. */
export function Countdown({ deadline, label = "Time left", onExpire }) {
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

/**
 * A modal dialog (the native <dialog>: focus moves into it and stays there, Escape closes it).
 * ``open`` controls it; ``onClose`` is called when the player dismisses it.
 */
export function Dialog({ open, title, onClose, children, id }) {
  const ref = useRef(null);
  const opener = useRef(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      opener.current = document.activeElement;
      dialog.showModal();
      const first = dialog.querySelector("[autofocus], input, select, button:not(.dialog-close)");
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
          aria-label="Close">×</button>`}
    </div>
    ${open && children}
  </dialog>`;
}

/** An error or notice, announced to screen readers. */
export function Alert({ message, kind = "error", onDismiss }) {
  if (!message) return null;
  return html`<div class=${`alert alert-${kind}`} role=${kind === "error" ? "alert" : "status"}>
    <span>${message}</span>
    ${onDismiss && html`<button type="button" class="link" onClick=${onDismiss}>Dismiss</button>`}
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
      <button type="button" onClick=${copy}>${copied ? "Copied" : "Copy"}</button>
    </div>
  </div>`;
}

/** Seat chips: name, bot, "you", who must act now, a free seat; ``extra(p)`` and ``action(p)``
 * add a badge and a button of the page's own. */
export function Seats({ view, me, extra = null, action = null }) {
  const pending = new Set((view.pending || []).map((p) => p.seat));
  const players = view.players && view.players.length ? view.players
    : Array.from({ length: view.seats_taken || 0 }, (_, seat) => ({ seat }));
  return html`<ul class="seats" aria-label="Players">
    ${players.map((p) => html`<li class=${`seat${p.seat === me ? " me" : ""}${pending.has(p.seat) ? " acting" : ""}${p.name ? "" : " free"}`}
        data-seat=${p.seat}>
      <span class="seat-name">${p.name || `Seat ${p.seat + 1}`}</span>
      ${!p.name && view.status === "open" && html`<span class="badge">free</span>`}
      ${p.bot && html`<span class="badge" title="played by the engine">${p.bot === "defaults" ? "plays its defaults" : `bot · ${p.bot}`}</span>`}
      ${p.seat === me && html`<span class="badge badge-you">you</span>`}
      ${pending.has(p.seat) && view.status === "playing" && html`<span class="badge badge-turn">to act</span>`}
      ${extra && extra(p)}
      ${action && action(p)}
    </li>`)}
  </ul>`;
}
