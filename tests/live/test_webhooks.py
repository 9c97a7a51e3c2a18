"""Webhooks as deployed: gunicorn and its reaper on the session's Redis, senders
(``python -m impresario_engine notify --loop``) started here, and a real HTTP receiver on
127.0.0.1 (the operator's allowances for tests: ``WEBHOOK_ALLOW_PRIVATE``,
``WEBHOOK_ALLOW_HTTP_HOSTS=127.0.0.1``, a retry schedule of fractions of a second).

- every event of three whole games (Turandot, Word Jam, Muzicando; bots at 0 s) arrives at an
  operator endpoint that covers every game, signed (``standardwebhooks.Webhook.verify``), as a
  spectator reads it from the API; the host's own endpoint gets the events after it was
  registered;
- a sender SIGKILLed mid-delivery and started again loses nothing, and sends again only with
  the same ``webhook-id``;
- a receiver answering 500 gets the message again on retry, then 200; the log shows both;
- two senders side by side never both make the first delivery of a message;
- URLs to loopback, link-local, private addresses (and a redirect to one) are refused at
  registration and at send on a server without the allowances.
"""

from __future__ import annotations

import hashlib
import json
import signal
import time
from collections import Counter
from typing import Any

import pytest
import requests
from standardwebhooks import Webhook

from impresario_engine.table.webhooks import new_secret
from live.hook_helpers import Receiver, Senders

OPERATOR_SECRET = new_secret()
OPERATOR_KEY = "operator-key-for-tests"
SCHEDULE = "0.3,0.3,0.3,0.3"


@pytest.fixture(scope="module")
def receiver():
    found = Receiver()
    yield found
    found.server.shutdown()


@pytest.fixture(scope="module")
def hooks_env(receiver, tmp_path_factory) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("hooks")
    path = folder / "webhooks.json"
    path.write_text(json.dumps({"endpoints": [{
        "id": "ep_operator", "url": receiver.url + "/operator", "secret": OPERATOR_SECRET,
        "events": ["*"], "all_games": True,
        "key_sha256": hashlib.sha256(OPERATOR_KEY.encode()).hexdigest()}]}))
    return {"WEBHOOKS_FILE": str(path), "WEBHOOK_ALLOW_PRIVATE": "1",
            "WEBHOOK_ALLOW_HTTP_HOSTS": "127.0.0.1", "WEBHOOK_RETRY_SCHEDULE": SCHEDULE,
            "WEBHOOK_CONNECT_TIMEOUT": "1", "WEBHOOK_READ_TIMEOUT": "1",
            "WEBHOOK_CLAIM_SECONDS": "3", "WEBHOOK_RATE_PER_SECOND": "1000"}


@pytest.fixture(scope="module")
def hooks_server(redis_url, tmp_path_factory, gunicorn_server, hooks_env):
    with gunicorn_server(redis_url, tmp_path_factory.mktemp("hooks-gunicorn"), workers=2,
                         threads=8, **hooks_env) as url:
        yield url


@pytest.fixture
def senders(redis_url, hooks_env, tmp_path, redis_client):
    redis_client.delete("impresario:outbox", "impresario:webhooks:retries",
                        "impresario:webhooks:disabled", "impresario:webhooks:failing")
    found = Senders(redis_url, hooks_env, tmp_path)
    yield found
    found.stop()


def until(check, seconds: float = 30.0, why: str = ""):
    end = time.monotonic() + seconds
    while True:
        found = check()
        if found:
            return found
        if time.monotonic() > end:
            raise AssertionError(f"timed out: {why}")
        time.sleep(0.05)


def _create(base: str, ruleset: str, players: int, **options: Any) -> tuple[str, str]:
    resp = requests.post(f"{base}/v1/games", json={"ruleset": ruleset, "players": players,
                                                   "options": options}, timeout=10)
    assert resp.status_code == 201, resp.text
    body = resp.json()
    return body["game"]["id"], body["host_token"]


def _bots(base: str, game_id: str, host: str, players: int) -> None:
    for n in range(players):
        resp = requests.post(f"{base}/v1/games/{game_id}/seats", json={
            "name": f"Bot{n}", "bot": "easy"}, headers={"Authorization": f"Bearer {host}"},
            timeout=60)
        assert resp.status_code == 201, resp.text


def _register(base: str, game_id: str, host: str, url: str, **extra: Any) -> dict[str, Any]:
    resp = requests.post(f"{base}/v1/games/{game_id}/webhooks", json={"url": url, **extra},
                         headers={"Authorization": f"Bearer {host}"}, timeout=10)
    assert resp.status_code == 201, resp.text
    return resp.json()


def _spectator_events(base: str, game_id: str) -> list[dict[str, Any]]:
    resp = requests.get(f"{base}/v1/games/{game_id}/events", timeout=10)
    assert resp.status_code == 200
    return resp.json()["events"]


