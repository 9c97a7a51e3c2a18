"""Web Push (api/push.py, usecases/push.py, table/notices.py): a player's browsers subscribe;
the channel the outbox's sender calls (``push.deliver``), and the deadline loop's
``push.deadlines_near``, send each notice once, to a LOCAL push service (push_service.py)
that checks the VAPID signature and decrypts the payload as a browser would: the text is in
the subscription's language and says nothing secret. A subscription the push service answers
410 is deleted; a bad subscription is refused with nothing kept; no VAPID key, no push."""

from __future__ import annotations

import pytest
from py_vapid import Vapid

from impresario_engine.table.notices import TEXTS, duration
from impresario_engine.usecases import push
from push_service import PushService
from service_helpers import FakeClock, assert_problem, auth, pending_seats, stored

WEEK = 7 * 86400


@pytest.fixture
def vapid_file(tmp_path):
    key = Vapid()
    key.generate_keys()
    path = tmp_path / "vapid.pem"
    path.write_bytes(key.private_pem())
    return str(path)


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def push_app(app_factory, vapid_file, clock):
    return app_factory(clock=clock, vapid_private_key_file=vapid_file,
                       vapid_subject="mailto:ops@example.test", push_allow_private=True)


def _player(client, name: str) -> tuple[str, str]:
    body = client.post("/v1/players", json={"name": name}).get_json()
    return body["player"]["id"], body["token"]


def _written(app, game_id: str, after: int):
    """What the sender hands the channel for the writes after event ``after``."""
    store = app.extensions["impresario"].store
    _v, doc, _i, _r = store.read_game(game_id)
    return doc, store.events(game_id, after)


def test_notices_reach_the_players_browsers_once_in_their_language_and_say_nothing_secret(
        push_app, clock, redis_client):
    client, engine = push_app.test_client(), push_app.extensions["impresario"]
    key = client.get("/v1/push/vapid-public-key").get_json()["public_key"]
    anna, anna_token = _player(client, "Anna")
    bruno, bruno_token = _player(client, "Bruno")
    with PushService(key) as service:
        # Anna's game is made and sat at before she subscribes; an ordinary game beside it
        made = client.post("/v1/games", headers=auth(anna_token), json={
            "ruleset": "turandot", "players": 3, "seed": 7,
            "options": {"move_seconds": 3 * 86400}}).get_json()
        game_id, url = made["game"]["id"], f"/v1/games/{made['game']['id']}"
        seat0 = client.post(f"{url}/seats", json={"name": "Anna"},
                            headers=auth(made["host_token"])).get_json()
        plain = client.post("/v1/games", json={"ruleset": "turandot", "players": 3}).get_json()
        updated = stored(redis_client, game_id)[1]["updated"]
        clock.advance(60)
        anna_phone = service.browser("anna-phone")
        sub = client.post("/v1/me/push-subscriptions", headers=auth(anna_token),
                          json=anna_phone.subscription("it"))
        assert sub.status_code == 201, sub.get_data(as_text=True)
        again = client.post("/v1/me/push-subscriptions", headers=auth(anna_token),
                            json=anna_phone.subscription("it"))
        assert again.status_code == 200 and again.get_json()["id"] == sub.get_json()["id"]
        flagged = stored(redis_client, game_id)[1]
        assert flagged.get("notify") is True
        assert flagged["updated"] == updated  # a flag is no activity: the idle time goes on
        assert "notify" not in stored(redis_client, plain["game"]["id"])[1]
        # Bruno subscribed (German) before he joins: the game he joins is flagged too
        bruno_laptop = service.browser("bruno-laptop")
        assert client.post("/v1/me/push-subscriptions", headers=auth(bruno_token),
                           json=bruno_laptop.subscription("de")).status_code == 201
        gone = service.browser("bruno-old", gone=True)  # a browser that dropped it since
        assert client.post("/v1/me/push-subscriptions", headers=auth(bruno_token),
                           json=gone.subscription("de")).status_code == 201
        seat1 = client.post(f"{url}/seats", json={"name": "Bruno"},
                            headers=auth(bruno_token)).get_json()
        seat2 = client.post(f"{url}/seats", json={"name": "Carla"}).get_json()  # no player
        doc, events = _written(push_app, game_id, 0)
        assert doc["status"] == "playing" and doc["notify"] is True

        sent = push.deliver(engine, game_id, doc, events)
        assert service.errors == []
        by_path = {r["path"]: r["message"] for r in service.received}
        assert sent == 2 and set(by_path) == {"/send/anna-phone", "/send/bruno-laptop"}
        left = duration(3 * 86400, "it")
        assert by_path["/send/anna-phone"] == {
            "title": "Tocca a te — Turandot",
            "body": TEXTS["it"]["your_move.left"].format(game=game_id, left=left),
            "url": f"/#/game/{game_id}", "tag": f"{game_id}:0", "kind": "your_move",
            "game": game_id, "lang": "it"}
        assert by_path["/send/bruno-laptop"]["title"] == "Du bist am Zug — Turandot"
        assert "Verbleibende Zeit: 3 T." in by_path["/send/bruno-laptop"]["body"]
        # the 410 browser is forgotten; Bruno's other one stays
        listed = client.get("/v1/me/push-subscriptions", headers=auth(bruno_token)).get_json()
        assert [s["endpoint"] for s in listed["subscriptions"]] == [bruno_laptop.endpoint]

        # the same write handed over again, and a later write in the same turn: nothing more
        assert push.deliver(engine, game_id, doc, events) == 0
        tokens = {0: seat0["token"], 1: seat1["token"], 2: seat2["token"]}
        view = client.get(url).get_json()
        carla = 2 if 2 in pending_seats(view) else None
        if carla is not None:  # Carla bids: Anna's and Bruno's turns go on
            actions = client.get(f"{url}/actions", headers=auth(tokens[2])).get_json()
            assert client.post(f"{url}/moves", json=actions["default"],
                               headers=auth(tokens[2])).status_code == 200
            doc, events = _written(push_app, game_id, doc["seq"])
            assert push.deliver(engine, game_id, doc, events) == 0

        # time runs: "time is running out" once per turn, from the deadline loop
        clock.advance(3 * 86400 - 1800)
        assert push.deadlines_near(engine, clock()) == 2
        assert push.deadlines_near(engine, clock()) == 0
        near = [r["message"] for r in service.received[2:]]
        assert sorted(m["title"] for m in near) == ["Die Zeit läuft ab — Turandot",
                                                    "Il tempo sta per scadere — Turandot"]
        assert all(duration(1800, m["lang"]) in m["body"] for m in near)

        # nothing of the game's secrets in any notification: no card of any hand or deck
        state = stored(redis_client, game_id)[1]["state"]
        text = repr([r["message"] for r in service.received])
        secrets = {str(c) for c in state.get("deck", [])}
        for player in state.get("players", []):
            secrets |= {str(c) for c in player.get("hand", [])}
        assert secrets and not any(f"'{s}'" in text or f" {s}" in text for s in secrets)
        for received in service.received:  # only the catalogue's sentences, filled in
            message = received["message"]
            assert set(message) == {"title", "body", "url", "tag", "kind", "game", "lang"}


