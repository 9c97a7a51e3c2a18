// "Notify me" (docs/web.md, "Notifications"): the player is told by the browser, when the page
// is closed, that it is their move, that their time runs out, or that a game is over (Web
// Push: POST /v1/me/push-subscriptions). Offered on the table and on My games, never asked on
// load: the browser's permission is asked only when the button is pressed. Hidden when the
// browser has no Web Push, when the server sends none (GET /v1/push/vapid-public-key: 404
// push_unavailable), or when this browser has no player (notices go to a player's seats).
// The service worker (/sw.js) shows the notifications and opens the table on a click.
import { html, useEffect, useState } from "../lib.js";
import { call, explain, Problem } from "./api.js";
import { Alert } from "./ui.js";
import { language, t } from "./i18n.js";
import { playerCall, usePlayer } from "./players.js";

const KEPT = "impresario:push";  // this browser's subscription: {id, endpoint}
let serverKey;  // the server's application server key (a promise; null: no push there)

function supported() {
  return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

function vapidKey() {
  if (serverKey === undefined) {
    serverKey = call("GET", "/v1/push/vapid-public-key")
      .then((r) => r.data.public_key)
      .catch((err) => { if (err instanceof Problem && err.status === 404) return null; serverKey = undefined; throw err; });
  }
  return serverKey;
}

function bytes(base64url) {
  const text = atob(base64url.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - base64url.length % 4) % 4));
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

function kept() {
  try { return JSON.parse(localStorage.getItem(KEPT) || "null"); } catch { return null; }
}

function keep(value) {
  try {
    if (value) localStorage.setItem(KEPT, JSON.stringify(value));
    else localStorage.removeItem(KEPT);
  } catch { /* private mode */ }
}

async function currentSubscription() {
  const reg = await navigator.serviceWorker.getRegistration("/");
  return reg ? reg.pushManager.getSubscription() : null;
}

/** The button: "Notify me", or "Notifications are on" with "Stop". ``where`` names the page
 * (its test id). */
export function NotifyMe({ where }) {
  const player = usePlayer();
  const [state, setState] = useState("hidden");  // hidden, off, on, blocked
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(null);
  useEffect(() => {
    let gone = false;
    if (!player || !supported()) { setState("hidden"); return undefined; }
    (async () => {
      let key;
      try { key = await vapidKey(); } catch { key = null; }
      if (gone) return;
      if (!key) { setState("hidden"); return; }
      if (Notification.permission === "denied") { setState("blocked"); return; }
      let sub = null;
      try { sub = Notification.permission === "granted" ? await currentSubscription() : null; } catch { sub = null; }
      const mine = kept();
      if (!gone) setState(sub && mine && mine.endpoint === sub.endpoint ? "on" : "off");
    })();
    return () => { gone = true; };
  }, [player && player.id]);

  const subscribe = async () => {
    setBusy(true); setError(null);
    try {
      const permission = await Notification.requestPermission();
      if (permission !== "granted") { setState(permission === "denied" ? "blocked" : "off"); return; }
      const key = await vapidKey();
      const reg = await navigator.serviceWorker.register("/sw.js", { scope: "/" });
      await navigator.serviceWorker.ready;
      let sub = await reg.pushManager.getSubscription();
      if (!sub) sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: bytes(key) });
      const made = await playerCall("POST", "/v1/me/push-subscriptions", { body: { ...sub.toJSON(), lang: language() } });
      keep({ id: made.data.id, endpoint: sub.endpoint });
      setState("on");
    } catch (err) {
      setError(err instanceof Problem ? explain(err) : t("notify.failed"));
    } finally { setBusy(false); }
  };

  const unsubscribe = async () => {
    setBusy(true); setError(null);
    try {
      const mine = kept();
      if (mine) {
        try {
          await playerCall("DELETE", `/v1/me/push-subscriptions/${encodeURIComponent(mine.id)}`);
        } catch (err) { if (!(err instanceof Problem && err.status === 404)) throw err; }
      }
      const sub = await currentSubscription();
      if (sub) await sub.unsubscribe();
      keep(null);
      setState("off");
    } catch (err) {
      setError(err instanceof Problem ? explain(err) : t("notify.failed"));
    } finally { setBusy(false); }
  };

  if (state === "hidden") return null;
  return html`<div class="notify-me" data-testid=${`notify-${where}`} data-state=${state}>
    ${state === "off" && html`<button type="button" onClick=${subscribe} disabled=${busy}>${t("notify.button")}</button>
      <span class="small">${t("notify.why")}</span>`}
    ${state === "on" && html`<span class="small" role="status">${t("notify.on")}</span>
      <button type="button" onClick=${unsubscribe} disabled=${busy}>${t("notify.stop")}</button>`}
    ${state === "blocked" && html`<span class="small">${t("notify.blocked")}</span>`}
    <${Alert} message=${error} onDismiss=${() => setError(null)} />
  </div>`;
}