def _verified(secret: str, received: list[tuple[dict[str, str], bytes]]) -> list[dict]:
    hook = Webhook(secret)
    return [hook.verify(body, headers) for headers, body in received]


@pytest.mark.parametrize("ruleset,players,options", [
    ("turandot", 3, {}), ("wordjam", 5, {"bot_seconds": 0}), ("muzicando", 3, {})])
def test_every_event_of_a_whole_game_arrives_signed(hooks_server, receiver, senders, ruleset,
                                                    players, options):
    senders.start()
    game_id, host = _create(hooks_server, ruleset, players, **options)
    own = _register(hooks_server, game_id, host, receiver.url + f"/own/{game_id}",
                    events=["*"])
    assert own["secret"].startswith("whsec_") and own["id"].startswith("ep_")
    listed = requests.get(f"{hooks_server}/v1/games/{game_id}/webhooks",
                          headers={"Authorization": f"Bearer {host}"}, timeout=10).json()
    assert [w["id"] for w in listed["webhooks"]] == [own["id"]]
    assert "secret" not in listed["webhooks"][0]
    _bots(hooks_server, game_id, host, players)
    view = until(lambda: (v := requests.get(f"{hooks_server}/v1/games/{game_id}",
                                            timeout=10).json())["status"] == "finished" and v,
                 60, "the bots finish the game")
    expected = _spectator_events(hooks_server, game_id)
    assert len(expected) == view["last_seq"]

    def arrived(path: str, first: int) -> list[dict]:
        got = {m["data"]["seq"]: m for m in _verified(
            OPERATOR_SECRET if path == "/operator" else own["secret"], receiver.raw(path))
            if m["data"]["game_id"] == game_id}
        return [got[s] for s in sorted(got)] if set(range(first, len(expected) + 1)) <= set(
            got) else []

    everything = until(lambda: arrived("/operator", 1), 30, "every event at the operator's")
    assert [m["data"]["event"] for m in everything] == expected  # as a spectator reads them
    assert [m["type"] for m in everything] == [e["type"] for e in expected]
    for headers, body in receiver.raw("/operator"):
        message = json.loads(body)
        if message["data"]["game_id"] == game_id:
            assert headers["webhook-id"] == f"msg_{game_id}_{message['data']['seq']}"
    # the host's endpoint: every event after it was registered (the seats, the whole game)
    mine = until(lambda: arrived(f"/own/{game_id}", 2), 30, "the host's endpoint's events")
    assert mine[-1]["data"]["event"] == expected[-1]
    # its delivery log
    log = requests.get(f"{hooks_server}/v1/games/{game_id}/webhooks/{own['id']}/deliveries",
                       headers={"Authorization": f"Bearer {host}"}, timeout=10).json()
    assert log["attempts"] and all(a["status"] == 200 for a in log["attempts"])
    assert "secret" not in log["endpoint"]


def test_a_sender_killed_mid_delivery_loses_nothing(hooks_server, receiver, senders):
    receiver.delay = 0.3  # slow answers: the kill lands mid-delivery
    try:
        first = senders.start()
        game_id, host = _create(hooks_server, "turandot", 3)
        _bots(hooks_server, game_id, host, 3)
        total = len(_spectator_events(hooks_server, game_id))
        until(lambda: len([1 for _h, m in receiver.at("/operator")
                           if m["data"]["game_id"] == game_id]) >= 3, 30, "some deliveries")
        first.send_signal(signal.SIGKILL)
        first.wait()
        receiver.delay = 0.0
        senders.start()  # another process: takes over the dead one's entries after 1 s

        def ids() -> Counter:
            return Counter(h["webhook-id"] for h, m in receiver.at("/operator")
                           if m["data"]["game_id"] == game_id)

        until(lambda: len(ids()) == total, 60, "every event after the kill")
        for headers, body in receiver.raw("/operator"):
            message = Webhook(OPERATOR_SECRET).verify(body, headers)
            if message["data"]["game_id"] == game_id:  # a repeat has the same id and body
                assert headers["webhook-id"] == f"msg_{game_id}_{message['data']['seq']}"
    finally:
        receiver.delay = 0.0