def test_the_end_of_a_game_tells_each_player_their_place(push_app, clock):
    client, engine = push_app.test_client(), push_app.extensions["impresario"]
    with PushService() as service:
        anna, anna_token = _player(client, "Anna")
        phone = service.browser("anna")
        assert client.post("/v1/me/push-subscriptions", headers=auth(anna_token),
                           json=phone.subscription("fr")).status_code == 201
        made = client.post("/v1/games", headers=auth(anna_token), json={
            "ruleset": "turandot", "players": 3, "seed": 11}).get_json()
        url = f"/v1/games/{made['game']['id']}"
        tokens = [client.post(f"{url}/seats", json={"name": "Anna"},
                              headers=auth(made["host_token"])).get_json()["token"]]
        for name in ("Bob", "Cy"):
            tokens.append(client.post(f"{url}/seats", json={"name": name}).get_json()["token"])
        view = client.get(url).get_json()
        while view["status"] != "finished":
            seat = pending_seats(view)[0]
            actions = client.get(f"{url}/actions", headers=auth(tokens[seat])).get_json()
            assert client.post(f"{url}/moves", json=actions["default"],
                               headers=auth(tokens[seat])).status_code == 200
            view = client.get(url).get_json()
        doc, events = _written(push_app, made["game"]["id"], 0)
        assert push.deliver(engine, made["game"]["id"], doc, events[-3:]) == 1
        (message,) = [r["message"] for r in service.received]
        assert message["title"] == "Partie terminée — Turandot"
        assert message["kind"] == "game_over" and " sur 3." in message["body"]
        assert service.errors == []
    # her seat in the rematch, claimed: that game is flagged too
    again = client.post(f"{url}/rematch", headers=auth(tokens[0]))
    assert again.status_code in (200, 201), again.get_data(as_text=True)
    assert stored(push_app.extensions["impresario_store"].client,
                  again.get_json()["rematch"])[1].get("notify") is True


BAD = [
    ({"endpoint": "ftp://push.example/x"}, "endpoint"),
    ({"endpoint": "https://user:pw@push.example/x"}, "endpoint"),
    ({"endpoint": "https://push.example/" + "x" * 1100}, None),
    ({"keys": {"p256dh": "AAAA", "auth": "tBHItJI5svbpez7KI4CCXg"}}, "keys.p256dh"),
    ({"keys": {"p256dh": "B" + "A" * 86, "auth": "tBHItJI5svbpez7KI4CCXg"}}, "keys.p256dh"),
    ({"keys": {"p256dh": None, "auth": "x"}}, None),
    ({"lang": "es"}, None),
]


@pytest.mark.parametrize("change,field", BAD)
def test_a_bad_subscription_is_refused_and_nothing_is_kept(push_app, redis_client, change,
                                                           field):
    client = push_app.test_client()
    _anna, token = _player(client, "Anna")
    with PushService() as service:
        good = service.browser("anna").subscription("en")
    resp = client.post("/v1/me/push-subscriptions", headers=auth(token), json={**good, **change})
    body = assert_problem(resp, 422, "invalid_subscription" if field else "invalid_body")
    if field:
        assert field in body["errors"]
    assert list(redis_client.scan_iter(match="push-*")) == []


