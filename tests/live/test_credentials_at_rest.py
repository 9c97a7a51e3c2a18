"""No credential sits in clear anywhere in Redis: after creating a public and a private game (with
Idempotency-Keys), joining them (by the private game's join link too), leaving a seat, playing
a game to its end and asking for its rematch, asking for stream tickets (one used, the others
waiting), every key of every kind is read, each value
unpacked as the store packs it (deflate, zlib, JSON), and none holds a token or a link any
response handed out. The store keeps credentials only as hashes, or sealed with the key of the
request that may replay them."""

from __future__ import annotations

import random
import re
import zlib
from typing import Any, Iterator

import orjson

from impresario_engine.store import codec

from .live_helpers import TestStream, create, play_humans, seat, setup_game
from service_helpers import auth

CREDENTIALS = ("token", "host_token", "spectator_token", "join_token", "ticket")
LINK_TOKEN = re.compile(r"[?&](?:spectator|join|ticket)=([A-Za-z0-9_-]+)")


def handed_out(body: Any, found: set[str]) -> None:
    """Every credential in a response: its tokens, and the tokens in its links."""
    if isinstance(body, dict):
        for key, value in body.items():
            if key in CREDENTIALS and isinstance(value, str):
                found.add(value)
            elif (key.endswith("_link") or key == "url") and isinstance(value, str):
                found.update(LINK_TOKEN.findall(value))
            else:
                handed_out(value, found)
    elif isinstance(body, list):
        for item in body:
            handed_out(item, found)


def blobs(redis_client) -> Iterator[tuple[str, bytes]]:
    """Every name and value Redis holds, whatever the key's type."""
    for key in redis_client.scan_iter(count=500):
        name = key.decode()
        kind = redis_client.type(key).decode()
        yield name, key
        if kind == "string":
            yield name, redis_client.get(key) or b""
        elif kind == "hash":
            for field, value in redis_client.hgetall(key).items():
                yield name, field
                yield name, value
        elif kind == "stream":
            for eid, fields in redis_client.xrange(key):
                for field, value in fields.items():
                    yield name, value
        elif kind == "zset":
            for member in redis_client.zrange(key, 0, -1):
                yield name, member
        elif kind == "set":
            for member in redis_client.smembers(key):
                yield name, member
        elif kind == "list":
            for item in redis_client.lrange(key, 0, -1):
                yield name, item


def readings(blob: bytes) -> list[bytes]:
    """A value as stored, and unpacked every way the store packs values."""
    out = [blob]
    try:
        out.append(orjson.dumps(codec.unpack(blob)))
    except Exception:  # noqa: BLE001 - not a packed value: read as it is
        pass
    for wbits in (-15, 15):
        try:
            out.append(zlib.decompress(blob, wbits))
        except zlib.error:
            pass
    return out


def assert_nothing_in_clear(redis_client, credentials: set[str]) -> int:
    assert credentials
    seen = 0
    for name, blob in blobs(redis_client):
        seen += 1
        for text in readings(blob):
            for credential in credentials:
                assert credential.encode() not in text, f"{name} holds a credential in clear"
    return seen


def test_no_credential_sits_in_clear_anywhere_in_redis(client, redis_client):
    handed: set[str] = set()
    rng = random.Random(5)

    # a public game created and joined with Idempotency-Keys; a seat given back before the start
    created = client.post("/v1/games", json={"ruleset": "turandot", "players": 2, "seed": 3},
                          headers={"Idempotency-Key": "create-public"}).get_json()
    handed_out(created, handed)
    gid = created["game"]["id"]
    left = client.post(f"/v1/games/{gid}/seats", json={"name": "Leaver"},
                       headers={"Idempotency-Key": "join-leaver"}).get_json()
    handed_out(left, handed)
    resp = client.delete(f"/v1/games/{gid}/seats/0", headers={
        **auth(left["token"]), "Idempotency-Key": "leave-1"})
    assert resp.status_code == 200

    # a private game: its spectator and join links, a seat taken through the join link
    private = client.post("/v1/games", json={"ruleset": "turandot", "players": 2, "seed": 4,
                                             "private": True},
                          headers={"Idempotency-Key": "create-private"}).get_json()
    handed_out(private, handed)
    assert private["join_token"] and private["spectator_token"]
    joined = client.post(private["join_link"], json={"name": "Linked"},
                         headers={"Idempotency-Key": "join-private"})
    assert joined.status_code == 201, joined.get_data(as_text=True)
    handed_out(joined.get_json(), handed)
    assert client.get(private["spectator_link"]).status_code == 200

    # a game played to its end, and its rematch asked for by both players
    done, tokens = setup_game(client, [None, None], seed=6)
    handed_out(done, handed)
    handed.update(t for t in tokens if t)
    play_humans(client, done["game"]["id"], tokens, rng)
    for token in tokens:
        again = client.post(f"/v1/games/{done['game']['id']}/rematch", headers=auth(token))
        assert again.status_code in (200, 201), again.get_data(as_text=True)
        handed_out(again.get_json(), handed)
    rematch = again.get_json()["rematch"]
    # a move of the rematch with a key, and a leave in play
    view = client.get(f"/v1/games/{rematch}", headers=auth(again.get_json()["token"])).get_json()
    assert view["status"] == "playing"
    leave = client.delete(f"/v1/games/{rematch}/seats/{again.get_json()['seat']}",
                          headers={**auth(again.get_json()["token"]), "Idempotency-Key": "bye"})
    assert leave.status_code == 200, leave.get_data(as_text=True)

    # plus a seat of the public game joined again, so it holds join records of both kinds
    handed_out(seat(client, gid, "Second"), handed)
    handed_out(create(client, players=2, seed=8, private=True), handed)

    # stream tickets: the store keeps them until used, a seat's, the host's, a spectator's
    pid = private["game"]["id"]
    tickets = [client.post(f"/v1/games/{game}/stream-tickets", headers=auth(token)).get_json()
               for game, token in ((gid, created["host_token"]),
                                   (pid, joined.get_json()["token"]),
                                   (pid, private["spectator_token"]),
                                   (pid, private["host_token"]))]
    for ticket in tickets:
        assert ticket["ticket"], ticket
        handed_out(ticket, handed)
    used = TestStream(client, tickets[0]["url"])
    try:
        assert used.status == 200
        used.events(1)
    finally:
        used.close()

    assert len(handed) >= 14
    assert assert_nothing_in_clear(redis_client, handed) > 50


