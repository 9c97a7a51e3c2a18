"""Webhooks in process (api/webhooks.py, usecases/webhooks.py, usecases/notify.py): who may
register, list and delete a game's endpoints, what a refusal changes (nothing), a platform's
games covered by its operator endpoint from their creation, an endpoint disabled once its
message failed every retry, and the other channels called for each outbox entry. The sends go
to a stand-in for ``outgoing.post`` here; tests/live/test_webhooks.py sends them for real."""

from __future__ import annotations

import hashlib
import json
import time

import jwt
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from impresario_engine.table.webhooks import new_secret
from impresario_engine.usecases import notify, outgoing
from service_helpers import assert_problem, auth, stored

LOCAL = {"webhook_allow_private": True, "webhook_allow_http_hosts": "127.0.0.1",
         "webhook_rate_per_second": 100000}
URL = "http://127.0.0.1:9/hook"
ISS, AUD = "https://platform.example.test", "impresario-test"
KEY = ec.generate_private_key(ec.SECP256R1())


class Sent:
    """Stands in for outgoing.post: records each message, answers ``statuses`` in turn."""

    def __init__(self, *statuses: int) -> None:
        self.messages: list[tuple[str, dict, dict]] = []
        self.statuses = list(statuses)

    def __call__(self, url, body, headers, config, resolver=None):
        self.messages.append((url, headers, json.loads(body)))
        status = self.statuses.pop(0) if self.statuses else 200
        return outgoing.Outcome(status, None if status < 300 else f"HTTP {status}", 1)


def _game(client, players: int = 3) -> tuple[str, str]:
    body = client.post("/v1/games", json={"ruleset": "turandot", "players": players}).get_json()
    return body["game"]["id"], body["host_token"]


def test_only_the_host_manages_a_games_webhooks_and_a_refusal_changes_nothing(app_factory,
                                                                              redis_client):
    client = app_factory(**LOCAL, webhooks_per_game=2).test_client()
    game_id, host = _game(client)
    seat = client.post(f"/v1/games/{game_id}/seats", json={"name": "Anna"}).get_json()["token"]
    base = f"/v1/games/{game_id}/webhooks"
    version = stored(redis_client, game_id)[0]
    assert_problem(client.post(base, json={"url": URL}), 401, "missing_token")
    assert_problem(client.post(base, json={"url": URL}, headers=auth(seat)), 403, "host_only")
    assert_problem(client.post(base, json={"url": URL}, headers=auth("x" * 30)), 401,
                   "invalid_token")
    assert_problem(client.post(base, json={"url": "https://127.0.0.2:1/x"} | {"events": [1]},
                               headers=auth(host)), 422, "invalid_body")
    assert_problem(client.post(base, json={"url": URL, "events": ["Not A Type"]},
                               headers=auth(host)), 422, "invalid_webhook_events")
    assert_problem(client.post(base, json={"url": "ftp://127.0.0.1/x"}, headers=auth(host)),
                   422, "webhook_url_refused")
    assert_problem(client.get(base, headers=auth(seat)), 403, "host_only")
    assert stored(redis_client, game_id)[0] == version  # nothing written
    assert not stored(redis_client, game_id)[1].get("notify")

    made = client.post(base, json={"url": URL, "events": ["bids_revealed"]}, headers=auth(host))
    assert made.status_code == 201
    endpoint = made.get_json()
    assert endpoint["secret"].startswith("whsec_") and endpoint["events"] == ["bids_revealed"]
    assert stored(redis_client, game_id)[1]["notify"] is True
    client.post(base, json={"url": URL}, headers=auth(host))
    assert_problem(client.post(base, json={"url": URL}, headers=auth(host)), 409,
                   "too_many_webhooks")
    listed = client.get(base, headers=auth(host)).get_json()["webhooks"]
    assert len(listed) == 2 and all("secret" not in w for w in listed)
    assert endpoint["secret"] not in client.get(base, headers=auth(host)).get_data(as_text=True)
    assert_problem(client.delete(f"{base}/ep_nope", headers=auth(host)), 404,
                   "webhook_not_found")
    assert_problem(client.get(f"{base}/ep_nope/deliveries", headers=auth(host)), 404,
                   "webhook_not_found")
    assert_problem(client.post(f"{base}/{endpoint['id']}/deliveries/msg_other_1/redeliver",
                               headers=auth(host)), 404, "message_not_found")
    for w in listed:
        assert client.delete(f"{base}/{w['id']}", headers=auth(host)).status_code == 204
    assert client.get(base, headers=auth(host)).get_json() == {"webhooks": []}
    assert stored(redis_client, game_id)[1]["notify"] is False  # its writes cost nothing again


