"""What the service leaves in Redis: hash-tagged keys, no token in clear, TTLs."""

from __future__ import annotations

import random

import orjson
from redis.crc import key_slot

from impresario_engine.store import codec
from impresario_engine.usecases import idempotency

from service_helpers import auth, play_random, play_to_last_move, stored


def _readable(value: bytes) -> bytes:
    """A stored value as its plain bytes: compressed ones (documents, archives, records)
    decompressed, so that a scan sees inside them too."""
    try:
        return orjson.dumps(codec.unpack(value))
    except Exception:  # noqa: BLE001 - not one of the store's compressed forms: as it is
        return value


def _values(redis_client, key: bytes) -> list[bytes]:
    """Every byte string stored under ``key``, whatever its type (decompressed)."""
    return [_readable(v) for v in _raw_values(redis_client, key)]


def _raw_values(redis_client, key: bytes) -> list[bytes]:
    kind = redis_client.type(key)
    if kind == b"string":
        return [redis_client.get(key)]
    if kind == b"hash":
        return [x for kv in redis_client.hgetall(key).items() for x in kv]
    if kind == b"stream":
        out = []
        for eid, fields in redis_client.xrange(key):
            out.append(eid)
            out.extend(x for kv in fields.items() for x in kv)
        return out
    if kind == b"list":
        return redis_client.lrange(key, 0, -1)
    if kind == b"set":
        return list(redis_client.smembers(key))
    if kind == b"zset":
        return [m for m, _ in redis_client.zrange(key, 0, -1, withscores=True)]
    raise AssertionError(f"unexpected type {kind} of {key}")


def _play_with_keys(client, players: int, seed: int):
    """A game created and joined with Idempotency-Keys (their records are stored too), with a
    few keyed moves, played to the end."""
    created = client.post("/v1/games", json={"ruleset": "turandot", "players": players,
                                             "seed": seed},
                          headers={"Idempotency-Key": f"create-{seed}"})
    assert created.status_code == 201
    body = created.get_json()
    game_id, host = body["game"]["id"], body["host_token"]
    tokens = []
    for i in range(players):
        joined = client.post(f"/v1/games/{game_id}/seats", json={"name": f"P{i}"},
                             headers={"Idempotency-Key": f"join-{seed}-{i}"})
        assert joined.status_code == 201
        tokens.append(joined.get_json()["token"])
    for seat, token in enumerate(tokens):
        resp = client.post(f"/v1/games/{game_id}/moves",
                           json={"type": "bid", "slot": seat + 1, "money": 0, "bluff": False},
                           headers={**auth(token), "Idempotency-Key": f"bid-{seat}"})
        assert resp.status_code == 200
    return game_id, host, tokens


class _Game:
    def __init__(self, game_id, host, tokens):
        self.id, self.host_token, self.tokens = game_id, host, tokens
        self.url = f"/v1/games/{game_id}"


def test_keys_share_the_game_hash_tag(client, make_game, redis_client):
    game_id, host, tokens = _play_with_keys(client, 3, 1)
    play_random(client, _Game(game_id, host, tokens), random.Random(1))
    other = make_game(players=2, seed=2)
    keys = [k.decode() for k in redis_client.scan_iter("*")]
    for gid in (game_id, other.id):
        mine = [k for k in keys if f"{{{gid}}}" in k]
        assert f"game:{{{gid}}}" in mine
        assert (f"game:{{{gid}}}:idem" in mine) == (gid == game_id)  # keyed moves: records
        for key in mine:
            assert key.startswith(f"game:{{{gid}}}"), key
        assert len({key_slot(k.encode()) for k in mine}) == 1, mine
    for key in keys:  # nothing else than games, create-idempotency records, the indexes and
        # the loops' heartbeats
        assert (key.startswith(("game:{", "idem:create:{", "lobby:{lobby}:"))
                or key in ("impresario:deadlines", "impresario:loops")), key
    lobby = [k for k in keys if k.startswith("lobby:")]  # the lists of games share one slot
    assert lobby and len({key_slot(k.encode()) for k in lobby}) == 1, lobby
    # a game in play has its event stream; a finished one, its archive in the game hash
    assert redis_client.type(f"game:{{{other.id}}}:events") == b"stream"
    assert not redis_client.exists(f"game:{{{game_id}}}:events")
    assert redis_client.hexists(f"game:{{{game_id}}}", "events")