# ------------------------------------------------------------------ the seal
def _create_record(redis_client, key: str) -> dict[str, Any]:
    from impresario_engine.usecases.idempotency import create_key

    return codec.unpack(redis_client.get(create_key(key)))


def _sealed_bytes(value: dict[str, Any]) -> bytes:
    """A sealed value's bytes: base64 after its key id (hex, as sealed before)."""
    text = value["sealed"]
    if "." in text:
        import base64

        data = text.rsplit(".", 1)[1]
        return base64.urlsafe_b64decode(data + "=" * (-len(data) % 4))
    return bytes.fromhex(text)


def test_known_text_opens_no_other_credential_of_a_record(client, redis_client):
    """The finding: every sealed field of a record used the same keystream, and a private
    game's join link is known text but for its token, so the Redis data alone gave the
    keystream, and with it the host, spectator and join tokens. Now each value has its own
    nonce under an authenticated cipher: whatever offset the known text is tried at, what it
    gives against the other values is no credential, and none of it works."""
    created = client.post("/v1/games", json={"ruleset": "turandot", "players": 2,
                                              "private": True},
                          headers={"Idempotency-Key": "known-text"}).get_json()
    gid = created["game"]["id"]
    record = _create_record(redis_client, "known-text")["body"]
    link = _sealed_bytes(record["join_link"])
    known = f"/v1/games/{gid}/seats?join=".encode()  # all of the link but its token
    secrets = {name: created[name] for name in ("host_token", "spectator_token", "join_token")}
    guesses = set()
    for offset in range(0, len(link) - len(known) + 1):
        pad = bytes(a ^ b for a, b in zip(link[offset:offset + len(known)], known))
        for name in secrets:
            other = _sealed_bytes(record[name])
            guesses.add(bytes(a ^ b for a, b in zip(other[offset:], pad)))
    for secret in secrets.values():
        assert not any(secret.encode()[:16] in guess for guess in guesses), \
            "known text opened another credential"
    tried = 0
    for guess in guesses:
        token = guess[:32].decode("ascii", "replace")
        if re.fullmatch(r"[A-Za-z0-9_-]{32}", token):  # what a token could be
            tried += 1
            assert client.get(f"/v1/games/{gid}", headers=auth(token)).status_code == 401


def test_each_sealed_value_names_its_key_and_a_changed_one_does_not_open(app_factory,
                                                                         redis_client,
                                                                         tmp_path):
    """With a seal keys file: every value names the key it was sealed with and has a nonce
    of its own; a value changed in Redis is refused on replay (409
    idempotency_record_unreadable) and nothing is created again."""
    from impresario_engine.table.sealing import new_key_line

    keys = tmp_path / "seal-keys"
    keys.write_text("# the first seals, every one opens\n" + new_key_line() + "\n")
    kid = keys.read_text().splitlines()[1].split()[0]
    client = app_factory(seal_keys_file=str(keys)).test_client()
    body = {"ruleset": "turandot", "players": 2, "private": True}
    first = client.post("/v1/games", json=body, headers={"Idempotency-Key": "k1"})
    assert first.status_code == 201
    record = _create_record(redis_client, "k1")
    sealed = [v["sealed"] for v in record["body"].values()
              if isinstance(v, dict) and "sealed" in v]
    assert len(sealed) == 5 and all(s.startswith(f"s1.{kid}.") for s in sealed)
    assert len({_sealed_bytes({"sealed": s})[:12] for s in sealed}) == 5, "a nonce per value"
    again = client.post("/v1/games", json=body, headers={"Idempotency-Key": "k1"})
    assert again.status_code == 201 and again.get_json() == first.get_json()
    # one byte of the host token's sealed value changed
    from impresario_engine.usecases.idempotency import create_key

    raw = bytearray(_sealed_bytes(record["body"]["host_token"]))
    raw[-1] ^= 1
    import base64

    record["body"]["host_token"]["sealed"] = f"s1.{kid}." + base64.urlsafe_b64encode(
        bytes(raw)).rstrip(b"=").decode()
    redis_client.set(create_key("k1"), codec.pack(record))
    games = len(list(redis_client.scan_iter("game:*")))
    broken = client.post("/v1/games", json=body, headers={"Idempotency-Key": "k1"})
    assert broken.status_code == 409 and broken.get_json()["code"] == \
        "idempotency_record_unreadable"
    assert len(list(redis_client.scan_iter("game:*"))) == games, "nothing created again"


