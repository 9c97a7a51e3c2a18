"""Players (api/players.py): an anonymous player made and found again by its credential, moved
to another device by a one-time code; a trusted platform's user is a player the first time its
JWT is seen, the same player afterwards. Only hashes of credentials and codes are stored."""

from __future__ import annotations

import json
import time

import jwt
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from service_helpers import auth

ISS, AUD = "https://platform.example.test", "impresario-test"
KEY = ec.generate_private_key(ec.SECP256R1())


def _jwt(**changes) -> str:
    now = int(time.time())
    claims = {"iss": ISS, "aud": AUD, "sub": "user-7", "name": "Carla", "iat": now,
              "exp": now + 300, **changes}
    return jwt.encode(claims, KEY, algorithm="ES256", headers={"kid": "k1"})


@pytest.fixture
def platform_client(app_factory, tmp_path):
    pem = KEY.public_key().public_bytes(serialization.Encoding.PEM,
                                        serialization.PublicFormat.SubjectPublicKeyInfo)
    issuers = tmp_path / "issuers.json"
    issuers.write_text(json.dumps({"issuers": [{"issuer": ISS, "audience": AUD,
                                                "algorithms": ["ES256"],
                                                "keys": {"k1": pem.decode()}}]}))
    return app_factory(trusted_issuers_file=str(issuers)).test_client()


def _stored_text(redis_client) -> bytes:
    out = b""
    for key in redis_client.scan_iter(match="player*"):
        kind = redis_client.type(key)
        value = redis_client.hgetall(key) if kind == b"hash" else \
            redis_client.smembers(key) if kind == b"set" else \
            redis_client.zrange(key, 0, -1) if kind == b"zset" else redis_client.get(key)
        out += key + repr(value).encode()
    return out


def test_an_anonymous_player_is_found_again_by_its_credential(client, redis_client):
    made = client.post("/v1/players", json={"name": "  Anna  "})
    assert made.status_code == 201
    body = made.get_json()
    player, token = body["player"], body["token"]
    assert player["name"] == "Anna" and player["kind"] == "anonymous"
    me = client.get("/v1/me", headers=auth(token))
    assert me.status_code == 200 and me.get_json() == {"player": player}
    assert token.encode() not in _stored_text(redis_client)  # only its hash is kept
    other = client.post("/v1/players", json={"name": "Anna"}).get_json()
    assert other["player"]["id"] != player["id"]  # names are no identity


@pytest.mark.parametrize("headers,status,code", [
    ({}, 401, "missing_token"),
    ({"Authorization": "Bearer not-a-credential"}, 401, "invalid_player_token"),
    ({"Authorization": "Basic abc"}, 401, "invalid_token"),
])
def test_me_without_a_player_is_refused(client, headers, status, code):
    resp = client.get("/v1/me", headers=headers)
    assert resp.status_code == status and resp.get_json()["code"] == code


@pytest.mark.parametrize("name,code", [("   ", "name_blank"), ("A\u200bnna", "name_invisible_characters"),
                                       ("x" * 41, "invalid_body")])
def test_a_name_the_tables_refuse_is_refused_here_too(client, redis_client, name, code):
    resp = client.post("/v1/players", json={"name": name})
    assert resp.status_code == 422 and resp.get_json()["code"] == code
    assert _stored_text(redis_client) == b""  # nothing made


def test_a_device_code_moves_the_player_once(client, redis_client):
    first = client.post("/v1/players", json={"name": "Bruno"}).get_json()
    made = client.post("/v1/me/device-codes", headers=auth(first["token"]))
    assert made.status_code == 201
    code = made.get_json()["code"]
    assert len(code) == 10 and made.get_json()["expires_at"] > time.time() + 500
    assert code.encode() not in _stored_text(redis_client)
    second = client.post("/v1/players/claim", json={"code": code.lower()})  # typed by hand
    assert second.status_code == 200
    moved = second.get_json()
    assert moved["player"] == first["player"] and moved["token"] != first["token"]
    for token in (first["token"], moved["token"]):  # both devices are the player
        assert client.get("/v1/me", headers=auth(token)).get_json()["player"]["id"] == \
            first["player"]["id"]
    again = client.post("/v1/players/claim", json={"code": code})
    assert again.status_code == 401 and again.get_json()["code"] == "invalid_device_code"


