// Impresario's service worker (served at /sw.js, scope /): it shows the Web Push notifications
// the engine sends (usecases/push.py: a title, a line, the table's URL; nothing secret) and,
// on a click, focuses the table if a window shows it, else opens it. Nothing is cached.
self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

function sameOrigin(url) {
  try {
    const found = new URL(typeof url === "string" ? url : "/", self.location.origin);
    return found.origin === self.location.origin ? found.href : `${self.location.origin}/`;
  } catch {
    return `${self.location.origin}/`;
  }
}

self.addEventListener("push", (event) => {
  let data = {};
  try { data = event.data ? event.data.json() : {}; } catch { data = {}; }
  const title = typeof data.title === "string" && data.title ? data.title : "Impresario";
  const options = { body: typeof data.body === "string" ? data.body : "", data: { url: sameOrigin(data.url) } };
  if (typeof data.tag === "string") options.tag = data.tag;
  if (typeof data.lang === "string") options.lang = data.lang;
  event.waitUntil(self.registration.showNotification(title, options));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = sameOrigin(event.notification.data && event.notification.data.url);
  event.waitUntil((async () => {
    const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    const showing = windows.find((w) => w.url === target);
    if (showing) return showing.focus();
    return self.clients.openWindow(target);
  })());
});