def test_public_hosts_only_without_push_allow_private(app_factory, vapid_file, redis_client):
    client = app_factory(vapid_private_key_file=vapid_file,
                         vapid_subject="mailto:ops@example.test").test_client()
    _anna, token = _player(client, "Anna")
    with PushService() as service:
        local = service.browser("anna").subscription("en")
    for endpoint in (local["endpoint"], "https://127.0.0.1/x", "https://10.1.2.3/x",
                     "https://[::1]/x", "https://localhost/x"):
        resp = client.post("/v1/me/push-subscriptions", headers=auth(token),
                           json={**local, "endpoint": endpoint})
        assert_problem(resp, 422, "invalid_subscription")
    assert list(redis_client.scan_iter(match="push-*")) == []


def test_without_a_vapid_key_push_is_unavailable(client):
    _anna, token = _player(client, "Anna")
    assert_problem(client.get("/v1/push/vapid-public-key"), 404, "push_unavailable")
    assert_problem(client.get("/v1/me/push-subscriptions", headers=auth(token)), 404,
                   "push_unavailable")
    with PushService() as service:
        sub = service.browser("anna").subscription("en")
    assert_problem(client.post("/v1/me/push-subscriptions", headers=auth(token), json=sub),
                   404, "push_unavailable")


def test_subscriptions_are_listed_deleted_and_go_with_the_player(push_app, redis_client):
    client = push_app.test_client()
    _anna, token = _player(client, "Anna")
    with PushService() as service:
        made = client.post("/v1/me/push-subscriptions", headers=auth(token),
                           json=service.browser("anna").subscription("en")).get_json()
        other = client.post("/v1/me/push-subscriptions", headers=auth(token),
                            json=service.browser("anna2").subscription("it")).get_json()
    assert_problem(client.get("/v1/me/push-subscriptions"), 401, "missing_token")
    listed = client.get("/v1/me/push-subscriptions", headers=auth(token)).get_json()
    assert sorted(s["id"] for s in listed["subscriptions"]) == sorted([made["id"], other["id"]])
    assert client.delete(f"/v1/me/push-subscriptions/{made['id']}",
                         headers=auth(token)).status_code == 204
    assert_problem(client.delete(f"/v1/me/push-subscriptions/{made['id']}",
                                 headers=auth(token)), 404, "subscription_not_found")
    assert client.delete("/v1/me", headers=auth(token)).status_code == 204
    assert list(redis_client.scan_iter(match="push-subs*")) == []


def test_a_quick_match_game_of_a_subscribed_player_is_flagged_and_others_are_not(
        push_app, clock, redis_client):
    client = push_app.test_client()
    _anna, anna = _player(client, "Anna")
    _bruno, bruno = _player(client, "Bruno")
    with PushService() as service:
        assert client.post("/v1/me/push-subscriptions", headers=auth(anna),
                           json=service.browser("anna").subscription("en")).status_code == 201
    games = {}
    for token, ruleset in ((anna, "muzicando"), (bruno, "turandot")):
        client.post("/v1/match", json={"ruleset": ruleset, "players": 4, "wait_seconds": 10},
                    headers=auth(token))
    clock.advance(11)
    for token in (anna, bruno):
        match = client.get("/v1/match", headers=auth(token)).get_json()
        assert match["status"] == "seated", match
        games[token] = stored(redis_client, match["game"])[1]
    assert games[anna].get("notify") is True and "notify" not in games[bruno]


def test_a_webhook_deleted_leaves_a_subscribed_players_game_notifying(push_app, redis_client):
    """The game's last endpoint goes: its player's Web Push still needs the sender to see its
    writes, so the game stays flagged."""
    client = push_app.test_client()
    key = client.get("/v1/push/vapid-public-key").get_json()["public_key"]
    _anna, token = _player(client, "Anna")
    with PushService(key) as service:
        assert client.post("/v1/me/push-subscriptions", headers=auth(token),
                           json=service.browser("anna").subscription("en")).status_code == 201
        made = client.post("/v1/games", headers=auth(token), json={
            "ruleset": "turandot", "players": 3}).get_json()
        gid, host = made["game"]["id"], made["host_token"]
        client.post(f"/v1/games/{gid}/seats", json={"name": "Anna"}, headers=auth(token))
        assert stored(redis_client, gid)[1]["notify"] is True
        hook = client.post(f"/v1/games/{gid}/webhooks", headers=auth(host),  # public: no DNS
                           json={"url": "https://93.184.216.34/hook"})
        assert hook.status_code == 201, hook.get_data(as_text=True)
        gone = client.delete(f"/v1/games/{gid}/webhooks/{hook.get_json()['id']}",
                             headers=auth(host))
        assert gone.status_code == 204
        assert stored(redis_client, gid)[1]["notify"] is True