def test_an_endpoint_whose_message_fails_every_retry_is_disabled(app_factory, monkeypatch):
    now = [time.time()]
    app = app_factory(lambda: now[0], **LOCAL, webhook_retry_schedule="10,10")
    client = app.test_client()
    game_id, host = _game(client)
    endpoint = client.post(f"/v1/games/{game_id}/webhooks", json={
        "url": URL, "events": ["seat_taken"]}, headers=auth(host)).get_json()
    client.post(f"/v1/games/{game_id}/seats", json={"name": "Anna"})
    sent = Sent(500, 500, 500)
    monkeypatch.setattr(outgoing, "post", sent)
    sender = notify.Sender(app.extensions["impresario"], name="disable-test")
    for _ in range(5):
        sender.turn(block_ms=None)
        now[0] += 10
    assert [h["webhook-id"] for _u, h, _m in sent.messages] == [f"msg_{game_id}_1"] * 3
    listed = client.get(f"/v1/games/{game_id}/webhooks", headers=auth(host)).get_json()
    (shown,) = listed["webhooks"]
    assert shown["disabled"] is True and "failed its 3 attempts" in shown["disabled_reason"]
    log = client.get(f"/v1/games/{game_id}/webhooks/{endpoint['id']}/deliveries",
                     headers=auth(host)).get_json()
    assert [a["attempt"] for a in log["attempts"]] == [3, 2, 1]
    assert all(a["status"] == 500 and a["error"] == "HTTP 500" for a in log["attempts"])
    assert_problem(client.post(f"/v1/games/{game_id}/webhooks/{endpoint['id']}/deliveries/"
                               f"msg_{game_id}_1/redeliver", headers=auth(host)), 409,
                   "webhook_disabled")
    client.post(f"/v1/games/{game_id}/seats", json={"name": "Bruno"})
    sender.turn(block_ms=None)
    assert len(sent.messages) == 3  # a disabled endpoint gets nothing more


def test_a_platforms_games_are_covered_from_their_creation(app_factory, tmp_path,
                                                           monkeypatch, redis_client):
    pem = KEY.public_key().public_bytes(serialization.Encoding.PEM,
                                        serialization.PublicFormat.SubjectPublicKeyInfo)
    issuers = tmp_path / "issuers.json"
    issuers.write_text(json.dumps({"issuers": [{"issuer": ISS, "audience": AUD,
                                                "algorithms": ["ES256"],
                                                "keys": {"k1": pem.decode()}}]}))
    hooks = tmp_path / "webhooks.json"
    key = "platform-key"
    hooks.write_text(json.dumps({"endpoints": [{
        "id": "ep_platform", "url": URL, "secret": new_secret(), "events": ["*"],
        "platform": ISS, "key_sha256": hashlib.sha256(key.encode()).hexdigest()}]}))
    app = app_factory(**LOCAL, trusted_issuers_file=str(issuers), webhooks_file=str(hooks))
    client = app.test_client()
    now = int(time.time())
    token = jwt.encode({"iss": ISS, "aud": AUD, "sub": "u1", "iat": now, "exp": now + 300},
                       KEY, algorithm="ES256", headers={"kid": "k1"})
    theirs = client.post("/v1/games", json={"ruleset": "turandot", "players": 2},
                         headers=auth(token)).get_json()["game"]["id"]
    other, _host = _game(client, 2)
    assert stored(redis_client, theirs)[1]["notify"] is True
    assert stored(redis_client, theirs)[1]["platform"] == ISS
    assert not stored(redis_client, other)[1].get("notify")
    for gid in (theirs, other):
        client.post(f"/v1/games/{gid}/seats", json={"name": "Anna"})
    calls = []
    monkeypatch.setattr(notify, "CHANNELS", [lambda engine, gid, doc, events:
                                             calls.append((gid, [s for s, _e in events]))])
    sent = Sent()
    monkeypatch.setattr(outgoing, "post", sent)
    notify.Sender(app.extensions["impresario"], name="platform-test").turn(block_ms=None)
    assert {m["data"]["game_id"] for _u, _h, m in sent.messages} == {theirs}
    assert calls and {gid for gid, _s in calls} == {theirs}  # the other channels: same entries
    log = client.get("/v1/webhooks/ep_platform/deliveries", headers=auth(key))
    assert log.status_code == 200 and log.get_json()["attempts"][0]["game_id"] == theirs
    assert_problem(client.get("/v1/webhooks/ep_platform/deliveries", headers=auth("wrong")),
                   401, "invalid_token")
    assert_problem(client.get("/v1/webhooks/ep_platform/deliveries"), 401, "missing_token")
    assert_problem(client.get("/v1/webhooks/ep_unknown/deliveries", headers=auth(key)), 401,
                   "invalid_token")