def test_seal_keys_rotate_and_a_copy_of_redis_without_them_opens_nothing(app_factory,
                                                                         redis_client,
                                                                         tmp_path):
    """A record sealed with key A opens with the file [B, A] (B seals from then on); with B
    alone, or with no file (a copy of Redis and the Idempotency-Key, without the Secret), it
    does not open."""
    from impresario_engine.table.sealing import new_key_line

    old, new = new_key_line(), new_key_line()
    path = tmp_path / "seal-keys"
    path.write_text(old + "\n")
    join = {"name": "Anna"}
    a = app_factory(seal_keys_file=str(path)).test_client()
    gid = a.post("/v1/games", json={"ruleset": "turandot", "players": 2}).get_json()["game"]["id"]
    first = a.post(f"/v1/games/{gid}/seats", json=join, headers={"Idempotency-Key": "j1"})
    assert first.status_code == 201
    path.write_text(f"{new}\n{old}\n")
    rotated = app_factory(seal_keys_file=str(path)).test_client()
    again = rotated.post(f"/v1/games/{gid}/seats", json=join, headers={"Idempotency-Key": "j1"})
    assert again.status_code == 201 and again.get_json()["token"] == first.get_json()["token"]
    second = rotated.post(f"/v1/games/{gid}/seats", json={"name": "Bruno"},
                          headers={"Idempotency-Key": "j2"})
    assert second.status_code == 201
    path.write_text(f"{new}\n")
    for app in (app_factory(seal_keys_file=str(path)), app_factory(seal_keys_file="")):
        resp = app.test_client().post(f"/v1/games/{gid}/seats", json=join,
                                      headers={"Idempotency-Key": "j1"})
        assert resp.status_code == 409, resp.get_data(as_text=True)
        assert resp.get_json()["code"] == "idempotency_record_unreadable"
    kept = app_factory(seal_keys_file=str(path)).test_client().post(
        f"/v1/games/{gid}/seats", json={"name": "Bruno"}, headers={"Idempotency-Key": "j2"})
    assert kept.status_code == 201 and kept.get_json()["token"] == second.get_json()["token"]


def test_no_player_credential_or_device_code_sits_in_clear(client, redis_client):
    """Players: their credentials (each device's), device codes (a used one and one waiting),
    the seat and host tokens a resume hands out, and the seats of a quick match are kept as
    hashes only, beside ratings, profiles and the queues."""
    handed: set[str] = set()
    anna = client.post("/v1/players", json={"name": "Anna"}).get_json()
    bruno = client.post("/v1/players", json={"name": "Bruno"}).get_json()
    handed.update({anna["token"], bruno["token"]})
    code = client.post("/v1/me/device-codes",
                       headers=auth(anna["token"])).get_json()["code"]
    phone = client.post("/v1/players/claim", json={"code": code}).get_json()
    waiting = client.post("/v1/me/device-codes", headers=auth(bruno["token"])).get_json()
    handed.update({code, phone["token"], waiting["code"]})
    # a rated game of Anna's against a bot, played to its end, resumed on the phone first
    made = client.post("/v1/games", json={"ruleset": "turandot", "players": 2, "seed": 4},
                       headers=auth(anna["token"])).get_json()
    handed_out(made, handed)
    gid = made["game"]["id"]
    handed_out(seat(client, gid, "Anna", None, made["host_token"]), handed)
    seat(client, gid, "Robo", "easy", made["host_token"])
    resumed = client.post(f"/v1/me/games/{gid}/resume", headers=auth(phone["token"])).get_json()
    handed_out(resumed, handed)
    play_humans(client, gid, [resumed["token"], None], random.Random(4))
    assert client.get(f"/v1/players/{anna['player']['id']}").get_json()["ratings"]
    # Bruno waits in quick match; a game of his as a plain player
    client.post("/v1/match", json={"ruleset": "muzicando", "players": 4},
                headers=auth(bruno["token"]))
    other = create(client, players=2, seed=9)
    handed_out(other, handed)
    handed_out(client.post(f"/v1/games/{other['game']['id']}/seats", json={"name": "Bruno"},
                           headers=auth(bruno["token"])).get_json(), handed)
    assert len(handed) >= 9
    assert assert_nothing_in_clear(redis_client, handed) > 20