def test_tokens_are_not_stored_in_clear(client, make_game, redis_client):
    """Scan every value of every key for every raw token (host and seats), including the
    idempotency records of keyed creates, joins and moves."""
    game_id, host, tokens = _play_with_keys(client, 4, 3)
    over, over_host, over_tokens = _play_with_keys(client, 3, 8)
    play_random(client, _Game(over, over_host, over_tokens), random.Random(8))  # archived
    assert redis_client.hexists(f"game:{{{over}}}", "events")
    plain = make_game(players=2, seed=4)
    secrets = [host, *tokens, over_host, *over_tokens, plain.host_token, *plain.tokens]
    assert len(set(secrets)) == len(secrets)
    found = []
    for key in redis_client.scan_iter("*"):
        for value in [key, *_values(redis_client, key)]:
            for secret in secrets:
                if secret.encode() in value:
                    found.append((key, secret))
    assert not found, f"tokens stored in clear under {sorted({k for k, _ in found})}"
    # and the replays still hand the original tokens back
    again = client.post(f"/v1/games/{game_id}/seats", json={"name": "P1"},
                        headers={"Idempotency-Key": "join-3-1"})
    assert again.status_code == 201 and again.get_json()["token"] == tokens[1]
    recreated = client.post("/v1/games", json={"ruleset": "turandot", "players": 4, "seed": 3},
                            headers={"Idempotency-Key": "create-3"})
    assert recreated.get_json()["host_token"] == host


def test_tokens_are_long_and_random(make_game):
    game = make_game(players=5, seed=1)
    tokens = [game.host_token, *game.tokens]
    assert len(set(tokens)) == len(tokens)
    for token in tokens:
        assert len(token) >= 22  # >= 128 bits in URL-safe base64


def test_finished_game_expires(app_factory, redis_client):
    finished_ttl = 120
    app = app_factory(finished_ttl=finished_ttl)
    client = app.test_client()

    game_id, host, tokens = _play_with_keys(client, 2, 5)
    game = _Game(game_id, host, tokens)
    # while playing, the game lives for the idle TTL (30 days by default)
    assert redis_client.pttl(f"game:{{{game_id}}}") > finished_ttl * 1000
    play_random(client, game, random.Random(5))
    version, doc = stored(redis_client, game_id)
    assert doc["status"] == "finished"
    ttl = redis_client.pttl(f"game:{{{game_id}}}")
    assert 0 < ttl <= finished_ttl * 1000, ttl
    assert not redis_client.exists(f"game:{{{game_id}}}:events")  # archived into the hash
    # the keys of the moves are remembered for the replay window only, now that no move
    # can be applied twice
    window = app.config["IMPRESARIO"].finished_idempotency_seconds
    assert 0 < redis_client.pttl(f"game:{{{game_id}}}:idem") <= window * 1000


def test_idempotency_records_live_while_the_game_is_played(app_factory, redis_client):
    app = app_factory(idempotency_ttl=300)
    game_id, _host, _tokens = _play_with_keys(app.test_client(), 3, 6)
    records = redis_client.hgetall(f"game:{{{game_id}}}:idem")
    assert len(records) == 3 + 3  # three joins and three bids, each under its caller's key
    assert 0 < redis_client.pttl(f"game:{{{game_id}}}:idem") <= 300 * 1000