@pytest.mark.parametrize("text", [
    '{"endpoints": [{"id": "bad id", "url": "https://x.example", "secret": "whsec_AAAA"}]}',
    '{"endpoints": [{"id": "ep_a", "url": "https://x.example", "secret": "plain"}]}',
    '[]'])
def test_a_malformed_webhooks_file_stops_the_service(app_factory, tmp_path, text):
    path = tmp_path / "webhooks.json"
    path.write_text(text)
    with pytest.raises(SystemExit):
        app_factory(webhooks_file=str(path))


def test_a_failing_endpoint_is_probed_once_while_its_other_messages_wait(app_factory,
                                                                        monkeypatch,
                                                                        redis_client):
    """A dead receiver costs one attempt per retry delay, not one timeout per message: the
    messages behind the failed one wait in the retry set (not counted as attempts)."""
    now = [time.time()]
    app = app_factory(lambda: now[0], **LOCAL, webhook_retry_schedule="10,10,10")
    client = app.test_client()
    game_id, host = _game(client, 3)
    client.post(f"/v1/games/{game_id}/webhooks", json={"url": URL, "events": ["seat_taken"]},
                headers=auth(host))
    for name in ("Anna", "Bruno"):
        client.post(f"/v1/games/{game_id}/seats", json={"name": name})
    sent = Sent(500, 500)
    monkeypatch.setattr(outgoing, "post", sent)
    sender = notify.Sender(app.extensions["impresario"], name="probe-test")
    sender.turn(block_ms=None)
    assert len(sent.messages) == 1  # the second message waits instead
    assert redis_client.zcard("impresario:webhooks:retries") == 2
    now[0] += 10
    sender.turn(block_ms=None)  # one probe (fails again), the other waits again
    assert len(sent.messages) == 2
    now[0] += 10
    sender.turn(block_ms=None)  # the receiver is back: both go
    ids = [h["webhook-id"] for _u, h, _m in sent.messages]
    assert sorted(set(ids)) == sorted({f"msg_{game_id}_1", f"msg_{game_id}_2"})
    assert len(sent.messages) == 4 and redis_client.zcard("impresario:webhooks:retries") == 0


def test_a_finished_games_webhooks_no_longer_change(app_factory, redis_client):
    client = app_factory(**LOCAL).test_client()
    game_id, host = _game(client, 2)
    made = client.post(f"/v1/games/{game_id}/webhooks", json={"url": URL},
                       headers=auth(host)).get_json()
    for n in range(2):  # bots at 0 s: the game plays to its end in the last seat's request
        client.post(f"/v1/games/{game_id}/seats", json={"name": f"B{n}", "bot": "easy"},
                    headers=auth(host))
    assert stored(redis_client, game_id)[1]["status"] == "finished"
    assert_problem(client.post(f"/v1/games/{game_id}/webhooks", json={"url": URL},
                               headers=auth(host)), 409, "game_finished")
    assert_problem(client.delete(f"/v1/games/{game_id}/webhooks/{made['id']}",
                                 headers=auth(host)), 409, "game_finished")
    listed = client.get(f"/v1/games/{game_id}/webhooks", headers=auth(host)).get_json()
    assert [w["id"] for w in listed["webhooks"]] == [made["id"]]