def test_a_failed_delivery_is_retried_and_logged(hooks_server, receiver, senders):
    senders.start()
    game_id, host = _create(hooks_server, "turandot", 3)
    path = f"/flaky/{game_id}"
    receiver.answers[path] = [500, 503]
    own = _register(hooks_server, game_id, host, receiver.url + path, events=["seat_taken"])
    _bots(hooks_server, game_id, host, 1)
    got = until(lambda: [h for h, m in receiver.at(path)], 20, "the first attempts")
    until(lambda: len(receiver.at(path)) >= 3, 20, "two retries")
    ids = [h["webhook-id"] for h, _m in receiver.at(path)]
    assert len(set(ids)) == 1 and got  # the same message each time
    auth = {"Authorization": f"Bearer {host}"}
    log = until(lambda: (r := requests.get(
        f"{hooks_server}/v1/games/{game_id}/webhooks/{own['id']}/deliveries", headers=auth,
        timeout=10).json())["attempts"] and r["attempts"][0]["status"] == 200 and r, 10,
        "the log shows the success")
    assert [a["status"] for a in reversed(log["attempts"])] == [500, 503, 200]
    assert [a["attempt"] for a in reversed(log["attempts"])] == [1, 2, 3]
    # sent again on request, with its own id
    resp = requests.post(f"{hooks_server}/v1/games/{game_id}/webhooks/{own['id']}/deliveries/"
                         f"{ids[0]}/redeliver", headers=auth, timeout=10)
    assert resp.status_code == 202, resp.text
    until(lambda: len(receiver.at(path)) == 4, 10, "the redelivery")
    assert receiver.at(path)[-1][0]["webhook-id"] == ids[0]
    # the operator reads its own log with its key, and nobody else does
    resp = requests.get(f"{hooks_server}/v1/webhooks/ep_operator/deliveries",
                        headers={"Authorization": f"Bearer {OPERATOR_KEY}"}, timeout=10)
    assert resp.status_code == 200 and resp.json()["attempts"]
    resp = requests.get(f"{hooks_server}/v1/webhooks/ep_operator/deliveries",
                        headers={"Authorization": f"Bearer {host}"}, timeout=10)
    assert resp.status_code == 401 and resp.json()["code"] == "invalid_token"


def test_two_senders_never_both_deliver_a_message_first(hooks_server, receiver, senders):
    senders.start()
    senders.start()
    games = []
    for _ in range(3):
        game_id, host = _create(hooks_server, "muzicando", 3)
        _bots(hooks_server, game_id, host, 3)
        games.append((game_id, len(_spectator_events(hooks_server, game_id))))
    for game_id, total in games:
        until(lambda: len({h["webhook-id"] for h, m in receiver.at("/operator")
                           if m["data"]["game_id"] == game_id}) == total, 30, "every event")
    counts = Counter(h["webhook-id"] for h, m in receiver.at("/operator")
                     if m["data"]["game_id"] in {g for g, _t in games})
    assert max(counts.values()) == 1, [k for k, v in counts.items() if v > 1]


def test_urls_to_private_addresses_are_refused(gunicorn_server, redis_url, tmp_path, receiver,
                                               redis_client):
    """A server as deployed (no allowances): refused at registration; and a redirect is never
    followed."""
    with gunicorn_server(redis_url, tmp_path, workers=1, threads=4, reap_every=None) as base:
        game_id, host = _create(base, "turandot", 3)
        auth = {"Authorization": f"Bearer {host}"}
        for url in ("http://127.0.0.1/hook", "https://127.0.0.1/hook",
                    "https://169.254.169.254/latest/meta-data", "https://[::1]/hook",
                    "https://[::ffff:127.0.0.1]/hook", "https://10.0.0.8/hook",
                    "https://localhost/hook", "https://0.0.0.0/hook", "ftp://example.com/x",
                    "https://user:pw@example.com/x"):
            resp = requests.post(f"{base}/v1/games/{game_id}/webhooks", json={"url": url},
                                 headers=auth, timeout=10)
            assert resp.status_code == 422, (url, resp.text)
            assert resp.json()["code"] == "webhook_url_refused", url
        resp = requests.post(f"{base}/v1/games/{game_id}/webhooks",
                             json={"url": "https://example.com/x"}, timeout=10)
        assert resp.status_code == 401
        resp = requests.post(f"{base}/v1/games/{game_id}/webhooks",
                             json={"url": "https://example.com/x", "events": ["Bad Type"]},
                             headers=auth, timeout=10)
        assert resp.status_code == 422 and resp.json()["code"] == "invalid_webhook_events"
        listed = requests.get(f"{base}/v1/games/{game_id}/webhooks", headers=auth, timeout=10)
        assert listed.json() == {"webhooks": []}  # nothing was written


def test_a_redirect_is_a_failure_never_followed(hooks_server, receiver, senders):
    senders.start()
    game_id, host = _create(hooks_server, "turandot", 3)
    path = f"/moved/{game_id}"
    receiver.answers[path] = [302, 302, 302, 302, 302]
    own = _register(hooks_server, game_id, host, receiver.url + path, events=["seat_taken"])
    _bots(hooks_server, game_id, host, 1)
    auth = {"Authorization": f"Bearer {host}"}
    log = until(lambda: (r := requests.get(
        f"{hooks_server}/v1/games/{game_id}/webhooks/{own['id']}/deliveries", headers=auth,
        timeout=10).json())["attempts"] and r, 10, "an attempt")
    assert log["attempts"][-1]["status"] == 302
    assert log["attempts"][-1]["error"] == "redirect not followed"
    assert all(p == path for p, _h, _b in receiver.got if p.startswith("/moved"))
