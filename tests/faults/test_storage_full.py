"""A Redis that refuses writes (full: a ``maxmemory`` below what it holds, with ``noeviction``, the policy
docs/operations.md prescribes): moves and new games answer 503, ``/readyz`` says so (503
``storage_refuses_writes``, without Redis's own words, which go to the logs) and so do the
metrics, and all is well again once Redis has room. A real redis-server, gunicorn as shipped;
about 5 s."""

from __future__ import annotations

import re

import redis

from fault_helpers import request

REDIS_OPTIONS = {"appendonly": False,
                 "extra_args": ["--maxmemory", "64mb", "--maxmemory-policy", "noeviction"]}
BODY = {"ruleset": "turandot", "players": 2}


def _metric(url: str, name: str) -> float | None:
    status, _, text = request(url, "GET", "/metrics")
    assert status == 200
    total = None
    for line in text.decode().splitlines():
        found = re.match(rf"^{name}(?:{{[^}}]*}})? ([0-9.e+-]+)$", line)
        if found:
            total = (total or 0) + float(found.group(1))
    return total


def test_a_full_redis_shows_in_readyz_and_the_metrics(redis_server, server):
    status, _, created = request(server.url, "POST", "/v1/games", BODY)
    assert status == 201
    assert request(server.url, "GET", "/readyz")[0] == 200
    assert _metric(server.url, "impresario_storage_writable") == 1
    client = redis.Redis.from_url(redis_server.url)
    try:
        # a maxmemory below what Redis holds already: full, and nothing may be evicted
        used = int(client.info("memory")["used_memory"])
        client.config_set("maxmemory", str(used // 2))
        status, _, body = request(server.url, "POST", "/v1/games", BODY)
        assert status == 503 and body["code"] == "storage_unavailable", (status, body)
        game = f"/v1/games/{created['game']['id']}/seats"
        status, _, body = request(server.url, "POST", game, {"name": "Anna"})
        assert status == 503 and body["code"] == "storage_unavailable", (status, body)
        status, headers, body = request(server.url, "GET", "/readyz")
        assert status == 503 and headers["content-type"] == "application/problem+json"
        assert body["code"] == "storage_refuses_writes"
        assert "OOM" not in body["detail"] and "maxmemory" not in body["detail"]
        assert _metric(server.url, "impresario_storage_writable") == 0
        assert _metric(server.url, "impresario_storage_refusals_total") >= 2
        assert "redis refuses writes: command not allowed when used memory" in server.log()
        # room again: ready again, and the game takes its seat
        client.config_set("maxmemory", "64mb")
        assert request(server.url, "GET", "/readyz")[0] == 200
        assert _metric(server.url, "impresario_storage_writable") == 1
        assert request(server.url, "POST", game, {"name": "Anna"})[0] == 201
    finally:
        client.config_set("maxmemory", "64mb")
        client.close()
