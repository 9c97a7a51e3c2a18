""""Notify me" in headless Chromium (shared/notify.js, /sw.js; docs/web.md, "Notifications"):
on a server with a VAPID key, My games and the table offer it (nothing is asked on load); a
click asks the browser's permission, registers the service worker at /sw.js (scope /),
subscribes with the server's application server key and sends the subscription, in the
page's language, to the real API; "Stop" deletes it. Chromium's own push service is not
reachable here, so ``PushManager.subscribe`` is stubbed inside the page only: it records the
key it was given and answers a subscription of keys made in the test. A push message
delivered to the service worker through Chromium's DevTools protocol is shown as the
notification the engine wrote. A server without a VAPID key offers nothing. The words in four
languages; axe-core on the view."""

from __future__ import annotations

import json
import time

import pytest
import requests
from py_vapid import Vapid

from impresario_engine.table import notices

from .test_accessibility import axe_violations, report
from .test_i18n import load, switch_language
from .test_players_web import become
from .web_helpers import api

STUB = """
(() => {
  const saved = () => JSON.parse(sessionStorage.getItem('stub-push') || 'null');
  const fake = (json) => json && ({ endpoint: json.endpoint, toJSON: () => json,
    unsubscribe: async () => { sessionStorage.removeItem('stub-push'); return true; } });
  PushManager.prototype.subscribe = async function (options) {
    const key = btoa(String.fromCharCode(...new Uint8Array(options.applicationServerKey)))
      .replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
    sessionStorage.setItem('stub-key', key);
    sessionStorage.setItem('stub-push', JSON.stringify(window.__subscription));
    return fake(saved());
  };
  PushManager.prototype.getSubscription = async function () { return fake(saved()); };
})();
"""


@pytest.fixture(scope="module")
def push_server(redis_url, tmp_path_factory, gunicorn_server):
    folder = tmp_path_factory.mktemp("push-gunicorn")
    key = Vapid()
    key.generate_keys()
    (folder / "vapid.pem").write_bytes(key.private_pem())
    with gunicorn_server(redis_url, folder, workers=1, threads=8, reap_every=None,
                         VAPID_PRIVATE_KEY_FILE=str(folder / "vapid.pem"),
                         VAPID_SUBJECT="mailto:ops@example.test",
                         PUSH_ALLOW_PRIVATE="1") as url:
        yield url