def test_finished_game_is_archived_small_and_whole(client, redis_client):
    """Once over, a game is one compressed hash of at most 4 KiB (after the replay window of
    its moves' keys): its events, view, score and replay are what they were before."""
    game_id, host, tokens = _play_with_keys(client, 4, 7)
    url = f"/v1/games/{game_id}"
    _view, seat = play_to_last_move(client, url, tokens, random.Random(7))
    before = {who: client.get(f"{url}/events?after=0", headers=auth(t) if t else {}).get_json()
              for who, t in [("spectator", None), *((i, tok) for i, tok in enumerate(tokens))]}
    final = client.post(f"{url}/moves", json={"type": "cast", "roles": None},
                        headers={**auth(tokens[seat]), "Idempotency-Key": "the-last"})
    assert final.status_code == 200 and final.get_json()["game"]["status"] == "finished"
    assert not redis_client.exists(f"game:{{{game_id}}}:events")
    hash_bytes = redis_client.memory_usage(f"game:{{{game_id}}}", samples=0)
    assert hash_bytes <= 4096, hash_bytes
    for who, t in [("spectator", None), *((i, tok) for i, tok in enumerate(tokens))]:
        feed = client.get(f"{url}/events?after=0", headers=auth(t) if t else {}).get_json()
        old = before[who]["events"]
        assert feed["events"][:len(old)] == old  # the archive gives back the same feed
        assert [e["seq"] for e in feed["events"]] == list(range(1, feed["last_seq"] + 1))
        tail = client.get(f"{url}/events?after={feed['last_seq'] - 2}",
                          headers=auth(t) if t else {}).get_json()["events"]
        assert tail == feed["events"][-2:]
    score = client.get(f"{url}/score").get_json()
    assert client.get(f"{url}/replay").get_json()["score"] == score
    assert client.get(url).get_json()["version"] == final.get_json()["version"]
    again = client.post(f"{url}/moves", json={"type": "cast", "roles": None},
                        headers={**auth(tokens[seat]), "Idempotency-Key": "the-last"})
    assert again.status_code == 200 and again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json() == final.get_json()


def test_a_failed_archive_leaves_the_finished_game_whole(app_factory, redis_client, engine_log,
                                                         monkeypatch):
    """Archiving runs after the finishing move is saved: if Redis refuses it (out of memory,
    say) or the game is not as expected, the move still succeeds and the game reads as ever."""
    import logging

    from redis.exceptions import ResponseError

    app = app_factory()
    client = app.test_client()
    store = app.extensions["impresario_store"]
    for seed, failure in ((9, ResponseError("OOM command not allowed when used memory > "
                                            "'maxmemory'")), (11, False)):
        game_id, _host, tokens = _play_with_keys(client, 2, seed)
        url = f"/v1/games/{game_id}"
        _view, seat = play_to_last_move(client, url, tokens, random.Random(seed))

        def archive(*_args, failure=failure, **_kwargs):
            if failure is False:
                return False
            raise failure

        # Redis's own error meets the store's call of its script (which turns it into the
        # store's); a game not as expected, the store's answer
        target = "_archive" if failure is not False else "archive"
        setattr(store, target, archive)
        try:
            final = client.post(f"{url}/moves", json={"type": "cast", "roles": None},
                                headers=auth(tokens[seat]))
        finally:
            delattr(store, target)
        assert final.status_code == 200 and final.get_json()["game"]["status"] == "finished"
        assert redis_client.type(f"game:{{{game_id}}}:events") == b"stream"  # not archived
        feed = client.get(f"{url}/events?after=0").get_json()
        assert [e["seq"] for e in feed["events"]] == list(range(1, feed["last_seq"] + 1))
        assert client.get(f"{url}/score").status_code == 200
        assert any(game_id in r.getMessage() and "archiv" in r.getMessage()
                   for r in engine_log.records), [r.getMessage() for r in engine_log.records]


def test_an_archived_game_refuses_any_further_write(client, redis_client):
    """Defence in depth: nothing writes a finished game, and the store refuses to, since a new
    stream next to the archive would hide the archived events."""
    from impresario_engine.store import GameStore

    game_id, host, tokens = _play_with_keys(client, 2, 10)
    play_random(client, _Game(game_id, host, tokens), random.Random(10))
    store = GameStore(redis_client)
    version, doc, _ = store.read(game_id)
    written, now = store.write(game_id, version, doc, [{"type": "x"}], doc["seq"] + 1, 60)
    assert (written, now) == (False, version)
    assert not redis_client.exists(f"game:{{{game_id}}}:events")