def test_an_expired_device_code_gives_nothing(client, redis_client):
    first = client.post("/v1/players", json={"name": "Dora"}).get_json()
    code = client.post("/v1/me/device-codes", headers=auth(first["token"])).get_json()["code"]
    (key,) = list(redis_client.scan_iter(match="player-code:*"))
    redis_client.pexpire(key, 1)  # its ten minutes are over
    time.sleep(0.05)
    resp = client.post("/v1/players/claim", json={"code": code})
    assert resp.status_code == 401 and resp.get_json()["code"] == "invalid_device_code"


def test_a_platform_user_is_one_player_on_every_request(platform_client, redis_client):
    first = platform_client.get("/v1/me", headers=auth(_jwt()))
    assert first.status_code == 200
    player = first.get_json()["player"]
    assert player["kind"] == "platform" and player["name"] == "Carla"
    again = platform_client.get("/v1/me", headers=auth(_jwt(name="Carla R."))).get_json()
    assert again["player"] == player  # the same player, as it was made
    other = platform_client.get("/v1/me", headers=auth(_jwt(sub="user-8"))).get_json()
    assert other["player"]["id"] != player["id"]
    stale = platform_client.get("/v1/me", headers=auth(_jwt(exp=int(time.time()) - 300)))
    assert stale.status_code == 401 and stale.get_json()["code"] == "jwt_expired"


def test_without_trusted_issuers_every_jwt_is_refused(client):
    resp = client.get("/v1/me", headers=auth(_jwt()))
    assert resp.status_code == 401 and resp.get_json()["code"] == "jwt_untrusted_issuer"


def test_players_made_from_one_address_are_limited_like_games(app_factory, redis_client,
                                                              one_rate_window):
    client = app_factory(rate_limit_create_per_ip=3).test_client()
    made = [client.post("/v1/players", json={"name": f"P{i}"}) for i in range(4)]
    assert [r.status_code for r in made] == [201, 201, 201, 429]
    assert made[-1].get_json()["code"] == "create_rate_limited"
    assert len(list(redis_client.scan_iter(match="player:*"))) == 3  # the refused one made nothing


def test_a_player_renames_themselves_and_a_bad_name_changes_nothing(client):
    made = client.post("/v1/players", json={"name": "Anna"}).get_json()
    renamed = client.patch("/v1/me", json={"name": " Anna B. "}, headers=auth(made["token"]))
    assert renamed.status_code == 200 and renamed.get_json()["player"]["name"] == "Anna B."
    bad = client.patch("/v1/me", json={"name": "   "}, headers=auth(made["token"]))
    assert bad.status_code == 422 and bad.get_json()["code"] == "name_blank"
    me = client.get("/v1/me", headers=auth(made["token"])).get_json()["player"]
    assert me["name"] == "Anna B."
    assert client.get(f"/v1/players/{me['id']}").get_json()["player"]["name"] == "Anna B."


def test_a_platform_user_who_removed_their_player_comes_back_as_a_new_one(platform_client):
    first = platform_client.get("/v1/me", headers=auth(_jwt())).get_json()["player"]
    renamed = platform_client.patch("/v1/me", json={"name": "Carla R."}, headers=auth(_jwt()))
    assert renamed.get_json()["player"]["name"] == "Carla R."
    assert platform_client.delete("/v1/me", headers=auth(_jwt())).status_code == 204
    gone = platform_client.get(f"/v1/players/{first['id']}")
    assert gone.status_code == 404 and gone.get_json()["code"] == "player_not_found"
    back = platform_client.get("/v1/me", headers=auth(_jwt())).get_json()["player"]
    assert back["id"] == first["id"] and back["name"] == "Carla"  # made anew, from the token
    assert platform_client.get(f"/v1/players/{back['id']}").status_code == 200


def test_guessing_device_codes_is_throttled_like_tokens(app_factory, one_rate_window):
    client = app_factory(auth_failures_per_ip=3).test_client()
    codes = [client.post("/v1/players/claim", json={"code": f"ABCDEFGHJ{i}"}).status_code
             for i in range(2, 7)]
    assert codes[:3] == [401, 401, 401] and set(codes[3:]) == {429}