def test_notify_me_subscribes_and_stops_with_the_servers_key(browser, push_server, web_server):
    public_key = api(push_server, "GET", "/v1/push/vapid-public-key")["public_key"]
    made = api(push_server, "POST", "/v1/players", json={"name": "Anna"})
    token = made["token"]
    game = api(push_server, "POST", "/v1/games", token=token,
               json={"ruleset": "turandot", "players": 3})
    gid = game["game"]["id"]
    seat = api(push_server, "POST", f"/v1/games/{gid}/seats", token=game["host_token"],
               json={"name": "Anna"})
    context = browser.new_context(base_url=push_server, permissions=["notifications"],
                                  locale="it-IT")
    errors: list[str] = []
    try:
        context.add_init_script(STUB)
        page = context.new_page()
        page.set_default_timeout(20_000)
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        become(page, made["player"], token)
        page.add_init_script("""window.__subscription = {endpoint: 'https://push.example.test/send/anna',
          expirationTime: null, keys: {p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
          auth: 'tBHItJI5svbpez7KI4CCXg'}};""")
        page.reload()
        it = load("it")
        mine = page.locator("[data-testid=notify-mine]")
        mine.wait_for()
        assert mine.get_attribute("data-state") == "off"
        # nothing was asked or registered on load
        assert page.evaluate("navigator.serviceWorker.getRegistration('/')"
                             ".then(r => r === undefined)")
        mine.get_by_role("button", name=it["notify.button"]).click()
        page.wait_for_selector("[data-testid=notify-mine][data-state=on]")
        assert page.evaluate("sessionStorage.getItem('stub-key')") == public_key
        assert page.evaluate("navigator.serviceWorker.getRegistration('/')"
                             ".then(r => r && r.scope)") == push_server + "/"
        subs = api(push_server, "GET", "/v1/me/push-subscriptions", token=token)
        ((sub),) = subs["subscriptions"]
        assert (sub["endpoint"], sub["lang"]) == ("https://push.example.test/send/anna", "it")
        assert mine.get_by_role("status").inner_text() == it["notify.on"]
        # a push message delivered to the service worker (through Chromium's DevTools
        # protocol, as its push service would) is shown as the notification the engine wrote
        message = notices.message(notices.Notice(notices.YOUR_MOVE, 0, made["player"]["id"],
                                                 "1.0", deadline=None), gid, "Turandot", "it", 0)
        cdp = context.new_cdp_session(page)
        registrations: list[dict] = []
        cdp.on("ServiceWorker.workerRegistrationUpdated",
               lambda event: registrations.extend(event["registrations"]))
        cdp.send("ServiceWorker.enable")
        for _ in range(100):
            if any(r["scopeURL"] == push_server + "/" for r in registrations):
                break
            page.wait_for_timeout(50)
        (registration,) = [r for r in registrations if r["scopeURL"] == push_server + "/"][:1]
        # the worker must be active to take a push (on a loaded machine it may still be
        # installing): ready resolves once it is; a message it missed is delivered again
        assert page.evaluate("navigator.serviceWorker.ready.then(r => !!r.active)")
        shown: list = []
        for _attempt in range(3):
            cdp.send("ServiceWorker.deliverPushMessage", {
                "origin": push_server, "registrationId": registration["registrationId"],
                "data": json.dumps(message)})
            until = time.monotonic() + 10
            while not shown and time.monotonic() < until:
                shown = page.evaluate(
                    "navigator.serviceWorker.ready.then(r => r.getNotifications())"
                    ".then(ns => ns.map(n => [n.title, n.body, n.tag, n.data]))")
                if not shown:
                    page.wait_for_timeout(100)
            if shown:
                break
        assert shown == [[message["title"], message["body"], message["tag"],
                          {"url": f"{push_server}/#/game/{gid}"}]]
        violations = axe_violations(page)
        assert not violations, report([dict(v, where="my games, notify on") for v in violations])
        # the table offers it too, on in this browser; in each language
        page.evaluate("([gid, seat]) => localStorage.setItem('impresario:game:' + gid, "
                      "JSON.stringify({ruleset: 'turandot', token: seat.token, seat: 0, "
                      "name: 'Anna', host: seat.host}))", [gid, {**seat, "host": game["host_token"]}])
        page.goto(f"/#/game/{gid}")
        table = page.locator("[data-testid=notify-table][data-state=on]")
        table.wait_for()
        for lang in ("en", "de", "fr", "it"):
            switch_language(page, lang)
            assert table.get_by_role("button").inner_text() == load(lang)["notify.stop"]
        table.get_by_role("button", name=it["notify.stop"]).click()
        page.wait_for_selector("[data-testid=notify-table][data-state=off]")
        assert api(push_server, "GET", "/v1/me/push-subscriptions",
                   token=token)["subscriptions"] == []
        off = page.locator("[data-testid=notify-table][data-state=off]")
        assert off.get_by_role("button").inner_text() == it["notify.button"]
    finally:
        context.close()
    assert errors == []
    # the service worker is served at the root, as JavaScript
    worker = requests.get(push_server + "/sw.js", timeout=10)
    assert worker.status_code == 200 and worker.headers["Content-Type"].startswith(
        "text/javascript") and "notificationclick" in worker.text
    # a server without a VAPID key offers nothing
    other = api(web_server, "POST", "/v1/players", json={"name": "Bruno"})
    context = browser.new_context(base_url=web_server, permissions=["notifications"])
    try:
        page = context.new_page()
        become(page, other["player"], other["token"])
        page.reload()
        page.wait_for_selector("[data-testid=my-games]")
        page.wait_for_timeout(300)
        assert page.locator("[data-testid^=notify-]").count() == 0
    finally:
        context.close()
