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