def test_a_full_or_read_only_redis_is_unavailable_not_an_error():
    """Out of memory (maxmemory with noeviction) and a replica after a failover answer 503
    storage_unavailable with Retry-After, like a Redis that is away, not 500."""
    import pytest
    from redis.exceptions import OutOfMemoryError, ReadOnlyError, ResponseError

    from impresario_engine.store import GameStore, StoreError, StoreUnavailable

    class Client:
        def register_script(self, _script):
            return None

    store = GameStore(Client())
    for exc in (OutOfMemoryError("command not allowed when used memory > 'maxmemory'."),
                ResponseError("Error running script (call to f_1): @user_script:12: -OOM "
                              "command not allowed when used memory > 'maxmemory'."),
                ReadOnlyError("You can't write against a read only replica."),
                ResponseError("READONLY You can't write against a read only replica.")):
        def fail(exc=exc):
            raise exc
        with pytest.raises(StoreUnavailable):
            store._call(fail)
    # any other error is a bug, and stays one (500): the store's own error, never "unavailable"
    with pytest.raises(StoreError) as raised:
        store._call(lambda: (_ for _ in ()).throw(ResponseError("ERR wrong number of args")))
    assert not isinstance(raised.value, StoreUnavailable)
    assert isinstance(raised.value.__cause__, ResponseError)


def _lane_store(redis_url):
    from impresario_engine.store import GameStore, connect

    return GameStore(connect(redis_url))


def _write(store, game_id: str, expected: int | None) -> tuple[bool, int | None]:
    return store.write(game_id, expected, {"id": game_id, "n": expected or 0}, [], 1, 60)


def _client_id(conn) -> int:
    conn.send_command("CLIENT", "ID")
    return conn.read_response()


def test_the_lane_survives_a_redis_that_forgot_its_scripts_and_a_closed_connection(
        redis_url, redis_client):
    """SCRIPT FLUSH (as after a restart) and the server closing the lane's connection are met
    by the client's own path, transparently: each call still answers, and the next one is on
    the lane again."""
    store = _lane_store(redis_url)
    assert _write(store, "lane1", None) == (True, 1)
    redis_client.script_flush()
    assert _write(store, "lane1", 1) == (True, 2)
    assert store.read("lane1")[:2] == (2, {"id": "lane1", "n": 1})
    if store.lane.pool is None:  # a cluster: no lane, every call through the client
        return
    # the server drops the lane's connection: the call goes through the client, which
    # reconnects, and the lane's next connection is another one
    assert len(store.lane.free) == 1
    killed = _client_id(store.lane.free[0])
    redis_client.client_kill_filter(_id=killed)
    assert _write(store, "lane1", 2) == (True, 3)
    assert store.read("lane1")[0] == 3
    assert [_client_id(c) != killed for c in store.lane.free] == [True]


def test_threads_share_the_lane_without_sharing_a_connection_or_leaking_one(redis_url):
    """Many threads at once, each calling many times, then threads that come and go: every
    call answers its own thread (a connection is never used by two calls at once), and what
    the lane keeps stays bounded (a thread that ends leaves no connection behind)."""
    import threading

    store = _lane_store(redis_url)
    assert _write(store, "lane2", None) == (True, 1)
    errors: list[BaseException] = []

    def work(n: int) -> None:
        try:
            for i in range(30):
                key = f"lane2-{n}-{i}"
                assert _write(store, key, None) == (True, 1)
                assert store.read(key)[1] == {"id": key, "n": 0}
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    for wave in range(3):
        threads = [threading.Thread(target=work, args=(wave * 100 + n,)) for n in range(24)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert not errors, errors[:3]
    if store.lane.pool is not None:
        assert len(store.lane.free) <= store.lane.KEEP
        # the pool made no more connections than ran at once (24 threads), whatever the waves
        assert store.lane.pool._created_connections <= 24 + 1


def test_the_lanes_packer_writes_what_redis_pys_writes():
    """hiredis's packer (the lane's) and redis-py's give Redis the same bytes for the arguments
    the scripts take: str (any UTF-8), bytes (any), int."""
    import redis

    from impresario_engine.store.connection import _pack

    conn = redis.Connection()
    for command in [("EVALSHA", "ab" * 20, 3, "game:{x}", b"\x00\xff\r\n", "é€", 0, -5, ""),
                    ("EVALSHA", "x", 0), ("EVALSHA", "y", 1, "k", 2**62, repr(1795717081.55))]:
        assert b"".join(_pack(command)) == b"".join(conn.pack_command(*command))
